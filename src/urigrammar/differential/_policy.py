"""``HostPolicy``: the allow list of hosts, schemes and ports that a URL
must pass before a client fetches it, decided on the host that every
reader agrees on (``agreed_host``), so a URL that RFC 3986, the URL
Standard and the numeric resolver read differently is refused, with the
reason.

What it compares, and why:

* names by their A-labels (IDNA, UTS 46: a listed ``bücher.example`` is
  ``xn--bcher-kva.example``; a URL is a URI, so its host is written with
  A-labels), lowercase (RFC 3986 section 3.2.2: the host is
  case-insensitive), without one trailing dot (a fully qualified name, RFC
  1034 section 3.1, names the same host);
* ``*.example.org`` matches a name with more labels that ends with
  ``.example.org`` (the dot a boundary: not ``badexample.org``), and not
  ``example.org`` itself, which is listed on its own when meant;
* IP addresses by address (``ipaddress``): ``[::ffff:127.0.0.1]`` is
  127.0.0.1, and the URL Standard writes ``127.1`` as 127.0.0.1 (where
  RFC 3986 reads a name, the readers disagree and the URL is refused);
* the addresses no public service has (loopback, private, link-local,
  site-local, multicast, unspecified, reserved, shared, and IPv6 ones that
  carry such an IPv4 address: mapped, 6to4, Teredo), and the name
  ``localhost`` with the names under it (RFC 6761 section 6.3), are
  refused in any spelling unless ``allow_internal``, even when listed; an
  entry may also be a network (``192.0.2.0/24``);
* a host written with percent-encodings is refused: clients differ on
  whether they decode it (``urllib.request`` does not);
* a host that is no DNS name (over 253 octets, a label over 63, an empty
  label) is refused, and so is a URL the readers disagree on;
* a port absent or empty is the scheme's default (RFC 3986 section 6.2.3).

It checks names, not where a name resolves when a client connects: a
listed name whose DNS answer is 127.0.0.1 passes.  Resolve and check the
address at connect time for that (the DNS rebinding problem).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .._errors import URIError
from ..shipped import userinfo_secret
from ..uri import SCHEME_RULES, parse
from ._diff import Agreement, agreed_host, agreement
from ._readers import chosen_readers

__all__ = ["HostPolicy", "HostPolicyError"]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: The schemes a policy serves, whose default ports are SCHEME_RULES'.
_SCHEMES = ("http", "https", "ws", "wss")


class HostPolicyError(URIError):
    """A URL that ``HostPolicy.check`` refuses; the message says why, and
    the offset is where the scheme or the host starts."""


# Where users import it from (and where pickle finds it).
HostPolicyError.__module__ = "urigrammar.differential"


def _name(entry: str) -> str:
    """An allowed name as it is compared: A-labels, lowercase, no trailing
    dot.  ``ValueError`` for a name that is no host name."""
    name = entry.strip().lower().removesuffix(".")
    if not name.isascii():
        import idna  # only a listed U-label loads its tables

        try:
            name = str(idna.encode(name, uts46=True).decode("ascii"))
        except idna.IDNAError as exc:
            msg = f"{entry!r} is no internationalized domain name: {exc}"
            raise ValueError(msg) from None
    if not _dns_name(name) or not _LDH.fullmatch(name.replace(".", "")):
        msg = f"{entry!r} is no host name (letters, digits and hyphens, in labels between dots)"
        raise ValueError(msg)
    return name


#: The characters of a host name's labels (RFC 1123 section 2.1), and "_",
#: which service names use.
_LDH = re.compile(r"[a-z0-9_-]+")

#: A host ``HostPolicy._plain`` reads alone (lowercased): labels of
#: letters, digits and hyphens (RFC 1123 section 2.1), the last starting
#: with a letter, and a trailing dot.
_PLAIN_HOST = re.compile(r"(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*\.?")

#: What ``HostPolicy._plain`` answers: the URL allowed, refused, or to be
#: read by the readers.
_ALLOWED, _REFUSED, _READ = 1, 0, -1

#: The answers a policy keeps, by a URL's scheme, host and port as
#: written: a crawl or a proxy asks about a few hosts many times.
_KEPT = 65_536


def _dns_name(name: str) -> bool:
    """Whether ``name`` (no trailing dot) can be a DNS name: at most 253
    octets, labels of 1 to 63 (RFC 1035 section 2.3.4)."""
    if not 0 < len(name) <= 253 or name.startswith(".") or ".." in name:
        return False
    # A name of 63 characters or fewer has no longer label to look for.
    return len(name) <= 63 or all(len(label) <= 63 for label in name.split("."))


def _address(text: str) -> Address | None:
    """``text`` as an IP address (an IPv6 one in brackets or not), the
    IPv4 address an IPv4-mapped IPv6 one carries; else ``None``."""
    if not text or not (text[0] == "[" or text[-1].isdigit() or ":" in text):
        return None  # a name: an IPv4 address ends with a digit (ipaddress raises, slowly)
    try:
        found: Address = ipaddress.ip_address(text.removeprefix("[").removesuffix("]"))
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def _network(entry: str) -> Network:
    """An allowed network (``192.0.2.0/24``); ``ValueError`` for another
    text with a ``/``."""
    try:
        return ipaddress.ip_network(entry, strict=False)
    except ValueError:
        msg = f"{entry!r} is no host name, address or network"
        raise ValueError(msg) from None


def _internal(address: Address) -> bool:
    """Whether no public service has ``address``, or the IPv4 address an
    IPv6 one carries (6to4, Teredo's client)."""
    if isinstance(address, ipaddress.IPv6Address):
        carried = address.sixtofour or (address.teredo[1] if address.teredo else None)
        if carried is not None and _internal(carried):
            return True
        if address.is_site_local:
            return True
    return bool(
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_unspecified
        or address.is_reserved
        or (isinstance(address, ipaddress.IPv4Address) and address in _SHARED)
    )


#: RFC 6598's shared address space (carrier-grade NAT), which ``ipaddress``
#: does not count as private.
_SHARED = ipaddress.ip_network("100.64.0.0/10")


Entries = tuple[set[str], set[str], set[Address], set[Network]]


def _entries(hosts: Iterable[str] | None) -> Entries:
    """The names, wildcard suffixes (``.example.org``), addresses and
    networks of an allow list."""
    names: set[str] = set()
    wildcards: set[str] = set()
    addresses: set[Address] = set()
    networks: set[Network] = set()
    if isinstance(hosts, str):
        msg = "hosts is a list of hosts, not one str"
        raise TypeError(msg)
    for written in () if hosts is None else hosts:
        if not isinstance(written, str):
            msg = f"a host is a str, not {type(written).__name__}"
            raise TypeError(msg)
        entry = written.strip()
        address = _address(entry)
        if address is not None:
            addresses.add(address)
        elif "/" in entry:
            networks.add(_network(entry))
        elif entry.startswith("*.") and "*" not in entry[2:]:
            wildcards.add("." + _name(entry[2:]))
        elif "*" in entry:
            msg = f"{entry!r}: a wildcard is a whole first label, as in '*.example.org'"
            raise ValueError(msg)
        else:
            names.add(_name(entry))
    return names, wildcards, addresses, networks


def _choices(
    schemes: Iterable[str], ports: Iterable[int] | None, allow_internal: object
) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
    """The schemes and ports of a policy, checked and sorted."""
    if isinstance(schemes, str) or not all(isinstance(x, str) for x in schemes):
        msg = "schemes is a list of str"
        raise TypeError(msg)
    chosen = tuple(sorted({scheme.lower() for scheme in schemes}))
    unknown = [s for s in chosen if s not in _SCHEMES]
    if unknown or not chosen:
        served = ", ".join(_SCHEMES)
        msg = f"a HostPolicy serves {served}, not {', '.join(unknown) or 'none'}"
        raise ValueError(msg)
    numbers = None if ports is None else tuple(sorted(set(ports)))
    if numbers is not None and not all(type(p) is int for p in numbers):
        msg = "ports is a list of int"
        raise TypeError(msg)
    if numbers is not None and any(not 0 <= p <= 65535 for p in numbers):
        msg = "a port is a TCP port, 0 to 65535 (RFC 9293 section 3.1)"
        raise ValueError(msg)
    if not isinstance(allow_internal, bool):
        msg = "allow_internal is a bool"
        raise TypeError(msg)
    return chosen, numbers


@dataclass(frozen=True)
class HostPolicy:
    """Which URLs a client may fetch: ``hosts`` (names, ``*.`` wildcards,
    IP addresses; ``None`` for any host), ``schemes``, ``ports`` (``None``:
    each scheme's default port only), and whether addresses that no
    public service has pass (``allow_internal``); ``readers`` (as
    ``diff`` takes them) must each read the same host as well, a URL they
    read otherwise refused.  Immutable and hashable;
    ``allows(url)`` says yes or no, ``check(url)`` gives the agreed host or
    raises ``HostPolicyError`` (or the readers' ``HostDisagreementError``)
    saying why.  Needs the ``urigrammar[whatwg]`` extra (the URL Standard's
    reading).

    >>> from urigrammar.differential import HostPolicy
    >>> policy = HostPolicy(["api.example.com", "*.cdn.example.org"])
    >>> policy.allows("https://API.example.com./v1"), policy.allows("https://a.cdn.example.org/")
    (True, True)
    >>> policy.allows("https://cdn.example.org/"), policy.allows("https://badcdn.example.org/")
    (False, False)
    >>> policy.allows("https://api.example.com:8443/")
    False
    """

    hosts: Iterable[str] | None = None
    schemes: Iterable[str] = ("http", "https")
    ports: Iterable[int] | None = None
    allow_internal: bool = False
    readers: Iterable[str] | None = None
    _names: frozenset[str] = field(init=False, repr=False, compare=False)
    _wildcards: frozenset[str] = field(init=False, repr=False, compare=False)
    _addresses: frozenset[Address] = field(init=False, repr=False, compare=False)
    _networks: tuple[Network, ...] = field(init=False, repr=False, compare=False)
    _kept: dict[tuple[str | None, str | None, str | None], int] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        names, wildcards, addresses, networks = _entries(self.hosts)
        schemes, ports = _choices(self.schemes, self.ports, self.allow_internal)
        # The entries as they are compared, sorted: two policies that
        # allow the same are equal, however their entries were written.
        every = {*names, *("*" + w for w in wildcards), *map(str, addresses), *map(str, networks)}
        set_ = object.__setattr__
        set_(self, "hosts", None if self.hosts is None else tuple(sorted(every)))
        set_(self, "schemes", schemes)
        set_(self, "ports", ports)
        set_(self, "readers", None if self.readers is None else chosen_readers(self.readers))
        set_(self, "_names", frozenset(names))
        set_(self, "_wildcards", frozenset(wildcards))
        set_(self, "_addresses", frozenset(addresses))
        set_(self, "_networks", tuple(networks))
        # Answers by (scheme, host, port), each a function of the policy
        # (and of SCHEME_RULES' default ports): a memo, not state.
        set_(self, "_kept", {})

    def allows(self, url: str) -> bool:
        """Whether ``check(url)`` passes (without making its error)."""
        key = self._key(url)
        if key is not None:
            kept = self._kept
            answer = kept.get(key)
            if answer is None:
                answer = self._plain(*key)
                if len(kept) < _KEPT:
                    kept[key] = answer
            if answer != _READ:
                return answer == _ALLOWED
        try:
            found = self._agreement(url)
        except URIError:
            return False
        return self._refusal(found) is None

    def _key(self, url: str) -> tuple[str | None, str | None, str | None] | None:
        """The scheme, host and port of ``url`` as RFC 3986 reads them
        (``_plain`` decides on them alone), or ``None`` for a URL that is
        no URI, holds userinfo or is not ASCII, or when other readers must
        read it too."""
        if self.readers is not None or type(url) is not str or not url.isascii():
            return None
        try:
            ref = parse(url)
        except URIError:
            return None
        if ref.userinfo is not None:
            return None
        return ref.scheme, ref.host, ref.port_text

    def _plain(self, scheme: str | None, host: str | None, port: str | None) -> int:
        """``_ALLOWED`` or ``_REFUSED`` for a URL of that scheme, host and port (as
        written, no userinfo) whose RFC 3986 reading alone settles what
        every reader reads, else ``_READ``: a scheme the policy serves, as
        written (lowercase), a port of at most five digits (one past 65535
        the URL Standard refuses, and no policy allows), and a host of
        letters, digits and hyphens in labels, the last one starting with
        a letter (so no reader takes it for an IPv4 address), with no
        A-label (which the URL Standard decodes and checks).  The URL
        Standard then reads the host lowercased, as ``agreement`` would
        find."""
        if scheme is None or scheme not in self.schemes or not host:
            return _READ
        name = host.lower()
        if not _PLAIN_HOST.fullmatch(name) or "xn--" in name:
            return _READ
        if port and len(port) > 5:
            return _READ  # no policy allows it (and int() refuses 4,300 digits)
        at = len(scheme) + 3
        refusal = self._decision(scheme, name, at, int(port) if port else None, None)
        return _ALLOWED if refusal is None else _REFUSED

    def __getstate__(self) -> dict[str, object]:
        # The kept answers stay with the process that found them.
        state = dict(self.__dict__)
        state["_kept"] = {}
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)

    def _agreement(self, url: str) -> Agreement:
        """What RFC 3986 and the URL Standard agree on, when every one of
        ``readers`` (if any) reads that host too."""
        found = agreement(url)
        if self.readers is not None:
            agreed_host(url, readers=self.readers)
        return found

    def check(self, url: str) -> str:
        """The host every reader reads from ``url``, as the URL Standard
        writes it, when the policy allows the URL; else ``URIError`` (the
        readers' ``HostDisagreementError``, or ``HostPolicyError``) saying
        why."""
        found = self._agreement(url)
        refusal = self._refusal(found)
        if refusal is not None:
            why, offset = refusal
            raise HostPolicyError(
                f"refused: {why}", rule="host", text=url, offset=offset, secrets=userinfo_secret
            )
        assert found.host is not None
        return found.host

    def _refusal(self, found: Agreement) -> tuple[str, int] | None:
        """Why the policy refuses what the readers agree on, and where (the
        scheme, or the host), or ``None`` when it allows it."""
        url, target, host = found.url, found.target, found.host
        scheme = url.protocol[:-1] if url is not None else ""
        if scheme not in self.schemes:
            return f"the scheme {scheme!r} is not one of {', '.join(self.schemes)}", 0
        if not host or url is None or target is None:
            return "the URL has no host", 0
        userinfo = target.userinfo
        at = len(scheme) + 3 + (0 if userinfo is None else len(userinfo) + 1)
        if "%" in (target.host or ""):
            return "the host is written with escapes, which clients read differently", at
        return self._decision(scheme, host, at, int(url.port) if url.port else None, _address(host))

    def _decision(
        self, scheme: str, host: str, at: int, port: int | None, address: Address | None
    ) -> tuple[str, int] | None:
        """Why the policy refuses the agreed ``host`` (at offset ``at``, an
        IP address when ``address``) and ``port`` (``None``: the scheme's
        default) of a URL of ``scheme``, or ``None`` when it allows them."""
        if address is not None:
            if _internal(address) and not self.allow_internal:
                return f"{address} is an address no public service has", at
            listed = address in self._addresses or any(address in n for n in self._networks)
            if self.hosts is not None and not listed:
                return f"the address {address} is not listed", at
        else:
            name = host.removesuffix(".")
            if not _dns_name(name):
                return "the host is no DNS name (RFC 1035 section 2.3.4)", at
            local = name == "localhost" or name.endswith(".localhost")
            if local and not self.allow_internal:
                return f"{name!r} names this machine (RFC 6761 section 6.3)", at
            if self.hosts is not None and not self._listed(name):
                return f"the host {name!r} is not listed", at
        rule = SCHEME_RULES.get(scheme)
        default = None if rule is None else rule.default_port
        allowed_ports = self.ports if self.ports is not None else (default,)
        chosen = default if port is None else port
        if chosen is None or chosen not in allowed_ports:
            return f"the port {chosen} is not allowed", at
        return None

    def _listed(self, name: str) -> bool:
        if name in self._names:
            return True
        at = name.find(".")
        while at >= 0:
            if name[at:] in self._wildcards:
                return True
            at = name.find(".", at + 1)
        return False
