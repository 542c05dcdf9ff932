"""The ``urn`` profile (RFC 8141): every example URN of the RFC as a
vector (``tests/vectors/schemes/rfc8141.json``), URN-equivalence (section
3.1), and the profile against ``abnf``'s reading of the same grammar."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, parse_scheme, validate
from urigrammar.engine import Backend
from urigrammar.schemes import URNValue
from urigrammar.shipped import RFC8141

VECTORS = vectors("rfc8141.json")
VALID = VECTORS["valid"]
URN = SCHEMES["urn"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_urn(row: dict[str, Any], backend: Backend) -> None:
    assert URN.validate(row["text"], backend=backend)
    value = URN.parse(row["text"], backend=backend)
    assert isinstance(value, URNValue)
    assert str(value) == row["text"]
    for name, expected in row.get("fields", {}).items():
        assert getattr(value, name) == expected, name


def test_section_3_2_equivalence_groups() -> None:
    groups: dict[str, set[URNValue]] = {}
    for row in VALID:
        if "same_as" in row:
            value = parse_scheme(row["text"])
            assert isinstance(value, URNValue)
            groups.setdefault(row["same_as"], set()).add(value)
    assert len(groups) == 8
    for first, members in groups.items():
        assert members == {parse_scheme(first)}, first
    firsts = [parse_scheme(first) for first in groups]
    assert len(set(firsts)) == len(firsts)  # no two groups are equivalent


def test_equivalence_ignores_r_q_and_f_but_not_the_nss_case() -> None:
    base = parse_scheme("urn:example:a123,z456")
    assert base == parse_scheme("urn:example:a123,z456?+r?=q#f")
    assert hash(base) == hash(parse_scheme("URN:EXAMPLE:a123,z456#f"))
    assert base != parse_scheme("urn:example:A123,z456")
    assert base != "urn:example:a123,z456"  # a value is not its text


def test_values_pickle_and_stay_immutable() -> None:
    value = parse_scheme("urn:example:a?+r?=q#f")
    again = pickle.loads(pickle.dumps(value))
    assert again == value
    assert str(again) == str(value)
    assert again.r_component == "r"
    with pytest.raises(AttributeError):
        value.nid = "other"  # type: ignore[misc]


# --- against the abnf engine's reading of the same grammar ---------------------

URN_TEXTS = st.from_regex(
    r"\A(?i:urn):[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]:[a-z0-9%:/?+=#@!$&'()*,;~.-]{0,20}\Z"
)


@given(URN_TEXTS)
def test_the_verdict_is_rfc_3986_and_the_rfc_8141_rule(text: str) -> None:
    expected = validate("URI", text) and RFC8141.abnf_parse("namestring", text) is not None
    assert URN.validate(text) is expected


@given(URN_TEXTS)
def test_fields_are_the_text_in_order(text: str) -> None:
    if not URN.validate(text):
        return
    value = URN.parse(text)
    rebuilt = f"{text[:3]}:{value.nid}:{value.nss}"
    if value.r_component is not None:
        rebuilt += "?+" + value.r_component
    if value.q_component is not None:
        rebuilt += "?=" + value.q_component
    if value.f_component is not None:
        rebuilt += "#" + value.f_component
    assert rebuilt == text
    assert value.r_component is None or "?=" not in value.r_component
