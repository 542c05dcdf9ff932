"""An IRI rule over ASCII reads as its URI rule (RFC 3987 section 2.2
widens RFC 3986 rule for rule with non-ASCII characters only): the pure
back end parses ASCII IRIs by the URI rule, so the two readings must be
one, down to the host's kind, which is named by the IRI rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from urigrammar.engine import PURE
from urigrammar.shipped import RFC3986, RFC3987
from urigrammar.strategies import from_rule
from urigrammar.uri._visitor import CAPTURES, LEAVES, iri_name

FIELDS = ("scheme", "userinfo", "host", "host_kind", "port", "path", "query", "fragment")
TWINS = list(zip(u.IRI_PARSE_RULES, u.PARSE_RULES, strict=True))


@pytest.mark.parametrize(("iri", "uri"), TWINS)
def test_the_uri_rules_captures_stand_where_the_iri_rules_do(iri: str, uri: str) -> None:
    ours = RFC3986.runs(uri, CAPTURES, LEAVES, backend=PURE).program.names
    theirs = RFC3987.runs(iri, CAPTURES, LEAVES, backend=PURE).program.names
    assert tuple(map(iri_name, ours)) == theirs


@given(st.sampled_from(TWINS).flatmap(lambda t: st.tuples(st.just(t), from_rule(t[1]))))
@backend_settings(max_examples=examples(150), deadline=None)
def test_an_ascii_iri_parses_as_the_iri_rule_says(
    on: On, case: tuple[tuple[str, str], str]
) -> None:
    (iri, _), text = case
    ours = on.parse_iri(text, iri)
    theirs = on.parse_iri(text, iri, method="abnf") if len(text) < 300 else ours
    assert [getattr(ours, f) for f in FIELDS] == [getattr(theirs, f) for f in FIELDS]
    assert isinstance(ours, u.IRIReference)


def test_a_non_ascii_text_after_ascii_ones_reads_by_the_iri_rule(on: On) -> None:
    assert on.parse_iri("http://example.com/").host_kind == "ireg-name"
    ref = on.parse_iri("http://ex\u00e4mple.com/\u00e4?\ue000#f")  # iprivate in iquery
    assert (ref.host, ref.host_kind, ref.query) == ("ex\u00e4mple.com", "ireg-name", "\ue000")
    with pytest.raises(u.URISyntaxError):
        on.parse_iri("http://example.com/\ue000")  # iprivate only in the query
    with pytest.raises(u.URISyntaxError):
        on.parse_iri("http://exa mple.com/")
