"""Expansion (RFC 6570 section 3), following Appendix A's algorithm.

Values, decided where the RFC leaves the form to the processor
(section 2.3 speaks of strings, lists and associative arrays):

* ``str``: a string;
* ``int`` and ``float``: written as JSON writes them (``json.dumps``:
  ``1024``, ``0.5``, ``1e+100``); ``bool`` as JSON's ``true`` and
  ``false``, since every other value is read the way JSON has it (a JSON
  document of variables expands unchanged), not as Python's ``True``;
* ``list`` and ``tuple`` of those: a list; a ``Mapping`` (order kept) from
  ``str`` to those: an associative array;
* ``None``: undefined, and so is an empty list, a mapping whose values are
  all ``None``, and a ``None`` member or value (skipped, section 2.3);
* anything else raises ``TypeError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from ..engine import exact
from ..shipped import encode_except, userinfo_secret
from ._errors import ExpansionError
from ._sets import Operator, allowed, hexdig
from ._syntax import Expression, Part, VarSpec

__all__ = ["Value", "expand_parts", "prefix_of", "scalar"]

#: What a value normalizes to: a string, a list, or (name, value) pairs.
Value = str | list[str] | tuple[tuple[str, str], ...]


def scalar(value: object, name: str) -> str:
    """A string, number or boolean as the text it expands to."""
    if isinstance(value, str):
        return exact(value)  # a str subclass: its own characters
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        import json  # on first use: import urigrammar stays cheap

        try:
            return json.dumps(value)
        except ValueError:  # an int past CPython's digit limit for str()
            msg = f"variable {name!r}: the number has too many digits to be written"
            raise ExpansionError(msg, rule="varname") from None
    msg = (
        f"variable {name!r}: a value is a str, int, float, bool, list, tuple, "
        f"mapping or None, not {type(value).__name__}"
    )
    raise TypeError(msg)


def normalize(value: object, name: str) -> Value | None:
    """``value`` as a string, list or list of pairs; ``None`` when it is
    undefined (section 2.3)."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        members = [scalar(m, name) for m in value if m is not None]
        return members or None
    if isinstance(value, Mapping):
        pairs: list[tuple[str, str]] = []
        for key, member in value.items():
            if not isinstance(key, str):
                msg = f"variable {name!r}: a mapping's keys are str, not {type(key).__name__}"
                raise TypeError(msg)
            if member is not None:
                pairs.append((key, scalar(member, name)))
        return tuple(pairs) or None
    return scalar(value, name)


@cache
def _needs_encoding(operator: Operator) -> re.Pattern[str]:
    # A quick test before the character-by-character encoder: most values
    # need nothing encoded.  (U+R) keeps "%" only in a triplet: always look.
    keep = "".join(sorted(allowed(operator)))
    return re.compile(f"[^{re.escape(keep)}]")


def encode(text: str, operator: Operator) -> str:
    """``text`` with every character outside the operator's allowed set
    pct-encoded as UTF-8; (U+R) keeps ``pct-encoded`` triplets (3.2.1)."""
    if _needs_encoding(operator).search(text) is None:
        return text
    return encode_except(text, allowed(operator), keep_escapes=operator.reserved)


def _triplet_at(text: str, index: int, digits: frozenset[str]) -> bool:
    return (
        text[index : index + 1] == "%"
        and text[index + 1 : index + 2] in digits
        and text[index + 2 : index + 3] in digits
    )


def _encoded_char_end(text: str, index: int, digits: frozenset[str]) -> int:
    """Where the character whose triplet starts at ``index`` ends: after
    the two to four triplets that spell one non-ASCII character in UTF-8,
    after this one triplet otherwise (ASCII, or octets that are no UTF-8)."""
    for size in (2, 3, 4):
        end = index + 3 * size
        if not all(_triplet_at(text, i, digits) for i in range(index + 3, end, 3)):
            break
        try:
            char = bytes.fromhex(text[index:end].replace("%", "")).decode("utf-8")
        except UnicodeDecodeError:  # incomplete, overlong, surrogate: try longer
            continue
        if len(char) == 1:
            return end
        break  # ASCII octets: one character each
    return index + 3


def prefix_of(text: str, length: int, operator: Operator) -> str:
    """The first ``length`` characters of ``text`` (section 2.4.1): code
    points, and under (U+R), where triplets pass through, the characters of
    the decoded value (3.2.1: "count each Unicode code point as one
    character"), so that neither a triplet nor the triplets of one UTF-8
    character are split (``%C3%A9`` is one)."""
    if not operator.reserved or "%" not in text:
        return text[:length]
    digits = hexdig()
    index = count = 0
    while index < len(text) and count < length:
        if _triplet_at(text, index, digits):
            index = _encoded_char_end(text, index, digits)
        else:
            index += 1
        count += 1
    return text[:index]


def _prefix_error(template: str, spec: VarSpec, what: str) -> ExpansionError:
    offset = spec.offset + len(spec.name)
    msg = (
        f"variable {spec.name!r} is {what}: a prefix modifier applies only to "
        "strings (RFC 6570 section 2.4.1)"
    )
    return ExpansionError(msg, rule="prefix", text=template, offset=offset, secrets=userinfo_secret)


def _pieces(expression: Expression, values: Mapping[str, object], template: str) -> list[str]:
    operator = expression.operator
    pieces: list[str] = []
    for spec in expression.varspecs:
        value = normalize(values.get(spec.name), spec.name)
        if value is None:
            continue  # undefined: skipped (section 3.2.1)
        name = spec.name  # varchar is all (U): written as a literal, unchanged
        if isinstance(value, str):
            if spec.prefix is not None:
                value = prefix_of(value, spec.prefix, operator)
            text = encode(value, operator)
            if operator.named:
                text = name + (operator.ifemp if not value else "=" + text)
            pieces.append(text)
            continue
        if spec.prefix is not None:
            raise _prefix_error(
                template, spec, "a list" if isinstance(value, list) else "a mapping"
            )
        if not spec.explode:
            if isinstance(value, list):
                joined = ",".join(encode(m, operator) for m in value)
            else:
                joined = ",".join(encode(k, operator) + "," + encode(v, operator) for k, v in value)
            if operator.named:
                joined = name + (operator.ifemp if not joined else "=" + joined)
            pieces.append(joined)
        elif isinstance(value, list):
            for member in value:
                text = encode(member, operator)
                if operator.named:
                    text = name + (operator.ifemp if not member else "=" + text)
                pieces.append(text)
        else:
            # Appendix A: a named operator writes a pair whose value is
            # empty as the name and its ifemp (";k", "?k="); the others
            # write every pair as "name=value", so "/k=" (their branch of
            # the algorithm has no ifemp).
            for key, member in value:
                text = encode(key, operator)
                if operator.named and not member:
                    text += operator.ifemp
                else:
                    text += "=" + encode(member, operator)
                pieces.append(text)
    return pieces


def expand_parts(parts: tuple[Part, ...], values: Mapping[str, object], template: str) -> str:
    """The expansion of a template's parts with ``values`` (section 3)."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        pieces = _pieces(part, values, template)
        if pieces:
            out.append(part.operator.first + part.operator.sep.join(pieces))
    return "".join(out)
