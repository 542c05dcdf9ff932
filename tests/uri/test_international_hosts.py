"""Internationalized host names: ``host_unicode()`` reads a host's
A-labels and percent-encoded UTF-8 as Unicode, and ``build(idna=True)``
writes a Unicode name as A-labels (UTS 46, IDNA 2008)."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from urigrammar import URIError, parse, validate
from urigrammar.uri._reference import build
from urigrammar.uri._views import HOST_DELIMITERS, host_unicode

SCALARS = st.characters(max_codepoint=0xD7FF) | st.characters(min_codepoint=0xE000)
DELIMS = st.sampled_from(list(":/?#[]@!$&'()*+,;=% -._~"))
TEXT = st.text(DELIMS | SCALARS, max_size=12)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host.startswith("[") and host.endswith("]")
    return True


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("https://xn--bcher-kva.example/", "bücher.example"),
        ("https://XN--BCHER-KVA.example/", "bücher.example"),
        ("https://b%C3%BCcher.example/", "bücher.example"),
        ("https://my_host.xn--bcher-kva.example/", "my_host.bücher.example"),
        ("https://example.com/", "example.com"),
        ("https://[::1]/", "[::1]"),
        ("https://1.2.3.4/", "1.2.3.4"),
        ("/path", None),
    ],
)
def test_host_unicode(text: str, want: str | None) -> None:
    assert parse(text).host_unicode() == want


@pytest.mark.parametrize("text", ["//xn--abc-", "//a%FF"])
def test_host_unicode_refuses_what_is_not_text(text: str) -> None:
    with pytest.raises(URIError, match=r"^host: "):
        host_unicode(parse(text))


@pytest.mark.parametrize(
    ("host", "ascii_host"),
    [
        ("bücher.example", "xn--bcher-kva.example"),
        ("Bücher.Example.", "xn--bcher-kva.example."),  # UTS 46 maps case
        ("faß.de", "xn--fa-hia.de"),  # non-transitional: ß is kept
        ("a。b", "a.b"),  # ideographic full stop is a label separator
        ("my_host.example", "my_host.example"),  # all-ASCII: a plain reg-name
    ],
)
def test_idna_hosts(host: str, ascii_host: str) -> None:
    ref = build(host=host, idna=True)
    assert ref.host == ascii_host
    assert validate("reg-name", ref.host)


def test_idna_refuses_names_it_cannot_convert() -> None:
    with pytest.raises(URIError, match=r"^host: "):
        build(host="ü..example", idna=True)


@given(host=TEXT.filter(lambda h: not _is_address(h)))
def test_host_unicode_inverts_percent_encoding(host: str) -> None:
    assume("xn--" not in host.lower())
    ref = build(host=host)
    if any(char in HOST_DELIMITERS for char in host):
        # A URL's delimiter, escaped, names no host: it is refused, as
        # hostname refuses it.
        with pytest.raises(URIError, match="delimiter"):
            ref.host_unicode()
        return
    assert ref.host_unicode() == host
