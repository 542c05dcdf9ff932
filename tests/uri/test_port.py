"""The port (RFC 3986 section 3.2.3): ``port = *DIGIT`` has no bound, so a
reference keeps only the digits (``port_text``) and converts them on access
to ``port``, and no entry point converts a long port to ``int``.  No
timing here: linearity is shown by behaviour (nothing converted during
``parse``, nothing raising under the lowest int limit)."""

from __future__ import annotations

import copy
import pickle
import sys
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from _references import fields
from urigrammar.uri import _components

LONG = "9" * 4_000_000
LONG_URI = f"http://a:{LONG}"


@pytest.fixture
def lowest_int_limit() -> Iterator[None]:
    """The lowest limit ``sys.set_int_max_str_digits`` accepts: any int
    conversion of more than 640 digits raises ``ValueError`` under it."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def test_parse_stores_digits_not_an_int(on: On) -> None:
    ref = on.parse(LONG_URI)
    assert ref.port_text == LONG
    assert not any(isinstance(field, int) for field in fields(ref))
    assert str(ref) == LONG_URI


def test_long_port_gives_no_int(on: On) -> None:
    ref = on.parse(LONG_URI)
    with pytest.raises(u.PortTooLargeError) as info:
        _ = ref.port
    assert isinstance(info.value, u.URIError)
    assert info.value.rule == "port"
    assert info.value.text == LONG
    assert "port_text" in str(info.value)
    assert len(str(info.value)) < 400


def test_every_entry_point_on_a_long_port(
    on: On, lowest_int_limit: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """parse, str, repr, normalize, equivalent, resolve, relativize and
    pickling never convert the port: with the conversion made to fail, and
    under the lowest int limit, each still gives the right answer."""

    def refuse(text: str) -> int | None:
        raise AssertionError("port converted")

    monkeypatch.setattr(_components, "port_number", refuse)
    ref = on.parse(LONG_URI + "/a/./b")
    assert str(ref) == LONG_URI + "/a/./b"
    assert f"port=<{len(LONG)} digits>" in repr(ref)
    assert str(u.normalize(ref)) == LONG_URI + "/a/b"
    assert str(u.normalize("http://a:000" + LONG)) == LONG_URI + "/"
    assert u.equivalent(ref, "HTTP://A:0" + LONG + "/a/b")
    assert not u.equivalent(ref, "http://a:8" + LONG + "/a/b")
    assert str(u.resolve(ref, "../g")) == LONG_URI + "/g"
    assert str(u.resolve("http://h/", "//a:" + LONG)) == LONG_URI
    assert str(u.relativize(ref, LONG_URI + "/a/c")) == "c"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(ref, protocol)) == ref
    assert copy.deepcopy(ref) == ref
    assert on.parse(f"http://a:{LONG}").replace(path="/x").port_text == LONG


@pytest.mark.parametrize(
    ("text", "port_text"),
    [
        ("http://a:80/", ""),  # the default port goes
        ("http://a:0000080/", ""),
        ("http://a:/", ""),  # so does the empty one
        ("http://a:080/", ""),
        ("http://a:0/", "0"),
        ("http://a:000/", "0"),
        ("http://a:0081/", "81"),
        ("foo://a:0080/", "80"),  # no default for foo
    ],
)
def test_normalize_compares_digits(text: str, port_text: str) -> None:
    assert u.normalize(text).port_text == (port_text or None)


def test_int_port_past_the_bound_is_a_uri_error() -> None:
    """A port too long for ``str()`` to convert (``10**5000``) is a
    ``PortTooLargeError``, a URIError, never Python's ``ValueError``."""
    big = 10**5000
    with pytest.raises(u.PortTooLargeError):
        u.build(scheme="http", host="a", port=big)
    with pytest.raises(u.PortTooLargeError):
        u.parse("http://a/").replace(port=big)
    with pytest.raises(u.PortTooLargeError):
        u.URIReference.build(scheme="http", host="a", port=big)
    with pytest.raises(u.URIError):
        u.build(host="a", port=-1)


def test_bound_is_on_significant_digits(on: On) -> None:
    at_bound = "0" * 5000 + "7" * u.MAX_PORT_DIGITS
    ref = on.parse(f"//h:{at_bound}")
    assert ref.port == int("7" * u.MAX_PORT_DIGITS)
    assert str(ref.port) == "7" * u.MAX_PORT_DIGITS  # never past int's limit
    with pytest.raises(u.PortTooLargeError):
        _ = on.parse(f"//h:1{'0' * u.MAX_PORT_DIGITS}").port
    largest = 10**u.MAX_PORT_DIGITS - 1
    assert u.build(host="h", port=largest).port == largest


def test_conversion_ignores_a_lowered_int_limit(on: On, lowest_int_limit: None) -> None:
    digits = "1234567" * 600  # 4200 digits, past the 640 the limit allows
    assert on.parse(f"//h:{digits}").port_text == digits
    value = on.parse(f"//h:{digits}").port
    assert value is not None
    assert u.build(host="h", port=value).port_text == digits


@given(st.integers(min_value=0, max_value=10**u.MAX_PORT_DIGITS - 1))
def test_int_port_round_trips(value: int) -> None:
    ref = u.build(scheme="http", host="h", port=value)
    assert ref.port == value
    assert ref.port_text == str(value)


@backend_settings(max_examples=examples(50))
@given(st.text("0123456789", max_size=50), st.integers(min_value=0, max_value=5))
def test_port_is_the_value_of_its_digits(on: On, digits: str, zeros: int) -> None:
    ref = on.parse(f"//h:{'0' * zeros}{digits}")
    expected = int("0" * zeros + digits) if zeros or digits else None
    assert ref.port == expected


# --- port_or_default: the port, or the scheme's default when none is written


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
