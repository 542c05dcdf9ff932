"""The intersection of two regular languages, from their minimal DFAs
(``_tables.Tables``): a minimal DFA that accepts exactly the strings both
accept.

The product construction over the pairs of states the two DFAs reach on
the same input, from the pair of start states.  Its alphabet is the joint
partition: the interval starts of both partitions merged, each interval
of the class pair it falls in (``joint``, which ``_inclusion`` walks
too).  A pair with either side dead is the dead state; a pair accepts when
both sides do.  The result is minimized as ``_dfa`` minimizes a rule's DFA
(``_dfa.minimal``), so equal columns merge back into one class.  Time:
the reachable pairs times the joint classes.
"""

from __future__ import annotations

from ._dfa import MAX_BUILD_WORK, MAX_CLASSES, MAX_DFA_STATES, minimal
from ._tables import Tables

__all__ = ["intersection", "joint"]


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
    more work than ``_dfa.MAX_BUILD_WORK`` or more classes than
    ``_dfa.MAX_CLASSES``."""
    starts, classes, pairs = joint(first, second)
    if len(pairs) > 2 * MAX_CLASSES:
        return None
    cap = min(cap, MAX_BUILD_WORK // max(len(pairs), 1))
    wide_one, wide_two = first.nclasses, second.nclasses
    # State 0 is every pair with a dead side; state 1 the pair of starts
    # (dead too when a side is: its row then leads only to 0).
    index: dict[tuple[int, int], int] = {(first.start, second.start): 1}
    order = [(0, 0), (first.start, second.start)]
    moves: list[list[int]] = []
    for here, there in order:
        row = []
        for one, other in pairs:
            pair = (first.moves[here * wide_one + one], second.moves[there * wide_two + other])
            if pair[0] == 0 or pair[1] == 0:
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
    accepting = [
        at > 0 and first.accepting[here] and second.accepting[there]
        for at, (here, there) in enumerate(order)
    ]
    return minimal(
        moves, accepting, starts, classes, len(pairs), MAX_BUILD_WORK - len(moves) * len(pairs)
    )
