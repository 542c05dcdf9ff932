"""``diff`` and ``agreed_host`` over the Python parsers people chain
(``readers``): urllib.parse, urllib3, httpx, yarl and pydantic beside RFC
3986 and the URL Standard.  Vectors (``vectors/differential_readers.json``)
give each pair's findings on texts from CVEs and reports; properties: a
URL built from parts every reader reads alike gives no finding and passes
a policy that lists its host; no reading shows a password.

Needs every reader's library (``tox -e integrations``); the other envs skip
it.
"""

from __future__ import annotations

import importlib.metadata
import ipaddress
import json
import platform
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.differential import KINDS, READERS, HostPolicy, agreed_host, diff

for _library in ("can_ada", "urllib3", "httpx", "yarl", "pydantic_core"):
    pytest.importorskip(_library)

VECTORS = json.loads(
    (Path(__file__).parents[1] / "vectors" / "differential_readers.json").read_text("utf-8")
)
CASES: list[list[Any]] = VECTORS["cases"]
EVERY = tuple(READERS)
OTHERS = ("urllib", "urllib3", "httpx", "yarl", "pydantic")


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_each_pair_parts_where_its_vector_says(case: list[Any]) -> None:
    case_id, text, pair, expected = case
    found = diff(text, readers=pair)
    assert [[f.kind, f.offset] for f in found] == expected
    for finding in found:
        assert set(finding.readers) == set(pair)
        assert finding.kind in KINDS
        assert case_id.startswith(finding.kind + "/") or case_id.startswith("none/")


def test_every_reader_has_vectors_and_every_new_kind_one() -> None:
    parted = {reader for _, _, pair, found in CASES if found for reader in pair}
    assert parted >= set(OTHERS)
    kinds = {kind for *_, found in CASES for kind, _ in found}
    assert {"bracketed-host", "port-range", "invalid-a-label", "backslash"} <= kinds


def test_a_finding_names_its_readers_versions() -> None:
    (finding,) = diff("http://127.1/", readers=["urllib", "pydantic"])
    assert finding.readers == ("urllib", "pydantic")
    assert finding.versions == (
        platform.python_version(),
        importlib.metadata.version("pydantic_core"),
    )
    assert finding.rfc is None
    assert finding.whatwg is None
    record = finding.to_json()
    assert record["versions"]["pydantic"] == importlib.metadata.version("pydantic_core")
    assert record["readings"]["urllib"]["host"] == "127.1"
    assert record["readings"]["pydantic"]["host"] == "127.0.0.1"


def test_rfc3986_and_the_url_standard_part_as_they_always_do() -> None:
    text = "http://127.0.0.1\\@1.1.1.1/"
    classic = diff(text)
    both = diff(text, readers=["rfc3986", "whatwg", "urllib"])
    assert [f for f in both if f.readers == ("rfc3986", "whatwg")] == classic
    assert {f.readers for f in both} == {
        ("rfc3986", "whatwg"),
        ("rfc3986", "urllib"),
        ("whatwg", "urllib"),
    }


def test_readers_are_named_and_two_at_least() -> None:
    with pytest.raises(u.URIError, match="one of"):
        diff("http://a/", readers=["urllib", "requests"])
    with pytest.raises(u.URIError, match="two readers"):
        diff("http://a/", readers=["urllib", "urllib"])
    with pytest.raises(TypeError, match="not one str"):
        diff("http://a/", readers="urllib")


def test_agreed_host_answers_only_where_every_reader_reads_one_host() -> None:
    assert agreed_host("http://Example.COM/a", readers=EVERY) == "example.com"
    assert agreed_host("http://[::1]:8080/", readers=OTHERS) == "[::1]"
    assert agreed_host("mailto:a@b", readers=["urllib", "yarl"]) is None
    with pytest.raises(u.differential.HostDisagreementError) as caught:
        agreed_host("http://127.0.0.1\\@1.1.1.1/", readers=OTHERS)
    assert {f.kind for f in caught.value.findings} == {"backslash"}
    assert "1.1.1.1" in str(caught.value)
    with pytest.raises(u.URIError, match="none of the readers"):
        agreed_host("not a url", readers=["urllib", "yarl"])


def test_a_policy_with_readers_refuses_what_they_read_otherwise() -> None:
    policy = HostPolicy(["127.0.0.1", "1.1.1.1"], allow_internal=True, readers=OTHERS)
    assert not policy.allows("http://127.0.0.1\\@1.1.1.1/")
    assert policy.allows("http://1.1.1.1/")
    assert policy.readers == OTHERS


