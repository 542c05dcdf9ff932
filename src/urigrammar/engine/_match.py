"""``RuleMatch``: where each captured rule matched in a text, the value
``Grammar.parse`` returns.

A match holds the text and, per captured rule, spans (start, end) into it;
values are sliced on access.  Which reading it records is the one the
tagged DFA (``_tagged``) runs, whatever runs it: the leftmost-first reading
of a backtracking regex (alternatives in order, repetitions greedy), except
that an unbounded repetition stops rather than take an iteration that
matches empty (a Pike VM's reading, where Python's ``re`` takes one more,
empty, iteration); options and bounded repetitions, spelled out as states
of their own, take their iterations as a regex does.

Three ways read the spans, each in time linear in the text:

* the last occurrence of each capture: the tagged DFA's tags (``tags``,
  in C on the native back end), or the regex's groups where no capture
  lies in a repetition (the two readings agree there);
* every occurrence: the tagged DFA's history (``table_events``), or, for a
  rule over the tagged DFA's caps, a Pike VM over the same automaton
  (``pike_events``), so both give the same reading;
* a rule that reaches itself: ``abnf``'s derivation tree (``tree_spans``).

The events of a run are (position, tags) pairs from the end of the text
backwards along the accepting thread; ``occurrences`` pairs each capture's
opening and closing tags into spans.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any

from .._errors import UnknownRuleError
from ._record import record_types

if TYPE_CHECKING:
    from ._backend import Backend
    from ._nfa import Thompson
    from ._program import Program
    from ._tables import TaggedTables

__all__ = [
    "RuleMatch",
    "index_of",
    "occurrences",
    "pike_events",
    "reader",
    "table_events",
    "tree_spans",
]

Span = tuple[int, int]
#: The most spellings of names a reader remembers (``_Reading.keys``).
_SPELLINGS = 256
#: The spans of every occurrence of each captured rule, by folded name.
History = dict[str, tuple[Span, ...]]
#: (position, tags set there), from the end of the text backwards.
Events = Iterable[tuple[int, Iterable[int]]]


class _Reading:
    """What every match of one reader shares: the rule, the captures, each
    capture's slots (by folded name), and the tagged DFA to find every
    occurrence with (``None`` when a match is made with its history)."""

    __slots__ = ("captures", "index", "keys", "rule", "tables")

    def __init__(
        self,
        rule: str,
        captures: tuple[str, ...],
        index: dict[str, tuple[int, ...]],
        tables: TaggedTables | None,
    ) -> None:
        self.rule = rule
        self.captures = captures
        self.index = index
        self.tables = tables
        #: Spellings of names asked for, to their folded key (a cache).
        self.keys: dict[str, str] = {}


if TYPE_CHECKING:
    from ._record import Record
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
    captures and spans are; pickles with its spans.  A record
    (``engine.Record``): the text and the last span of each capture, as the
    tagged DFA's tags give them (made in C on the native back end), and a
    constant shared by every match of one reader (``_Reading``).  Every
    occurrence is found when first asked, by running the tables again."""

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
            tables = self._reading.tables
            assert tables is not None, "a match made without tables has its history"
            events = table_events(tables, self._text)
            assert events is not None, "the tables accepted this text once"
            found = cache["_all"] = occurrences(events, tables.names)
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
    """A match from its last spans and its history, by name (unpickling)."""
    others = tuple(name for name in captures if name.casefold() != rule.casefold())
    return _made(rule, text, captures, others, last, history)


def _made(
    rule: str,
    text: str,
    kept: tuple[str, ...],
    others: tuple[str, ...],
    last: dict[str, Span],
    history: History,
) -> RuleMatch:
    """A match whose spans are known by name (a tree, a Pike VM, a pickle):
    a slot per captured name."""
    keys = tuple(dict.fromkeys(name.casefold() for name in others))
    reading = _Reading(rule, kept, {key: (slot,) for slot, key in enumerate(keys)}, None)
    spans: list[int] = []
    for key in keys:
        spans.extend(last.get(key, (-1, -1)))
    made = RuleMatch._make(text, (reading,), (*spans, -2, 0))
    made.__dict__["_all"] = history
    return made


