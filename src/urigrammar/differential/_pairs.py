"""Where two readers other than RFC 3986 and the URL Standard part
(``diff`` with ``readers``): their readings compared part by part, and
each difference given the finest kind the text shows.

A reading's parts are compared as a client uses them: the scheme without
case; the host as an IP address (``ipaddress``) or as a name in lowercase
with its A-labels decoded (Punycode, RFC 3492), since readers differ in
whether they serialize A-labels or U-labels; no host, an empty host and
file's ``localhost`` alike; the port as a number, a special scheme's
default the same as none (some readers report the default); the path as
``_compare.path_key`` normalizes it, an empty one under an authority as
``/`` (what a client sends).  The kinds are those of RFC 3986 and
the URL Standard where the text shows their cause (a backslash, two
``@``, a percent-encoded or non-ASCII host, a host one reads as an IPv4
address and the other as a name, a port past 65535, an invalid A-label),
``bracketed-host`` for brackets inside a host, and else the part that
differs, or ``reader-failure``.
"""

from __future__ import annotations

import ipaddress

from ._compare import path_key
from ._findings import Reading
from ._raw import invalid_a_label
from ._whatwg import DEFAULT_PORTS, SPECIAL_SCHEMES

__all__ = ["host_value", "pair_kinds", "parts"]

#: A reading's host as a value to compare.
HostValue = tuple[str, object]


def host_value(reading: Reading) -> HostValue:
    """The host of ``reading`` as a value to compare (module docstring)."""
    host = reading.host
    scheme = (reading.scheme or "").lower()
    if not host or (scheme == "file" and host.lower() == "localhost"):
        return ("none", None)
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" in bare or bare[-1:].isdigit():  # what could be an address
        try:
            return ("ip", ipaddress.ip_address(bare))
        except ValueError:
            pass
    lowered = bare.lower()
    if "xn--" not in lowered:
        return ("name", lowered)
    return ("name", ".".join(_unicode_label(label) for label in lowered.split(".")))


def _unicode_label(label: str) -> str:
    if not label.startswith("xn--") or not label.isascii():
        return label
    try:
        decoded = label[4:].encode("ascii").decode("punycode")
    except UnicodeError:
        return label
    return decoded if decoded.encode("punycode").decode("ascii") == label[4:] else label


def _digits(port: str) -> str:
    """A port's digits without leading zeros (a port may have thousands:
    never made an int)."""
    return port.lstrip("0") or "0"


def _past_range(port: str | None) -> bool:
    """Whether a port is past 65535 (no TCP port, RFC 9293 section 3.1)."""
    digits = _digits(port or "0")
    return len(digits) > 5 or int(digits) > 65535


def _port_value(reading: Reading) -> str | None:
    if not reading.port:
        return None
    digits = _digits(reading.port)
    default = DEFAULT_PORTS.get((reading.scheme or "").lower())
    return None if digits == default else digits


def parts(reading: Reading) -> dict[str, object]:
    """A reading's scheme, host, port and path as values to compare (none
    for a reading that is an error)."""
    if reading.error is not None:
        return {}
    scheme = (reading.scheme or "").lower()
    host = host_value(reading)
    # An empty path under an authority is "/" to every client that sends
    # it (some readers write it so for any scheme); without one it is not.
    rooted = scheme in SPECIAL_SCHEMES or reading.host is not None
    return {
        "scheme": scheme,
        "host": host,
        "port": _port_value(reading),
        "path": path_key(reading.path or "", rooted),
    }


def pair_kinds(
    text: str, a: Reading, b: Reading, compared: tuple[dict[str, object], dict[str, object]]
) -> list[tuple[str, int]]:
    """Where readings ``a`` and ``b`` of ``text`` part, given their
    ``parts``: a kind and an offset for each difference, none when they
    read one URL or both refuse the text."""
    first, second = compared
    if first == second:
        return []  # one URL, or both refuse
    if a.error is not None or b.error is not None:
        if a.error is not None and b.error is not None:
            return []
        return [_failure_kind(text, b if a.error is not None else a)]
    found = []
    for part in ("scheme", "host", "port", "path"):
        if first[part] != second[part]:
            found.append(_part_kind(text, part, a, b))
    return sorted(set(found), key=lambda kind: (kind[1], kind[0]))


