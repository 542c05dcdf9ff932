"""The grammar file is RFC 3986 Appendix A, loaded by abnf, and the visitor
only names rules that exist."""

from __future__ import annotations

import re
from pathlib import Path

import urigrammar as u
from _backends import On
from urigrammar.shipped import GRAMMAR, grammar_text, shipped_rule
from urigrammar.uri._visitor import CAPTURES, READS, ComponentVisitor

ROOT = Path(__file__).resolve().parents[2]


def test_the_packaged_grammar_is_the_repository_file() -> None:
    assert grammar_text() == (ROOT / "grammar" / "rfc3986.abnf").read_text("ascii")


def test_every_rule_starts_in_column_zero() -> None:
    defined = [
        m.group(1)
        for m in re.finditer(r"^([A-Za-z][A-Za-z0-9-]*)\s*=", grammar_text(), re.MULTILINE)
    ]
    assert defined == list(GRAMMAR.rule_names)
    assert len(defined) == 36


def test_rules_are_abnf_rules_of_a_private_class() -> None:
    from abnf.parser import Rule

    rule = GRAMMAR.abnf_rule("uri")
    assert isinstance(rule, Rule)
    assert type(rule) is not Rule  # abnf's shared base holds only the core
    assert rule.name == "URI"
    assert Rule.get("URI") is None


def test_rule_source_is_the_text_of_the_file() -> None:
    source = u.rule_source("dec-octet")
    assert source is not None
    assert source.startswith("dec-octet")
    assert "; 250-255" in source
    assert u.rule_source("DIGIT") is None


def test_references_follow_the_grammar() -> None:
    used = GRAMMAR.references("IPv4address")
    assert used == ("dec-octet", "DIGIT")


def test_visitor_handlers_name_real_rules() -> None:
    # Each name READS gives is a rule of RFC 3986 or RFC 3987.
    for name in READS:
        assert shipped_rule(name)[1] == name
    # The visitor walks abnf's nodes without being abnf's NodeVisitor (which
    # would drop a subtree without a visit_ method): every node is visited.
    assert not hasattr(ComponentVisitor, "visit_URI")
    assert set(GRAMMAR.rule_names) | set(u.RFC3987.rule_names) >= CAPTURES


def test_quoted_strings_are_case_insensitive(on: On) -> None:
    # RFC 5234 section 2.3: "v" in IPvFuture matches "V" too.
    assert on.validate("IPvFuture", "V1.x")
    assert on.validate("IPvFuture", "V1.x", method="abnf")
