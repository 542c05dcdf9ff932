"""The Pike VM of an inlined rule body: the Thompson automaton (``nfa``)
run with its threads kept in priority order, so that the reading it
accepts first is the one a backtracking regex returns first (alternatives
in order, repetitions greedy), except that an unbounded repetition stops
rather than take an iteration that matches empty.

``closure`` is the step both this VM and the tagged DFA (``tagged``, which
determinizes it) are built on; ``events`` runs the VM over a text, for a
rule whose tagged DFA is over its caps.  Time: the text's length times the
automaton's size; memory: one history cell per tagged step kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..syntax.ir import Expr
from .nfa import Thompson

__all__ = ["Events", "PikeVM"]

#: (position, tags set there), from the end of the text backwards: a
#: run's reading.
Events = list[tuple[int, Iterable[int]]]

# A thread's history: (position, tags, the history before), or None.
_Cell = tuple[int, tuple[int, ...], Any] | None


class PikeVM(Thompson):
    """The Thompson automaton with the Pike VM's closure."""

    def __init__(self, body: Expr) -> None:
        super().__init__(body)
        self._closures: dict[int, list[tuple[int, tuple[int, ...]]]] = {}

    def closure(self, seeds: list[tuple[int, int]]) -> list[tuple[int, int, tuple[int, ...]]]:
        """The threads reached from ``seeds`` ((source thread, state), in
        priority order) through epsilon edges, depth first in priority
        order: (state, source thread, tags set on the way), each state once.

        A seed's own closure, with a state already reached by an earlier
        seed dropped, is what the shared depth-first search gives: a state
        it cannot reach any more lies past a state an earlier seed took,
        and every state past that one was taken too, so ``_own`` is
        computed once per state and filtered."""
        out: list[tuple[int, int, tuple[int, ...]]] = []
        taken: set[int] = set()
        for source, seed in seeds:
            for state, tags in self._own(seed):
                if state not in taken:
                    taken.add(state)
                    out.append((state, source, tags))
        return out

    def _own(self, seed: int) -> list[tuple[int, tuple[int, ...]]]:
        found = self._closures.get(seed)
        if found is None:
            seen: set[int] = set()
            found = []
            stack: list[tuple[int, tuple[int, ...]]] = [(seed, ())]
            while stack:
                state, tags = stack.pop()
                if state in seen:
                    continue
                seen.add(state)
                if self.tag[state] >= 0:
                    tags = (*tags, self.tag[state])
                if self.edges[state] is not None or state == self.accept:
                    found.append((state, tags))
                stack.extend([(after, tags) for after in reversed(self.eps[state])])
            self._closures[seed] = found
        return found

    def events(self, text: str) -> Events | None:
        """The events of the run over ``text`` (the tagged DFA's reading,
        without its tables), or ``None`` when the rule does not match."""
        threads: list[tuple[int, _Cell]] = [
            (state, (0, tags, None) if tags else None)
            for state, _, tags in self.closure([(0, self.start)])
        ]
        edges = self.edges
        for pos, char in enumerate(text, 1):
            code = ord(char)
            seeds = []
            for number, (state, _) in enumerate(threads):
                edge = edges[state]
                if edge is not None and code in edge[0]:
                    seeds.append((number, edge[1]))
            if not seeds:
                return None
            threads = [
                (state, (pos, tags, threads[source][1]) if tags else threads[source][1])
                for state, source, tags in self.closure(seeds)
            ]
        accepting = [cell for state, cell in threads if state == self.accept]
        if not accepting:
            return None
        cell = accepting[0]
        events: Events = []
        while cell is not None:
            pos, tags, cell = cell
            events.append((pos, tags))
        return events