def _cause(text: str) -> tuple[str, int] | None:
    """The kind a text's authority shows as the cause of a parting, if any."""
    authority = _authority(text)
    if "\\" in text:
        return "backslash", text.index("\\")
    if authority.count("@") > 1:
        return "multiple-at", text.index("@", text.index("@") + 1)
    hostport = authority.rpartition("@")[2]
    if _bracketed(hostport):
        at = text.find(authority) + len(authority) - len(hostport)
        return "bracketed-host", at + (
            hostport.find("[") if "[" in hostport else hostport.find("]")
        )
    colon = text.find(":")
    if colon > 0 and text[:colon].lower() in SPECIAL_SCHEMES:
        rest = text[colon + 1 :]
        slashes = len(rest) - len(rest.lstrip("/"))
        if slashes == 0:
            return "scheme-without-slashes", colon + 1
        if slashes != 2:
            return "slash-count", colon + (1 if slashes == 1 else 3)
    return None


def _bracketed(hostport: str) -> bool:
    """Whether a host and port hold a bracket other than around a whole
    IP-literal followed by nothing but a port (RFC 3986 section 3.2.2)."""
    if "[" not in hostport and "]" not in hostport:
        return False
    close = hostport.find("]")
    rest = hostport[close + 1 :]
    port = rest[1:] if rest.startswith(":") else rest
    return (
        not hostport.startswith("[")
        or close < 0
        or (rest != "" and not (rest.startswith(":") and port.isdigit()))
    )


def _authority(text: str) -> str:
    """The authority as RFC 3986 Appendix B splits a text (after ``//``, up
    to the next ``/``, ``?`` or ``#``), or ``""``."""
    scheme_end = text.find(":")
    at = scheme_end + 1 if scheme_end > 0 else 0
    if not text.startswith("//", at):
        return ""
    end = len(text)
    for delimiter in "/?#":
        found = text.find(delimiter, at + 2)
        if 0 <= found < end:
            end = found
    return text[at + 2 : end]


def _failure_kind(text: str, read: Reading) -> tuple[str, int]:
    cause = _cause(text)
    if cause is not None:
        return cause
    if read.port and _past_range(read.port):
        return "port-range", max(text.rfind(read.port), 0)
    host = read.host or ""
    if "%" in host:
        return "percent-encoded-host", max(text.find("%"), 0)
    for label in host.split("."):
        if invalid_a_label(label):
            return "invalid-a-label", max(text.lower().find(label.lower()), 0)
    return "reader-failure", 0


def _part_kind(text: str, part: str, a: Reading, b: Reading) -> tuple[str, int]:
    cause = _cause(text)
    if cause is not None:
        return cause
    after = text.find(":") + 1  # a host or path is after the scheme
    if part == "host":
        host = a.host or b.host or ""
        at = max(text.find(host, after), 0) if host else 0
        kinds = {host_value(a)[0], host_value(b)[0]}
        if kinds == {"ip", "name"}:
            # A name that ends in a number, read as an IPv4 address by one
            # (the URL Standard's 3.5, inet_aton), as a name by the other.
            return "ipv4-number", at
        if "%" in host:
            return "percent-encoded-host", at + host.index("%")
        if not host.isascii():
            return "idna-mapped-host", at
        return "host-differs", at
    if part == "port":
        far = [r.port for r in (a, b) if r.port and _past_range(r.port)]
        if far:
            return "port-range", max(text.rfind(far[0]), 0)
        return "port-differs", max(text.rfind(":"), 0)
    if part == "path":
        path = a.path or b.path or ""
        return "path-differs", max(text.find(path, after), 0) if path else 0
    return "scheme-differs", 0
