"""``origin``: the scheme, host and port of an http, https, ws or wss
reference, normalized and with the scheme's default port filled in, as an
``Origin``; an opaque origin (``None``) for every other reference."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

import urigrammar as u
from urigrammar.strategies import from_rule


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
