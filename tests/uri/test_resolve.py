"""Reference resolution (RFC 3986 section 5.2), recomposition safety (5.3,
4.2) and relativize: the section 5.4 tables, hand-worked cases, properties
over references generated from the grammar.  The ``resolve`` command:
cli/test_cli_resolve.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from urigrammar import URIError, URIReference, URISyntaxError, parse
from urigrammar.strategies import from_rule
from urigrammar.uri._components import evolve
from urigrammar.uri._reference import relativize, resolve
from urigrammar.uri._resolve import (
    has_dot_segments,
    merge,
    remove_dot_segments,
)

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "rfc3986_5_4.json").read_text("utf-8")
)
BASE = VECTORS["base"]


def _id(section: str, text: str) -> str:
    return f"{section}-{text}" if text else f'{section}-""'


STRICT = [pytest.param(ref, want, id=_id(s, ref)) for s, ref, want in VECTORS["strict"]]
NON_STRICT = [
    pytest.param(ref, want, id=_id(s, ref) + "-non-strict")
    for s, ref, want in VECTORS["non_strict"]
]
DOTS = [pytest.param(p, want, id=_id(s, p)) for s, p, want in VECTORS["remove_dot_segments"]]


# --- Section 5.4: the RFC's tables, one case each -------------------------


@pytest.mark.parametrize(("ref", "want"), STRICT)
def test_rfc_example_strict(ref: str, want: str) -> None:
    target = resolve(BASE, ref)
    assert str(target) == want
    assert target == parse(want)
    assert parse(BASE).resolve(ref) == target


@pytest.mark.parametrize(("ref", "want"), NON_STRICT)
def test_rfc_example_non_strict(ref: str, want: str) -> None:
    assert str(resolve(BASE, ref, strict=False)) == want
    assert parse(BASE).resolve(parse(ref), strict=False) == parse(want)


@pytest.mark.parametrize(("ref", "want"), STRICT)
def test_non_strict_differs_only_for_the_base_scheme(ref: str, want: str) -> None:
    # Section 5.2.2: only a scheme identical to the base's is ignored.
    if not ref.startswith("http:"):
        assert str(resolve(BASE, ref, strict=False)) == want


@pytest.mark.parametrize(("path", "want"), DOTS)
def test_rfc_remove_dot_segments_walkthrough(path: str, want: str) -> None:
    assert remove_dot_segments(path) == want


# --- Hand-worked cases -----------------------------------------------------


@pytest.mark.parametrize(
    ("path", "want"),
    [
        ("", ""),
        (".", ""),
        ("..", ""),
        ("/.", "/"),
        ("/..", "/"),
        ("/./", "/"),
        ("/../", "/"),
        ("a/..", "/"),  # E moves "a", then C leaves "/" in the input
        ("a/../b", "/b"),
        ("../a", "a"),
        ("./a/./b/", "a/b/"),
        ("/a/b/..", "/a/"),
        ("/a/b/../..", "/"),
        ("/a/./b/./", "/a/b/"),
        ("/..a/.b/b./a..", "/..a/.b/b./a.."),  # only complete segments count
        ("/a//../b", "/a/b"),
        ("/a/.//b", "/a//b"),
        ("/.//b", "//b"),
    ],
)
def test_remove_dot_segments_by_hand(path: str, want: str) -> None:
    assert remove_dot_segments(path) == want


@pytest.mark.parametrize(
    ("base_path", "has_authority", "ref_path", "want"),
    [
        ("", True, "g", "/g"),  # section 5.2.3, first rule
        ("", False, "g", "g"),
        ("/b/c/d;p", True, "g", "/b/c/g"),
        ("/b/c/", True, "g", "/b/c/g"),
        ("b", False, "g", "g"),  # no "/" at all: the whole base path goes
        ("a/b", False, "../g", "a/../g"),
    ],
)
def test_merge(base_path: str, has_authority: bool, ref_path: str, want: str) -> None:
    assert merge(base_path, ref_path, base_has_authority=has_authority) == want


@pytest.mark.parametrize(
    ("base", "ref", "want"),
    [
        # Bases without an authority.
        ("a:b", "c", "a:c"),
        ("a:b", "", "a:b"),
        ("a:b", "?q", "a:b?q"),
        ("a:b", "/c", "a:/c"),
        ("a:b", "//h", "a://h"),
        ("foo:/a/b", "c", "foo:/a/c"),
        ("foo:/a/b", "../c", "foo:/c"),
        ("foo:/a/b", "../../../c", "foo:/c"),
        ("mailto:x@y", "z@w", "mailto:z@w"),
        ("mailto:x@y", "#f", "mailto:x@y#f"),
        ("mailto:x@y", "?subject=hi", "mailto:x@y?subject=hi"),
        # A rootless base: "a/../c" loses "a" through step C, which leaves
        # the "/" in the input buffer.
        ("foo:a/b", "../c", "foo:/c"),
        ("foo:a/b/c", "../d", "foo:a/d"),
        # Bases with an empty path.
        ("http://a", "g", "http://a/g"),
        ("http://a", "", "http://a"),
        ("http://a", "..", "http://a/"),
        ("http://a?q", "", "http://a?q"),
        ("http://a?q", "#s", "http://a?q#s"),
        ("http://a?q", "?r", "http://a?r"),
        ("http://a?q", "g", "http://a/g"),
        # The base's fragment is ignored (section 5.1); the reference's is kept.
        ("http://a/b#f", "", "http://a/b"),
        ("http://a/b#f", "#g", "http://a/b#g"),
        ("http://a/b#f", "c", "http://a/c"),
        # Empty and undefined components stay apart (section 5.3).
        ("http://a/b?q", "?", "http://a/b?"),
        ("http://a/b?q", "#", "http://a/b?q#"),
        ("http://a/b", "//c", "http://c"),
        ("http://a/b", "//c?", "http://c?"),
        # The authority travels whole: userinfo and port as written.
        ("http://u@a:0080/b/c", "d", "http://u@a:0080/b/d"),
        ("http://[::1]:8/b", "../../c", "http://[::1]:8/c"),
        # Dot-segments in absolute references are removed too.
        ("http://a/b", "ftp://h/x/../y", "ftp://h/y"),
        ("http://a/b", "//h/./x", "http://h/x"),
    ],
)
def test_resolve_by_hand(base: str, ref: str, want: str) -> None:
    target = resolve(base, ref)
    assert str(target) == want
    assert target == parse(want)


def test_resolve_keeps_authority_fields_consistent() -> None:
    target = resolve("http://u@[::1]:08/b", "c")
    assert (target.userinfo, target.host, target.host_kind) == ("u", "[::1]", "IPv6address")
    assert (target.port, target.port_text) == (8, "08")


def test_non_strict_scheme_match_ignores_case() -> None:
    # Section 3.1: schemes are case-insensitive, so "HTTP" is the base's scheme.
    assert str(resolve(BASE, "HTTP:g", strict=False)) == "http://a/b/c/g"
    assert str(resolve(BASE, "HTTP:g")) == "HTTP:g"
    assert str(resolve(BASE, "http://x/y", strict=False)) == "http://x/y"
    assert str(resolve(BASE, "ftp:g", strict=False)) == "ftp:g"


@pytest.mark.parametrize(
    ("base", "ref"),
    [
        ("foo:/a", "..//b"),
        ("foo:/a/", "..//b"),
        ("foo:/a/b", "/..//b"),
        ("foo:/a", "foo:/.//b"),
        ("foo:", "/.//b"),
    ],
)
def test_hole_in_5_2_2_recomposes_without_an_authority(base: str, ref: str) -> None:
    # The section 5.2.2 target has no authority and the path "//b"; written
    # plainly that is "foo://b", whose host is "b".
    target = resolve(base, ref)
    assert target.host is None
    assert remove_dot_segments(target.path) == "//b"
    assert str(target) == "foo:/.//b"
    assert parse(str(target)) == target


def test_recomposition_prefixes_read_back() -> None:
    # The prefixed forms resolution writes into its paths read back as such.
    for ref in ("./a:b", "s:/.//b", "/.//b"):
        assert str(parse(ref)) == ref


def test_resolve_of_an_impossible_hand_built_base_cannot_happen() -> None:
    """A base with an authority and a relative path, which resolving "c"
    against would make ``http://ac``, cannot be constructed
    (``URIReference(scheme="http", host="a", path="b")`` raises)."""
    with pytest.raises(URIError):
        URIReference(scheme="http", host="a", path="b")
    base = URIReference(scheme="http", host="a", path="/b")
    assert str(resolve(base, "c")) == "http://a/c"


@pytest.mark.parametrize("base", ["/a/b", "a/b", "//h/a", "", "#f"])
def test_relative_base_is_refused_with_a_reason(base: str) -> None:
    with pytest.raises(URIError, match="scheme") as caught:
        resolve(base, "g")
    assert isinstance(caught.value, ValueError)
    assert caught.value.rule == "URI"
    assert caught.value.text == base
    # The caret is where the text stops being a URI.
    assert caught.value.offset == next((i for i, c in enumerate(base) if c in "/#"), len(base))
    with pytest.raises(URIError, match="scheme"):
        parse(base).resolve("g")


def test_invalid_text_is_a_syntax_error() -> None:
    with pytest.raises(URISyntaxError):
        resolve("http://a b/", "g")
    with pytest.raises(URISyntaxError):
        resolve(BASE, "g h")


# --- relativize --------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "want"),
    [
        # The section 5.4.1 targets, each back to its shortest reference.
        ("http://a/b/c/g", "g"),
        ("http://a/b/c/g/", "g/"),
        ("http://a/g", "/g"),  # shorter than "../../g"
        ("http://g", "//g"),
        ("http://a/b/c/d;p?y", "?y"),
        ("http://a/b/c/g?y", "g?y"),
        ("http://a/b/c/d;p?q#s", "#s"),
        ("http://a/b/c/g#s", "g#s"),
        ("http://a/b/c/;x", ";x"),
        ("http://a/b/c/d;p?q", ""),
        ("http://a/b/c/", "."),
        ("http://a/b/", ".."),
        ("http://a/b/g", "../g"),  # as long as "/b/g": the relative one wins
        ("http://a/", "/"),
        ("g:h", "g:h"),
        # Beyond the table.
        ("http://a/b/c/d;p", "d;p"),  # the base's query must go
        ("http://a/b/c/d;p?", "?"),
        ("http://a/b/c/d;p?q#", "#"),
        ("http://a/b/c/g:h", "./g:h"),  # section 4.2
        ("http://a/b/c//g", ".//g"),  # "/g" would be absolute
        ("http://a/b/g:h", "../g:h"),
        ("http://a", "//a"),  # no relative path gives an empty path
        ("http://u@a/b/c/g", "//u@a/b/c/g"),
        ("http://a:80/b/c/g", "//a:80/b/c/g"),  # authorities compare as written
        ("https://a/b/c/g", "https://a/b/c/g"),
        ("HTTP://a/b/c/g", "HTTP://a/b/c/g"),  # resolution copies the scheme as written
    ],
)
def test_relativize_by_hand(target: str, want: str) -> None:
    ref = relativize(BASE, target)
    assert str(ref) == want
    assert resolve(BASE, ref) == parse(target)
    assert parse(BASE).relativize(target) == ref


@pytest.mark.parametrize(
    ("base", "target", "want"),
    [
        ("http://a/b/c/d/e/f", "http://a/x", "/x"),
        ("http://a/b/c/d/e/f", "http://a/b/c/x", "/b/c/x"),  # shorter than "../../x"
        ("http://a/b/c/d/e/f", "http://a/b/c/d/x", "../x"),
        ("http://a", "http://a/x", "x"),
        ("http://a?q", "http://a", "//a"),
        ("http://a?q", "http://a/", "."),  # as long as "/": the relative one wins
        ("http://a/b#frag", "http://a/b", ""),
        ("foo:a/b", "foo:a/c", "c"),
        ("foo:a/b/c", "foo:a/d", "../d"),
        # From "a/" a relative path cannot reach a rootless path that does
        # not start with "a": ".." removes "a" but leaves a "/" (step C).
        ("foo:a/b", "foo:c/d", "foo:c/d"),
        ("foo:a/b", "foo:/c", "/c"),
        ("mailto:x@y", "mailto:z@w", "z@w"),
        ("mailto:x@y", "mailto:a:b", "./a:b"),
        ("foo:?q", "foo:", "."),
        ("foo:/a", "foo:/.//b", ".//b"),  # the section 5.2.2 hole
        ("foo:/a", "bar:/a", "bar:/a"),
        ("foo:/a", "foo://h/a", "//h/a"),
        ("foo://h/a", "foo:/a", "foo:/a"),  # no reference drops an authority
    ],
)
def test_relativize_other_bases(base: str, target: str, want: str) -> None:
    ref = relativize(base, target)
    assert str(ref) == want
    assert resolve(base, ref) == parse(target)


def test_relativize_refuses_what_no_reference_reaches() -> None:
    with pytest.raises(URIError, match="dot-segments"):
        relativize(BASE, "http://a/b/./c")
    with pytest.raises(URIError, match="target must be a URI"):
        relativize(BASE, "/b/c")
    with pytest.raises(URIError, match="base must be a URI"):
        relativize("/b/c", BASE)


# --- Properties over the grammar ---------------------------------------------


def _uris() -> st.SearchStrategy[URIReference]:
    return from_rule("URI").map(parse)


def _bases() -> st.SearchStrategy[URIReference]:
    return _uris().map(lambda ref: evolve(ref, fragment=None))


def _refs() -> st.SearchStrategy[URIReference]:
    return from_rule("URI-reference").map(parse)


# Paths rich in dot-segments: grammar segments mixed with "." and "..".
_dotty_paths = st.tuples(
    st.sampled_from(["", "/"]),
    st.lists(st.one_of(st.sampled_from([".", "..", ""]), from_rule("segment")), max_size=8),
).map(lambda parts: parts[0] + "/".join(parts[1]))


@given(st.one_of(_dotty_paths, from_rule("path")))
def test_remove_dot_segments_leaves_no_dot_segment(path: str) -> None:
    result = remove_dot_segments(path)
    assert not has_dot_segments(result)
    assert remove_dot_segments(result) == result
    # Every segment of the output is a segment of the input.
    assert set(result.split("/")) <= set(path.split("/")) | {""}


@given(from_rule("path"))
def test_remove_dot_segments_keeps_dot_free_paths(path: str) -> None:
    assume(not has_dot_segments(path))
    assert remove_dot_segments(path) == path


@given(_bases(), _refs())
def test_resolved_target_reads_back_the_same(base: URIReference, ref: URIReference) -> None:
    target = resolve(base, ref)
    assert parse(str(target)) == target
    assert target.scheme is not None
    assert target.fragment == ref.fragment
    if ref.scheme is None and ref.host is None and not ref.path:
        assert target.path == base.path  # taken as it is (section 5.2.2)
    elif target.host is None and target.path.startswith("/./"):
        assert remove_dot_segments(target.path).startswith("//")
    else:
        assert not has_dot_segments(target.path)


@given(_uris(), _refs())
def test_base_fragment_is_ignored(base: URIReference, ref: URIReference) -> None:
    assert resolve(base, ref) == resolve(evolve(base, fragment=None), ref)
    assert resolve(str(base), str(ref)) == resolve(base, ref)


@given(_bases(), _refs())
def test_non_strict_only_drops_the_base_scheme(base: URIReference, ref: URIReference) -> None:
    assume(ref.scheme is None or ref.scheme.lower() != (base.scheme or "").lower())
    assert resolve(base, ref, strict=False) == resolve(base, ref)


@given(_bases(), _refs())
def test_relativize_inverts_resolve(base: URIReference, ref: URIReference) -> None:
    target = resolve(base, ref)
    back = relativize(base, target)
    assert resolve(base, back) == target
    assert parse(str(back)) == back
    # Never longer than the reference it came from, nor than the target.
    assert len(str(back)) <= min(len(str(ref)), len(str(target)))


@given(_bases(), _uris())
def test_relativize_any_dot_free_target(base: URIReference, target: URIReference) -> None:
    assume(not has_dot_segments(target.path))
    back = relativize(base, target)
    assert resolve(base, back) == target
    assert len(str(back)) <= len(str(target))


@given(_bases(), from_rule("path-abempty"), st.none() | from_rule("query"))
def test_relativize_same_authority(base: URIReference, path: str, query: str | None) -> None:
    # Targets that share the base's scheme and authority, so the relative
    # forms are exercised more than by independent URIs.
    assume(not has_dot_segments(path))
    assume(base.host is not None or not path.startswith("//"))
    target = evolve(base, path=path, query=query)
    back = relativize(base, target)
    assert resolve(base, back) == target
    if path or base.host is not None:
        # Only an empty path without an authority can need the scheme
        # ("foo:" from "foo:/a/b": a relative path always merges to "/").
        assert back.scheme is None


@pytest.mark.parametrize("path", [["a"], None, b"/a/../b", 1])
def test_remove_dot_segments_takes_only_str(path: object) -> None:
    """A path that is not a ``str`` is a TypeError, not an AttributeError
    from inside the algorithm."""
    with pytest.raises(TypeError, match="str"):
        remove_dot_segments(path)  # type: ignore[arg-type]
