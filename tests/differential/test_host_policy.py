"""``HostPolicy``: the allow list decided on the host every reader agrees
on (RFC 3986, the URL Standard through Ada, the numeric resolver), with
the mistakes allow lists are known for as vectors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urigrammar as u
from _budget import examples

pytest.importorskip("can_ada")

from urigrammar.differential import (
    HostDisagreementError,
    HostPolicy,
    HostPolicyError,
)

POLICY = HostPolicy(["api.example.com", "*.cdn.example.org", "bücher.example", "93.184.215.14"])


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        # Names: case (RFC 3986 section 3.2.2) and one trailing dot.
        ("https://api.example.com/v1", True),
        ("https://API.Example.COM/v1", True),
        ("https://api.example.com./v1", True),
        # Wildcards end at a dot: CVE-2026-24052 and CVE-2026-33393 matched
        # by suffix without one, or by prefix.
        ("https://a.cdn.example.org/", True),
        ("https://a.b.cdn.example.org/", True),
        ("https://cdn.example.org/", False),
        ("https://badcdn.example.org/", False),
        ("https://api.example.com.evil.net/", False),
        ("https://evil-api.example.com/", False),
        # IDNA: a listed U-label is its A-labels.
        ("https://xn--bcher-kva.example/", True),
        # Addresses by address.
        ("https://93.184.215.14/", True),
        ("https://[::ffff:93.184.215.14]/", True),
        # Userinfo that hides the host (RFC 3986 section 3.2.1): the host is
        # what follows the "@".
        ("https://api.example.com%2F@evil.net/", False),
        ("https://api.example.com@evil.net/", False),
        # Schemes and ports: a port absent or empty is the default.
        ("https://api.example.com:443/", True),
        ("https://api.example.com:/", True),
        ("http://api.example.com/", True),
        ("https://api.example.com:8443/", False),
        ("ftp://api.example.com/", False),
        ("wss://api.example.com/", False),
    ],
)
def test_vectors(url: str, allowed: bool) -> None:
    assert POLICY.allows(url) is allowed


@pytest.mark.parametrize(
    ("url", "error", "says"),
    [
        # Readers disagree: pydantic #9440's cases and the "urlparse checks,
        # requests fetches" reports (a backslash before "@").
        ("http://evil.com\\@api.example.com/", HostDisagreementError, "backslash"),
        ("http://127.1/", HostDisagreementError, "ipv4-number"),
        ("http://0x7f.0.0.1/", HostDisagreementError, "ipv4-number"),
        # Internal addresses, in any spelling, even unlisted with hosts=None.
        ("http://[::ffff:127.0.0.1]/", HostPolicyError, "no public service"),
        ("http://169.254.169.254/latest/meta-data/", HostPolicyError, "no public service"),
        ("http://10.0.0.1/", HostPolicyError, "no public service"),
        ("http://100.64.0.1/", HostPolicyError, "no public service"),
        ("http://[fe80::1]/", HostPolicyError, "no public service"),
        ("http://224.0.0.1/", HostPolicyError, "no public service"),
        ("http://0.0.0.0/", HostPolicyError, "no public service"),
        # IPv6 addresses that carry an internal IPv4 one, and site-local.
        ("http://[2002:7f00:1::]/", HostPolicyError, "no public service"),
        ("http://[2002:a9fe:a9fe::]/", HostPolicyError, "no public service"),
        ("http://[fec0::1]/", HostPolicyError, "no public service"),
        # RFC 6761 section 6.3: localhost is this machine, whatever the DNS.
        ("http://localhost/", HostPolicyError, "names this machine"),
        ("http://a.localhost./", HostPolicyError, "names this machine"),
        # Escapes: urllib.request looks the name up as written, urllib3
        # decodes it first.
        ("http://%67ood.example/", HostPolicyError, "written with escapes"),
        # No DNS name: an empty label, a name past 253 octets.
        ("http://.api.example.com/", HostPolicyError, "no DNS name"),
        ("http://" + "a." * 130 + "example/", HostPolicyError, "no DNS name"),
        ("mailto:a@example.com", HostPolicyError, "scheme"),
    ],
)
def test_refusals_say_why(url: str, error: type[Exception], says: str) -> None:
    for policy in (POLICY, HostPolicy(None)):
        with pytest.raises(error, match=says):
            policy.check(url)
        assert not policy.allows(url)


def test_any_public_host_and_internal_addresses_on_request() -> None:
    anyone = HostPolicy(None)
    assert anyone.allows("https://example.net/")
    assert anyone.allows("http://93.184.215.14/")
    assert not anyone.allows("http://127.0.0.1/")
    inside = HostPolicy(["127.0.0.1", "::1"], allow_internal=True, ports=[8080])
    assert inside.allows("http://127.0.0.1:8080/")
    assert inside.allows("http://[::1]:8080/")
    assert not inside.allows("http://127.0.0.2:8080/")  # not listed
    # Listed, but internal without allow_internal.
    assert not HostPolicy(["127.0.0.1"]).allows("http://127.0.0.1/")


def test_networks_and_a_host_too_long_for_dns() -> None:
    policy = HostPolicy(["93.184.215.0/24", "*.example.net"])
    assert policy.allows("http://93.184.215.9/")
    assert not policy.allows("http://93.184.216.9/")
    # Refused as no DNS name (RFC 1035 section 2.3.4) before any label is
    # looked up: the length check is what bounds the walk of the labels.
    with pytest.raises(HostPolicyError, match="no DNS name"):
        policy.check("http://" + "a." * 100_000 + "example.net/")


def test_check_gives_the_agreed_host() -> None:
    assert POLICY.check("https://API.example.com/") == "api.example.com"
    assert POLICY.check("https://[::ffff:93.184.215.14]/") == "[::ffff:5db8:d70e]"


@pytest.mark.parametrize(
    ("hosts", "kwargs", "says"),
    [
        (["*"], {}, "wildcard"),
        (["*.*.example"], {}, "wildcard"),
        (["http://example.com"], {}, "no host name"),
        (["example.com:443"], {}, "no host name"),
        (["good example"], {}, "no host name"),
        (["10.0.0.0/33"], {}, "no host name"),
        ("example.com", {}, "not one str"),
        (["a.example"], {"ports": [443.5]}, "list of int"),
        (["a.example"], {"allow_internal": "no"}, "a bool"),
        (["a.example"], {"schemes": [1]}, "list of str"),
        (["a.*.example"], {}, "wildcard"),
        (["*.example"], {"schemes": ["ftp"]}, "serves"),
        (["a.example"], {"ports": [70000]}, "TCP port"),
        (["a..example"], {}, "no host name"),
        ([1], {}, "a host is a str"),
    ],
)
def test_a_policy_that_means_nothing_is_refused(
    hosts: object, kwargs: dict[str, object], says: str
) -> None:
    with pytest.raises((ValueError, TypeError), match=says):
        HostPolicy(hosts, **kwargs)  # type: ignore[arg-type]


def test_a_percent_encoded_delimiter_names_no_host() -> None:
    # hostname, host_unicode and registrable_domain agree: no name.
    ref = u.parse("http://evil.com%40good.com/")
    for view in (lambda: ref.hostname, ref.host_unicode):
        with pytest.raises(u.URIError, match="delimiter"):
            view()
    pytest.importorskip("publicsuffixlist")
    assert u.registrable_domain(ref) is None


def test_a_policy_is_a_value() -> None:
    same = HostPolicy(
        ("93.184.215.14", "xn--bcher-kva.example.", "*.CDN.example.org", "api.example.com")
    )
    assert same == POLICY  # the entries as compared, whatever their order and spelling
    assert hash(same) == hash(POLICY)
    assert same.hosts == tuple(sorted(same.hosts or ()))
    with pytest.raises(AttributeError):
        POLICY.allow_internal = True  # type: ignore[misc]


_LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True).filter(
    lambda label: label[2:4] != "--"
)
_NAMES = st.lists(_LABEL, min_size=1, max_size=3).map(lambda labels: ".".join([*labels, "example"]))


@given(
    _NAMES, st.sampled_from(["", "/", "/a/b", "/a?q=1", "/#f"]), st.sampled_from(["http", "https"])
)
def test_a_url_every_reader_reads_alike_passes_a_policy_that_lists_its_host(
    name: str, rest: str, scheme: str
) -> None:
    url = f"{scheme}://{name}{rest}"
    assert not u.differential.diff(url)
    assert HostPolicy([name]).check(url) == name
    assert HostPolicy(["*." + name]).allows(f"{scheme}://www.{name}{rest}")
    assert not HostPolicy(["x" + name]).allows(url)
    assert not HostPolicy(["*." + name]).allows(url)


def _passes(policy: HostPolicy, url: str) -> bool:
    """``check``'s answer: every reader asked, every time."""
    try:
        policy.check(url)
    except u.URIError:
        return False
    return True


