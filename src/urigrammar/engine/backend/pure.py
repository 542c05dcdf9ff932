"""The pure back end: every way a program runs in Python.

``choose`` decides which of these serves a program; each is built from
the program's data alone:

* a verdict from the regex (``re``, trusted to be linear by the analysis)
  or from the lazy DFA (``automata.lazy``), and the end of the longest
  viable prefix from the minimal DFA's tables or the lazy DFA;
* where each capture matched (``SpanSource``: two numbers a capture, -1
  where it took no part), from the regex's groups, the tagged DFA run in
  Python, or the Pike VM (``automata.pike``); ``reader`` makes records of
  them by a plan (``plan``), in code written for the plan;
* every occurrence of each capture (``History``), from the tagged DFA's
  run kept whole (``table_events``) or the Pike VM's.

What runs in Python reads a ``str`` subclass by its stored characters
(``exact``), as ``re`` and the C back end do: its own ``__len__``,
``__getitem__`` or ``__iter__`` never decide a verdict or a span.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..automata.lazy import LazyDfa
from ..automata.pike import PikeVM
from ..automata.tables import Tables, TaggedTables
from ..base.value import exact
from ..syntax.ir import Expr
from ..syntax.narrow import Narrowing
from .plan import Plan, constants

__all__ = [
    "History",
    "Matcher",
    "Span",
    "SpanSource",
    "lazy_dfa",
    "lazy_fullmatch",
    "lazy_viable",
    "occurrences",
    "pike_history",
    "pike_spans",
    "pike_vm",
    "reader",
    "regex_fullmatch",
    "table_events",
    "tables_history",
    "tables_run",
    "tables_spans",
    "tables_viable",
    "tagged_tags",
]

#: A ``fullmatch``-like function: ``None`` exactly when the rule does not
#: match all of the text.
Matcher = Callable[[str], object | None]
Span = tuple[int, int]
#: The spans of every occurrence of each captured rule, by folded name.
History = dict[str, tuple[Span, ...]]
#: For a text the rule matches, each capture's last span as two numbers
#: (-1, -1 where it took no part); ``None`` for a text it does not match.
SpanSource = Callable[[str], Sequence[int] | None]


def lazy_dfa(body: Expr) -> LazyDfa:
    """The lazy DFA of an inlined rule body."""
    return LazyDfa(body)


def pike_vm(body: Expr) -> PikeVM:
    """The Pike VM of an inlined rule body."""
    return PikeVM(body)


def regex_fullmatch(program_source: str) -> Matcher:
    """The compiled regex's ``fullmatch``."""
    return re.compile(program_source).fullmatch


#: How long a narrowed matcher spends translating texts, in all, before it
#: compiles the body's own regex (an IRI rule's takes about 0.1 s), and the
#: longest text it translates: a character costs some 35 ns to translate
#: (up to 0.75 µs for a code point not met before), so a matcher spends at
#: most about 60 ms on translating before it compiles.
_TRANSLATING = 0.03
_LONGEST = 40_000


def narrowed_match(fullmatch: Matcher, narrowing: Narrowing, whole: str) -> Matcher:
    """The narrowed body's regex (``fullmatch``) on a text narrowed the same
    way (``syntax.narrow``), an ASCII text being its own narrowing; for a
    text over ``_LONGEST`` characters, or once translating has taken
    ``_TRANSLATING`` seconds, the body's own regex (``whole``, compiled
    then) on the text as it is.  A match's spans are the text's own; its
    characters may be the narrowing's.  Read from the ``str``'s own
    characters."""
    translate, table = str.translate, narrowing.table
    spent = [0.0]
    compiled: list[Matcher] = []

    def matches(text: str) -> object | None:
        if compiled:
            return compiled[0](text)
        if str.isascii(text):
            return fullmatch(text)
        if len(text) > _LONGEST or spent[0] > _TRANSLATING:
            compiled.append(re.compile(whole).fullmatch)
            return compiled[0](text)
        start = time.perf_counter()
        narrowed = translate(text, table)
        spent[0] += time.perf_counter() - start
        return fullmatch(narrowed)

    return matches


def narrowed_fullmatch(fullmatch: Matcher, narrowing: Narrowing, whole: str) -> Matcher:
    """The verdict of ``narrowed_match``: a match of the text itself, or
    ``True`` where the match was of its narrowing (whose characters are
    not the text's), or ``None``."""
    match = narrowed_match(fullmatch, narrowing, whole)

    def matches(text: str) -> object | None:
        if str.isascii(text):  # its own narrowing, in one call
            return fullmatch(text)
        return None if match(text) is None else True

    return matches


