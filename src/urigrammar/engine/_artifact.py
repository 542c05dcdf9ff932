"""A grammar's compiled form on disk: its rules and programs, as data only.

One file per grammar: a line of JSON, the header, then the body::

    {"format": 2, "urigrammar": "0.1.0", "grammars": [[name, sha256], ...],
     "body": sha256, "rules": [offset, length], "core": [offset, length],
     "programs": [[rule, [captures], [leaves], offset, length], ...]}
    <the rules as JSON><RFC 5234's core rules as JSON><each program as JSON>...

The header names the format, the version of urigrammar that wrote it, and
the sha256 of every grammar text the rules and programs came from: the
grammar's own, then its imports', depth first.  ``body`` is the sha256 of
everything after the header's line, so a file damaged in place is told
from a good one.  The body is an index of JSON pieces, so a process reads
the rules and only the programs it uses: a first ``validate`` decodes one
program, not a megabyte.  JSON runs no code when read (no pickle); every
value is checked against its expected shape (``Program.from_data``,
``expr_from_data``) when it is decoded.

``decode`` returns the reason for anything but a file whose header matches
exactly what the caller expects: missing, truncated, damaged, of another
format or version, or from other grammar texts.  The caller then compiles
from the grammar text, so a bad file costs time, never a wrong answer; a
program that fails its own checks later is compiled afresh the same way.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .._version import VERSION
from ._program import Program, expr_from_data, expr_to_data
from ._reader import RuleText

__all__ = [
    "FORMAT",
    "Key",
    "Lineage",
    "Loaded",
    "compact_json",
    "decode",
    "encode",
    "headed",
    "piece",
    "program_from",
    "with_head",
]

#: The layout of the file; a reader takes only its own.
FORMAT = 2

#: (grammar name, sha256 of its text) for a grammar and its imports.
Lineage = tuple[tuple[str, str], ...]

#: A program's key: rule, captures and leaves (``Program.key``).
Key = tuple[str, tuple[str, ...], tuple[str, ...]]

#: What a good file holds: the grammar's own rules, the core rules as they
#: were compiled (so that loading needs nothing of ``abnf``), and each
#: program's JSON piece, decoded on use (``program_from``).
Loaded = tuple[list[RuleText], list[RuleText], dict[Key, bytes]]


def compact_json(value: object) -> bytes:
    """``value`` as JSON without spaces, in ASCII: one spelling per value."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def with_head(head: Mapping[str, object], body: bytes) -> bytes:
    """A file of ``head`` as a JSON line, with the sha256 of ``body`` as
    its ``body`` field, then ``body``: what ``headed`` reads."""
    return compact_json({**head, "body": hashlib.sha256(body).hexdigest()}) + b"\n" + body


def piece(program: Program) -> bytes:
    """A program's piece of a file."""
    return compact_json(program.to_data())


def _rules(rules: Sequence[RuleText]) -> bytes:
    return compact_json(
        [
            [rule.name, None if rule.expr is None else expr_to_data(rule.expr), rule.source]
            for rule in rules
        ]
    )


def encode(
    lineage: Lineage,
    rules: Sequence[RuleText],
    core: Sequence[RuleText],
    programs: dict[Key, bytes],
) -> bytes:
    """The file for a grammar's ``rules``, the ``core`` rules and its
    programs' pieces (``piece``)."""
    pieces = [_rules(rules), _rules(core)]
    index: list[list[Any]] = []
    offset = len(pieces[0]) + len(pieces[1])
    for (rule, captures, leaves), one in programs.items():
        index.append([rule, list(captures), list(leaves), offset, len(one)])
        pieces.append(one)
        offset += len(one)
    body = b"".join(pieces)
    head = {
        "format": FORMAT,
        "urigrammar": VERSION,
        "grammars": [list(pair) for pair in lineage],
        "rules": [0, len(pieces[0])],
        "core": [len(pieces[0]), len(pieces[1])],
        "programs": index,
    }
    return with_head(head, body)


def headed(data: bytes, expected: Mapping[str, object]) -> tuple[dict[str, Any], bytes] | str:
    """The header and body of a file of a JSON header line, then a body
    whose sha256 the header's ``body`` holds, when the header holds every
    field of ``expected`` with its value; or why the file cannot be used."""
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


def decode(data: bytes, lineage: Lineage) -> Loaded | str:
    """The rules and program pieces of a file written by ``encode`` for
    exactly ``lineage``, or why it cannot be used."""
    expected = {
        "format": FORMAT,
        "urigrammar": VERSION,
        "grammars": [list(pair) for pair in lineage],
    }
    read = headed(data, expected)
    if isinstance(read, str):
        return read
    found, body = read
    try:
        start, length = _span(found.get("rules"), len(body))
        rules = [_rule(item) for item in _list(json.loads(body[start : start + length]))]
        start, length = _span(found.get("core"), len(body))
        core = [_rule(item) for item in _list(json.loads(body[start : start + length]))]
        pieces: dict[Key, bytes] = {}
        for item in _list(found.get("programs")):
            rule, captures, leaves, *span = _list(item)
            start, length = _span(span, len(body))
            pieces[_text(rule), _texts(captures), _texts(leaves)] = body[start : start + length]
    except (ValueError, TypeError, RecursionError) as exc:
        return f"damaged ({exc})"
    return rules, core, pieces


def program_from(piece: bytes) -> Program:
    """A program from its piece of a file; ``ValueError`` when it is not one."""
    try:
        data = json.loads(piece)
    except RecursionError:
        msg = "a program nested too deeply to read"
        raise ValueError(msg) from None
    return Program.from_data(data)


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        msg = "a list expected"
        raise ValueError(msg)
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        msg = "a string expected"
        raise ValueError(msg)
    return value


def _texts(value: object) -> tuple[str, ...]:
    return tuple(_text(item) for item in _list(value))


def _span(value: object, size: int) -> tuple[int, int]:
    pair = _list(value)
    if (
        len(pair) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair)
        or pair[0] < 0
        or pair[1] < 0
        or pair[0] + pair[1] > size
    ):
        msg = "a span outside the file"
        raise ValueError(msg)
    return pair[0], pair[1]


def _rule(item: object) -> RuleText:
    if not isinstance(item, list) or len(item) != 3:
        msg = "not a rule"
        raise ValueError(msg)
    name, expr, source = item
    if not isinstance(name, str) or not isinstance(source, list):
        msg = "not a rule"
        raise ValueError(msg)
    if not all(isinstance(line, str) for line in source):
        msg = "not a rule's source"
        raise ValueError(msg)
    return RuleText(name, None if expr is None else expr_from_data(expr), tuple(source))
