"""Paths from decoded segments: ``with_path_segments`` builds a path from
decoded segments, ``decoded_segments`` reads them back, and
``percent_encode(x, "path")`` encodes a path and keeps its slashes.  Each
new reference reads back (``parse(str(x)) == x``)."""

from __future__ import annotations

import urllib.parse

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import urigrammar as u
from _references import SEGMENTS, TEXT, reads_back
from urigrammar.strategies import from_rule


@given(st.sampled_from(["http://h", "", "foo:", "//h"]), SEGMENTS)
def test_decoded_segments_round_trip(base: str, segments: list[str]) -> None:
    ref = u.parse(base)
    if ref.host is not None and segments:
        segments = ["", *segments]  # under an authority, an absolute path
    assume(segments != [""])  # the empty path has no segments at all
    assume(ref.host is not None or segments[:2] != ["", ""])  # "//" needs a host
    made = reads_back(ref.with_path_segments(segments))
    assert made.decoded_segments == tuple(segments)


def test_with_path_segments_refuses_what_cannot_be() -> None:
    with pytest.raises(u.URIError):
        u.parse("http://h").with_path_segments(["a"])  # section 3.3
    with pytest.raises(u.URIError):
        u.parse("foo:").with_path_segments(["", "", "a"])  # "//a" reads as authority
    with pytest.raises(TypeError):
        u.parse("foo:").with_path_segments("abc")
    with pytest.raises(TypeError):
        u.parse("foo:").with_path_segments([1])  # type: ignore[list-item]


@given(from_rule("path"))
def test_decoded_segments_decode_path_segments(path: str) -> None:
    ref = u.parse("foo:" + path) if not path.startswith("//") else u.parse("//h" + path)
    try:
        expected = tuple(urllib.parse.unquote(s, errors="strict") for s in ref.path_segments)
    except UnicodeDecodeError:
        with pytest.raises(u.URIError):
            _ = ref.decoded_segments
        return
    assert ref.decoded_segments == expected


@given(TEXT)
def test_percent_encode_path_keeps_slashes(text: str) -> None:
    encoded = u.percent_encode(text, "path")
    assert u.validate("path", encoded)
    assert encoded.count("/") == text.count("/")
    assert u.percent_decode(encoded) == text
    assert encoded.split("/") == [u.percent_encode(s, "segment") for s in text.split("/")]
