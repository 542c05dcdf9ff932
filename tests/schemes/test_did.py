"""The ``did`` profile (W3C DID Core v1.0): the specification's example
DIDs and DID URLs as vectors (``tests/vectors/schemes/did-core.json``),
the lower-case scheme its prose requires, and ``abnf``'s reading of the
same grammar as the oracle."""

from __future__ import annotations

from typing import Any

import pytest
from _languages import agree, damaged
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, parse, parse_scheme, validate
from urigrammar.engine import Backend
from urigrammar.schemes import DIDValue
from urigrammar.shipped import DID_CORE
from urigrammar.strategies import from_rule

VECTORS = vectors("did-core.json")
VALID = VECTORS["valid"]
DID = SCHEMES["did"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_did_url(row: dict[str, Any], backend: Backend) -> None:
    assert DID.validate(row["text"], backend=backend)
    value = DID.parse(row["text"], backend=backend)
    assert isinstance(value, DIDValue)
    assert str(value) == row["text"]
    assert value.as_dict() == row["fields"]


DID_TEXTS = st.one_of(
    from_rule("did-url", DID_CORE),
    st.text(alphabet="dDiI:exampl123%A/?#-._~", max_size=24).map(lambda t: "did:" + t),
)


@given(DID_TEXTS)
def test_the_verdict_is_rfc_3986_abnf_and_the_lower_case_scheme(text: str) -> None:
    expected = (
        validate("URI", text)
        and DID_CORE.abnf_parse("did-url", text) is not None
        and text.startswith("did:")
    )
    assert DID.validate(text) is expected


@given(from_rule("did-url", DID_CORE))
def test_fields_agree_with_rfc_3986s_parse(text: str) -> None:
    text = "did" + text[3:]  # the scheme as the prose requires it
    value = parse_scheme(text)
    assert isinstance(value, DIDValue)
    reference = parse(text, "URI")
    assert (value.query, value.fragment) == (reference.query, reference.fragment)
    assert reference.path == value.did[len("did:") :] + value.path
    assert value.did == f"did:{value.method}:{value.method_specific_id}"


@given(damaged(DID_TEXTS, "dDiI:/?#%aZ09"))
def test_the_lower_case_language_is_the_requirement(text: str) -> None:
    # The language (grammar/did-core-lowercase.abnf) says what the
    # predicate says, and the native one-DFA verdict what the pure one does.
    agree(DID, text)
