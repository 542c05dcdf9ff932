"""The complete, minimal DFA of a regular rule, as plain tables.

The viable-prefix automaton (``lazy``) is a Thompson NFA run as a lazy
DFA.  Here the same NFA is determinized completely, ahead of the text:

1. *Classes* (the alphabet).  The NFA's edges carry interval sets
   (``syntax.charset``).  Cutting the code points 0..0x10FFFF at every edge
   boundary gives elementary intervals, inside which every code point takes
   the same edges; intervals that take the same set of edges form one
   class.  Code points no edge takes (lone surrogates, say, for most
   grammars) form a class that leads only to the dead state.
2. *Subset construction* over one representative code point per class, with
   a cap on the number of states: a grammar whose DFA would blow up is left
   to the regex and the lazy automaton.
3. *Minimization* by Moore's partition refinement.  The dead state (no
   acceptance reachable) is state 0; every other state can still reach
   acceptance, so the text stays viable exactly while the state is not 0.
4. Classes whose columns are equal in the minimal table are merged.

The result, ``Tables``, names no rule: a runner needs only the interval
starts, a class per interval, the transitions and the accepting flags.
the native back end runs them in C; ``backend.pure.tables_run`` is the
same loop in Python, the reference the tests compare against.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Sequence
from itertools import pairwise

from ..syntax.charset import CharSet
from ..syntax.ir import Expr
from .lazy import LazyDfa
from .tables import Tables

__all__ = ["MAX_DFA_STATES", "Tables", "build_tables", "minimal"]

#: The most DFA states (before minimization) a rule may take to run
#: natively; beyond it, ``build_tables`` gives up (``None``).  RFC 3987's
#: ``IRI-reference`` takes a few hundred.
MAX_DFA_STATES = 4000

#: The most classes the runner's one-byte class indices can name.
MAX_CLASSES = 255

#: The most work (table cells visited: states x classes, summed over the
#: subset construction and each round of Moore's refinement) a DFA may cost
#: to build; past it ``build_tables`` gives up and the rule keeps its pure
#: matcher.  Moore's rounds can number as many as the states, so a chain of
#: a thousand distinct characters would otherwise cost tens of seconds on
#: first use.  Every shipped rule costs under 500,000 (RFC 3987's
#: ``IRI-reference`` included).
MAX_BUILD_WORK = 3_000_000

#: The most (intervals x NFA edges) the partition into classes may test.
MAX_PARTITION_WORK = 200_000

_LAST = 0x10FFFF


def partition(
    edges: Sequence[tuple[CharSet, int] | None],
) -> tuple[list[int], list[int], list[frozenset[int]]] | None:
    """Elementary interval starts, the class of each, and per class the NFA
    states whose edge takes it (classes numbered in order of first interval);
    ``None`` when that costs more than ``MAX_PARTITION_WORK`` or gives more
    than twice ``MAX_CLASSES`` classes (few ever merge afterwards)."""
    cuts = {0}
    for edge in edges:
        if edge is not None:
            for lo, hi in edge[0].spans:
                if hi >= 0:
                    cuts.add(max(lo, 0))
                    if hi < _LAST:
                        cuts.add(hi + 1)
    starts = sorted(cuts)
    by_edges: dict[frozenset[int], int] = {}
    classes: list[int] = []
    taking = [(i, edge[0]) for i, edge in enumerate(edges) if edge is not None]
    if len(starts) * len(taking) > MAX_PARTITION_WORK:
        return None
    # Each edge marks the intervals its spans cover, found by bisection:
    # no membership test per (interval, edge).
    members: list[list[int]] = [[] for _ in starts]
    for i, chars in taking:
        for lo, hi in chars.spans:
            if hi >= 0:
                for k in range(bisect_left(starts, max(lo, 0)), bisect_right(starts, hi)):
                    members[k].append(i)
    for found in members:
        taken = frozenset(found)
        classes.append(by_edges.setdefault(taken, len(by_edges)))
        if len(by_edges) > 2 * MAX_CLASSES:
            return None
    return starts, classes, list(by_edges)


def _determinize(
    automaton: LazyDfa, takers: list[frozenset[int]], cap: int
) -> tuple[list[list[int]], list[bool]] | None:
    """Subset construction; state 0 is the empty set (dead), 1 the start."""
    dead: frozenset[int] = frozenset()
    # The classes each NFA state's edge takes, as a bit set: a DFA state's
    # row comes from splitting the classes by its own NFA states, a few
    # integer operations each, not from intersecting it with every class.
    masks: dict[int, int] = {}
    for c, taking in enumerate(takers):
        for state in taking:
            masks[state] = masks.get(state, 0) | 1 << c
    # The closed target of each NFA state's edge, computed once.
    after: dict[int, frozenset[int]] = {}

    def target(sources: tuple[int, ...]) -> frozenset[int]:
        out: set[int] = set()
        for state in sources:
            found = after.get(state)
            if found is None:
                edge = automaton.edges[state]
                assert edge is not None
                found = after[state] = automaton._closure({edge[1]})
            out |= found
        return frozenset(out)

    width = len(takers)
    index: dict[frozenset[int], int] = {dead: 0, automaton.start: 1}
    order = [dead, automaton.start]
    moves: list[list[int]] = []
    at = 0
    while at < len(order):
        # The classes in groups taken by the same NFA states of this set.
        groups: list[tuple[int, tuple[int, ...]]] = [((1 << width) - 1, ())]
        for state in order[at]:
            mask = masks.get(state)
            if mask is None:
                continue
            split = []
            for group, sources in groups:
                inside = group & mask
                if inside:
                    split.append((inside, (*sources, state)))
                    if inside != group:
                        split.append((group & ~mask, sources))
                else:
                    split.append((group, sources))
            groups = split
        # New states numbered in the order of their first class, as a walk
        # over the classes would find them.
        groups.sort(key=lambda entry: entry[0] & -entry[0])
        row = [0] * width
        for group, sources in groups:
            if not sources:
                continue  # the dead state, already in the row
            nxt = target(sources)
            found = index.get(nxt)
            if found is None:
                if len(order) >= cap:
                    return None
                found = index[nxt] = len(order)
                order.append(nxt)
            left = group
            while left:
                low = left & -left
                row[low.bit_length() - 1] = found
                left ^= low
        moves.append(row)
        at += 1
    return moves, [automaton.accept in states for states in order]


def minimize(
    moves: list[list[int]],
    initial: Sequence[Hashable],
    budget: int,
    labels: Sequence[tuple[int, ...]] = (),
) -> tuple[list[int], int] | None:
    """Moore's refinement: the block of each state, and the block count;
    ``None`` when the rounds would visit more than ``budget`` cells.
    States start in one block per value of ``initial`` (acceptance, here)
    and part when their targets' blocks differ, or their ``labels`` (what
    else a run reads of a transition: ``tagged``'s records).  Blocks are
    numbered so that the dead state's block is 0 and the start state's
    (state 1) is 1, unless they coincide."""
    first: dict[Hashable, int] = {}
    block = [first.setdefault(value, len(first)) for value in initial]
    count = len(first)
    per_round = len(moves) * (len(moves[0]) + 1 if moves else 1)
    while True:
        budget -= per_round
        if budget < 0:
            return None
        signature: dict[tuple[int, ...], int] = {}
        refined = []
        of = block.__getitem__
        for state, row in enumerate(moves):
            key = (block[state], *map(of, row), *(labels[state] if labels else ()))
            refined.append(signature.setdefault(key, len(signature)))
        if len(signature) == count:
            break
        block, count = refined, len(signature)
    # Renumber: dead first, then in order of first appearance.
    names: dict[int, int] = {block[0]: 0}
    for b in block:
        names.setdefault(b, len(names))
    return [names[b] for b in block], count


def build_tables(body: Expr, cap: int = MAX_DFA_STATES) -> Tables | None:
    """The minimal DFA of an inlined rule body, or ``None`` when it needs
    more than ``cap`` states before minimization or more than
    ``MAX_CLASSES`` classes."""
    automaton = LazyDfa(body)
    cut = partition(automaton.edges)
    if cut is None:
        return None
    starts, classes, takers = cut
    # Each subset-construction state visits every class: stop early where
    # the cap times the classes is out of budget anyway.
    cap = min(cap, MAX_BUILD_WORK // max(len(takers), 1))
    built = _determinize(automaton, takers, cap)
    if built is None:
        return None
    moves, accepting = built
    return minimal(
        moves, accepting, starts, classes, len(takers), MAX_BUILD_WORK - len(moves) * len(takers)
    )


def minimal(
    moves: list[list[int]],
    accepting: list[bool],
    starts: Sequence[int],
    classes: Sequence[int],
    width: int,
    budget: int = MAX_BUILD_WORK,
) -> Tables | None:
    """The minimal ``Tables`` of a complete DFA over ``width`` classes
    (state 0 dead, state 1 the start; interval ``i`` of the code points
    starts at ``starts[i]`` and is of class ``classes[i]``): Moore's
    refinement, then equal columns merged into one class and neighbouring
    intervals of one class into one.  ``None`` when the refinement costs
    more than ``budget`` or more than ``MAX_CLASSES`` classes remain."""
    minimized = minimize(moves, accepting, budget)
    if minimized is None:
        return None
    block, count = minimized
    small = [[0] * width for _ in range(count)]
    final = [False] * count
    for state, row in enumerate(moves):
        small[block[state]] = [block[t] for t in row]
        final[block[state]] = accepting[state]
    # Merge the classes whose columns are equal.
    columns: dict[tuple[int, ...], int] = {}
    renamed = []
    for c in range(width):
        column = tuple(row[c] for row in small)
        renamed.append(columns.setdefault(column, len(columns)))
    if len(columns) > MAX_CLASSES:
        return None
    merged_width = len(columns)
    flat = [0] * (count * merged_width)
    for state, row in enumerate(small):
        for c, target in enumerate(row):
            flat[state * merged_width + renamed[c]] = target
    # Neighbouring intervals that fell into one class become one.
    kept_starts: list[int] = []
    kept_classes: list[int] = []
    for lo, c in zip(starts, classes, strict=True):
        merged = renamed[c]
        if not kept_classes or kept_classes[-1] != merged:
            kept_starts.append(lo)
            kept_classes.append(merged)
    assert all(a < b for a, b in pairwise(kept_starts))
    return Tables(
        starts=tuple(kept_starts),
        classes=tuple(kept_classes),
        nclasses=merged_width,
        moves=tuple(flat),
        accepting=tuple(final),
        start=block[1],
    )
