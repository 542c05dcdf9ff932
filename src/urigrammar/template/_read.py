"""Reading an expression's text back into its variables (level 2 of
``_match``), and making the readings of one variable agree.

Named operators (``;``, ``?``, ``&``) are read by their names, lists by
their commas (a string's comma is encoded, RFC 6570 section 3.2.1),
associative arrays by their ``=``; values are pct-decoded, except under
``+`` and ``#``, which pass triplets through: there only the triplets of
non-ASCII characters are read (``%2F`` and ``/`` expand alike, so ``%2F``
stays).  Where the text cannot tell variables apart (``ambiguous_reading``)
the reading is one of several.  A variable may appear in several
expressions; its readings agree when the value chosen writes, at each of
its varspecs, what that varspec's text holds (``_agree``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from .._errors import URIError
from ..shipped import percent_decode
from ._errors import ExpansionError
from ._expand import expand_parts
from ._sets import Operator, allowed, hexdig
from ._syntax import Expression, VarSpec

__all__ = ["COMMA", "EQUALS", "Matched", "Reading", "agree", "ambiguous_reading", "read"]

#: A matched variable: a string, a list, or an associative array.
Matched = str | list[str] | dict[str, str]

# What expansion writes besides values (Appendix A): a list's members are
# joined by "," and an exploded pair is "name=value".
COMMA = ","
EQUALS = "="


def ambiguous_reading(expression: Expression) -> bool:
    """Whether an expression's text can come from different values."""
    operator, specs = expression.operator, expression.varspecs
    exploded = any(s.explode for s in specs)
    if exploded and operator.sep in allowed(operator):
        # "." (and "," under + and #) may be in a value too: {.x*} writes
        # ["a.b"] and ["a", "b"] alike.
        return True
    if len(specs) < 2:
        return False
    return not operator.named or exploded


def _decoded(text: str) -> str | None:
    try:
        return percent_decode(text)
    except URIError:  # octets that are not UTF-8: no expansion wrote them
        return None


@cache
def _triplet_run() -> re.Pattern[str]:
    digits = re.escape("".join(sorted(hexdig())))
    return re.compile(f"(?:%[{digits}][{digits}])+")


def _non_ascii_decoded(text: str) -> str:
    """``text`` with each run of triplets that is UTF-8 for non-ASCII
    characters decoded (RFC 3987 section 3.2's rule for reading a URI as an
    IRI); ASCII and stray octets keep their triplets as written."""
    if "%" not in text:
        return text

    def decode(run: re.Match[str]) -> str:
        written = run.group()
        octets = bytes.fromhex(written.replace("%", ""))
        out: list[str] = []
        index = 0
        while index < len(octets):
            lead = octets[index]
            size = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4
            try:
                if lead < 0xC2 or lead > 0xF4:
                    raise UnicodeDecodeError("utf-8", octets, index, index + 1, "not a lead")
                out.append(octets[index : index + size].decode("utf-8"))
                index += size
            except UnicodeDecodeError:
                out.append(written[3 * index : 3 * index + 3])
                index += 1
        return "".join(out)

    return _triplet_run().sub(decode, text)


def _units(text: str) -> int:
    digits = hexdig()
    count = index = 0
    while index < len(text):
        is_triplet = (
            text[index] == "%"
            and text[index + 1 : index + 2] in digits
            and text[index + 2 : index + 3] in digits
        )
        index += 3 if is_triplet else 1
        count += 1
    return count


def _value(text: str, spec: VarSpec, operator: Operator) -> Matched | None:
    """An unexploded value: a list where it holds a comma (a string's comma
    is encoded, section 3.2.1), else a string."""
    if operator.reserved:
        # (U+R) passes triplets through: an ASCII triplet stays as written
        # (%2F and / both expand as written), a non-ASCII character's
        # triplets are that character (3.2.1: a prefix counts it as one).
        written = _non_ascii_decoded(text)
        if spec.prefix is not None and _units(written) > spec.prefix:
            return None
        return written
    if COMMA in text:
        if spec.prefix is not None:
            return None  # no prefix on a list (section 2.4.1)
        members = [_decoded(m) for m in text.split(COMMA)]
        if any(m is None for m in members):
            return None
        return [m for m in members if m is not None]
    value = _decoded(text)
    if value is None or (spec.prefix is not None and len(value) > spec.prefix):
        return None
    return value


