"""The wire: what every value read back from a file goes through.

Compiled grammars and programs are kept as data (JSON, and the packed
tables of ``automata.tables``), never as pickles, so reading one runs no
code.  Each reader checks the shape of what it is given with the
functions here, which raise ``ValueError`` naming what was expected; the
caller then compiles from the grammar text, so a damaged file costs time,
never a wrong answer.

A headed file (``with_head``, ``headed``) is one line of JSON, the header,
then a body; the header carries the sha256 of the body, so a file
damaged in place is told from a good one, and the fields a reader expects
(its format, urigrammar's version, the grammar texts it came from).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

__all__ = [
    "boolean",
    "compact_json",
    "headed",
    "integer",
    "integers",
    "listed",
    "pairs",
    "record",
    "span",
    "text",
    "texts",
    "with_head",
]


def _fail(what: str) -> ValueError:
    return ValueError(f"not the expected data: {what}")


def record(data: object, keys: set[str]) -> dict[str, Any]:
    """``data`` when it is a JSON object with exactly the fields ``keys``."""
    if not isinstance(data, dict) or set(data) != keys:
        raise _fail("a record with other fields")
    return data


def listed(data: object) -> list[Any]:
    """``data`` when it is a list."""
    if not isinstance(data, list):
        raise _fail("a list expected")
    return data


def text(data: object) -> str:
    """``data`` when it is a string."""
    if not isinstance(data, str):
        raise _fail("a string expected")
    return data


def texts(data: object) -> tuple[str, ...]:
    """``data`` when it is a list of strings, as a tuple."""
    return tuple(text(item) for item in listed(data))


def boolean(data: object) -> bool:
    """``data`` when it is a boolean."""
    if not isinstance(data, bool):
        raise _fail("a boolean expected")
    return data


def integer(data: object, lo: int = -1, hi: int = 0x10FFFF + 1) -> int:
    """``data`` when it is an integer (not a boolean) from ``lo`` to ``hi``."""
    if not isinstance(data, int) or isinstance(data, bool) or not lo <= data <= hi:
        raise _fail("an integer in range expected")
    return data


def integers(data: object, lo: int = -1, hi: int = 0x10FFFF + 1) -> tuple[int, ...]:
    """``data`` when it is a list of integers from ``lo`` to ``hi``."""
    values = listed(data)
    for value in values:
        integer(value, lo, hi)
    return tuple(values)


def pairs(data: object) -> list[tuple[Any, Any]]:
    """``data`` when it is a list of two-item lists, as pairs."""
    out = []
    for item in listed(data):
        pair = listed(item)
        if len(pair) != 2:
            raise _fail("a pair expected")
        out.append((pair[0], pair[1]))
    return out


def span(data: object, size: int) -> tuple[int, int]:
    """``data`` when it is an ``[offset, length]`` inside ``size`` bytes."""
    pair = listed(data)
    if (
        len(pair) != 2
        or not all(type(n) is int for n in pair)
        or pair[0] < 0
        or pair[1] < 0
        or pair[0] + pair[1] > size
    ):
        raise _fail("a span outside the file")
    return pair[0], pair[1]


def compact_json(value: object) -> bytes:
    """``value`` as JSON without spaces, in ASCII: one spelling per value."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def with_head(head: Mapping[str, object], body: bytes) -> bytes:
    """A file of ``head`` as a JSON line, with the sha256 of ``body`` as
    its ``body`` field, then ``body``: what ``headed`` reads."""
    return compact_json({**head, "body": hashlib.sha256(body).hexdigest()}) + b"\n" + body


def headed(data: bytes, expected: Mapping[str, object]) -> tuple[dict[str, Any], bytes] | str:
    """The header and body of a file ``with_head`` wrote, when the header
    holds every field of ``expected`` with its value and the body its
    checksum; else why the file cannot be used."""
    head, newline, body = data.partition(b"\n")
    if not newline:
        return "truncated"
    try:
        found = json.loads(head)
    except (ValueError, RecursionError):
        return "damaged (its header is not JSON)"
    if not isinstance(found, dict):
        return "damaged (its header is not a record)"
    for field, value in expected.items():
        if found.get(field) != value:
            return f"written for another {field} ({found.get(field)!r}, not {value!r})"
    if found.get("body") != hashlib.sha256(body).hexdigest():
        return "damaged or truncated (its checksum does not match)"
    return found, body
