"""The public constructor: keyword-only and checked, so
every ``URIReference`` that can exist satisfies ``parse(str(x)) == x``."""

from __future__ import annotations

import ipaddress
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.strategies import from_rule, uri_references


def test_positional_text_points_at_parse() -> None:
    """``URIReference("http://example.com/a")`` is a TypeError that points
    at ``parse()``: the constructor takes components by keyword, never a
    URL as the scheme."""
    with pytest.raises(TypeError, match=r"parse\(\)|parse\(text\)"):
        u.URIReference("http://example.com/a")  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("parts", "rule"),
    [
        ({"host": "a", "path": "b"}, "path-abempty"),  # was //ab
        ({"scheme": "http", "host": "a", "path": "b"}, "path-abempty"),  # resolved to http://ac
        ({"path": "//b"}, "path-absolute"),
        ({"scheme": "s", "path": "//b"}, "path-absolute"),
        ({"path": "a:b"}, "path-noscheme"),
        ({"scheme": "http x"}, "scheme"),
        ({"host": "a b"}, "host"),
        ({"host": "a", "port": "8a"}, "port"),
        ({"userinfo": "u"}, "authority"),  # a userinfo needs a host
        ({"port": 80}, "authority"),
        ({"query": "a#b"}, "query"),
        ({"fragment": "a#b"}, "fragment"),
        ({"path": "a?b"}, "path"),
    ],
)
def test_impossible_parts_are_refused(parts: dict[str, Any], rule: str) -> None:
    with pytest.raises(u.URIError) as info:
        u.URIReference(**parts)
    assert info.value.rule == rule


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        u.URIReference(path=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        u.URIReference(host="a", port=8.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        u.URIReference(scheme=b"http")  # type: ignore[arg-type]


def test_kind_and_port_text_come_from_the_grammar() -> None:
    ref = u.URIReference(scheme="http", host="1.2.3.4", port="0080", path="/")
    assert (ref.host_kind, ref.port_text, ref.port) == ("IPv4address", "0080", 80)
    assert u.URIReference(host="1.2.3.4.5").host_kind == "reg-name"
    assert u.URIReference(host=ipaddress.ip_address("::1")).host == "[::1]"
    assert u.URIReference(host="[v1.x]").host_kind == "IPvFuture"


def test_repr_is_the_constructor_call() -> None:
    ref = u.parse("ftp://u@[::1]:0021/a?b#c")
    assert repr(ref) == (
        "URIReference(scheme='ftp', userinfo='u', host='[::1]', port='0021', "
        "path='/a', query='b', fragment='c')"
    )
    assert eval(repr(ref), {"URIReference": u.URIReference}) == ref


@given(uri_references())
def test_constructor_takes_any_parsed_reference(text: str) -> None:
    ref = u.parse(text)
    made = u.URIReference(
        scheme=ref.scheme,
        userinfo=ref.userinfo,
        host=ref.host,
        port=ref.port_text,
        path=ref.path,
        query=ref.query,
        fragment=ref.fragment,
    )
    assert made == ref
    if ":" not in (ref.userinfo or ""):  # a password is hidden in repr
        assert eval(repr(made), {"URIReference": u.URIReference}) == ref


_PART = st.one_of(st.none(), st.text(max_size=6), from_rule("segment"))


@given(
    scheme=st.one_of(st.none(), from_rule("scheme"), st.text(max_size=4)),
    userinfo=_PART,
    host=st.one_of(st.none(), from_rule("host"), st.text(max_size=4)),
    port=st.one_of(st.none(), from_rule("port"), st.integers(-2, 99999)),
    path=st.one_of(from_rule("path"), st.text(max_size=6)),
    query=_PART,
    fragment=_PART,
)
def test_every_reference_that_exists_reads_back(**parts: Any) -> None:
    """Whatever goes in, either URIError or a reference x with
    parse(str(x)) == x (and it pickles to an equal one)."""
    try:
        ref = u.URIReference(**parts)
    except u.URIError:
        return
    assert u.parse(str(ref)) == ref
    assert pickle.loads(pickle.dumps(ref)) == ref
    assert u.resolve("http://b/c/d", ref) == u.resolve("http://b/c/d", str(ref))