def _member(has_equals: bool, raw: str, operator: Operator) -> str | None:
    """One exploded member's value (Appendix A): ``name`` alone stands for
    an empty one only under ``;`` (named, ``ifemp`` empty); ``?`` and ``&``
    write ``name=``, and so do the unnamed operators for every pair."""
    bare_empty = operator.named and not operator.ifemp
    if not has_equals:
        return "" if bare_empty else None
    if (not raw and bare_empty) or COMMA in raw or EQUALS in raw:
        return None
    return _decoded(raw)


def _exploded(
    pieces: list[tuple[str, bool, str]], spec: VarSpec, operator: Operator
) -> Matched | None:
    """An exploded value from its pieces ``(name, has "=", value)``: a list
    when every piece is the variable's own name (named operators) or no
    piece has an ``=`` (unnamed ones), an associative array otherwise."""
    if operator.named:
        is_list = all(name == spec.name for name, _eq, _raw in pieces)
    else:
        is_list = not any(eq for _name, eq, _raw in pieces)
        if not is_list and operator.sep in allowed(operator):
            # "." is both the separator and a value character: an item
            # without "=" continues the value before it (an ambiguous
            # reading; see _level2_ambiguous).
            # Every pair has its "=" (Appendix A), so items before the
            # first pair start its name.
            # Each value's parts are collected and joined once: adding to a
            # string in the loop is quadratic on a long run of items.
            joined: list[tuple[str, bool, list[str]]] = []
            lead: list[str] = []
            for name, eq, raw in pieces:
                if eq:
                    joined.append((operator.sep.join([*lead, name]), eq, [raw]))
                    lead = []
                elif joined:
                    joined[-1][2].append(name)
                else:
                    lead.append(name)
            pieces = [(name, eq, operator.sep.join(raw)) for name, eq, raw in joined]
    if is_list:
        members: list[str] = []
        for name, eq, raw in pieces:
            member = _member(eq, raw, operator) if operator.named else _decoded(name)
            if member is None or (not operator.named and COMMA in name):
                return None
            members.append(member)
        return members
    pairs: dict[str, str] = {}
    for name, eq, raw in pieces:
        key, member = _decoded(name), _member(eq, raw, operator)
        if key is None or member is None or key in pairs or COMMA in name:
            return None
        pairs[key] = member
    return pairs


def _pieces(items: list[str]) -> list[tuple[str, bool, str]]:
    """Each item as ``(name, has "=", value)``, split at its first ``=``."""
    out = []
    for piece in items:
        name, eq, raw = piece.partition(EQUALS)
        out.append((name, bool(eq), raw))
    return out


class Reading(NamedTuple):
    """What one varspec's text says of its variable."""

    spec: VarSpec
    #: The value; ``None``: the variable is undefined.
    value: Matched | None
    #: An empty text where an empty value and no value both write nothing
    #: ({x} on ""): ``value`` is "", or the variable is undefined.
    soft: bool = False


def read(expression: Expression, text: str | None) -> list[Reading] | None:
    """The variables of one expression, from its text (``None``: the
    expression wrote nothing); ``None`` when no expansion writes ``text``."""
    operator, specs = expression.operator, expression.varspecs
    value: Matched | None
    if text is None or (operator.first and not text):
        return [Reading(spec, None) for spec in specs]
    body = text[len(operator.first) :]
    if operator.named:
        return _read_named(specs, body, operator)
    if not operator.first and not body:
        return [Reading(spec, "", soft=True) for spec in specs]
    if len(specs) == 1 and not specs[0].explode:
        value = _value(body, specs[0], operator)
        return None if value is None else [Reading(specs[0], value)]
    sep = COMMA if operator.reserved else operator.sep
    items = body.split(sep)
    out: list[Reading] = []
    at = 0
    for index, spec in enumerate(specs):
        if at >= len(items):
            break  # the variables left are undefined
        # One item each; an exploded variable takes all it can while
        # leaving one to each variable after it, and the last takes the rest.
        later = len(specs) - index - 1
        size = max(1, len(items) - at - later) if spec.explode or not later else 1
        mine = items[at : at + size]
        at += size
        if spec.explode and not operator.reserved:
            value = _exploded(_pieces(mine), spec, operator)
        elif len(mine) > 1 and sep != COMMA and sep not in allowed(operator):
            value = None  # a value's "/" is encoded: not one value
        else:
            value = _value(sep.join(mine), spec, operator)
        if value is None:
            return None
        out.append(Reading(spec, value))
    return out


