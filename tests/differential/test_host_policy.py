"""``HostPolicy``: the allow list decided on the host every reader agrees
on (RFC 3986, the URL Standard through Ada, the numeric resolver), with
the mistakes allow lists are known for as vectors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u

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
