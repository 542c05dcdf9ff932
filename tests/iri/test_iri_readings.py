"""``parse_iri`` reads each IRI parse rule's texts as ``abnf`` reads them,
ASCII or not, down to the host's kind: on the pure back end the regex of
the narrowed body (``syntax.narrow``) reads them, from the spans of the
narrowed text's match."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from urigrammar.strategies import from_rule

FIELDS = ("scheme", "userinfo", "host", "host_kind", "port", "path", "query", "fragment")
_CASES = st.sampled_from(u.IRI_PARSE_RULES).flatmap(
    lambda rule: st.tuples(st.just(rule), from_rule(rule))
)


@given(case=_CASES)
@backend_settings(max_examples=examples(150), deadline=None)
def test_an_iri_parses_as_abnf_reads_it(on: On, case: tuple[str, str]) -> None:
    rule, text = case
    if set(u.BIDI_FORMATTING) & set(text):  # the grammar admits them; parse_iri does not
        with pytest.raises(u.URISyntaxError):
            on.parse_iri(text, rule)
        return
    ours = on.parse_iri(text, rule)
    theirs = on.parse_iri(text, rule, method="abnf") if len(text) < 300 else ours
    assert [getattr(ours, f) for f in FIELDS] == [getattr(theirs, f) for f in FIELDS]


def test_non_ascii_texts_read_by_the_iri_rules(on: On) -> None:
    ref = on.parse_iri("http://ex\u00e4mple.com/\u00e4?\ue000#f")  # iprivate in iquery
    assert (ref.host, ref.host_kind, ref.path, ref.query) == (
        "ex\u00e4mple.com",
        "ireg-name",
        "/\u00e4",
        "\ue000",
    )
    with pytest.raises(u.URISyntaxError):
        on.parse_iri("http://example.com/\ue000")  # iprivate only in the query
    with pytest.raises(u.URISyntaxError):
        on.parse_iri("http://exa mple.com/\u00e4")
    assert on.validate("IRI-reference", "//\U00010000/\uffef")
    assert not on.validate("IRI-reference", "//\ufffd/")  # past ucschar: in no class
