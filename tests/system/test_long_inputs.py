"""Megabyte inputs in every component validate correctly (no timing here:
bench/bench_length.py measures speed and memory)."""

from __future__ import annotations

import pytest

import urigrammar as u
from _backends import On

MB = 1_000_000

SHAPES = {
    "path": ("http://a/", "b/c", ""),
    "query": ("http://a/?", "k=v&", ""),
    "fragment": ("http://a/#", "x/?", ""),
    "host": ("http://", "a.b-", "/"),
    "userinfo": ("http://", "u:p%20", "@h/"),
    "port": ("http://h:", "0", "/"),
    "pct": ("http://a/", "%41", ""),
    "relative-path": ("", "seg/", ""),
    "scheme": ("a", "+", ":x"),
    "ipvfuture": ("http://[v1.", "a:", "]/"),
}


def _long(shape: str) -> str:
    head, unit, tail = SHAPES[shape]
    return head + unit * (MB // len(unit)) + tail


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_long_valid(on: On, shape: str) -> None:
    text = _long(shape)
    assert on.validate("URI-reference", text)
    assert str(on.parse(text)) == text


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_long_with_bad_last_character(on: On, shape: str) -> None:
    text = _long(shape) + " "
    assert not on.validate("URI-reference", text)
    with pytest.raises(u.URISyntaxError) as info:
        on.check("URI-reference", text)
    assert info.value.offset == len(text) - 1
    assert len(str(info.value)) < 400  # the message shows a window, not 1 MB


def test_long_ipv4_like_host_is_a_reg_name(on: On) -> None:
    host = ".".join(["1"] * (MB // 2))
    ref = on.parse(f"//{host}/")
    assert ref.host_kind == "reg-name"


# Ports longer than MAX_PORT_DIGITS: tests/uri/test_port.py.
