"""parse(): components of RFC 3986 examples, round trips (section 5.3), and
first-match-wins for hosts (section 3.2.2), from both engines."""

from __future__ import annotations

import gc
import inspect
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

import urigrammar as u
from _backends import C_RECORDS, On
from _budget import backend_settings, examples
from _references import fields
from urigrammar.strategies import from_rule, uri_references

#: CPython's type flag of a class whose instances the collector tracks.
HAVE_GC = 1 << 14

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "parse.json").read_text("utf-8")
)
FIELDS = VECTORS["fields"]
CASES = [
    pytest.param(text, dict(zip(FIELDS, want, strict=True)), id=case_id)
    for case_id, text, want in VECTORS["cases"]
]
METHODS = ["automata", "abnf"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("text", "want"), CASES)
def test_components(on: On, text: str, want: dict[str, object], method: u.Method) -> None:
    ref = on.parse(text, method=method)
    got = {name: getattr(ref, name) for name in FIELDS}
    assert got == want
    assert str(ref) == text


@pytest.mark.parametrize(("text", "want"), CASES)
def test_port_is_the_number_written(on: On, text: str, want: dict[str, object]) -> None:
    port_text = want["port_text"]
    ref = on.parse(text)
    if port_text:
        assert isinstance(port_text, str)
        assert ref.port == int(port_text)
    else:
        assert ref.port is None


def test_authority_and_flags(on: On) -> None:
    ref = on.parse("foo://user@example.com:8042/over/there?name=ferret#nose")
    assert ref.authority == "user@example.com:8042"
    assert not ref.is_relative
    assert not ref.is_absolute  # it has a fragment (section 4.3)
    assert on.parse("foo://example.com/").is_absolute
    rel = on.parse("//example.com/a")
    assert rel.is_relative
    assert not rel.is_absolute
    assert on.parse("a/b").authority is None
    assert on.parse("//h:").authority == "h:"


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("/a/b", ("", "a", "b")),
        ("a/b", ("a", "b")),
        ("", ()),
        ("/", ("", "")),
        ("/a/", ("", "a", "")),
        ("http://h", ()),
        ("http://h/x%2Fy/z", ("", "x%2Fy", "z")),
        ("mailto:a@b", ("a@b",)),
    ],
)
def test_path_segments(on: On, text: str, segments: tuple[str, ...]) -> None:
    assert on.parse(text).path_segments == segments


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        ("URI", "g"),  # no scheme
        ("URI", "//a"),
        ("absolute-URI", "http://a#f"),  # section 4.3: no fragment
        ("relative-ref", "http://a"),  # a URI is not a relative-ref
        ("relative-ref", "a:b"),
    ],
)
def test_parse_by_rule_rejects(on: On, rule: str, text: str) -> None:
    with pytest.raises(u.URISyntaxError):
        on.parse(text, rule)


def test_parse_by_rule_accepts(on: On) -> None:
    assert on.parse("http://a?q", "absolute-URI").query == "q"
    assert on.parse("./a:b", "relative-ref").path == "./a:b"
    assert on.parse("HTTP://A", "uri").scheme == "HTTP"


def test_parse_refuses_other_rules(on: On) -> None:
    with pytest.raises(u.URIError, match="parse\\(\\) takes"):
        on.parse("a", "path")


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("http://[fe80::1%25en0]/", 15),
        ("1http://a", 5),  # URI-reference: "1http" is a relative path
        ("http://a b/", 8),
        ("http://a/%zz", 10),
        ("http://a/%2", 11),  # ends inside a pct-encoded triplet
        ("http://[::1", 11),
        ("a:b:c\x00", 5),
        ("http://a/\u00e9", 9),
        ("http://u@v@w/", 10),
        ("//a:b/", 5),  # "a:b" may still be userinfo before an "@"
    ],
)
def test_error_offset(on: On, text: str, offset: int) -> None:
    with pytest.raises(u.URISyntaxError) as info:
        on.parse(text)
    assert info.value.offset == offset
    assert info.value.text == text
    assert info.value.rule == "URI-reference"
    caret_line = str(info.value).splitlines()[-1]
    assert caret_line.endswith("^")


