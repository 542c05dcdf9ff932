"""RFC 3987 section 2.2's grammar as shipped: read verbatim, reachable by
rule name at the top level, and its restatements of RFC 3986's rules equal
to the originals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from urigrammar.engine import Backend, inline_rule
from urigrammar.shipped import grammar_text, shipped_rule
from urigrammar.strategies import from_rule

# Section 2.2's second group: "The following rules are the same as those in
# [RFC3986]".  Read from the file, after the comment that opens the group.
_TEXT = grammar_text("rfc3987.abnf")
_SECOND = _TEXT[_TEXT.index("are the same as those in RFC 3986") :].partition("\n\n")[2]
RESTATED = [
    line.split("=")[0].strip()
    for line in _SECOND.splitlines()
    if line and not line[0].isspace() and not line.startswith(";")
]


def test_the_second_group_is_what_the_rfc_lists() -> None:
    # The list the RFC gives (section 2.2, page 9), in its order.
    assert RESTATED == [
        "scheme", "port", "IP-literal", "IPvFuture", "IPv6address", "h16", "ls32",
        "IPv4address", "dec-octet", "pct-encoded", "unreserved", "reserved",
        "gen-delims", "sub-delims",
    ]  # fmt: skip


@pytest.mark.parametrize("name", RESTATED)
def test_restated_rules_have_rfc3986s_language(name: str) -> None:
    # Fully inlined, the two rules are the same expression: the same language.
    ours = inline_rule(u.RFC3987.rules, name)
    theirs = inline_rule(u.RFC3986.rules, name)
    assert ours == theirs


@pytest.mark.parametrize("name", RESTATED)
@backend_settings(max_examples=examples(25))
@given(data=st.data())
def test_restated_rules_agree_on_text(backend: Backend, name: str, data: st.DataObject) -> None:
    text = data.draw(
        st.one_of(from_rule(name, u.RFC3986), from_rule(name, u.RFC3987), st.text(max_size=8))
    )
    ours = u.RFC3987.validate(name, text, backend=backend)
    assert u.RFC3986.validate(name, text, backend=backend) == ours


def test_every_iri_rule_is_named_at_the_top_level() -> None:
    for name in u.RFC3987.rule_names:
        grammar, found = shipped_rule(name)
        assert found == name
        assert grammar is (u.RFC3986 if name in RESTATED else u.RFC3987)
        assert name in u.RULE_NAMES


@pytest.mark.parametrize(
    ("rule", "text", "valid"),
    [
        ("IRI", "http://r\u00e9sum\u00e9.example.org/\u00e4", True),
        ("IRI", "http://a/\ue000", False),  # iprivate only in iquery
        ("IRI", "http://a/?\ue000", True),
        ("IRI-reference", "\u00e4/b", True),
        ("irelative-ref", "//\u4f8b\u3048/", True),
        ("absolute-IRI", "x:\u00e4#f", False),
        ("ucschar", "\u00a0", True),
        ("ucschar", "\ufffe", False),  # a noncharacter
        ("iprivate", "\U0010fffd", True),
        ("ihost", "[::1]", True),
        ("ipath-abempty", "/\u00e4/b", True),
        ("URI", "http://r\u00e9sum\u00e9.example.org/", False),
    ],
)
def test_validate_by_iri_rule_name(on: On, rule: str, text: str, valid: bool) -> None:
    assert on.validate(rule, text) is valid
    assert on.validate(rule.lower(), text) is valid


def test_check_names_the_iri_rule_and_offset(on: On) -> None:
    with pytest.raises(u.URISyntaxError) as caught:
        on.check("IRI", "http://a/b\ue000")
    assert caught.value.rule == "IRI"
    assert caught.value.offset == 10


def test_unknown_rule_suggests_across_grammars(on: On) -> None:
    with pytest.raises(u.UnknownRuleError, match="'IRI'"):
        on.validate("IRIx", "a")


def test_rule_source_reads_the_iri_file() -> None:
    source = u.rule_source("iprivate")
    assert source is not None
    assert source.splitlines() == ["iprivate       = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD"]
