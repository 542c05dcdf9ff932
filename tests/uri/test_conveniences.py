"""The conveniences: path join, one query parameter, decoded
views, paths from decoded segments and ``percent_encode(x, "path")``.  Each
returns a new reference that reads back (``parse(str(x)) == x``)."""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.strategies import from_rule, uri_references

# Decoded text: any scalar values but lone surrogates (no UTF-8 form).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
SEGMENTS = st.lists(TEXT, max_size=5)


def reads_back(ref: u.URIReference) -> u.URIReference:
    assert u.parse(str(ref)) == ref
    assert str(u.parse(str(ref))) == str(ref)
    return ref


# --- Path join ----------------------------------------------------------------


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


# --- Paths from decoded segments ----------------------------------------------


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


# --- One query parameter ------------------------------------------------------


def test_add_keeps_every_other_byte() -> None:
    ref = u.parse("http://h/?flag&q=a+b")
    assert str(ref.add_param("x", "1")) == "http://h/?flag&q=a+b&x=1"
    assert str(u.parse("http://h/").add_param("x", "1")) == "http://h/?x=1"
    assert str(u.parse("http://h/?").add_param("x", "1")) == "http://h/?x=1"
    assert str(u.parse("http://h/?a&").add_param("x", "1")) == "http://h/?a&x=1"
    assert str(u.parse("http://h/").add_param("a&b", "c=d e")) == "http://h/?a%26b=c%3Dd%20e"
    assert str(u.parse("http://h/").add_param("a", "b c", form=True)) == "http://h/?a=b+c"


def test_set_replaces_every_value_at_the_first_place() -> None:
    ref = u.parse("http://h/?a=1&b=2&a=3&c")
    assert str(ref.set_param("a", "9")) == "http://h/?a=9&b=2&c"
    assert str(ref.set_param("z", "9")) == "http://h/?a=1&b=2&a=3&c&z=9"
    assert str(u.parse("?%61=1&a=2").set_param("a", "x")) == "?%61=x"  # name as written
    assert str(u.parse("?q+x=1").set_param("q x", "2", form=True)) == "?q+x=2"


def test_remove_and_get() -> None:
    ref = u.parse("http://h/?a=1&&b=2&a=3&c")
    assert str(ref.remove_param("a")) == "http://h/?&b=2&c"
    assert str(u.parse("http://h/?a=1").remove_param("a")) == "http://h/"
    assert ref.remove_param("zz") is ref
    assert ref.get_param("a") == "1"
    assert ref.get_params("a") == ["1", "3"]
    assert ref.get_param("c") == ""
    assert ref.get_param("zz") is None
    assert ref.get_param("zz", "dflt") == "dflt"
    assert u.parse("?q=a+b").get_param("q") == "a+b"
    assert u.parse("?q=a+b").get_param("q", form=True) == "a b"
    # Another piece that is not UTF-8 does not get in the way.
    assert u.parse("?x=%FF&a=%C3%A9").get_param("a") == "é"
    with pytest.raises(u.URIError):
        u.parse("?x=%FF").get_param("x")
    assert u.parse("?x=%FF").get_param("x", errors="replace") == "\ufffd"
    with pytest.raises(u.URIError):
        u.parse("?x=1").get_param("x", errors="bogus")


