"""The ``ws`` and ``wss`` profiles (RFC 6455 section 3): the RFC's example
URIs as vectors (``tests/vectors/schemes/rfc6455.json``; its http ones go
to the http profile), section 3's fragment ban, default ports and
resource name, and the profile against ``abnf``'s reading of the same
grammar and RFC 3986's parse."""

from __future__ import annotations

from typing import Any

import pytest
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

import urigrammar
from urigrammar import SCHEMES, parse_scheme, validate
from urigrammar.engine import Backend, Grammar
from urigrammar.schemes import WsValue
from urigrammar.shipped import RFC3986, RFC6455, RFC6455_PUBLISHED, grammar_text

VECTORS = vectors("rfc6455.json")
VALID = VECTORS["valid"]
WS = SCHEMES["ws"]
WSS = SCHEMES["wss"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_valid(row: dict[str, Any], backend: Backend) -> None:
    profile = SCHEMES[row["text"].partition(":")[0]]
    assert profile.validate(row["text"], backend=backend)
    value = profile.parse(row["text"], backend=backend)
    assert str(value) == row["text"]
    for name, expected in row.get("fields", {}).items():
        assert getattr(value, name) == expected, name
    if "resource_name" in row:
        assert isinstance(value, WsValue)
        assert value.resource_name == row["resource_name"]


def test_secure_and_default_ports() -> None:
    # Section 3: port 80 for ws, 443 for wss; "secure" when the scheme
    # matches "wss" case-insensitively.
    plain = parse_scheme("ws://example.com")
    secure = parse_scheme("WsS://example.com")
    assert isinstance(plain, WsValue)
    assert isinstance(secure, WsValue)
    assert (plain.port, plain.secure) == (80, False)
    assert (secure.port, secure.secure) == (443, True)
    assert secure.origin == ("wss", "example.com", 443)


def test_path_is_path_abempty_as_the_prose_says() -> None:
    # As published, "path" would be filled by RFC 3986's own "path", which
    # also takes a rootless path right after the port's digits.
    assert RFC6455_PUBLISHED.validate("ws-URI", "ws://h:80a")
    assert not RFC6455.validate("ws-URI", "ws://h:80a")
    assert not WS.validate("ws://h:80a")


# --- against independent readings -------------------------------------------


def _abnf_oracle() -> Grammar:
    """RFC 6455's rules read by ``abnf``: the published file without its
    prose rules (``abnf`` cannot read prose), so that host, port and query
    come from RFC 3986, under the file that reads its "path"."""
    lines = [
        line
        for line in grammar_text("rfc6455.abnf").splitlines()
        if "<" not in line and not line.startswith(";")
    ]
    published = urigrammar.load_grammar("\n".join(lines) + "\n", imports=[RFC3986])
    return urigrammar.load_grammar(grammar_text("rfc6455-imports.abnf"), imports=[published])


ORACLE = _abnf_oracle()

PIECES = st.sampled_from(
    ["ws", "wss", "WS", "http", ":", "//", "/", "@", "u", "?", "#", "%23", "%2",
     "example.com", "[::1]", "127.0.0.1", ":80", "a", "~", " ", "é"]
)  # fmt: skip
TEXTS = st.lists(PIECES, max_size=10).map("".join)
LIKELY = st.builds(
    lambda s, a, p, q, f: f"{s}://{a}{p}{q}{f}",
    st.sampled_from(["ws", "wss", "Ws", "WSS"]),
    st.sampled_from(["", "example.com", "u@h", "h:", "h:80", ":80", "[::1]:1", "%7E"]),
    st.sampled_from(["", "/", "/a/b", "//x", "a"]),
    st.sampled_from(["", "?", "?q=1", "?/?"]),
    st.sampled_from(["", "#", "#f"]),
)


@given(st.one_of(TEXTS, LIKELY))
def test_the_verdict_is_rfc_3986_and_the_rfc_6455_rule(text: str) -> None:
    for rule, profile in (("ws-URI", WS), ("wss-URI", WSS)):
        expected = validate("URI", text) and ORACLE.abnf_parse(rule, text) is not None
        assert profile.validate(text) is expected, rule


@given(st.one_of(TEXTS, LIKELY))
def test_the_fields_are_rfc_3986s(text: str) -> None:
    scheme = text.partition(":")[0].lower()
    if scheme not in ("ws", "wss") or not SCHEMES[scheme].validate(text):
        return
    value = SCHEMES[scheme].parse(text)
    assert isinstance(value, WsValue)
    reference = urigrammar.parse(text)
    assert reference.fragment is None
    assert reference.userinfo is None
    assert value.host == reference.host
    assert value.port == (
        WsValue.DEFAULT_PORTS[scheme] if reference.port is None else reference.port
    )
    assert value.path == reference.path
    assert value.query == reference.query
    assert value.origin == reference.origin
