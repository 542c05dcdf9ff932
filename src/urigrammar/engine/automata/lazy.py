"""Where a text stops being a prefix of anything a rule matches, and a
matcher in linear time for any regular rule.

``check`` reports the offset of the first character at which no
continuation can lead to a match: the end of the longest *viable prefix*.
Neither engine says that directly (``abnf`` reports where its longest
partial parse stopped, a regex says nothing), so it is computed here from
the same IR (``syntax.ir``) as the other automata: the Thompson automaton of the
inlined rule (``nfa``), run as a lazily built DFA.  Every automaton state can still
reach acceptance (each sub-expression of the grammar matches something), so
the text stays viable exactly while the state set is not empty.

The same automaton validates the rules whose regex could backtrack more
than a constant number of times (``syntax.analysis.linear``): it does one step per
character (or per run, below), whatever the grammar.  Long runs are
skipped in C: a DFA state that loops on a character class (inside a query,
say) jumps over the run with one regex match.  Classes are interval sets,
so the loop class of a state is found by testing one character per
interval between the edges' boundaries, whatever the size of the alphabet.
"""

from __future__ import annotations

import bisect
import itertools
import re
from _thread import allocate_lock

from ..syntax.charset import CharSet
from ..syntax.ir import Expr
from .nfa import Thompson

__all__ = ["LazyDfa"]

# The caches are bounded by what they hold, and cleared when a bound is
# reached (which changes no answer: what they forget is computed again):
#
# * _MAX_CACHED: automaton states in the distinct state sets the
#   transitions hold, each set kept once (interned) however many
#   transitions lead to it; about 70 bytes a state, so about 18 MB;
# * _MAX_ENTRIES: transitions, about 150 bytes each (the key and its
#   slot), so about 10 MB.  A bound on the states alone would not do: small
#   sets in many entries cost more per state than large ones.  A transition
#   is keyed by the character's class (the stretch between two edge
#   boundaries), not its code point, so a text of many distinct characters
#   adds no entries; states times classes may still be many in a large rule;
# * _MAX_LOOPS: the regexes that skip the runs of self-looping state sets.
_MAX_CACHED = 250_000
_MAX_ENTRIES = 65_536
_MAX_LOOPS = 1_024


class LazyDfa:
    """The viable-prefix automaton of one inlined rule, its DFA states
    built as a text reaches them."""

    def __init__(self, body: Expr) -> None:
        nfa = Thompson(body)
        self.edges: list[tuple[CharSet, int] | None] = nfa.edges
        self.eps: list[list[int]] = nfa.eps
        self.accept = nfa.accept
        self.start = self._closure({nfa.start})
        # Every character any edge consumes: one outside it ends every
        # viable prefix, and is answered without a cache entry (else each
        # distinct code point of junk would add one).
        alphabet = CharSet()
        for edge in self.edges:
            if edge is not None:
                alphabet |= edge[0]
        self.alphabet = alphabet
        # Every edge's intervals start and end at these, so the characters
        # between two consecutive ones take the same edges from any state:
        # one class, one cache entry.
        bounds: set[int] = set()
        for edge in self.edges:
            if edge is not None:
                for lo, hi in edge[0].spans:
                    bounds.update((lo, hi + 1))
        self._bounds = sorted(bounds)
        #: (state set, class) -> state set; every set in it is one of _sets.
        self._step: dict[tuple[frozenset[int], int], frozenset[int]] = {}
        self._sets: dict[frozenset[int], frozenset[int]] = {}
        #: The automaton states _sets holds, one more per set.
        self._cached = 0
        self._loops: dict[frozenset[int], re.Pattern[str] | None] = {}
        self._lock = allocate_lock()

    def _closure(self, states: set[int]) -> frozenset[int]:
        todo = list(states)
        seen = set(states)
        while todo:
            for nxt in self.eps[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        # Keep only the states that decide the future: those that consume a
        # character, and acceptance.  Sets that differ in pass-through
        # states alone then become one DFA state, so a run such as
        # "b/c/b/c" inside a path is one self-loop that `loop` can skip.
        return frozenset(s for s in seen if self.edges[s] is not None or s == self.accept)

    def step(self, states: frozenset[int], code: int) -> frozenset[int]:
        """The states after reading ``code`` in ``states``."""
        kind = bisect.bisect_right(self._bounds, code)
        found = self._step.get((states, kind))
        if found is None:
            found = self._targets(states, code)
            with self._lock:
                if len(self._step) >= _MAX_ENTRIES or self._cached >= _MAX_CACHED:
                    self._step.clear()
                    self._sets.clear()
                    self._loops.clear()
                    self._cached = 0
                found = self._interned(found)
                self._step[self._interned(states), kind] = found
        return found

    def _interned(self, states: frozenset[int]) -> frozenset[int]:
        """The one copy of ``states`` the cache holds (called under the lock)."""
        found = self._sets.get(states)
        if found is None:
            found = self._sets[states] = states
            self._cached += len(states) + 1
        return found

    def loop(self, states: frozenset[int]) -> re.Pattern[str] | None:
        """A regex for the run of characters that keep the DFA in ``states``."""
        try:
            return self._loops[states]
        except KeyError:  # not built yet, or the cache was just cleared
            pass
        # Between two consecutive edge boundaries every character takes
        # the same edges, so one probe per stretch decides it.
        bounds: set[int] = set()
        for state in states:
            edge = self.edges[state]
            if edge is not None:
                for lo, hi in edge[0].spans:
                    bounds.update((lo, hi + 1))
        ordered = sorted(bounds)
        spans = [
            (lo, hi - 1)
            for lo, hi in itertools.pairwise(ordered)
            if lo >= 0 and self._targets(states, lo) == states
        ]
        chars = CharSet(spans)
        pattern = re.compile(chars.regex() + "+") if chars else None
        with self._lock:
            if len(self._loops) >= _MAX_LOOPS:
                self._loops.clear()
            self._loops[states] = pattern
        return pattern

    def _targets(self, states: frozenset[int], code: int) -> frozenset[int]:
        targets = set()
        for state in states:
            edge = self.edges[state]
            if edge is not None and code in edge[0]:
                targets.add(edge[1])
        return self._closure(targets)

    def viable(self, text: str) -> int:
        return self._run(text)[0]

    def accepts(self, text: str) -> bool:
        """Whether the rule matches all of ``text``: the DFA run to the end
        of the text, in time linear in its length whatever the grammar."""
        pos, states = self._run(text)
        return pos == len(text) and self.accept in states

    def _run(self, text: str) -> tuple[int, frozenset[int]]:
        states = self.start
        pos = 0
        while pos < len(text):
            code = ord(text[pos])
            if code not in self.alphabet:
                return pos, states
            nxt = self.step(states, code)
            if not nxt:
                return pos, states
            if nxt == states:
                run = self.loop(states)
                if run is not None:
                    match = run.match(text, pos)
                    if match is not None:
                        pos = match.end()
                        continue
            states = nxt
            pos += 1
        return pos, states