#: Hosts where a reading may part: A-labels Ada refuses or takes, names a
#: reader takes for an IPv4 address, labels past DNS's bounds, escapes.
_EDGE_HOSTS = [
    "localhost",
    "a.localhost",
    "xn--bcher-kva.example",
    "xn--BCHER-KVA.example",
    "xn--zz.example",
    "xn--a.example",
    "xn--example-.com",
    "1.2.3.4",
    "1.2.3.ab",
    "0x7f.1",
    "example.0x10",
    "a.123",
    "127.1",
    "-a.example",
    "a-.example",
    "a..example",
    "x" * 64 + ".example",
    ("abcdefgh" * 8)[:63] + ".example",
    ".".join(["a" * 60] * 5),
    "api.example.com",
    "API.example.com.",
    "[::1]",
    "a%2Eb.example",
    "a_b.example",
]
_POLICIES = [
    HostPolicy(["api.example.com", "*.example", "*.com", "1.2.3.4"]),
    HostPolicy(None, ports=[80, 443, 8443], allow_internal=True),
    HostPolicy(None, schemes=["https", "ws"]),
]
_PORTS = ["", ":", ":80", ":443", ":0", ":080", ":8443", ":65535", ":65536", ":99999"]
_RESTS = ["", "/", "/a/b", "/a?q=1", "/#f", "/ space", "/\\x"]