def narrowed_reader(
    plan: Plan, into: type[Any], fullmatch: Matcher, narrowing: Narrowing, whole: str
) -> Callable[[str], Any]:
    """``reader`` on the narrowed body's regex: an ASCII text read from its
    groups, any other from the spans of ``narrowed_match``'s match, which
    are the text's own (narrowing keeps one character as one)."""
    by_groups = reader(plan, into, fullmatch=fullmatch)
    narrowed = narrowed_match(fullmatch, narrowing, whole)

    def spans(text: str) -> Sequence[int] | None:
        found = narrowed(text)
        if found is None:
            return None
        return [end for pair in found.regs[1:] for end in pair]  # type: ignore[attr-defined]

    by_spans = reader(plan, into, spans=spans)

    def read(text: str) -> Any:
        return by_groups(text) if str.isascii(text) else by_spans(text)

    return read


def lazy_fullmatch(automaton: LazyDfa) -> Matcher:
    """The lazy DFA's verdict, as ``fullmatch`` answers."""

    def accepts(text: str) -> object | None:
        return True if automaton.accepts(exact(text)) else None

    return accepts


def tables_run(tables: Tables, text: str) -> tuple[int, bool]:
    """The end of the longest viable prefix of ``text``, and whether the
    rule matches all of it: the C runner's loop, in Python, and the
    reference the tests hold it to."""
    state = tables.start
    width = tables.nclasses
    moves = tables.moves
    low, starts, classes, after = tables.classify()
    for pos, char in enumerate(text):
        code = ord(char)
        state = moves[
            state * width + (low[code] if code < 128 else classes[after(starts, code) - 1])
        ]
        if state == 0:
            return pos, False
    return len(text), tables.accepting[state]


def tagged_tags(tables: TaggedTables, text: str) -> list[int] | None:
    """Each tag's position in the regex's reading of ``text`` (-1 for a
    tag never set), or ``None`` when the rule does not match: the C
    tagger's algorithm, in Python (a run on a loop keeps its last record
    only), and the reference the tests hold it to."""
    width = tables.nclasses
    moves, recs, keeps = tables.moves, tables.recs, tables.keeps
    low, starts, classes, after = tables.classify()
    state = tables.start
    events: list[tuple[int, int]] = []  # (position after, record)
    for pos, char in enumerate(text, 1):
        code = ord(char)
        at = state * width + (low[code] if code < 128 else classes[after(starts, code) - 1])
        target, record = moves[at], recs[at]
        if target == 0:
            return None
        if record:
            if target == state and keeps[record] and events and events[-1] == (pos - 1, record):
                events[-1] = (pos, record)  # a run on a loop: its last one
            else:
                events.append((pos, record))
        state = target
    thread = tables.finals[state]
    if thread < 0:
        return None
    values = [-1] * tables.ntags
    records, tagsets = tables.records, tables.tagsets
    for pos, record in reversed(events):
        source, tagset = records[record][thread]
        for tag in tagsets[tagset]:
            if values[tag] < 0:
                values[tag] = pos
        thread = source
    for tag in tagsets[tables.start_tags[thread]]:
        values[tag] = max(values[tag], 0)
    return values


def tables_viable(tables: Tables) -> Callable[[str], int]:
    """The end of the longest viable prefix, the DFA run in Python."""

    def viable(text: str) -> int:
        return tables_run(tables, exact(text))[0]

    return viable


def lazy_viable(automaton: LazyDfa) -> Callable[[str], int]:
    """The end of the longest viable prefix, the lazy DFA run."""

    def viable(text: str) -> int:
        return automaton.viable(exact(text))

    return viable


def tables_spans(tables: TaggedTables) -> SpanSource:
    """The tagged DFA run in Python: a capture's two tags are set together
    or not at all (the accepting path that opens a capture closes it)."""

    def spans(text: str) -> list[int] | None:
        return tagged_tags(tables, exact(text))

    return spans


def pike_spans(automaton: PikeVM) -> SpanSource:
    """The Pike VM's run: each capture's last occurrence."""
    count = len(automaton.names)

    def spans(text: str) -> list[int] | None:
        events = automaton.events(exact(text))
        if events is None:
            return None
        out = [-1] * (2 * count)
        for number, found in _by_number(events).items():
            out[2 * number], out[2 * number + 1] = max(found)
        return out

    return spans


# --- every occurrence ----------------------------------------------------------

#: (position, tags set there), from the end of the text backwards.
Events = Iterable[tuple[int, Iterable[int]]]