def index_of(kept: tuple[str, ...], names: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Each kept capture's numbers among a run's ``names``, by folded name
    (none for a rule the matched rule never reaches)."""
    index: dict[str, list[int]] = {name.casefold(): [] for name in kept}
    for number, name in enumerate(names):
        if name.casefold() in index:
            index[name.casefold()].append(number)
    return {key: tuple(numbers) for key, numbers in index.items()}


def occurrences(events: Events, names: tuple[str, ...]) -> History:
    """Every occurrence of each capture, from a run's ``events``: capture
    ``i`` (``names[i]``) opens with tag ``2i`` and closes with ``2i + 1``,
    and a position's tags come in the order the run set them.  Walking
    backwards, a closing tag starts an occurrence and the next opening tag
    of that capture ends it (one capture never holds itself)."""
    pending: dict[int, int] = {}
    found: dict[int, list[Span]] = {}
    for pos, tags in events:
        for tag in reversed(tuple(tags)):
            if tag & 1:
                pending[tag >> 1] = pos
            else:
                end = pending.pop(tag >> 1, None)
                if end is not None:
                    found.setdefault(tag >> 1, []).append((pos, end))
    merged: dict[str, list[Span]] = {}
    for index, spans in found.items():
        merged.setdefault(names[index].casefold(), []).extend(spans)
    return {key: tuple(sorted(spans)) for key, spans in merged.items()}


def table_events(tables: TaggedTables, text: str) -> Iterator[tuple[int, Iterable[int]]] | None:
    """The events of the tagged DFA's run over ``text``, every step kept
    (``TaggedTables.tags`` keeps only what the last assignments need), or
    ``None`` when it does not accept."""
    width = tables.nclasses
    moves, recs, class_of = tables.moves, tables.recs, tables.class_of
    state = tables.start
    kept: list[tuple[int, int]] = []
    for pos, char in enumerate(text, 1):
        at = state * width + class_of(ord(char))
        state = moves[at]
        if state == 0:
            return None
        if recs[at]:
            kept.append((pos, recs[at]))
    thread = tables.finals[state]
    if thread < 0:
        return None
    return _walk(tables, kept, thread)


def _walk(
    tables: TaggedTables, kept: list[tuple[int, int]], thread: int
) -> Iterator[tuple[int, Iterable[int]]]:
    for pos, record in reversed(kept):
        source, tagset = tables.records[record][thread]
        yield pos, tables.tagsets[tagset]
        thread = source
    yield 0, tables.tagsets[tables.start_tags[thread]]


# A thread's history: (position, tags, the history before), or None.
_Cell = tuple[int, tuple[int, ...], Any] | None


def pike_events(automaton: Thompson, text: str) -> list[tuple[int, Iterable[int]]] | None:
    """The events of a Pike VM's run over ``text`` (the tagged DFA's
    reading, without its tables: for a rule over their caps), or ``None``
    when the rule does not match.  Time: the text's length times the
    automaton's size; memory: one history cell per tagged step kept."""
    from ._tagged import _Automaton

    assert isinstance(automaton, _Automaton)
    threads: list[tuple[int, _Cell]] = [
        (state, (0, tags, None) if tags else None)
        for state, _, tags in automaton.closure([(0, automaton.start)])
    ]
    edges = automaton.edges
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
            for state, source, tags in automaton.closure(seeds)
        ]
    accepting = [cell for state, cell in threads if state == automaton.accept]
    if not accepting:
        return None
    cell = accepting[0]
    events: list[tuple[int, Iterable[int]]] = []
    while cell is not None:
        pos, tags, cell = cell
        events.append((pos, tags))
    return events


def tree_spans(tree: Any, keys: frozenset[str]) -> History:
    """Every occurrence of the rules ``keys`` (folded) in ``abnf``'s
    derivation tree, by folded name (a walk with its own stack: a tree may
    be deeper than Python's)."""
    found: dict[str, list[Span]] = {}
    todo: list[tuple[Any, int]] = [(tree, 0)]
    while todo:
        node, start = todo.pop()
        name = getattr(node, "name", "")
        end = start + len(node.value)
        if isinstance(name, str) and name.casefold() in keys:
            found.setdefault(name.casefold(), []).append((start, end))
        children = getattr(node, "children", ())
        at = start
        pairs = []
        for child in children:
            pairs.append((child, at))
            at += len(child.value)
        todo.extend(reversed(pairs))
    return {key: tuple(sorted(spans)) for key, spans in found.items()}


# --- the reader of one program ------------------------------------------------


