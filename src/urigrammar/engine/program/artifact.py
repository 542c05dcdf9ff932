"""A grammar's compiled form on disk: its rules and programs, as data only.

One file per grammar, a headed file (``base.wire``): a line of JSON, the
header, then the body::

    {"format": 4, "urigrammar": "0.1.0", "grammars": [[name, sha256], ...],
     "body": sha256, "rules": [offset, length], "core": [offset, length],
     "programs": [[rule, [captures], [leaves], offset, length], ...]}
    <the rules as JSON><RFC 5234's core rules as JSON><each program>...

The header names the format, the version of urigrammar that wrote it, and
the sha256 of every grammar text the rules and programs came from: the
grammar's own, then its imports', depth first.  The body is an index of
pieces, so a process reads the rules and only the programs it uses: a
first ``validate`` decodes one program, not a megabyte.  A program's piece
is its own bytes (``Program.to_bytes``: a line of JSON, then its tables
as ``automata.tables`` lays them out).  Nothing in a file runs code when
read (no pickle); every value is checked against its expected shape
(``Program.from_bytes``, ``syntax.ir.expr_from_data``) when it is decoded.

``decode`` returns the reason for anything but a file whose header matches
exactly what the caller expects: missing, truncated, damaged, of another
format or version, or from other grammar texts.  The caller then compiles
from the grammar text, so a bad file costs time, never a wrong answer; a
program that fails its own checks later is compiled afresh the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..._version import VERSION
from ..base import wire
from ..syntax.ir import expr_from_data, expr_to_data
from ..syntax.reader import RuleText
from .program import Key, Program

__all__ = ["FORMAT", "Lineage", "Loaded", "decode", "encode", "piece", "program_from"]

#: The layout of the file; a reader takes only its own.
FORMAT = 4

#: (grammar name, sha256 of its text) for a grammar and its imports.
Lineage = tuple[tuple[str, str], ...]

#: What a good file holds: the grammar's own rules, the core rules as they
#: were compiled (so that loading needs nothing of ``abnf``), and each
#: program's JSON piece, decoded on use (``program_from``).
Loaded = tuple[list[RuleText], list[RuleText], dict[Key, bytes]]


def piece(program: Program) -> bytes:
    """A program's piece of a file."""
    return program.to_bytes()


def _rules(rules: Sequence[RuleText]) -> bytes:
    return wire.compact_json(
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
    return wire.with_head(head, body)


def decode(data: bytes, lineage: Lineage) -> Loaded | str:
    """The rules and program pieces of a file written by ``encode`` for
    exactly ``lineage``, or why it cannot be used."""
    expected = {
        "format": FORMAT,
        "urigrammar": VERSION,
        "grammars": [list(pair) for pair in lineage],
    }
    read = wire.headed(data, expected)
    if isinstance(read, str):
        return read
    found, body = read
    try:
        start, length = wire.span(found.get("rules"), len(body))
        rules = [_rule(item) for item in wire.listed(json.loads(body[start : start + length]))]
        start, length = wire.span(found.get("core"), len(body))
        core = [_rule(item) for item in wire.listed(json.loads(body[start : start + length]))]
        pieces: dict[Key, bytes] = {}
        for item in wire.listed(found.get("programs")):
            rule, captures, leaves, *span = wire.listed(item)
            start, length = wire.span(span, len(body))
            key = (wire.text(rule), wire.texts(captures), wire.texts(leaves))
            pieces[key] = body[start : start + length]
    except (ValueError, TypeError, RecursionError) as exc:
        return f"damaged ({exc})"
    return rules, core, pieces


def program_from(piece: bytes) -> Program:
    """A program from its piece of a file; ``ValueError`` when it is not one."""
    return Program.from_bytes(piece)


def _rule(item: object) -> RuleText:
    fields = wire.listed(item)
    if len(fields) != 3:
        msg = "not a rule"
        raise ValueError(msg)
    name, expr, source = fields
    return RuleText(
        wire.text(name), None if expr is None else expr_from_data(expr), wire.texts(source)
    )
