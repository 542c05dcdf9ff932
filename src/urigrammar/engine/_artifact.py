"""A grammar's compiled form on disk: its rules and programs, as data only.

One file per grammar, in two lines of JSON::

    {"format": 1, "urigrammar": "0.1.0", "grammars": [[name, sha256], ...], "body": sha256}
    {"rules": [[name, expr or null, [source line, ...]], ...], "programs": [program, ...]}

The header names the format, the version of urigrammar that wrote it, and
the sha256 of every grammar text the rules and programs came from: the
grammar's own, then its imports', depth first.  ``body`` is the sha256 of
the second line's bytes, so a file damaged in place is told from a good
one.  JSON runs no code when read (no pickle); every value is checked
against its expected shape (``Program.from_data``, ``expr_from_data``).

``read`` returns ``None`` with the reason for anything but a file whose
header matches exactly what the caller expects: missing, truncated,
damaged, of another format or version, or from other grammar texts.  The
caller then compiles from the grammar text, so a bad file costs time,
never a wrong answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from .._version import VERSION
from ._program import Program, expr_from_data, expr_to_data
from ._reader import RuleText

__all__ = ["FORMAT", "Lineage", "Loaded", "decode", "encode"]

#: The layout of the file; a reader takes only its own.
FORMAT = 1

#: (grammar name, sha256 of its text) for a grammar and its imports.
Lineage = tuple[tuple[str, str], ...]

#: What a good file holds: the grammar's own rules, and programs.
Loaded = tuple[list[RuleText], list[Program]]


def header(lineage: Lineage, body: bytes) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "urigrammar": VERSION,
        "grammars": [list(pair) for pair in lineage],
        "body": hashlib.sha256(body).hexdigest(),
    }


def encode(lineage: Lineage, rules: Sequence[RuleText], programs: Sequence[Program]) -> bytes:
    """The file for a grammar's ``rules`` and ``programs``."""
    body = json.dumps(
        {
            "rules": [
                [rule.name, None if rule.expr is None else expr_to_data(rule.expr), rule.source]
                for rule in rules
            ],
            "programs": [program.to_data() for program in programs],
        },
        separators=(",", ":"),
        ensure_ascii=True,
    ).encode("ascii")
    head = json.dumps(header(lineage, body), separators=(",", ":")).encode("ascii")
    return head + b"\n" + body + b"\n"


def decode(data: bytes, lineage: Lineage) -> Loaded | str:
    """The rules and programs of a file written by ``encode`` for exactly
    ``lineage``, or why it cannot be used."""
    head, newline, rest = data.partition(b"\n")
    if not newline or not rest.endswith(b"\n"):
        return "truncated"
    body = rest[:-1]
    try:
        found = json.loads(head)
    except (ValueError, RecursionError):
        return "damaged header"
    expected = header(lineage, body)
    if not isinstance(found, dict):
        return "damaged header"
    for key in ("format", "urigrammar", "grammars"):
        if found.get(key) != expected[key]:
            return f"written for another {key} ({found.get(key)!r}, not {expected[key]!r})"
    if found.get("body") != expected["body"]:
        return "damaged (its checksum does not match)"
    try:
        content = json.loads(body)
        if not isinstance(content, dict) or set(content) != {"rules", "programs"}:
            return "damaged body"
        rules = [_rule(item) for item in content["rules"]]
        programs = [Program.from_data(item) for item in content["programs"]]
    except (ValueError, TypeError, RecursionError) as exc:
        return f"damaged body ({exc})"
    return rules, programs


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