@pytest.mark.parametrize("method", METHODS)
def test_engines_agree_on_error(on: On, method: u.Method) -> None:
    with pytest.raises(u.URISyntaxError) as info:
        on.parse("http://[fe80::1%25en0]/", "URI", method=method)
    assert info.value.offset == 15


def test_reference_is_an_immutable_value(on: On) -> None:
    ref = on.parse("http://a/b?c#d")
    with pytest.raises(AttributeError):
        ref.host = "x"  # type: ignore[misc]
    assert ref == on.parse("http://a/b?c#d")
    assert hash(ref) == hash(on.parse("http://a/b?c#d"))
    assert ref != on.parse("http://a/b?c")
    assert on.parse("http://a?") != on.parse("http://a")
    assert on.parse("http://a:80") != on.parse("http://a:080")
    assert pickle.loads(pickle.dumps(ref)) == ref
    assert len({ref, on.parse("http://a/b?c#d")}) == 1


@pytest.mark.skipif(not C_RECORDS, reason="references are Python records")
@pytest.mark.parametrize("parse", [u.parse, u.parse_iri])
def test_references_are_c_records_outside_the_collector(parse: Any) -> None:
    # Their class is the untracked one (engine.untracked) under the public
    # name: what parse makes, what pickle finds and what users subclass.
    ref = parse("http://u:p@a/b?c#d")
    cls = type(ref)
    assert cls is getattr(u, cls.__name__)
    assert inspect.getsource(cls).startswith(f"@untracked\nclass {cls.__name__}(")
    assert not gc.is_tracked(ref)
    assert not cls.__flags__ & HAVE_GC
    assert type(pickle.loads(pickle.dumps(ref))) is cls
    sub = type("Sub", (cls,), {"__slots__": ()})
    mine = sub(scheme="http", host="a", path="/b")
    assert type(mine) is sub
    assert sub.__flags__ & HAVE_GC
    assert str(mine.resolve("c")) == "http://a/c"


def test_reference_compares_only_to_references(on: On) -> None:
    ref = on.parse("http://a/b")
    assert ref != fields(ref)
    assert fields(ref) != ref
    assert ref != "http://a/b"
    with pytest.raises(TypeError):
        _ = ref < on.parse("http://a/c")  # type: ignore[operator]
    assert u.URIReference(scheme="http", host="a", path="/b") == ref


def test_constructor_keeps_port_and_text_consistent() -> None:
    assert u.URIReference(host="h", port=8080).port_text == "8080"
    assert u.URIReference(host="h", port="0080").port == 80
    assert u.URIReference(host="h", port="").port is None
    assert str(u.URIReference(scheme="http", host="h", port="")) == "http://h:"


def test_repr_hides_password(on: On) -> None:
    ref = on.parse("ftp://user:s3cret:more@example.com/")
    assert "s3cret" not in repr(ref)
    assert "more" not in repr(ref)
    assert "user" in repr(ref)
    assert "s3cret" in str(ref)


@backend_settings(max_examples=examples(50))
@given(uri_references())
def test_round_trip(on: On, text: str) -> None:
    assert str(on.parse(text)) == text


@backend_settings(max_examples=examples(50))
@given(uri_references())
def test_engines_give_same_components(on: On, text: str) -> None:
    assert on.parse(text) == on.parse(text, method="abnf")


@backend_settings(max_examples=examples(50))
@given(from_rule("URI"))
def test_uri_parses_with_a_scheme(on: On, text: str) -> None:
    ref = on.parse(text, "URI")
    assert ref.scheme is not None
    assert text.startswith(ref.scheme + ":")


@backend_settings(max_examples=examples(50))
@given(from_rule("host"))
def test_host_kind_is_first_match(on: On, host: str) -> None:
    """Section 3.2.2: the kind is the first of IP-literal, IPv4address,
    reg-name that matches the whole host."""
    ref = on.parse(f"//{host}/")
    assert ref.host == host
    if host.startswith("["):
        expected = "IPv6address" if on.validate("IPv6address", host[1:-1]) else "IPvFuture"
    elif on.validate("IPv4address", host):
        expected = "IPv4address"
    else:
        expected = "reg-name"
    assert ref.host_kind == expected
