"""A grammar's compiled form on disk: its rules and programs, as data only.

One file per grammar, a headed file (``base.wire``): a line of JSON, the
header, then the body, a row of pieces::

    {"format": 6, "urigrammar": "0.1.0", "grammars": [[name, sha256], ...],
     "rules": [[name, prose, offset, length], ...],
     "core": [[name, offset, length], ...],
     "sealed": [offset, length, sha256],
     "programs": [[rule, [captures], [leaves], offset, length, sha256], ...]}
    <each rule><each core rule><each program>...

The header names the format, the version of urigrammar that wrote it, and
the sha256 of every grammar text the rules and programs came from: the
grammar's own, then its imports', depth first.  It is an index: the
grammar's rules by name (whether each is written in prose, and where its
piece lies: JSON, its expression and its definition as written), RFC
5234's core rules as they were compiled (so that loading needs nothing of
``abnf``), and each program by its key.  ``sealed`` covers the rules'
pieces, checked when the file is read; each program has a digest of its
own, checked when it is read.  So a first ``validate`` reads the header
and one program: it decodes no rule and hashes no other program.  A
program's piece is its own bytes (``Program.to_bytes``).  Nothing in a
file runs code when read (no pickle); every value is checked against its
expected shape when it is decoded.

``decode`` returns the reason for anything but a file whose header matches
exactly what the caller expects: missing, truncated, damaged, of another
format or version, or from other grammar texts.  The caller then compiles
from the grammar text, so a bad file costs time, never a wrong answer; a
program that fails its own checks later is compiled afresh the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from ..._version import VERSION
from ..base import wire
from ..syntax.ir import Expr, expr_from_data, expr_to_data
from ..syntax.reader import RuleText
from .program import Key, Program

__all__ = [
    "FORMAT",
    "Lineage",
    "Loaded",
    "decode",
    "decode_headed",
    "encode",
    "expected",
    "program_from",
]

#: The layout of the file; a reader takes only its own.
FORMAT = 6

#: (grammar name, sha256 of its text) for a grammar and its imports.
Lineage = tuple[tuple[str, str], ...]

#: What a good file holds: the grammar's own rules and the core rules,
#: each read when first asked (``RuleText.later``), and each program's
#: place in the file, decoded on use (``program_from``).
Loaded = tuple[list[RuleText], list[RuleText], dict[Key, wire.Place]]


def _rule_piece(rule: RuleText) -> bytes:
    expr = rule.expr
    return wire.compact_json([None if expr is None else expr_to_data(expr), list(rule.source)])


def _read_rule(piece: bytes) -> tuple[Expr | None, tuple[str, ...]]:
    """A rule's piece: its expression (``None`` in prose) and its source."""
    fields = wire.listed(wire.loads(piece))
    if len(fields) != 2:
        msg = "not a rule"
        raise ValueError(msg)
    expr, source = fields
    return None if expr is None else expr_from_data(expr), wire.texts(source)


def encode(
    lineage: Lineage,
    rules: Sequence[RuleText],
    core: Sequence[RuleText],
    programs: Mapping[Key, bytes],
) -> bytes:
    """The file for a grammar's ``rules``, the ``core`` rules and its
    programs' pieces (``Program.to_bytes``)."""
    pieces: list[bytes] = []
    offset = 0

    def add(data: bytes) -> list[int]:
        nonlocal offset
        pieces.append(data)
        offset += len(data)
        return [offset - len(data), len(data)]

    index_rules = [[rule.name, rule.prose, *add(_rule_piece(rule))] for rule in rules]
    index_core = [[rule.name, *add(_rule_piece(rule))] for rule in core]
    sealed = b"".join(pieces)
    index_programs = [
        [rule, list(captures), list(leaves), *add(one), wire.digest(one)]
        for (rule, captures, leaves), one in programs.items()
    ]
    head = {
        "format": FORMAT,
        "urigrammar": VERSION,
        "grammars": [list(pair) for pair in lineage],
        "rules": index_rules,
        "core": index_core,
        "sealed": [0, len(sealed), wire.digest(sealed)],
        "programs": index_programs,
    }
    return wire.with_head(head, b"".join(pieces))


def expected(lineage: Lineage) -> dict[str, object]:
    """The header fields a file ``encode`` wrote for ``lineage`` holds."""
    return {
        "format": FORMAT,
        "urigrammar": VERSION,
        "grammars": [list(pair) for pair in lineage],
    }


def decode(data: bytes, lineage: Lineage) -> Loaded | str:
    """The rules and the programs' places of a file written by ``encode``
    for exactly ``lineage``, or why it cannot be used."""
    return decode_headed(wire.headed(data, expected(lineage)))


def decode_headed(read: tuple[dict[str, Any], wire.Body] | str) -> Loaded | str:
    """``decode``, of a header already checked against ``expected`` and its
    body (``wire.headed``, or ``wire.headed_file``), or of why it failed."""
    if isinstance(read, str):
        return read
    found, body = read
    try:
        sealed = wire.piece(body, found.get("sealed"))
        rules = [
            RuleText.later(name, prose, partial(_read_rule, piece))
            for name, prose, piece in _entries(found.get("rules"), sealed, prose=True)
        ]
        core = [
            RuleText.later(name, False, partial(_read_rule, piece))
            for name, _, piece in _entries(found.get("core"), sealed, prose=False)
        ]
        programs = wire.listed(found.get("programs"))
        # Each program's place is checked to lie in the body here, so a
        # truncated file is refused whole; its digest, when it is read.
        size = len(body)
        keys = [
            (item[0], tuple(item[1]), tuple(item[2]))
            for item in programs
            if type(item) is list
            and len(item) == 6
            and type(item[0]) is str
            and type(item[3]) is int
            and type(item[4]) is int
            and 0 <= item[3] <= item[3] + item[4] <= size
        ]
        names = {name for _, captures, leaves in keys for name in (*captures, *leaves)}
        if len(keys) != len(programs) or not set(map(type, names)) <= {str}:
            msg = "a program's index entry of another shape"
            raise ValueError(msg)
        pieces: dict[Key, wire.Place] = {
            key: (body, item[3:]) for key, item in zip(keys, programs, strict=True)
        }
    except (ValueError, TypeError) as exc:
        return f"damaged ({exc})"
    return rules, core, pieces


def _entries(index: object, sealed: bytes, *, prose: bool) -> list[tuple[str, bool, bytes]]:
    """The index of rules (``[name, prose, offset, length]``, or without
    ``prose`` for the core rules), checked, each with its piece.  Checked in
    comprehensions, not a call an entry: a first call reads a hundred."""
    entries = wire.listed(index)
    width = 4 if prose else 3
    good = [
        entry
        for entry in entries
        if type(entry) is list
        and len(entry) == width
        and type(entry[0]) is str
        and (not prose or type(entry[1]) is bool)
        and type(entry[-2]) is int
        and type(entry[-1]) is int
        and 0 <= entry[-2] <= entry[-2] + entry[-1] <= len(sealed)
    ]
    if len(good) != len(entries):
        msg = "a rule's index entry of another shape"
        raise ValueError(msg)
    return [
        (entry[0], prose and entry[1], sealed[entry[-2] : entry[-2] + entry[-1]]) for entry in good
    ]


def program_from(place: wire.Place) -> Program:
    """A program from its place in a file (the body, and its index entry's
    ``[offset, length, digest]``); ``ValueError`` when it is not one."""
    body, where = place
    return Program.from_bytes(wire.piece(body, where))