def reader(
    program: Program,
    kept: tuple[str, ...],
    *,
    backend: Backend | None = None,
    tree: Callable[[str], Any] | None = None,
) -> Callable[[str], RuleMatch | None]:
    """A function from a text to its ``RuleMatch`` under ``program``, whose
    captures are ``kept`` (the matched rule may be among them), or ``None``
    for a text the rule does not match.  A regular rule runs
    on ``backend``; a rule that reaches itself is read from ``tree(text)``
    (``abnf``'s tree, or ``None``)."""
    rule = program.rule
    others = tuple(name for name in kept if name != rule)
    if not program.regular:
        assert tree is not None
        return _by_tree(rule, kept, others, tree)
    assert backend is not None
    if not program.captures:
        matches = backend.matcher(program)

        def whole(text: str) -> RuleMatch | None:
            if matches(text) is None:
                return None
            return _made(rule, text, kept, others, {}, {})

        return whole
    tables = program.tagged
    if tables is None:
        return _by_pike(program, kept, others)
    names = tables.names
    # One reading per program and captures, kept with the program, so that
    # the tagger made for it (keyed by its plan) is made once.
    reading: _Reading | None = program.made.get(("reading", kept))
    if reading is None:
        reading = program.made.setdefault(
            ("reading", kept), _Reading(rule, kept, index_of(others, names), tables)
        )
    consts = (reading,)
    # Slot i is capture i's last span (its tags 2i and 2i + 1), then the
    # reading as a constant.
    plan = (*_slots(len(names)), (reading, ()))
    made = backend.tagger(program, plan, RuleMatch)
    if made is not None:
        return made  # the tagger's parse: a RuleMatch made in C, or None
    spans_of = _regex_spans(program) if _regex_agrees(program) else _table_spans(tables)
    make = RuleMatch._make

    def by_tables(text: str) -> RuleMatch | None:
        spans = spans_of(text)
        return None if spans is None else make(text, consts, spans)

    return by_tables


def _slots(count: int) -> tuple[tuple[None, tuple[tuple[int, None], ...]], ...]:
    """A plan's slots for captures 0 to ``count - 1``, each its own."""
    return tuple((None, ((number, None),)) for number in range(count))


def _table_spans(tables: TaggedTables) -> Callable[[str], tuple[int, ...] | None]:
    """A match's spans from the tagged DFA run in Python, then the reading's
    constant, (-2, 0).  A capture's two tags are set together or not at all
    (the accepting path that opens a capture closes it), so its tags are its
    span, (-1, -1) when it took no part."""
    tags = tables.tags

    def table_spans(text: str) -> tuple[int, ...] | None:
        values = tags(text)
        return None if values is None else (*values, -2, 0)

    return table_spans


def _by_tree(
    rule: str,
    kept: tuple[str, ...],
    others: tuple[str, ...],
    tree: Callable[[str], Any],
) -> Callable[[str], RuleMatch | None]:
    # The rule itself too: a rule that reaches itself may hold occurrences
    # of itself (a comment in a comment).
    keys = frozenset(name.casefold() for name in (*kept, rule))

    def by_tree(text: str) -> RuleMatch | None:
        found = tree(text)
        if found is None:
            return None
        history = tree_spans(found, keys)
        # The last to close, as a regex's group is set when it closes.
        last = {k: max(v, key=lambda s: (s[1], -s[0])) for k, v in history.items()}
        return _made(rule, text, kept, others, last, history)

    return by_tree


def _by_pike(
    program: Program,
    kept: tuple[str, ...],
    others: tuple[str, ...],
) -> Callable[[str], RuleMatch | None]:
    # Over the tagged DFA's caps: a Pike VM over the same automaton.
    from ._tagged import _Automaton

    automaton = program.made.get("pike")
    if automaton is None:
        assert program.body is not None
        automaton = program.made.setdefault("pike", _Automaton(program.body))
    names = tuple(automaton.names)

    def by_pike(text: str) -> RuleMatch | None:
        events = pike_events(automaton, text)
        if events is None:
            return None
        history = occurrences(events, names)
        last = {k: v[-1] for k, v in history.items()}
        return _made(program.rule, text, kept, others, last, history)

    return by_pike


def _regex_spans(program: Program) -> Callable[[str], tuple[int, ...] | None]:
    """A match's spans from the regex's groups, which number the captures
    as the tagged DFA does ((-1, -1) for a group that took no part), then
    the reading's constant, (-2, 0)."""
    fullmatch = program.pattern().fullmatch

    def regex_spans(text: str) -> tuple[int, ...] | None:
        found = fullmatch(text)
        if found is None:
            return None
        return (*chain.from_iterable(found.regs[1:]), -2, 0)

    return regex_spans


def _regex_agrees(program: Program) -> bool:
    """Whether the program's regex, on the pure back end, gives the tagged
    DFA's reading and stays linear: no capture lies in a repetition (where
    ``re`` takes an extra empty iteration, and CPython 3.11 to 3.13.0
    misreport a possessive repetition's groups), and the regex is trusted
    (``Program.serves``)."""
    found = program.made.get("regex agrees")
    if found is None:
        from ._nfa import Thompson

        assert program.body is not None
        trusted = program.deterministic or (program.vetted and program.linear)
        found = trusted and not Thompson(program.body).repeated_capture
        found = program.made.setdefault("regex agrees", found)
    return bool(found)
