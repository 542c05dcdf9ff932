"""Two regular languages at once, from their minimal DFAs (``tables.Tables``):
whether one lies inside the other (``included``), and the minimal DFA of
the strings both accept (``intersection``) or of those the first accepts
and the second does not (``difference``).

The product construction over the pairs of states the two DFAs reach on
the same input, from the pair of start states.  Its alphabet is the joint
partition: the interval starts of both partitions merged, each interval
of the class pair it falls in (``joint``).  ``included`` walks the pairs
and stops at the first string it finds outside: the inner language leaves
the outer exactly when some reachable pair has the inner DFA accepting and
the outer not, or the outer dead while the inner still lives (every live
state of a minimal DFA reaches acceptance).  For the intersection a pair
with either side dead is the dead state, and a pair accepts when both
sides do; for the difference only a dead first side is, since a dead
second side means that no continuation is in the second language, and a
pair accepts when the first side does and the second does not.  The
result is minimized as a rule's DFA is (``dfa.minimal``), so equal
columns merge back into one class.
Time: the reachable pairs times the joint classes.
"""

from __future__ import annotations

from .dfa import MAX_BUILD_WORK, MAX_CLASSES, MAX_DFA_STATES, minimal
from .tables import Tables

__all__ = ["difference", "included", "intersection", "joint"]


def joint(first: Tables, second: Tables) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """The joint partition of the code points: the interval starts of both
    merged, the joint class of each interval, and per joint class its
    (first's class, second's class), each pair once."""
    starts = sorted(set(first.starts) | set(second.starts))
    pairs: dict[tuple[int, int], int] = {}
    classes = [
        pairs.setdefault((first.class_of(at), second.class_of(at)), len(pairs)) for at in starts
    ]
    return starts, classes, list(pairs)


def intersection(first: Tables, second: Tables, cap: int = MAX_DFA_STATES) -> Tables | None:
    """The minimal DFA of the strings both ``first`` and ``second`` accept,
    or ``None`` when it takes more than ``cap`` pairs before minimization,
    more work than ``dfa.MAX_BUILD_WORK`` or more classes than
    ``dfa.MAX_CLASSES``."""
    return _product(first, second, cap, minus=False)


def difference(first: Tables, second: Tables, cap: int = MAX_DFA_STATES) -> Tables | None:
    """The minimal DFA of the strings ``first`` accepts and ``second`` does
    not, or ``None`` over the same caps as ``intersection``."""
    return _product(first, second, cap, minus=True)


def _product(first: Tables, second: Tables, cap: int, *, minus: bool) -> Tables | None:
    """The product walk of ``intersection`` (``minus`` off) and
    ``difference`` (on): they differ in which pairs are dead and which
    accept."""
    starts, classes, pairs = joint(first, second)
    if len(pairs) > 2 * MAX_CLASSES:
        return None
    cap = min(cap, MAX_BUILD_WORK // max(len(pairs), 1))
    wide_one, wide_two = first.nclasses, second.nclasses
    # State 0 is every dead pair; state 1 the pair of starts (dead too when
    # it is one: its row then leads only to 0).
    index: dict[tuple[int, int], int] = {(first.start, second.start): 1}
    order = [(0, 0), (first.start, second.start)]
    moves: list[list[int]] = []
    for here, there in order:
        row = []
        for one, other in pairs:
            pair = (first.moves[here * wide_one + one], second.moves[there * wide_two + other])
            if pair[0] == 0 or (pair[1] == 0 and not minus):
                row.append(0)
                continue
            found = index.get(pair)
            if found is None:
                if len(order) >= cap:
                    return None
                found = index[pair] = len(order)
                order.append(pair)
            row.append(found)
        moves.append(row)
    # The second DFA's dead state 0 never accepts: a pair on it accepts in
    # the difference exactly when its first side does.
    accepting = [
        at > 0 and bool(first.accepting[here]) and bool(second.accepting[there]) != minus
        for at, (here, there) in enumerate(order)
    ]
    return minimal(
        moves, accepting, starts, classes, len(pairs), MAX_BUILD_WORK - len(moves) * len(pairs)
    )


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