def _by_number(events: Events) -> dict[int, list[Span]]:
    """Every occurrence of each capture, by number, from a run's events:
    capture ``i`` opens with tag ``2i`` and closes with ``2i + 1``, and a
    position's tags come in the order the run set them.  Walking
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
    return found


def occurrences(events: Events, names: Sequence[str]) -> History:
    """Every occurrence of each capture (``names[i]`` is capture ``i``), by
    folded name, in order."""
    merged: dict[str, list[Span]] = {}
    for number, spans in _by_number(events).items():
        merged.setdefault(names[number].casefold(), []).extend(spans)
    return {key: tuple(sorted(spans)) for key, spans in merged.items()}


def table_events(tables: TaggedTables, text: str) -> Iterator[tuple[int, Iterable[int]]] | None:
    """The events of the tagged DFA's run over ``text``, every step kept
    (``tagged_tags`` keeps only what the last assignments need), or
    ``None`` when it does not accept."""
    width = tables.nclasses
    moves, recs = tables.moves, tables.recs
    low, starts, classes, after = tables.classify()
    state = tables.start
    kept: list[tuple[int, int]] = []
    for pos, char in enumerate(text, 1):
        code = ord(char)
        at = state * width + (low[code] if code < 128 else classes[after(starts, code) - 1])
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
    records, tagsets = tables.records, tables.tagsets
    for pos, record in reversed(kept):
        source, tagset = records[record][thread]
        yield pos, tagsets[tagset]
        thread = source
    yield 0, tagsets[tables.start_tags[thread]]


def tables_history(tables: TaggedTables) -> Callable[[str], History | None]:
    """Every occurrence, from the tagged DFA's run kept whole."""

    def history(text: str) -> History | None:
        events = table_events(tables, exact(text))
        return None if events is None else occurrences(events, tables.names)

    return history


def pike_history(automaton: PikeVM) -> Callable[[str], History | None]:
    """Every occurrence, from the Pike VM's run."""
    names = tuple(automaton.names)

    def history(text: str) -> History | None:
        events = automaton.events(exact(text))
        return None if events is None else occurrences(events, names)

    return history


# --- records by a plan ---------------------------------------------------------


def reader(
    plan: Plan,
    into: type[Any],
    *,
    fullmatch: Matcher | None = None,
    spans: SpanSource | None = None,
) -> Callable[[str], Any]:
    """A function from a text to a record of ``into`` whose slots are the
    plan's, or ``None`` for a text the rule does not match: read from the
    regex's groups (``fullmatch``, whose group ``i + 1`` is capture ``i``)
    or from a ``SpanSource``, written out as straight-line code for the
    plan, so that the match and the plan cost one Python call.

    A record class that offers ``_raw_makers`` and keeps no spans
    (``_KEEPS_SPANS`` false: the Python records of the URI model) is made
    from its values by those two C calls; any other from its spans
    (``_make``)."""
    consts, default_at, candidate_at = constants(plan)
    by_values = getattr(into, "_raw_makers", None) is not None and not getattr(
        into, "_KEEPS_SPANS", True
    )
    regex = fullmatch is not None

    def took_part(capture: int) -> str:
        if regex:
            return f"v[{capture}] is not None"
        return f"v[{2 * capture}] >= 0 <= v[{2 * capture + 1}]"

    def text_of(capture: int) -> str:
        if regex:
            return f"v[{capture}]"
        return f"text[v[{2 * capture}]:v[{2 * capture + 1}]]"

    def span_of(capture: int) -> str:
        if regex:
            return f"span({capture + 1})"
        return f"(v[{2 * capture}], v[{2 * capture + 1}])"

    def slot(at: int) -> str:
        default, candidates = plan[at]
        if by_values:
            expr = "None" if default is None else f"c[{default_at[at]}]"
        else:
            expr = "(-1, -1)" if default is None else f"({-2 - default_at[at]}, 0)"
        for back, (capture, constant) in enumerate(reversed(candidates)):
            k = candidate_at[at][len(candidates) - 1 - back]
            if by_values:
                value = text_of(capture) if constant is None else f"c[{k}]"
            else:
                value = span_of(capture) if constant is None else f"({-2 - k}, 0)"
            if back == 0 and constant is None and default is None and (regex or not by_values):
                # A capture that took no part reads None, or the span
                # (-1, -1): the slot's default, with no test.
                expr = value
            else:
                expr = f"({value} if {took_part(capture)} else {expr})"
        return expr

    if regex:
        head = (
            "    m = fullmatch(text)\n"
            "    if m is None:\n        return None\n"
            "    v = m.groups()\n    span = m.span\n"
        )
    else:
        # The spans are of the str's own characters: the record is made
        # over those.
        head = (
            "    if type(text) is not str:\n        text = exact(text)\n"
            "    v = spans(text)\n    if v is None:\n        return None\n"
        )
    if by_values:
        values = ", ".join(slot(at) for at in range(len(plan)))
        make = (
            "    t = text if type(text) is str else exact(text)\n"
            "    r = new(into)\n"
            f"    put(r, (t, (), None, {values}{',' if len(plan) == 1 else ''}))\n"
            "    return r\n"
        )
    else:
        spans_out = ", ".join(f"*{slot(at)}" for at in range(len(plan)))
        make = f"    return make(text, c, ({spans_out}{',' if len(plan) == 1 else ''}))\n"
    code = f"def read(text):\n{head}{make}"
    namespace: dict[str, Any] = {
        "fullmatch": fullmatch,
        "spans": spans,
        "c": consts,
        "into": into,
        "exact": exact,
        "make": into._make,
    }
    if by_values:
        namespace["new"], namespace["put"] = into._raw_makers
    # The code is built above from the plan's numbers only; constants are
    # reached through the tuple ``c``, never written into the source.
    exec(code, namespace)
    made: Callable[[str], Any] = namespace["read"]
    return made