@pytest.mark.parametrize(
    "text",
    ["http://alice:s3cret@h/x", "http:alice:s3cret@h/", "http://alice:s3cret@h:99999/"],
)
def test_no_reading_shows_a_password(text: str) -> None:
    shown = json.dumps([f.to_json() for f in diff(text, readers=EVERY)])
    assert "s3cret" not in shown


_LABEL = st.from_regex(r"[a-z]([a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True).filter(
    lambda label: label[2:4] != "--"
)
_NAME = st.lists(_LABEL, min_size=1, max_size=3).map(lambda labels: ".".join([*labels, "example"]))
_IPV4 = st.integers(0, 2**32 - 1).map(lambda n: str(ipaddress.IPv4Address(n)))
_IPV6 = st.integers(0, 2**128 - 1).map(lambda n: f"[{ipaddress.IPv6Address(n)}]")
_SEGMENT = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_~", max_size=8)


@given(
    st.sampled_from(["http", "https"]),
    st.one_of(_NAME, _IPV4, _IPV6),
    st.one_of(st.just(""), st.integers(1, 65535).map(lambda p: f":{p}")),
    st.lists(_SEGMENT, max_size=4),
    st.one_of(st.just(""), _SEGMENT.map(lambda q: f"?q={q}")),
)
def test_parts_every_reader_reads_alike_give_no_finding(
    scheme: str, host: str, port: str, segments: list[str], query: str
) -> None:
    url = f"{scheme}://{host}{port}{''.join('/' + s for s in segments)}{query}"
    assert diff(url, readers=EVERY) == []
    agreed = agreed_host(url, readers=EVERY)
    assert agreed == (f"[{ipaddress.IPv6Address(host[1:-1])}]" if host.startswith("[") else host)
    default = {"http": 80, "https": 443}[scheme]
    ports = [int(port[1:])] if port else [default]
    policy = HostPolicy([host], allow_internal=True, ports=ports, readers=EVERY)
    assert policy.allows(url), url


@pytest.mark.parametrize(
    ("text", "pair", "base"),
    [
        ("http:u:s3cret%50W@h/", ("whatwg", "yarl"), None),
        ('http:u:s3cret"PW@x@h/', ("whatwg", "urllib3"), None),
        ("http:u:s3cret PW@x@h/", ("whatwg", "yarl"), None),
        ("http:///u:s3cret%PW@h/", ("whatwg", "urllib3"), None),
        ("http://u[:s3cretPW]@h/", ("whatwg", "urllib"), None),
        ("http://u\\:s3cretPW\\@h/", ("whatwg", "urllib"), None),
        ("http:/:s3cret\nPW@@h/", ("whatwg", "urllib"), None),
        ("http:u:s3cretPW@h/", ("rfc3986", "pydantic"), "http://example.com/a/b"),
        ("wss:\t//\u00fc:s3cretPW\\@&\u00fc@h", ("rfc3986", "urllib"), None),
    ],
)
def test_a_password_any_reader_reads_or_respells_is_hidden(
    text: str, pair: tuple[str, str], base: str | None
) -> None:
    # Readers decode, encode or cut a password otherwise than the text
    # writes it; each of their spellings is hidden, in readings and errors.
    found = diff(text, base, pair)
    assert "s3cret" not in json.dumps([f.to_json() for f in found]) + repr(found)
    shown = ""
    try:
        agreed_host(text, base, pair)
    except u.URIError as exc:
        shown = str(exc)
    assert "s3cret" not in shown


@pytest.mark.parametrize("text", ["http://127.1/", "http://4294967295/", "foo://0/"])
def test_a_name_only_the_resolver_reads_as_an_address_is_no_agreed_host(text: str) -> None:
    assert diff(text, readers=["rfc3986", "urllib"]) == []
    with pytest.raises(u.differential.HostDisagreementError, match="numeric resolver"):
        agreed_host(text, readers=["rfc3986", "urllib"])


@pytest.mark.parametrize(
    "text",
    [
        "a://][@",
        "http://][@",
        "http://[]@",
        "http://h:" + "1" * 4301,
        "http://h:" + "0" * 5000 + "80/",
    ],
)
def test_what_a_library_raises_is_its_refusal(text: str) -> None:
    # IndexError from yarl, ValueError from int() past Python's digit limit:
    # a reading that refuses, never an exception of diff's.
    for finding in diff(text, readers=EVERY):
        assert finding.kind in KINDS
    assert isinstance(HostPolicy(None, readers=["rfc3986", "urllib"]).allows(text), bool)
