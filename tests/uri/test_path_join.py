"""Path join: ``joinpath`` and the ``/`` operator append segments to a
reference's path, each percent-encoded, and return a new reference that
reads back (``parse(str(x)) == x``)."""

from __future__ import annotations

import pytest
from hypothesis import given

import urigrammar as u
from _references import SEGMENTS, reads_back
from urigrammar.strategies import uri_references


@pytest.mark.parametrize(
    ("base", "segments", "expected"),
    [
        ("http://h/api", ("v1",), "http://h/api/v1"),
        ("http://h/api/", ("v1",), "http://h/api/v1"),
        ("http://h", ("v1",), "http://h/v1"),
        ("http://h/", ("v1",), "http://h/v1"),
        ("http://h/api", ("a/b", "c d"), "http://h/api/a%2Fb/c%20d"),
        ("http://h/api", ("",), "http://h/api/"),
        ("http://h/api?k=1#f", ("v1",), "http://h/api/v1?k=1#f"),  # query, fragment stay
        ("", ("a:b", "c:d"), "a%3Ab/c:d"),  # section 4.2: the first segment
        ("x", ("y",), "x/y"),
        ("urn:a", ("b",), "urn:a/b"),
        ("http://h/a", ("..",), "http://h/a/.."),  # a dot-segment stays one
        ("http://h/a", (), "http://h/a"),
    ],
)
def test_joinpath(base: str, segments: tuple[str, ...], expected: str) -> None:
    ref = u.parse(base)
    assert str(reads_back(ref.joinpath(*segments))) == expected


def test_slash_operator_is_joinpath() -> None:
    """resolve("http://h/api", "v1") is the urljoin trap; "/" appends."""
    api = u.parse("http://h/api")
    assert str(u.resolve(api, "v1")) == "http://h/v1"  # RFC 3986 section 5.2
    assert str(api / "v1" / "users") == "http://h/api/v1/users"
    assert api / "a/b" == api.joinpath("a/b")
    with pytest.raises(TypeError):
        _ = api / 1  # type: ignore[operator]


def test_joinpath_takes_only_str() -> None:
    with pytest.raises(TypeError):
        u.parse("http://h/").joinpath(b"a")  # type: ignore[arg-type]


@given(uri_references(), SEGMENTS)
def test_joined_segments_come_back_decoded(text: str, segments: list[str]) -> None:
    ref = u.parse(text)
    kept = list(ref.path_segments[: -1 if ref.path.endswith("/") else None])
    whole = kept + segments
    if ref.host is None and len(whole) > 2 and whole[:2] == ["", ""]:
        # Empty segments after an empty first one: "//" with no authority.
        with pytest.raises(u.URIError, match="'//'"):
            ref.joinpath(*segments)
        return
    joined = reads_back(ref.joinpath(*segments))
    if not joined.path:  # one empty segment on an empty path: still empty
        assert segments in ([], [""])
    elif segments:
        added = joined.path_segments[-len(segments) :]
        assert [u.percent_decode(s) for s in added] == segments
    assert (joined.query, joined.fragment, joined.authority) == (
        ref.query,
        ref.fragment,
        ref.authority,
    )