def test_param_names_and_values_must_be_str() -> None:
    ref = u.parse("?a=1")
    for call in (
        lambda: ref.add_param(1, "a"),  # type: ignore[arg-type]
        lambda: ref.set_param("a", 1),  # type: ignore[arg-type]
        lambda: ref.remove_param(None),  # type: ignore[arg-type]
        lambda: ref.get_param(b"a"),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()


NAMES = st.text(st.sampled_from("ab=&+% é"), min_size=1, max_size=4)


@given(uri_references(), NAMES, TEXT, st.booleans())
def test_set_then_get(text: str, name: str, value: str, form: bool) -> None:
    ref = u.parse(text)
    try:
        ref.get_params(name, form=form)
    except u.URIError:
        assume(False)  # a value of that name is not UTF-8
    changed = reads_back(ref.set_param(name, value, form=form))
    assert changed.get_params(name, form=form) == [value]
    assert changed.get_param(name, form=form) == value
    removed = reads_back(changed.remove_param(name, form=form))
    assert removed.get_params(name, form=form) == []
    added = reads_back(ref.add_param(name, value, form=form))
    assert added.get_params(name, form=form)[-1] == value
    assert (added.path, added.fragment, added.authority) == (ref.path, ref.fragment, ref.authority)


@given(uri_references(), NAMES)
def test_other_pieces_stay_as_written(text: str, name: str) -> None:
    ref = u.parse(text)
    pieces = (ref.query or "").split("&")
    removed = ref.remove_param(name)
    kept = [p for p in pieces if p not in (removed.query or "").split("&")]
    # Only pieces of that name went, and nothing else was rewritten.
    assert all(u.percent_decode(p.partition("=")[0], errors="replace") == name for p in kept)
    assert set((removed.query or "").split("&")) <= set(pieces)


# --- Decoded views -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "user", "password", "hostname"),
    [
        ("http://us%65r:p%40ss:x@h/", "user", "p@ss:x", "h"),
        ("http://user@h/", "user", None, "h"),
        ("http://:@h/", "", "", "h"),
        ("http://h/", None, None, "h"),
        ("http://[::1]/", None, None, "::1"),
        ("http://[v1.x]/", None, None, "v1.x"),
        ("http://1.2.3.4/", None, None, "1.2.3.4"),
        ("http://b%C3%BCcher.example/", None, None, "bücher.example"),
        ("http://xn--bcher-kva.example/", None, None, "xn--bcher-kva.example"),
        ("mailto:a@b", None, None, None),
    ],
)
def test_views(text: str, user: str | None, password: str | None, hostname: str | None) -> None:
    ref = u.parse(text)
    assert (ref.user, ref.password, ref.hostname) == (user, password, hostname)


def test_password_docstring_carries_the_warning() -> None:
    doc = u.URIReference.password.__doc__ or ""
    assert "3.2.1" in doc
    assert "deprecated" in doc


@pytest.mark.parametrize(
    ("text", "port"),
    [
        ("http://h/", 80),
        ("HTTPS://h/", 443),
        ("http://h:/", 80),
        ("http://h:8080/", 8080),
        ("ws://h", 80),
        ("foo://h/", None),
        ("foo://h:7/", 7),
        ("/relative", None),
    ],
)
def test_port_or_default(text: str, port: int | None) -> None:
    assert u.parse(text).port_or_default() == port


def test_port_or_default_takes_schemes() -> None:
    assert u.parse("foo://h").port_or_default(schemes={"foo": u.SchemeRule(7)}) == 7


@pytest.mark.parametrize(
    ("text", "origin", "serialized"),
    [
        ("HTTP://Example.COM/a?b#c", ("http", "example.com", 80), "http://example.com"),
        ("https://h:8443/", ("https", "h", 8443), "https://h:8443"),
        ("https://h:443/", ("https", "h", 443), "https://h"),
        ("ws://[::1]:81", ("ws", "[::1]", 81), "ws://[::1]:81"),
        ("wss://%68/", ("wss", "h", 443), "wss://h"),
    ],
)
def test_origin(text: str, origin: tuple[Any, ...], serialized: str) -> None:
    got = u.parse(text).origin
    assert got == origin
    assert isinstance(got, u.Origin)
    assert str(got) == serialized


@pytest.mark.parametrize("text", ["ftp://h/", "mailto:a@b", "file:///etc", "/a", "http:x"])
def test_other_schemes_have_an_opaque_origin(text: str) -> None:
    assert u.parse(text).origin is None


@given(from_rule("URI"))
def test_equivalent_uris_have_equal_origins(text: str) -> None:
    ref = u.parse(text)
    try:
        origin = ref.origin
        normal = ref.normalize().origin
    except u.PortTooLargeError:
        return
    assert origin == normal


# --- Nothing but URIError escapes on any str ---------------------------------


@given(uri_references(), st.text(), st.text())
def test_conveniences_raise_only_uri_errors(text: str, a: str, b: str) -> None:
    ref = u.parse(text)
    calls: list[Any] = [
        lambda: ref / a,
        lambda: ref.joinpath(a, b),
        lambda: ref.with_path_segments([a, b]),
        lambda: ref.with_path_segments(["", a]),
        lambda: ref.add_param(a, b),
        lambda: ref.set_param(a, b, form=True),
        lambda: ref.remove_param(a),
        lambda: ref.get_param(a),
        lambda: ref.get_params(a, errors=b),
        lambda: ref.decoded_segments,
        lambda: (ref.user, ref.password, ref.hostname),
        lambda: (ref.origin, ref.port_or_default()),
        lambda: u.percent_encode(a, "path"),
    ]
    for call in calls:
        try:
            result = call()
        except u.URIError:
            continue
        if isinstance(result, u.URIReference):
            reads_back(result)
