"""Properties of ``urigrammar.differential`` (Hypothesis): no finding on
http(s) URLs that both readings take alike; never an exception on any
text; every finding a kind of ``KINDS`` at an offset inside the text; and
``agreed_host`` answering wherever ``diff`` finds nothing.

Needs ``can_ada`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import ipaddress
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("can_ada")

import urigrammar as u
from urigrammar.differential import KINDS, agreed_host, diff
from urigrammar.strategies import from_rule

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True).filter(
    lambda label: label[2:4] != "--"  # no A-label, nor what UTS 46 would check as one
)
# A top label with a letter: a host that ends in a number is the URL
# Standard's IPv4 (its own kind, ipv4-number).
_TOP = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True)
_NAME = st.builds(lambda labels, top: ".".join([*labels, top]), st.lists(_LABEL, max_size=3), _TOP)
_IPV4 = st.builds(lambda n: str(ipaddress.IPv4Address(n)), st.integers(0, 2**32 - 1))
_IPV6 = st.builds(
    lambda n, exploded: (
        f"[{ipaddress.IPv6Address(n).exploded if exploded else ipaddress.IPv6Address(n)}]"
    ),
    st.integers(0, 2**128 - 1),
    st.booleans(),
)
_CASED = _NAME.flatmap(
    lambda name: st.lists(st.booleans(), min_size=len(name), max_size=len(name)).map(
        lambda upper: "".join(c.upper() if up else c for c, up in zip(name, upper, strict=True))
    )
)
_HOST = st.one_of(_NAME, _CASED, _IPV4, _IPV6)
_PCHAR = st.one_of(
    st.sampled_from(list(_LETTERS + "0123456789-._~!$&'()*+,;=:@")),
    st.builds(lambda b: f"%{b:02X}", st.integers(0, 255)),
    st.builds(lambda b: f"%{b:02x}", st.integers(0, 255)),
)
# A segment that is "." or ".." only once decoded ("%2E", ".%2e") is read
# as a dot segment by the URL Standard and not by RFC 3986: a finding of
# its own kind (raw-dot-segment), so not one of these.
_SEGMENT = st.one_of(
    st.lists(_PCHAR, max_size=6)
    .map("".join)
    .filter(lambda s: s.lower().replace("%2e", ".") not in (".", "..")),
    st.sampled_from([".", ".."]),
)
_PATH = st.lists(_SEGMENT, max_size=5).map(lambda s: "".join("/" + x for x in s))
_PORT = st.one_of(
    st.just(""),
    st.builds(
        lambda p, zeros: ":" + "0" * zeros + str(p), st.integers(0, 65535), st.integers(0, 2)
    ),
    st.just(":"),
)
_QUERY = st.one_of(
    st.just(""),
    st.lists(_PCHAR | st.sampled_from("/?"), max_size=6).map(lambda q: "?" + "".join(q)),
)


@st.composite
def _http_urls(draw: st.DrawFn) -> tuple[str, str]:
    scheme = draw(st.sampled_from(["http", "https", "HTTP", "Https"]))
    host = draw(_HOST)
    url = f"{scheme}://{host}{draw(_PORT)}{draw(_PATH)}{draw(_QUERY)}"
    return url, host


@given(_http_urls())
def test_no_finding_on_http_urls_both_read_alike(case: tuple[str, str]) -> None:
    url, host = case
    assert diff(url) == []
    expected = host.lower()
    if host.startswith("["):
        expected = f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]"
    assert agreed_host(url) == expected


@given(_http_urls(), st.sampled_from(["https://base.example/a/b?q", "http://[::1]:8080/"]))
def test_no_finding_on_them_against_a_base(case: tuple[str, str], base: str) -> None:
    assert diff(case[0], base) == []


@given(
    st.text(max_size=40)
    | st.from_regex(r"[a-zA-Z]{1,5}:[\\/]{0,4}[^/]{0,12}(/.{0,8})?", fullmatch=True)
)
def test_any_text_gives_findings_of_known_kinds_inside_it(text: str) -> None:
    found = diff(text)
    for finding in found:
        assert finding.kind in KINDS
        assert 0 <= finding.offset <= len(text)
        json.dumps(finding.to_json())
    rfc_reads = u.validate("URI", text)
    if found and rfc_reads:
        assert all(f.rfc.error is None for f in found)


@given(from_rule("URI"))
def test_agreed_host_answers_where_diff_finds_nothing(text: str) -> None:
    if not diff(text):
        agreed_host(text)  # no exception
