"""The URL Standard's own test data (web-platform-tests'
``url/resources/urltestdata.json``, in ``data/wpt/``): urigrammar hands each
input to Ada as the URL Standard's API would (a base parsed first, a NUL
and a lone surrogate dealt with as the binding needs), so Ada's reading is
the one the data expects; ``diff`` never raises on any input; and
``diff`` finds a difference exactly where RFC 3986's reading and the one
the data gives the URL Standard name different URLs, by a comparison of
its own here.

Needs ``can_ada`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
import string
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

import urigrammar as u
from urigrammar import URIError

pytest.importorskip("can_ada")

from urigrammar.differential import KINDS, diff
from urigrammar.differential._whatwg import whatwg_parse

DATA = Path(__file__).resolve().parents[1] / "data" / "wpt" / "urltestdata.json"
CASES: list[dict[str, Any]] = [
    case for case in json.loads(DATA.read_text("utf-8")) if isinstance(case, dict)
]
FIELDS = ("href", "protocol", "username", "password", "host", "hostname", "port")
FIELDS += ("pathname", "search", "hash")

# Cases for changes to the URL Standard newer than the Ada that can_ada
# 3.0.0 bundles: an opaque path's trailing spaces before "?" or "#" are
# stripped, and "^" is percent-encoded in a path.
NEWER_THAN_ADA = {
    "non-special:opaque  ?hi",
    "non-special:opaque  #hi",
    "foo://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~",
    "wss://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~",
}


def _id(case: dict[str, Any]) -> str:
    return ascii(case["input"])[1:-1][:60] + ("" if case["base"] is None else " @base")


def test_the_copy_is_the_one_its_readme_names() -> None:
    digest = hashlib.sha256(DATA.read_bytes()).hexdigest()
    assert digest == "0a983e7fc2ebdb7479aeb275297a5801b6bb302b60f225c84c84991505603832"
    assert len(CASES) == 866
    assert {case["input"] for case in CASES} >= NEWER_THAN_ADA


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_binding_reads_as_the_standard_says(case: dict[str, Any]) -> None:
    base = None if case["base"] is None else whatwg_parse(case["base"], None)
    if case["base"] is not None and base is None:
        assert case.get("failure")  # a base that is no URL: the input fails
        return
    url = whatwg_parse(case["input"], base)
    if case.get("failure"):
        assert url is None
        return
    assert url is not None
    got = {field: getattr(url, field) for field in FIELDS}
    expected = {field: case[field] for field in FIELDS}
    if case["input"] in NEWER_THAN_ADA and got != expected:
        pytest.xfail("a change to the URL Standard newer than can_ada 3.0.0's Ada")
    assert got == expected


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_diff_never_raises(case: dict[str, Any]) -> None:
    text = case["input"]
    for finding in diff(text):
        assert finding.kind in KINDS
        assert 0 <= finding.offset <= len(text)
    if case["base"] is None:
        return
    refused = None
    try:
        found = diff(text, case["base"])
    except URIError as exc:  # the base: no URI, or read differently by the two
        refused, found = exc, []
    assert refused is None or refused.text == case["base"]
    for finding in found:
        assert 0 <= finding.offset <= len(text)


# --- Whether RFC 3986 and the URL Standard read a URL alike, by the data --------

#: The default ports of the schemes whose URLs the data reads with one
#: (the URL Standard's special schemes but file, RFC 9110 and RFC 6455).
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}


#: RFC 3986 section 2.3's unreserved characters, as its prose lists them.
UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")


def _percent(text: str) -> str:
    """Section 6.2.2.1 and 6.2.2.2: hex digits in uppercase, unreserved
    characters decoded."""

    def one(match: re.Match[str]) -> str:
        char = chr(int(match[1], 16))
        return char if char in UNRESERVED else match[0].upper()

    return re.sub(r"%([0-9A-Fa-f]{2})", one, text)


def _unicode_label(label: str) -> str:
    """An A-label as the Unicode label Punycode (RFC 3492) decodes it to,
    when it decodes and encodes back to itself; any other label as it is."""
    if not label.startswith("xn--"):
        return label
    try:
        decoded = label[4:].encode("ascii").decode("punycode")
        if decoded.encode("punycode").decode("ascii") == label[4:]:
            return decoded
    except UnicodeError:
        pass
    return label


def _host(host: str, scheme: str) -> str:
    """A host as a client connects to it: an IPv6 address in RFC 5952's
    form (by ipaddress); a name percent-decoded, in lowercase, with its
    A-labels as their Unicode labels, since RFC 3986 section 3.2.2 has a
    name converted to IDNA as it is, and the URL Standard serializes
    A-labels; "localhost" in a file URL is the empty host (RFC 8089
    section 2)."""
    if host.startswith(("[v", "[V")):
        return host.lower()
    if host.startswith("["):
        return f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]"
    name = urllib.parse.unquote(host, errors="surrogateescape").lower()
    name = ".".join(_unicode_label(label) for label in name.split("."))
    return "" if scheme == "file" and name == "localhost" else name


def _path(path: str, scheme: str) -> str:
    """A path as a client fetches it: percent-encodings normalized, dot
    segments removed (RFC 3986 sections 6.2.2.2 and 5.2.2: every path of a
    URL with a scheme), "/" for an empty one under a scheme that says so."""
    normal = u.remove_dot_segments(_percent(path))
    return normal or ("/" if scheme in DEFAULT_PORTS or scheme == "file" else "")


def _rfc_reading(text: str, base: str | None) -> tuple[object, ...] | None:
    """RFC 3986's URL of ``text`` against ``base``: ``parse`` and section
    5.2's resolution; ``None`` where it reads none."""
    try:
        ref = u.parse(text)
        if base is not None:
            ref = u.resolve(u.parse(base), ref)
    except URIError:
        return None
    if ref.scheme is None:
        return None
    scheme = ref.scheme.lower()
    port = int(ref.port_text) if ref.port_text else DEFAULT_PORTS.get(scheme)
    host = None if ref.host is None else _host(ref.host, scheme)
    return scheme, host or None, port, _path(ref.path, scheme)


def _data_reading(case: dict[str, Any]) -> tuple[object, ...] | None:
    """The URL Standard's URL of the case, from the data's own fields."""
    if case.get("failure"):
        return None
    scheme = case["protocol"][:-1]
    port = int(case["port"]) if case["port"] else DEFAULT_PORTS.get(scheme)
    host = _host(case["hostname"], scheme) if case["hostname"] else None
    return scheme, host, port, _path(case["pathname"], scheme)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_diff_says_what_the_data_says_of_the_two_readings(case: dict[str, Any]) -> None:
    # diff finds a difference (a finding of severity error) exactly where
    # RFC 3986's reading and the one the data gives the URL Standard name
    # different URLs, compared as a client uses them; a base the two read
    # differently is refused, and no verdict is made.
    text, base = case["input"], case["base"]
    refused = None
    try:
        found = diff(text, base)
    except URIError as exc:
        refused, found = exc, []
    if refused is not None:
        assert base is not None
        assert refused.text == base
        assert diff(base) or not u.validate("URI", base)
        return
    parted = any(finding.severity == "error" for finding in found)
    rfc, data = _rfc_reading(text, base), _data_reading(case)
    if case["input"] in NEWER_THAN_ADA:
        return  # Ada reads these as the Standard did before the data's change
    assert parted == (rfc != data), (rfc, data, [finding.kind for finding in found])