@pytest.mark.parametrize("policy", _POLICIES)
def test_allows_answers_as_check_does_on_hosts_where_readings_part(policy: HostPolicy) -> None:
    # allows decides on RFC 3986's reading alone where that settles what
    # every reader reads, and keeps its answers: each is check's, which
    # asks every reader.
    for host in _EDGE_HOSTS:
        for scheme in ("http", "HTTP", "https", "ws", "ftp"):
            for port in (*_PORTS[:2], ":080", ":65536", ":" + "9" * 5000):
                for userinfo in ("", "a@"):
                    url = f"{scheme}://{userinfo}{host}{port}/p"
                    assert policy.allows(url) is _passes(policy, url), url
                    assert policy.allows(url) is _passes(policy, url), url  # kept


@given(
    st.sampled_from(["http", "https", "HTTP", "ws", "wss", "ftp", "file"]),
    st.sampled_from(["", "user@", "a:b@"]),
    st.one_of(_NAMES, _NAMES.map(str.upper), _NAMES.map(lambda name: name + ".")),
    st.sampled_from(_PORTS),
    st.sampled_from(_RESTS),
    st.sampled_from(_POLICIES),
)
@settings(max_examples=examples(300))
def test_allows_answers_as_check_does(
    scheme: str, userinfo: str, host: str, port: str, rest: str, policy: HostPolicy
) -> None:
    url = f"{scheme}://{userinfo}{host}{port}{rest}"
    assert policy.allows(url) is _passes(policy, url)
    assert policy.allows(url) is _passes(policy, url)  # kept


def test_allows_answers_as_check_does_on_the_corpus() -> None:
    from pathlib import Path

    lines = (Path(__file__).parents[1] / "data" / "real-urls.txt").read_text("utf-8").splitlines()
    policy = HostPolicy(["*.com", "*.org", "en.wikipedia.org", "github.com"])
    answers = [policy.allows(line) for line in lines]
    assert answers == [_passes(policy, line) for line in lines]
    assert 0 < sum(answers) < len(lines)


def test_a_policy_pickles_without_its_kept_answers() -> None:
    import copy
    import pickle

    urls = [
        "https://api.example.com/",
        "https://a.b.example/",
        "https://evil.net/",
        "https://a.123/",
    ]
    policy = HostPolicy(["api.example.com", "*.example"])
    answers = [policy.allows(url) for url in urls]  # kept, one of them to be read again
    for made in (pickle.loads(pickle.dumps(policy)), copy.deepcopy(policy), copy.copy(policy)):
        assert made == policy
        assert [made.allows(url) for url in urls] == answers == [True, True, False, False]
    assert pickle.loads(pickle.dumps(policy))._kept == {}
