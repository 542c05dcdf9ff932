"""``Grammar.within``: whether one rule's language lies inside another's,
decided on their minimal DFAs (``engine.automata.product``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import RFC3986, RFC3987, load_grammar
from urigrammar.engine import within
from urigrammar.strategies import from_rule

#: RFC 3986's rules with a DFA, a sample wide enough to hold both answers.
RULES = (
    "URI",
    "URI-reference",
    "absolute-URI",
    "relative-ref",
    "authority",
    "host",
    "IPv4address",
    "reg-name",
    "IP-literal",
    "path-abempty",
    "path-absolute",
    "path-rootless",
    "segment",
    "segment-nz",
    "query",
    "fragment",
    "pchar",
    "scheme",
    "port",
    "dec-octet",
)


@pytest.mark.parametrize(
    ("inner", "outer", "expected"),
    [
        # Section 3.2.2: a dotted quad is also a reg-name, hence first-match-wins.
        ("IPv4address", "reg-name", True),
        ("reg-name", "IPv4address", False),
        # Section 4.3: absolute-URI is URI without a fragment.
        ("absolute-URI", "URI", True),
        ("URI", "absolute-URI", False),
        # Section 4.1: URI-reference = URI / relative-ref.
        ("URI", "URI-reference", True),
        ("relative-ref", "URI-reference", True),
        ("URI-reference", "URI", False),
        ("relative-ref", "URI", False),
        ("query", "fragment", True),  # the same production
        ("fragment", "query", True),
        ("segment-nz", "segment", True),
        ("segment", "segment-nz", False),  # the empty segment
        ("port", "segment", True),
        ("dec-octet", "port", True),
        ("port", "dec-octet", False),
    ],
)
def test_rfc_3986_relations(inner: str, outer: str, expected: bool) -> None:
    assert within(RFC3986, inner, RFC3986, outer) is expected


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_lies_within_itself(rule: str) -> None:
    assert within(RFC3986, rule, RFC3986, rule) is True


def test_across_grammars() -> None:
    # RFC 3987 section 2.2: every URI is an IRI; not every IRI is a URI.
    assert within(RFC3986, "URI", RFC3987, "IRI") is True
    assert within(RFC3987, "IRI", RFC3986, "URI") is False


def test_a_rule_without_a_dfa_says_nothing() -> None:
    grammar = load_grammar('nested = "(" *( "a" / nested ) ")"')
    assert within(grammar, "nested", RFC3986, "URI") is None
    assert within(RFC3986, "URI", grammar, "nested") is None


@given(st.sampled_from(RULES), st.sampled_from(RULES), st.data())
def test_an_inclusion_holds_on_the_inner_rules_strings(
    inner: str, outer: str, data: st.DataObject
) -> None:
    found = within(RFC3986, inner, RFC3986, outer)
    text = data.draw(from_rule(inner))
    if found:
        assert RFC3986.validate(outer, text)
    if found and within(RFC3986, outer, RFC3986, inner):
        # Both ways: one language, so the outer rule's strings too.
        assert RFC3986.validate(inner, data.draw(from_rule(outer)))


def test_an_exclusion_has_a_witness_among_rfc_3986s_strings() -> None:
    # For each "no" above, a string of the inner rule the outer refuses.
    witnesses = {
        ("reg-name", "IPv4address"): "example.com",
        ("URI", "absolute-URI"): "a:b#c",
        ("URI-reference", "URI"): "/a",
        ("segment", "segment-nz"): "",
        ("port", "dec-octet"): "256",
    }
    for (inner, outer), text in witnesses.items():
        assert within(RFC3986, inner, RFC3986, outer) is False
        assert RFC3986.validate(inner, text)
        assert not RFC3986.validate(outer, text)
