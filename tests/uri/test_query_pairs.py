"""The query as a list of pairs: ``query_pairs`` reads it (``&`` between
pairs, the first ``=`` in each, decoded, ``+`` as a space with
``form=True``), and ``with_query_pairs`` writes one, encoding the
delimiters.  One parameter at a time: test_query_params.py."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import URIError, URIReference, parse
from urigrammar.uri._query import query_pairs, with_query_pairs

SCALARS = st.characters(max_codepoint=0xD7FF) | st.characters(min_codepoint=0xE000)
DELIMS = st.sampled_from(list(":/?#[]@!$&'()*+,;=% -._~"))
TEXT = st.text(DELIMS | SCALARS, max_size=12)

REF = parse("http://u@a.b:0080/p/q?x=1&y=%26#f")


@pytest.mark.parametrize(
    ("query", "pairs"),
    [
        (None, []),
        ("", []),
        ("a=1&b=2&a=3", [("a", "1"), ("b", "2"), ("a", "3")]),
        ("a", [("a", "")]),
        ("a=", [("a", "")]),
        ("=b", [("", "b")]),
        ("=", [("", "")]),
        ("a=b=c", [("a", "b=c")]),
        ("&&a=1&", [("a", "1")]),
        ("k%3D=v%26w", [("k=", "v&w")]),
        ("q=%C3%BC+x", [("q", "ü+x")]),
        ("q=a/b?c", [("q", "a/b?c")]),
    ],
)
def test_query_pairs(query: str | None, pairs: list[tuple[str, str]]) -> None:
    assert query_pairs(URIReference(query=query)) == pairs


def test_form_reads_plus_as_space() -> None:
    ref = parse("?q=a+b%2Bc&x+y=1")
    assert ref.query_pairs(form=True) == [("q", "a b+c"), ("x y", "1")]
    assert ref.query_pairs() == [("q", "a+b+c"), ("x+y", "1")]


def test_query_pairs_error_offset_is_in_the_query() -> None:
    ref = parse("?a=1&b=%FF")
    with pytest.raises(URIError, match=r"^query: ") as info:
        ref.query_pairs()
    assert (info.value.text, info.value.offset) == ("a=1&b=%FF", 6)
    assert ref.query_pairs(errors="replace") == [("a", "1"), ("b", "\ufffd")]


def test_with_query_pairs_encodes_the_delimiters() -> None:
    ref = with_query_pairs(REF, [("a&b", "c=d+e f#"), ("ü", "%")])
    assert ref.query == "a%26b=c%3Dd%2Be%20f%23&%C3%BC=%25"
    assert ref.fragment == "f"
    assert str(with_query_pairs(REF, {"a b": "+"}, form=True).query) == "a+b=%2B"
    assert REF.with_query_pairs([]).query is None


@given(
    pairs=st.lists(st.tuples(TEXT, TEXT), max_size=5),
    form=st.booleans(),
)
def test_query_pairs_round_trip(pairs: list[tuple[str, str]], form: bool) -> None:
    ref = with_query_pairs(REF, pairs, form=form)
    assert parse(str(ref)) == ref
    assert query_pairs(ref, form=form) == pairs


# --- What with_query_pairs takes, and errors= checked up front ---------------


@pytest.mark.parametrize(
    "pairs",
    [["ab", "cd"], ["a=b"], "ab", "a=b", [("a", "b", "c")], [("a",)], [b"ab"], 5, [None]],
)
def test_with_query_pairs_takes_only_pairs(pairs: Any) -> None:
    """A pair is two strings: a string (``"ab"``, ``"a=b"``) is not read as
    a pair of characters, nor split at "=", and gives a TypeError."""
    with pytest.raises(TypeError, match="pair"):
        with_query_pairs(parse("http://h/"), pairs)


def test_with_query_pairs_takes_lists_tuples_and_mappings() -> None:
    ref = parse("http://h/")
    assert str(with_query_pairs(ref, [["a", "1"], ("b", "2")])) == "http://h/?a=1&b=2"
    assert str(with_query_pairs(ref, {"a": "1"})) == "http://h/?a=1"
    assert str(with_query_pairs(ref, iter([("a", "1")]))) == "http://h/?a=1"


def test_query_pairs_checks_errors_up_front() -> None:
    for text in ("http://h/", "http://h/?a=1", "http://h/?a=%FF"):
        with pytest.raises(URIError, match="surrogateescape"):
            query_pairs(parse(text), errors="bogus")
        with pytest.raises(URIError, match="surrogateescape"):
            parse(text).query_pairs(errors="bogus")
