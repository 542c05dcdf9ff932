"""When two readings name the same scheme, host, port and path.

The equivalence is RFC 3986's own (section 6.2), applied to both
readings, since the URL Standard rewrites what it reads and RFC 3986 keeps
the text as written:

* scheme: without case (3.1);
* host: an IP address as an address (``ipaddress``: ``[::FFFF:1.2.3.4]``
  and ``[::ffff:102:304]`` are one); in a special URL a reg-name
  percent-decoded (6.2.2.2) and lowercased (6.2.2.1) beside the URL
  Standard's domain, each with its A-labels decoded alike (3.2.2 asks a
  name to be converted to IDNA before lookup, so ``xn--bcher-kva`` and
  ``bücher`` are one label; an A-label that does not decode is compared
  as its lowercase ASCII), in any other its normal form (6.2.2);
  no host, an empty host and file's ``localhost`` alike (3.2.2);
* port: its value, with the special scheme's default port the same as no
  port (3.2.3, 6.2.3);
* path: the same text, or the same after normalizing both alike:
  percent-encoding normalized, dot segments removed (6.2.2.2, 6.2.2.3),
  an empty path in a special URL as ``/`` (6.2.3).  The URL Standard has
  removed the dot segments of a hierarchical path itself, and keeps an
  opaque path (``mailto:a/../b``) as written, which RFC 3986 also reads
  as written;
* the numeric resolver agrees when it reads no address from a reg-name:
  ``socket.inet_aton``, which ``getaddrinfo`` applies to a name before
  any lookup, reads ``127.1``, ``0x7f.1`` and ``2130706433`` as
  127.0.0.1.

The query and the fragment are not compared: no fetch goes elsewhere for
them.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import TYPE_CHECKING

from .._errors import URIError
from ..uri import remove_dot_segments
from ._whatwg import DEFAULT_PORTS, IPV4_SERIALIZED, ada

if TYPE_CHECKING:
    from can_ada import URL

    from ..uri import URIReference

__all__ = [
    "NO_HOST",
    "HostKey",
    "decoded_domain",
    "normal_reg_name",
    "path_key",
    "port_key",
    "resolver_address",
    "rfc_host_key",
    "strict_ipv4",
    "whatwg_host_key",
]

#: A host as a value to compare: ``("none",)``, ``("ip", address)``,
#: ``("future", text)`` for an IPvFuture, ``("name", text)``, or
#: ``("undecodable", text)`` for a reg-name whose escapes are no UTF-8.
HostKey = tuple[object, ...]
NO_HOST: HostKey = ("none",)

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_ESCAPE = re.compile("%([0-9A-Fa-f]{2})")


def _escape_normal(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else "%" + match.group(1).upper()


def _percent_normal(text: str) -> str:
    """Sections 6.2.2.1 and 6.2.2.2: an escape of an unreserved character
    decoded, any other written in uppercase hex."""
    return _ESCAPE.sub(_escape_normal, text) if "%" in text else text


def normal_reg_name(host: str) -> str:
    """A reg-name (or an opaque host) in RFC 3986's normal form: percent-
    encoding normalized (6.2.2.2), then ASCII letters lowercased (6.2.2.1:
    the escapes left keep their uppercase hex)."""
    return _ESCAPE.sub(_upper_escape, _percent_normal(host).lower())


def _upper_escape(match: re.Match[str]) -> str:
    return "%" + match.group(1).upper()


def strict_ipv4(text: str) -> ipaddress.IPv4Address | None:
    """``text`` as RFC 3986's ``IPv4address`` (dotted decimal, no leading
    zeros), or ``None``."""
    if not IPV4_SERIALIZED.fullmatch(text):
        return None
    try:
        return ipaddress.IPv4Address(text)
    except ValueError:
        return None


def rfc_host_key(ref: URIReference, scheme: str, special: bool) -> HostKey:
    """RFC 3986's host of ``ref`` as a value to compare (module docstring)."""
    host = ref.host
    if not host:
        return NO_HOST
    kind = ref.host_kind
    if kind == "IPv4address":
        return ("ip", ipaddress.IPv4Address(host))
    if kind == "IPv6address":
        return ("ip", ipaddress.IPv6Address(host[1:-1]))
    if kind == "IPvFuture":
        return ("future", host.lower())
    if not special:
        return ("name", normal_reg_name(host))
    try:
        name = ref.hostname
    except URIError:  # escapes that are no UTF-8
        return ("undecodable", normal_reg_name(host))
    name = "" if name is None else name.lower()
    if not name or (scheme == "file" and name == "localhost"):
        return NO_HOST
    return ("name", decoded_domain(name))


def whatwg_host_key(url: URL, special: bool) -> HostKey:
    """The URL Standard's host of ``url`` as a value to compare."""
    host = url.hostname
    if not host:
        return NO_HOST
    if host.startswith("["):
        return ("ip", ipaddress.IPv6Address(host[1:-1]))
    if not special:
        address = strict_ipv4(host)
        return ("name", normal_reg_name(host)) if address is None else ("ip", address)
    if IPV4_SERIALIZED.fullmatch(host):
        return ("ip", ipaddress.IPv4Address(host))
    return ("name", decoded_domain(host))


def decoded_domain(name: str) -> str:
    """A lowercase domain with each A-label decoded to its U-label: the
    one form both readings' hosts are compared in, since RFC 3986 keeps
    the labels as written (A-labels, or percent-encoded UTF-8) and the URL
    Standard serializes A-labels.  A label that does not decode, or whose
    decoding does not encode back to it (Ada decodes ``xn--a`` to
    U+0080 without complaint), stays as it is, on both sides alike."""
    if "xn--" not in name:
        return name
    module = ada()
    labels = name.split(".")
    for index, label in enumerate(labels):
        if label.startswith("xn--") and label.isascii():
            try:
                unicode = module.idna_decode(label.encode("ascii"))
                if unicode and module.idna_encode(unicode) == label.encode("ascii"):
                    labels[index] = unicode
            except (UnicodeError, ValueError, TypeError):
                pass
    return ".".join(labels)


# What inet_aton may read as a number: a digit first, then digits, hex
# digits, "x" and dots.  Checked first because glibc's inet_aton also takes
# an address followed by a space and anything at all.
_NUMERIC_NAME = re.compile("[0-9][0-9A-Fa-fXx.]*")


def resolver_address(ref: URIReference) -> ipaddress.IPv4Address | None:
    """The IPv4 address the numeric resolver reads from ``ref``'s
    reg-name, percent-decoded, or ``None`` when it reads none (and so looks
    the name up)."""
    host = ref.host
    if ref.host_kind != "reg-name" or not host or host[0] not in "0123456789%":
        return None
    try:
        name = ref.hostname
    except URIError:
        return None
    if name is None or not _NUMERIC_NAME.fullmatch(name):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(name))
    except OSError:
        return None


def port_key(port: str | None, scheme: str) -> str | None:
    """A port's value as digits, ``None`` for no port, an empty one or the
    special scheme's default."""
    if not port:
        return None
    digits = port.lstrip("0") or "0"
    return None if digits == DEFAULT_PORTS.get(scheme) else digits


def path_key(path: str, special: bool) -> str:
    """A path, normalized (module docstring)."""
    path = remove_dot_segments(_percent_normal(path))
    return "/" if special and not path else path
