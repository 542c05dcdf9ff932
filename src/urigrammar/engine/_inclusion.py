"""Whether one regular language lies inside another, from their minimal
DFAs (``_dfa.Tables``): every string the inner DFA accepts, the outer
accepts too.

A walk over the pairs of states the two DFAs reach on the same input,
from the pair of start states, over the classes of code points both
partitions cut (``_product.joint``).  The inner language leaves
the outer exactly when some reachable pair has the inner DFA accepting and
the outer not, or the outer dead while the inner still lives (every live
state of a minimal DFA reaches acceptance).  Time: the reachable pairs
times the joint classes, once per question.
"""

from __future__ import annotations

from ._product import joint
from ._tables import Tables

__all__ = ["included"]


def included(inner: Tables, outer: Tables) -> bool:
    """Whether the language of ``inner`` is a subset of that of ``outer``."""
    *_, pairs = joint(inner, outer)
    wide_in, wide_out = inner.nclasses, outer.nclasses
    first = (inner.start, outer.start)
    seen = {first}
    todo = [first]
    while todo:
        here, there = todo.pop()
        if inner.accepting[here] and not outer.accepting[there]:
            return False
        for one, other in pairs:
            step = inner.moves[here * wide_in + one]
            if step == 0:
                continue
            beside = outer.moves[there * wide_out + other]
            if beside == 0:
                return False
            pair = (step, beside)
            if pair not in seen:
                seen.add(pair)
                todo.append(pair)
    return True