def _read_named(specs: tuple[VarSpec, ...], body: str, operator: Operator) -> list[Reading] | None:
    pieces = _pieces(body.split(operator.sep))
    out: list[Reading] = []
    value: Matched | None
    at = 0
    for index, spec in enumerate(specs):
        if spec.explode:
            later = {s.name for s in specs[index + 1 :]}
            taken = []
            while at < len(pieces) and pieces[at][0] not in later:
                taken.append(pieces[at])
                at += 1
            if not taken:
                out.append(Reading(spec, None))
                continue
            value = _exploded(taken, spec, operator)
        else:
            if at >= len(pieces) or pieces[at][0] != spec.name:
                out.append(Reading(spec, None))
                continue
            _name, eq, raw = pieces[at]
            at += 1
            if not eq:
                value = None if operator.ifemp else ""
            elif not raw and not operator.ifemp:
                value = None  # an empty value is written without "=" here
            else:
                value = _value(raw, spec, operator)
        if value is None:
            return None
        out.append(Reading(spec, value))
    return out if at == len(pieces) else None


def _writes(spec: VarSpec, operator: Operator, value: Matched) -> str | None:
    """What ``value`` expands to as the one variable of an expression."""
    alone = Expression(operator, (spec,), 0, 0)
    try:
        return expand_parts((alone,), {spec.name: value}, "")
    except ExpansionError:  # a prefix on a list: this value cannot be it
        return None


def _best(values: list[tuple[Matched, VarSpec]]) -> Matched:
    """The fullest of the readings of one variable: a dict over a list, a
    whole value over a prefix."""
    whole = [value for value, spec in values if spec.prefix is None]
    if not whole:
        return max((value for value, _spec in values), key=len)
    for kind in (dict, str, list):
        for value in whole:
            if isinstance(value, kind):
                # A one-member list expands as its member does, everywhere;
                # the member also takes a prefix where the list would not.
                return value[0] if isinstance(value, list) and len(value) == 1 else value
    return whole[0]


def _candidates(values: list[tuple[Matched, VarSpec]]) -> Iterator[Matched]:
    """The values a variable may have, fullest first: the readings, and the
    associative array whose pairs an unexploded list may be."""
    yield _best(values)
    for value, _spec in values:
        yield value
    for value, _spec in values:
        if isinstance(value, list) and len(value) % 2 == 0:
            pairs = dict(zip(value[::2], value[1::2], strict=True))
            if len(pairs) * 2 == len(value):
                yield pairs


def _fits(value: Matched, seen: list[tuple[Reading, Operator]]) -> bool:
    for reading, operator in seen:
        assert reading.value is not None
        wanted = _writes(reading.spec, operator, reading.value)
        if wanted is None or _writes(reading.spec, operator, value) != wanted:
            return False
    return True


def agree(found: dict[str, list[tuple[Reading, Operator]]]) -> dict[str, Matched] | None:
    """One value per variable, or ``None``: a variable keeps one value in
    the whole template (section 3.2.1), so the value chosen must write, at
    each of its varspecs, what that varspec's reading writes (a prefix its
    start, an empty text nothing); an undefined variable writes nothing."""
    out: dict[str, Matched] = {}
    for name, seen in found.items():
        hard = [reading for reading, _op in seen if not reading.soft]
        values = [(r.value, r.spec) for r in hard if r.value is not None]
        if any(r.value is None for r in hard):
            if values:
                return None
            continue  # undefined
        if not values:
            out[name] = ""  # only empty texts: "" (or undefined; the same URI)
            continue
        if len(seen) == 1:
            out[name] = values[0][0]  # one reading: nothing to agree with
            continue
        best = next((c for c in _candidates(values) if _fits(c, seen)), None)
        if best is None:
            return None
        out[name] = best
    return out
