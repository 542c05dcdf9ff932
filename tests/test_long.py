"""Megabyte inputs in every component validate correctly (no timing here:
bench/bench_length.py measures speed and memory)."""

from __future__ import annotations

import sys

import pytest

import urigrammar as u

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
def test_long_valid(shape: str) -> None:
    text = _long(shape)
    assert u.validate("URI-reference", text)
    assert str(u.parse(text)) == text


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_long_with_bad_last_character(shape: str) -> None:
    text = _long(shape) + " "
    assert not u.validate("URI-reference", text)
    with pytest.raises(u.URISyntaxError) as info:
        u.check("URI-reference", text)
    assert info.value.offset == len(text) - 1
    assert len(str(info.value)) < 400  # the message shows a window, not 1 MB


def test_long_ipv4_like_host_is_a_reg_name() -> None:
    host = ".".join(["1"] * (MB // 2))
    ref = u.parse(f"//{host}/")
    assert ref.host_kind == "reg-name"


def test_huge_port_keeps_its_value() -> None:
    digits = "9" * 10_000  # more than int() converts at once
    ref = u.parse(f"http://h:{digits}/")
    assert ref.port == 10**10_000 - 1
    assert ref.port_text == digits


def test_long_port_of_nonzero_digits_has_its_value() -> None:
    digits = "12345" * 20_000  # 100,000 digits: more than int() takes at once
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the oracle: Python's own conversion
    try:
        expected = int(digits)
    finally:
        sys.set_int_max_str_digits(limit)
    assert u.parse(f"http://h:{digits}/").port == expected
