"""parse(): components of RFC 3986 examples, round trips (section 5.3), and
first-match-wins for hosts (section 3.2.2), from both engines."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given

import urigrammar as u
from urigrammar.strategies import from_rule, uri_references

VECTORS = json.loads((Path(__file__).parent / "vectors" / "parse.json").read_text("utf-8"))
FIELDS = VECTORS["fields"]
CASES = [
    pytest.param(text, dict(zip(FIELDS, want, strict=True)), id=case_id)
    for case_id, text, want in VECTORS["cases"]
]
ENGINES = ["compiled", "abnf"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "want"), CASES)
def test_components(text: str, want: dict[str, object], engine: u.Engine) -> None:
    ref = u.parse(text, engine=engine)
    got = {name: getattr(ref, name) for name in FIELDS}
    assert got == want
    assert str(ref) == text


@pytest.mark.parametrize(("text", "want"), CASES)
def test_port_is_the_number_written(text: str, want: dict[str, object]) -> None:
    port_text = want["port_text"]
    ref = u.parse(text)
    if port_text:
        assert isinstance(port_text, str)
        assert ref.port == int(port_text)
    else:
        assert ref.port is None


def test_authority_and_flags() -> None:
    ref = u.parse("foo://user@example.com:8042/over/there?name=ferret#nose")
    assert ref.authority == "user@example.com:8042"
    assert not ref.is_relative
    assert not ref.is_absolute  # it has a fragment (section 4.3)
    assert u.parse("foo://example.com/").is_absolute
    rel = u.parse("//example.com/a")
    assert rel.is_relative
    assert not rel.is_absolute
    assert u.parse("a/b").authority is None
    assert u.parse("//h:").authority == "h:"


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
def test_path_segments(text: str, segments: tuple[str, ...]) -> None:
    assert u.parse(text).path_segments == segments


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
def test_parse_by_rule_rejects(rule: str, text: str) -> None:
    with pytest.raises(u.URISyntaxError):
        u.parse(text, rule)


def test_parse_by_rule_accepts() -> None:
    assert u.parse("http://a?q", "absolute-URI").query == "q"
    assert u.parse("./a:b", "relative-ref").path == "./a:b"
    assert u.parse("HTTP://A", "uri").scheme == "HTTP"


def test_parse_refuses_other_rules() -> None:
    with pytest.raises(u.URIError, match="parse\\(\\) takes"):
        u.parse("a", "path")


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
def test_error_offset(text: str, offset: int) -> None:
    with pytest.raises(u.URISyntaxError) as info:
        u.parse(text)
    assert info.value.offset == offset
    assert info.value.text == text
    assert info.value.rule == "URI-reference"
    caret_line = str(info.value).splitlines()[-1]
    assert caret_line.endswith("^")


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_agree_on_error(engine: u.Engine) -> None:
    with pytest.raises(u.URISyntaxError) as info:
        u.parse("http://[fe80::1%25en0]/", "URI", engine=engine)
    assert info.value.offset == 15


def test_reference_is_an_immutable_value() -> None:
    ref = u.parse("http://a/b?c#d")
    with pytest.raises(AttributeError):
        ref.host = "x"  # type: ignore[misc]
    assert ref == u.parse("http://a/b?c#d")
    assert hash(ref) == hash(u.parse("http://a/b?c#d"))
    assert ref != u.parse("http://a/b?c")
    assert u.parse("http://a?") != u.parse("http://a")
    assert u.parse("http://a:80") != u.parse("http://a:080")
    assert pickle.loads(pickle.dumps(ref)) == ref
    assert len({ref, u.parse("http://a/b?c#d")}) == 1


def test_reference_compares_only_to_references() -> None:
    ref = u.parse("http://a/b")
    assert ref != tuple(ref)
    assert tuple(ref) != ref
    with pytest.raises(TypeError):
        _ = ref < u.parse("http://a/c")  # type: ignore[operator]
    assert u.URIReference(scheme="http", host="a", path="/b") == ref


def test_constructor_keeps_port_and_text_consistent() -> None:
    assert u.URIReference(host="h", port=8080).port_text == "8080"
    assert u.URIReference(host="h", port="0080").port == 80
    assert u.URIReference(host="h", port="").port is None
    assert str(u.URIReference(scheme="http", host="h", port="")) == "http://h:"


def test_repr_hides_password() -> None:
    ref = u.parse("ftp://user:s3cret:more@example.com/")
    assert "s3cret" not in repr(ref)
    assert "more" not in repr(ref)
    assert "user" in repr(ref)
    assert "s3cret" in str(ref)


@given(uri_references())
def test_round_trip(text: str) -> None:
    assert str(u.parse(text)) == text


@given(uri_references())
def test_engines_give_same_components(text: str) -> None:
    assert u.parse(text) == u.parse(text, engine="abnf")


@given(from_rule("URI"))
def test_uri_parses_with_a_scheme(text: str) -> None:
    ref = u.parse(text, "URI")
    assert ref.scheme is not None
    assert text.startswith(ref.scheme + ":")


@given(from_rule("host"))
def test_host_kind_is_first_match(host: str) -> None:
    """Section 3.2.2: the kind is the first of IP-literal, IPv4address,
    reg-name that matches the whole host."""
    ref = u.parse(f"//{host}/")
    assert ref.host == host
    if host.startswith("["):
        expected = "IPv6address" if u.validate("IPv6address", host[1:-1]) else "IPvFuture"
    elif u.validate("IPv4address", host):
        expected = "IPv4address"
    else:
        expected = "reg-name"
    assert ref.host_kind == expected
