"""The fallback of ``match`` for an ambiguous template: a bounded search
through the other readings of a URI, when the one ``_match`` picks first
does not expand back to it.

An ambiguous template's first reading is one of several (``_match``): the
split that gives each expression the longest text from the left, and in
each expression the first variables taking the first items.  It may be
wrong where another is right: ``{.a}{/a,b}`` on ``/v`` reads ``a`` as
``v``, which ``{.a}`` then says is undefined, where ``b`` is ``v``; and
``{x,y}-{y}`` on ``1-`` reads ``y`` as empty, which writes ``1,-``.

So the search goes through the template from the left, trying for each
expression every text the rest of the template can follow (longest first)
and every way that text splits into its variables (``_readings``): each
defined variable takes a run of the items, in order.  A reading is kept
when the expression alone writes its text with it and it agrees with the
readings before it (``agree``); a full one when the whole template writes
the URI with it, so an answer always expands back.  Matching variables
against text, where a variable may repeat, is NP-complete in general
(Angluin's pattern languages), so the search stops after
``MAX_SEARCH_STEPS`` steps and answers ``None``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence

from ._errors import ExpansionError
from ._expand import expand_parts
from ._read import COMMA, Matched, Reading, _exploded, _pieces, _value, agree
from ._sets import NO_OPERATOR, Operator, allowed
from ._syntax import Expression, Part, VarSpec

__all__ = ["MAX_SEARCH_STEPS", "search"]

#: How many steps the search of one URI may take: the characters it scans
#: for an expression's ends, each text tried (its length), each reading
#: checked (its length, its varspecs and ``_READING_COST`` for the
#: expansion), each step of splitting the items, and the readings that
#: ``agree`` goes through.  About a microsecond each: a quarter of a second
#: at most, whatever the URI; the generated templates of
#: test_template_properties find a reading of more than 99% of their
#: expansions within it.
MAX_SEARCH_STEPS = 250_000
_READING_COST = 200


class _Exhausted(Exception):
    """The search has spent its steps."""


class _Budget:
    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise _Exhausted


#: ``ends(k, at, spend)``: where expression ``k`` may end when it starts at
#: ``at`` (``at`` itself: it writes nothing), longest first; it reports the
#: characters it looked at to ``spend``.
Ends = Callable[[int, int, Callable[[int], None]], Iterable[int]]

_Found = dict[str, list[tuple[Reading, Operator]]]


def _runs(
    count: int,
    specs: Sequence[VarSpec],
    takes: Callable[[VarSpec, int], range],
    budget: _Budget,
) -> Iterator[list[tuple[VarSpec, int, int]]]:
    """Every way ``count`` items go to ``specs`` in order: each spec is
    undefined or takes a run ``[start, stop)`` of a length that
    ``takes(spec, items left)`` allows, and every item is taken.  Each step
    costs one of ``budget``."""

    # A stack, not recursion: an expression may have more varspecs than
    # Python's recursion limit.  sizes[i]: how many items spec i takes.
    def options(index: int, at: int) -> Iterator[int]:
        return itertools.chain(takes(specs[index], count - at), (0,))  # 0: undefined, last

    if not specs:
        if count == 0:
            yield []
        return
    stack = [(0, 0, options(0, 0))]  # (spec index, items taken before it, its sizes)
    sizes: list[int] = []
    while stack:
        budget.spend(1)
        index, before, sizes_left = stack[-1]
        size = next(sizes_left, None)
        del sizes[index:]
        if size is None:
            stack.pop()
            continue
        sizes.append(size)
        at = before + size
        if index + 1 < len(specs):
            stack.append((index + 1, at, options(index + 1, at)))
        elif at == count:
            runs, start = [], 0
            for spec, taken in zip(specs, sizes, strict=True):
                if taken:
                    runs.append((spec, start, start + taken))
                    start += taken
            yield runs


def _unnamed(expression: Expression, body: str, budget: _Budget) -> Iterator[list[Reading]]:
    operator = expression.operator
    sep = COMMA if operator.reserved else operator.sep
    items = body.split(sep)
    # One item each, unless the value's own text may hold the separator:
    # an exploded value, a comma-joined list, "." in a value under ".".
    many = sep == COMMA or sep in allowed(operator)

    def takes(spec: VarSpec, left: int) -> range:
        if spec.explode:
            return range(left, 0, -1)  # most first, as the reader does
        return range(1, (left if many else min(left, 1)) + 1)

    for runs in _runs(len(items), expression.varspecs, takes, budget):
        budget.spend(len(body) + len(expression.varspecs) + _READING_COST)
        out = []
        for spec, start, stop in runs:
            mine = items[start:stop]
            value: Matched | None
            if spec.explode and not operator.reserved:
                value = _exploded(_pieces(mine), spec, operator)
            else:
                value = _value(sep.join(mine), spec, operator)
            if value is None:
                break
            out.append(Reading(spec, value))
        else:
            yield out


def _named(expression: Expression, body: str, budget: _Budget) -> Iterator[list[Reading]]:
    operator = expression.operator
    pieces = _pieces(body.split(operator.sep))

    def takes(spec: VarSpec, left: int) -> range:
        return range(left, 0, -1) if spec.explode else range(1, min(left, 1) + 1)

    for runs in _runs(len(pieces), expression.varspecs, takes, budget):
        budget.spend(len(body) + len(expression.varspecs) + _READING_COST)
        out = []
        for spec, start, stop in runs:
            mine = pieces[start:stop]
            value: Matched | None
            if spec.explode:
                value = _exploded(mine, spec, operator)
            else:
                name, eq, raw = mine[0]
                if name != spec.name:
                    break
                # The value's text; the check below refuses what no
                # expansion writes (";x=", "?x").
                value = _value(raw, spec, operator) if eq else ""
            if value is None:
                break
            out.append(Reading(spec, value))
        else:
            yield out


def _readings(expression: Expression, text: str, budget: _Budget) -> Iterator[list[Reading]]:
    """Every reading of ``text`` as ``expression``'s expansion that the
    expression alone writes back (the undefined variables left out)."""
    operator, specs = expression.operator, expression.varspecs
    if not text:
        yield []  # every variable undefined
        if not operator.first:
            yield from ([Reading(spec, "")] for spec in specs)  # {x,y} on "": x or y empty
        return
    if not text.startswith(operator.first):
        return
    body = text[len(operator.first) :]
    reader = _named if operator.named else _unnamed
    found = reader(expression, body, budget)
    for reading in found:
        values = agree(_collect([(reading, operator)]))
        if values is not None and _writes((expression,), values) == text:
            yield reading


def _collect(picked: Iterable[tuple[list[Reading], Operator]]) -> _Found:
    found: _Found = {}
    for readings, operator in picked:
        for reading in readings:
            found.setdefault(reading.spec.name, []).append((reading, operator))
    return found


def _writes(parts: tuple[Part, ...], values: dict[str, Matched]) -> str | None:
    try:
        return expand_parts(parts, values, "")
    except ExpansionError:
        return None


def search(template: tuple[Part, ...], uri: str, ends: Ends) -> dict[str, Matched] | None:
    """A reading of ``uri`` that ``template`` writes back, or ``None`` when
    none is found within ``MAX_SEARCH_STEPS``."""
    budget = _Budget(MAX_SEARCH_STEPS)
    try:
        return _depth_first(template, uri, ends, budget)
    except _Exhausted:
        return None


def _depth_first(
    template: tuple[Part, ...], uri: str, ends: Ends, budget: _Budget
) -> dict[str, Matched] | None:
    # With a stack rather than recursion: a template may have more parts
    # than Python's recursion limit.  frames[k] gives part k's choices: its
    # end, and its readings, where an undefined variable is recorded as
    # such (it must then be undefined everywhere).

    def choices(k: int, at: int) -> Iterator[tuple[int, list[Reading]]]:
        part = template[k]
        if isinstance(part, str):
            if uri.startswith(part, at):
                yield at + len(part), []
            return
        for end in ends(k, at, budget.spend):
            budget.spend(end - at + 1)
            for reading in _readings(part, uri[at:end], budget):
                named = {r.spec.name for r in reading}
                undefined = [Reading(s, None) for s in part.varspecs if s.name not in named]
                yield end, reading + undefined

    if not template:
        return {} if not uri else None
    frames = [choices(0, 0)]
    picked: list[tuple[list[Reading], Operator]] = []
    while frames:
        k = len(frames) - 1
        step = next(frames[k], None)
        del picked[k:]
        if step is None:
            frames.pop()
            continue
        end, readings = step
        part = template[k]
        picked.append((readings, part.operator if isinstance(part, Expression) else NO_OPERATOR))
        budget.spend(sum(len(r) for r, _op in picked))  # what agree goes through
        values = agree(_collect(picked))
        if values is None:
            continue
        if k + 1 < len(template):
            frames.append(choices(k + 1, end))
        elif end == len(uri) and _writes(template, values) == uri:
            return values
    return None
