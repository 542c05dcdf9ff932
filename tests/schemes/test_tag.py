"""The ``tag`` profile (RFC 4151): every tag URI of the RFC as a vector
(``tests/vectors/schemes/rfc4151.json``), section 2.2's calendar day, and
``abnf``'s reading of the same grammar, with ``datetime`` for the
calendar, as the oracle."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from _languages import agree, damaged
from _trees import values
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, parse_scheme, validate
from urigrammar.engine import Backend
from urigrammar.schemes import TagValue
from urigrammar.shipped import RFC4151
from urigrammar.strategies import from_rule

VECTORS = vectors("rfc4151.json")
VALID = VECTORS["valid"]
TAG = SCHEMES["tag"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_tag(row: dict[str, Any], backend: Backend) -> None:
    assert TAG.validate(row["text"], backend=backend)
    value = TAG.parse(row["text"], backend=backend)
    assert isinstance(value, TagValue)
    assert str(value) == row["text"]
    assert value.as_dict() == row["fields"]


def test_month_and_day_default_to_01() -> None:
    # Section 2.2: "2001-07" is the date 2001-07-01 and "2000" is 2000-01-01.
    for text, day in (
        ("tag:example.com,2001-07:x", datetime.date(2001, 7, 1)),
        ("tag:example.com,2000:x", datetime.date(2000, 1, 1)),
        ("tag:example.com,2000-01-01:x", datetime.date(2000, 1, 1)),
    ):
        value = parse_scheme(text)
        assert isinstance(value, TagValue)
        assert value.day == day
    # Section 2.4: different formulations are different tags.
    assert parse_scheme("tag:example.com,2000:x") != parse_scheme("tag:example.com,2000-01-01:x")


def _a_day(date: str) -> bool:
    """Section 2.2's calendar, read with ``datetime.date.fromisoformat``
    on the date completed to YYYY-MM-DD."""
    full = (date + "-01-01")[:10] if len(date) == 4 else (date + "-01")[:10]
    try:
        datetime.date.fromisoformat(full)
    except ValueError:
        return False
    return True


TAG_TEXTS = st.one_of(
    from_rule("tagURI", RFC4151),
    st.builds(
        "tag:{}.com,{:04d}-{:02d}-{:02d}:{}".format,
        st.sampled_from(["a", "x-y", "b@c"]),
        st.integers(0, 2999),
        st.integers(0, 13),
        st.integers(0, 32),
        st.sampled_from(["", "a/b?c#d", "%41"]),
    ),
    st.text(alphabet="ab1.-@,:#/?%", max_size=24).map(lambda t: "tag:" + t),
)


@given(TAG_TEXTS)
def test_the_verdict_is_rfc_3986_abnf_and_the_calendar(text: str) -> None:
    tree = RFC4151.abnf_parse("tagURI", text)
    expected = validate("URI", text) and tree is not None and _a_day(values(tree, "date")[0])
    assert TAG.validate(text) is expected


@given(TAG_TEXTS)
def test_fields_agree_with_abnfs_tree(text: str) -> None:
    if not TAG.validate(text):
        return
    value = TAG.parse(text)
    tree = RFC4151.abnf_parse("tagURI", text)
    assert value.authority_name == values(tree, "authorityName")[0]
    assert value.date == values(tree, "date")[0]
    assert value.specific == values(tree, "specific")[0]
    assert [value.fragment] == (values(tree, "fragment") or [None])


#: Dates at the calendar's edges: years 0000 to 9999, the leap rules'
#: centuries, every month's last day and the one after it.
_DATES = st.one_of(
    st.builds(
        "{:04d}-{:02d}-{:02d}".format,
        st.one_of(
            st.integers(0, 9999), st.sampled_from([0, 1, 4, 100, 400, 1900, 2000, 2100, 2400])
        ),
        st.integers(0, 13),
        st.sampled_from([0, 1, 9, 10, 19, 20, 28, 29, 30, 31, 32, 39]),
    ),
    st.builds("{:04d}-{:02d}".format, st.integers(0, 9999), st.integers(0, 13)),
    st.builds("{:04d}".format, st.sampled_from([0, 1, 9999])),
)
_DATED = st.builds("tag:example.com,{}:a".format, _DATES)


@given(damaged(st.one_of(TAG_TEXTS, _DATED), "0129-,:"))
def test_the_calendar_language_is_the_requirement(text: str) -> None:
    # grammar/rfc4151-requirements.abnf says what the predicate says, for
    # every tagURI; the native one-DFA verdict is the pure one.
    agree(TAG, text)


def test_the_calendar_language_knows_every_leap_year() -> None:
    # Every year's 29 February, against the predicate: the leap rule's
    # language is where a hand-written ABNF most easily goes wrong.
    for year in range(10000):
        text = f"tag:example.com,{year:04d}-02-29:a"
        agree(TAG, text)
