"""Reading ``abnf``'s derivation trees (``Grammar.abnf_parse``): the
values of the nodes of one rule, for oracles that take a text apart
independently of urigrammar's engine."""

from __future__ import annotations

from typing import Any


def values(tree: Any, rule: str) -> list[str]:
    """The text of every node named ``rule`` (case-insensitive, RFC 5234
    section 2.1), in document order; a node inside a match of ``rule`` is
    not looked into."""
    wanted = rule.lower()
    found: list[str] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.name.lower() == wanted:
            found.append(node.value)
            continue
        stack.extend(reversed(node.children))
    return found
