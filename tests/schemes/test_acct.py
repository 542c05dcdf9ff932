"""The ``acct`` profile (RFC 7565): every acct URI of the RFC as a vector
(``tests/vectors/schemes/rfc7565.json``), the published userpart that
rejects them and the grouped one that takes them, and ``abnf``'s reading
of the same grammar as the oracle."""

from __future__ import annotations

from typing import Any

import pytest
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, parse, parse_scheme, validate
from urigrammar.engine import Backend
from urigrammar.schemes import AcctValue
from urigrammar.shipped import RFC7565, RFC7565_PUBLISHED, grammar_text
from urigrammar.strategies import from_rule

VECTORS = vectors("rfc7565.json")
VALID = VECTORS["valid"]
ACCT = SCHEMES["acct"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_an_acct_uri(row: dict[str, Any], backend: Backend) -> None:
    assert ACCT.validate(row["text"], backend=backend)
    value = ACCT.parse(row["text"], backend=backend)
    assert isinstance(value, AcctValue)
    assert str(value) == row["text"]
    assert value.as_dict() == row["fields"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_the_published_userpart_takes_one_character_or_a_sub_delim_first(
    row: dict[str, Any], backend: Backend
) -> None:
    published = RFC7565_PUBLISHED.validate("acctURI", row["text"], backend=backend)
    assert published is row["published"]
    # abnf reads the published rule the same way: the binding is RFC 5234's.
    tree = RFC7565_PUBLISHED.abnf_parse("acctURI", row["text"])
    assert (tree is not None) is row["published"]


def test_the_overlay_only_groups_the_first_alternation() -> None:
    published = [line for line in grammar_text("rfc7565.abnf").splitlines() if "userpart" in line]
    assert published[-1] == "userpart     = unreserved / sub-delims"
    corrected = [
        line for line in grammar_text("rfc7565-errata.abnf").splitlines() if line[:1].isalpha()
    ]
    assert corrected == ["userpart     = ( unreserved / sub-delims )"]


def test_the_user_is_decoded_on_demand() -> None:
    value = parse_scheme("acct:juliet%40capulet.example@shoppingsite.example")
    assert isinstance(value, AcctValue)
    assert value.user == "juliet@capulet.example"


ACCT_TEXTS = st.one_of(
    from_rule("acctURI", RFC7565),
    st.text(alphabet="aB1-._~!$&'()*+,;=%4@:[]", max_size=20).map(lambda t: "acct:" + t),
)


@given(ACCT_TEXTS)
def test_the_verdict_is_rfc_3986_and_abnf(text: str) -> None:
    expected = validate("URI", text) and RFC7565.abnf_parse("acctURI", text) is not None
    assert ACCT.validate(text) is expected


@given(from_rule("acctURI", RFC7565))
def test_fields_agree_with_rfc_3986s_parse(text: str) -> None:
    if not validate("URI", text):
        return
    value = parse_scheme(text)
    assert isinstance(value, AcctValue)
    # RFC 3986 reads the whole as a path: userpart "@" host, and the
    # userpart has no "@", so the first "@" divides them.
    path = parse(text, "URI").path
    assert path == f"{value.userpart}@{value.host}"
    assert "@" not in value.userpart
