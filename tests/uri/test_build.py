"""build() and replace(): a reference from its parts, each encoded for
its component, and a reference with some parts replaced; every result
reads back as ``parse`` gives it.  Query pairs: test_query_pairs.py;
internationalized hosts: test_international_hosts.py; the ``build``
command: cli/test_cli_build.py."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from urigrammar import URIError, URIReference, URISyntaxError, parse
from urigrammar.strategies import from_rule
from urigrammar.uri._build import replace
from urigrammar.uri._encode import percent_decode
from urigrammar.uri._reference import build

SCALARS = st.characters(max_codepoint=0xD7FF) | st.characters(min_codepoint=0xE000)
DELIMS = st.sampled_from(list(":/?#[]@!$&'()*+,;=% -._~"))
TEXT = st.text(DELIMS | SCALARS, max_size=12)


# --- Unicode hosts and paths, and the reference parse would give


def test_idna_host_and_encoded_path() -> None:
    ref = URIReference.build(scheme="https", host="bücher.example", path="/a b/c", idna=True)
    assert str(ref) == "https://xn--bcher-kva.example/a%20b/c"
    assert ref.host_kind == "reg-name"


def test_unicode_host_is_percent_encoded_utf8_by_default() -> None:
    # Section 3.2.2: UTF-8, then each octet percent-encoded.
    ref = build(scheme="https", host="bücher.example", path="/a b", query="q=ü")
    assert str(ref) == "https://b%C3%BCcher.example/a%20b?q=%C3%BC"


def test_build_result_is_what_parse_gives() -> None:
    ref = build(scheme="http", userinfo="u", host="1.2.3.4", port="0080", path="/p")
    assert ref == parse("http://u@1.2.3.4:0080/p")
    assert ref.host_kind == "IPv4address"
    assert (ref.port, ref.port_text) == (80, "0080")


# --- Parts and their encodings


@pytest.mark.parametrize(
    ("parts", "want"),
    [
        ({}, ""),
        ({"scheme": "http", "host": "a"}, "http://a"),
        ({"scheme": "http", "host": "a", "path": "/"}, "http://a/"),
        ({"scheme": "file", "host": "", "path": "/etc/hosts"}, "file:///etc/hosts"),
        ({"scheme": "http", "host": "a", "query": ""}, "http://a?"),
        ({"scheme": "http", "host": "a", "fragment": ""}, "http://a#"),
        ({"scheme": "mailto", "path": "fred@example.com"}, "mailto:fred@example.com"),
        ({"scheme": "urn", "path": "example:animal:ferret"}, "urn:example:animal:ferret"),
        ({"userinfo": "us er:pw@x", "host": "h"}, "//us%20er:pw%40x@h"),
        ({"path": "/a/b?c#d%"}, "/a/b%3Fc%23d%25"),
        ({"path": "/a b/"}, "/a%20b/"),
        ({"query": "a=1&b=/?#"}, "?a=1&b=/?%23"),
        ({"fragment": "x y/?#"}, "#x%20y/?%23"),
        ({"host": "a b"}, "//a%20b"),
        ({"host": "h", "port": 0}, "//h:0"),
        ({"host": "h", "port": ""}, "//h:"),
        ({"scheme": "HTTP", "host": "Example.COM"}, "HTTP://Example.COM"),  # kept as given
    ],
)
def test_build(parts: dict[str, object], want: str) -> None:
    assert str(build(**parts)) == want  # type: ignore[arg-type]


def test_build_parts_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        build("http")  # type: ignore[misc]


@pytest.mark.parametrize(
    ("host", "want", "kind"),
    [
        ("127.0.0.1", "127.0.0.1", "IPv4address"),
        (ipaddress.IPv4Address("10.0.0.1"), "10.0.0.1", "IPv4address"),
        ("::1", "[::1]", "IPv6address"),
        ("2001:DB8::1", "[2001:DB8::1]", "IPv6address"),
        (ipaddress.IPv6Address("2001:db8::1"), "[2001:db8::1]", "IPv6address"),
        ("::ffff:1.2.3.4", "[::ffff:1.2.3.4]", "IPv6address"),
        ("[::1]", "[::1]", "IPv6address"),
        ("[v7.x:y]", "[v7.x:y]", "IPvFuture"),
        ("256.1.1.1", "256.1.1.1", "reg-name"),  # no IPv4address: a name
        ("example.com", "example.com", "reg-name"),
        ("", "", "reg-name"),
    ],
)
def test_hosts(host: str, want: str, kind: str) -> None:
    ref = build(scheme="x", host=host)
    assert ref.host == want
    assert ref.host_kind == kind


def test_bracketed_host_must_be_an_ip_literal() -> None:
    with pytest.raises(URISyntaxError, match=r"^host: ") as info:
        build(host="[zz]")
    assert info.value.offset == 1


def test_ipv6_zone_identifiers_are_refused() -> None:
    with pytest.raises(URIError, match="zone"):
        build(host="fe80::1%eth0")
    with pytest.raises(URIError, match="zone"):
        build(host=ipaddress.IPv6Address("fe80::1%eth0"))


def test_ports() -> None:
    assert build(host="h", port=8080).port == 8080
    ref = build(host="h", port="0080")
    assert (ref.port, ref.port_text, str(ref)) == (80, "0080", "//h:0080")
    with pytest.raises(TypeError):
        build(host="h", port=True)
    with pytest.raises(TypeError):
        build(host="h", port=80.0)  # type: ignore[arg-type]


# --- Impossible combinations: each error names its part


@pytest.mark.parametrize(
    ("parts", "part", "error"),
    [
        ({"host": "h", "path": "a/b"}, "path", URIError),  # section 3.3
        ({"scheme": "http", "host": "h", "path": "a"}, "path", URIError),
        ({"path": "//a"}, "path", URIError),  # section 3.3
        ({"scheme": "x", "path": "//a/b"}, "path", URIError),
        ({"scheme": "1http"}, "scheme", URISyntaxError),  # section 3.1
        ({"scheme": "ht tp"}, "scheme", URISyntaxError),
        ({"scheme": ""}, "scheme", URISyntaxError),
        ({"host": "h", "port": "8o"}, "port", URISyntaxError),  # section 3.2.3
        ({"host": "h", "port": -1}, "port", URIError),
        ({"port": 80}, "port", URIError),  # a port needs a host
        ({"userinfo": "u"}, "userinfo", URIError),
        ({"path": "\ud800"}, "path", URIError),  # no UTF-8 form
        ({"query": "a\udfff"}, "query", URIError),
    ],
)
def test_impossible_combinations(parts: dict[str, object], part: str, error: type) -> None:
    with pytest.raises(error, match=rf"^{part}: ") as info:
        build(**parts)  # type: ignore[arg-type]
    assert type(info.value) is error


def test_surrogate_offset_is_in_the_whole_path() -> None:
    with pytest.raises(URIError) as info:
        build(path="/ab/c\ud800")
    assert (info.value.text, info.value.offset) == ("/ab/c\ud800", 5)


def test_colon_in_a_relative_first_segment_is_encoded() -> None:
    # Section 4.2: "a:b" would read as scheme "a"; segment-nz-nc has no ":".
    ref = build(path="a:b/c:d")
    assert str(ref) == "a%3Ab/c:d"
    assert ref.scheme is None
    assert percent_decode(parse(str(ref)).path) == "a:b/c:d"
    assert str(build(scheme="x", path="a:b")) == "x:a:b"
    assert str(build(path="./a:b")) == "./a:b"


def test_type_errors() -> None:
    with pytest.raises(TypeError, match="path"):
        build(path=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="host"):
        build(host=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="query"):
        build(query=b"a")  # type: ignore[arg-type]


# --- Round trip: build, parse, percent_decode gives the parts back


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host.startswith("[") and host.endswith("]")
    return True


PARTS = st.fixed_dictionaries(
    {
        "scheme": st.none() | from_rule("scheme"),
        "userinfo": st.none() | TEXT,
        "host": st.none() | TEXT.filter(lambda h: not _is_address(h)),
        "port": st.none() | st.integers(min_value=0, max_value=99999),
        "path": TEXT | TEXT.map("/".__add__),
        "query": st.none() | TEXT,
        "fragment": st.none() | TEXT,
    }
)


def _impossible(parts: dict[str, Any]) -> bool:
    host, path = parts["host"], parts["path"]
    if host is None:
        has_authority_part = parts["userinfo"] is not None or parts["port"] is not None
        return has_authority_part or path.startswith("//")  # sections 3.2, 3.3
    return path != "" and not path.startswith("/")  # section 3.3


@given(parts=PARTS)
def test_round_trip(parts: dict[str, Any]) -> None:
    impossible = _impossible(parts)
    event("impossible" if impossible else "possible")  # --hypothesis-show-statistics
    if impossible:
        with pytest.raises(URIError):
            build(**parts)
        return
    ref = build(**parts)
    back = parse(str(ref))
    assert back == ref
    assert back.scheme == parts["scheme"]
    assert back.port == parts["port"]
    for name in ("userinfo", "host", "path", "query", "fragment"):
        written = getattr(back, name)
        assert (None if written is None else percent_decode(written)) == parts[name], name


# --- replace()

REF = parse("http://u@a.b:0080/p/q?x=1&y=%26#f")


def test_replace_changes_only_the_given_parts() -> None:
    assert str(REF.replace(path="/r")) == "http://u@a.b:0080/r?x=1&y=%26#f"
    assert str(replace(REF, scheme="https", fragment=None)) == "https://u@a.b:0080/p/q?x=1&y=%26"
    assert str(replace(REF, userinfo=None, port=None, query=None)) == "http://a.b/p/q#f"
    assert str(REF) == "http://u@a.b:0080/p/q?x=1&y=%26#f"  # unchanged


def test_replace_keeps_the_port_as_written() -> None:
    ref = replace(REF, path="/")
    assert (ref.port, ref.port_text) == (80, "0080")
    assert replace(REF, port=8080).port_text == "8080"


def test_replace_takes_raw_parts() -> None:
    assert replace(REF, path="/a%20b").path == "/a%20b"
    with pytest.raises(URISyntaxError, match=r"^path: "):
        replace(REF, path="/a b")
    with pytest.raises(URISyntaxError, match=r"^query: ") as info:
        replace(REF, query="a#b")
    assert info.value.offset == 1


def test_replace_hosts() -> None:
    ref = replace(REF, host="::1")
    assert (ref.host, ref.host_kind) == ("[::1]", "IPv6address")
    ref = replace(REF, host=ipaddress.IPv4Address("1.2.3.4"))
    assert (ref.host, ref.host_kind) == ("1.2.3.4", "IPv4address")
    assert replace(REF, host="xn--bcher-kva.example").host_kind == "reg-name"
    with pytest.raises(URISyntaxError, match=r"^host: "):
        replace(REF, host="a b")


@pytest.mark.parametrize(
    ("parts", "part"),
    [
        ({"host": None}, "userinfo"),  # userinfo and port need a host
        ({"host": None, "userinfo": None}, "port"),
        ({"path": "rel"}, "path"),
        ({"scheme": "1x"}, "scheme"),
        ({"port": "x"}, "port"),
    ],
)
def test_replace_validates(parts: dict[str, object], part: str) -> None:
    with pytest.raises(URIError, match=rf"^{part}: "):
        replace(REF, **parts)  # type: ignore[arg-type]


def test_replace_refuses_what_would_read_differently() -> None:
    rel = parse("a/b")
    with pytest.raises(URIError, match=r"^path: ") as info:
        rel.replace(path="a:b")  # would read as scheme "a"
    assert info.value.offset == 1
    with pytest.raises(URIError, match=r"^path: "):
        rel.replace(path="//x")  # would read as an authority
    assert str(rel.replace(path="./a:b")) == "./a:b"


def test_replace_unknown_part() -> None:
    with pytest.raises(TypeError):
        REF.replace(hostname="x")
