"""``RuleMatch``: where each captured rule matched in a text, the value
``Grammar.parse`` returns.

A match holds the text and, per captured rule, spans (start, end) into it;
values are sliced on access.  Which reading it records is the one the
tagged DFA (``automata.tagged``) runs, whatever runs it: the
leftmost-first reading of a backtracking regex (alternatives in order,
repetitions greedy), except that an unbounded repetition stops rather
than take an iteration that matches empty (a Pike VM's reading, where
Python's ``re`` takes one more, empty, iteration); options and bounded
repetitions, spelled out as states of their own, take their iterations as
a regex does.  A rule that reaches itself reads as ``abnf``'s derivation
tree.

A match is a record (``record``): its slot ``i`` is the last occurrence
of capture ``i`` (numbered as ``Program.names``), and a last slot holds
what every match of one reader shares (``_Reading``).  ``backend.choose``
makes them, by a plan (``backend.plan``): in C on the native back end.
Every occurrence is found when first asked, by the reader's ``history``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from ..._errors import UnknownRuleError
from ..backend.choose import Runs
from ..backend.plan import each_capture
from ..backend.pure import History, Span
from .record import record_types

__all__ = ["RuleMatch", "index_of", "reader"]

#: The most spellings of names a reader remembers (``_Reading.keys``).
_SPELLINGS = 256


class _Reading:
    """What every match of one reader shares: the rule, the captures, each
    capture's slots (by folded name), and how to find every occurrence
    (``None`` when a match is made with its history)."""

    __slots__ = ("captures", "history", "index", "keys", "rule")

    def __init__(
        self,
        rule: str,
        captures: tuple[str, ...],
        index: dict[str, tuple[int, ...]],
        history: Callable[[str], History | None] | None,
    ) -> None:
        self.rule = rule
        self.captures = captures
        self.index = index
        self.history = history
        #: Spellings of names asked for, to their folded key (a cache).
        self.keys: dict[str, str] = {}


if TYPE_CHECKING:
    from .record import Record
else:
    # The C record on the native back end (the tagger makes a match in C),
    # the Python one otherwise, as for a URI reference.
    Record, _ = record_types()


class RuleMatch(Record):
    """Where each captured rule matched in ``text``, which all of ``rule``
    matched.

    ``span(name)`` and ``group(name)`` give the last occurrence of a
    captured rule (``None`` when it took no part), ``spans(name)`` and
    ``groups(name)`` every occurrence in order.  ``name`` is case-insensitive
    (RFC 5234 section 2.1); the matched rule itself spans the whole text.
    A name that is no capture raises ``UnknownRuleError``.

    Immutable (its fields are read-only properties); equal when rule, text,
    captures and spans are; pickles with its spans.

    >>> import urigrammar
    >>> found = urigrammar.RFC3986.parse("URI", "http://example.com/a?q")
    >>> found.rule, found.group("host"), found.span("host")
    ('URI', 'example.com', (7, 18))
    """

    _KEEPS_SPANS: ClassVar[bool] = True

    def __setattr__(self, name: str, value: object) -> None:
        msg = "a RuleMatch is immutable"
        raise AttributeError(msg)

    @property
    def _reading(self) -> _Reading:
        reading: _Reading = self._consts[0]
        return reading

    @property
    def rule(self) -> str:
        """The rule that matched all of ``text``, as the grammar spells it."""
        return self._reading.rule

    @property
    def text(self) -> str:
        return self._text

    @property
    def captures(self) -> tuple[str, ...]:
        """The captured rules, as the grammar spells them."""
        return self._reading.captures

    def _key(self, name: str, reading: _Reading) -> str:
        try:
            return reading.keys[name]
        except (KeyError, TypeError):  # a new spelling, or no str at all
            pass
        if not isinstance(name, str):
            msg = f"rule name must be str, not {type(name).__name__}"
            raise TypeError(msg)
        # RFC 5234 section 2.1: names are ASCII, compared without case.
        folded = name.casefold() if name.isascii() else ""
        if folded in reading.index or (folded and folded == reading.rule.casefold()):
            if len(reading.keys) < _SPELLINGS and type(name) is str:
                reading.keys[name] = folded
            return folded
        msg = (
            f"{name!r} is not captured by this match of {reading.rule!r}; "
            f"its captures are {', '.join(reading.captures) or 'none'} "
            "(Grammar.parse's captures= names the rules to keep)"
        )
        raise UnknownRuleError(msg, rule=name)

    def span(self, name: str) -> Span | None:
        """The (start, end) of the last occurrence of rule ``name``, or
        ``None`` when it took no part in the match."""
        reading: _Reading = self._consts[0]
        numbers = reading.index.get(self._key(name, reading))
        if numbers is None:
            return (0, len(self._text))  # the matched rule itself
        # Of a name captured at several places, the occurrence that starts
        # last (one rule's occurrences never overlap).
        found = None
        for number in numbers:
            span = self._slot(number)
            if span[0] >= 0 and (found is None or found <= span):
                found = span
        return found

    def group(self, name: str) -> str | None:
        """The text of the last occurrence of rule ``name``, or ``None``."""
        found = self.span(name)
        return None if found is None else self._text[found[0] : found[1]]

    def spans(self, name: str) -> tuple[Span, ...]:
        """Every occurrence of rule ``name``, in order (empty when it took
        no part)."""
        reading: _Reading = self._consts[0]
        key = self._key(name, reading)
        found = self._history().get(key, ())
        if not found and key not in reading.index:
            return ((0, len(self._text)),)  # the matched rule itself
        return found

    def groups(self, name: str) -> tuple[str, ...]:
        """The text of every occurrence of rule ``name``, in order."""
        return tuple(self._text[a:b] for a, b in self.spans(name))

    def _history(self) -> History:
        cache = self.__dict__
        found: History | None = cache.get("_all")
        if found is None:
            history = self._reading.history
            assert history is not None, "a match made without a reader has its history"
            found = history(self._text)
            assert found is not None, "the reader matched this text once"
            cache["_all"] = found
        return found

    def __eq__(self, other: object) -> bool:
        # Two grammars may read one text two ways: the spans decide.
        if not isinstance(other, RuleMatch):
            return NotImplemented
        if (self.rule, self._text, self.captures) != (other.rule, other._text, other.captures):
            return False
        return self._history() == other._history() and all(
            self.span(key) == other.span(key) for key in self._reading.index
        )

    def __hash__(self) -> int:
        return hash((RuleMatch, self.rule, self._text, self.captures))

    def __repr__(self) -> str:
        # The text's length, not the text: a match of a user's rule may hold
        # anything, and a URI's password must not reach a log.
        return (
            f"<RuleMatch {self.rule!r} of {len(self._text)} characters, "
            f"captures={list(self.captures)!r}>"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        last = {}
        for key in self._reading.index:
            found = self.span(key)
            if found is not None:
                last[key] = found
        return _rebuild, (self.rule, self._text, self.captures, last, self._history())


def _rebuild(
    rule: str, text: str, captures: tuple[str, ...], last: dict[str, Span], history: History
) -> RuleMatch:
    """A match from its last spans and its history, by name (unpickling):
    a slot per captured name."""
    keys = tuple(
        dict.fromkeys(name.casefold() for name in captures if name.casefold() != rule.casefold())
    )
    reading = _Reading(rule, captures, {key: (slot,) for slot, key in enumerate(keys)}, None)
    spans: list[int] = []
    for key in keys:
        spans.extend(last.get(key, (-1, -1)))
    made = RuleMatch._make(text, (reading,), (*spans, -2, 0))
    made.__dict__["_all"] = history
    return made


def index_of(kept: tuple[str, ...], names: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Each kept capture's numbers among a program's ``names``, by folded
    name (none for a rule the matched rule never reaches)."""
    index: dict[str, list[int]] = {name.casefold(): [] for name in kept}
    for number, name in enumerate(names):
        if name.casefold() in index:
            index[name.casefold()].append(number)
    return {key: tuple(numbers) for key, numbers in index.items()}


def reader(runs: Runs, kept: tuple[str, ...]) -> Callable[[str], RuleMatch | None]:
    """A function from a text to its ``RuleMatch`` under the program of
    ``runs``, whose captures are ``kept`` (the matched rule may be among
    them), or ``None`` for a text the rule does not match."""
    program = runs.program
    others = tuple(name for name in kept if name != program.rule)
    names = program.names
    reading = _Reading(program.rule, kept, index_of(others, names), runs.history())
    # Slot i is capture i's last span, then the reading as a constant.
    plan = (*each_capture(len(names)), (reading, ()))
    return runs.reader(plan, RuleMatch)
