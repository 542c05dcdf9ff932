"""Decoded views of the authority (RFC 3986 section 3.2): the user and
password of the userinfo (section 3.2.1), the host without brackets or
percent-encoding, and the host as Unicode with its IDNA A-labels decoded
(section 3.2.2).  Each reads a value and builds none.
"""

from __future__ import annotations

import re

from .._errors import URIError
from ..shipped import userinfo_secret
from ._build import in_part
from ._components import Components
from ._encode import percent_decode

__all__ = ["host_unicode", "hostname", "password", "user"]


def _decoded_part(part: str, text: str | None) -> str | None:
    if text is None:
        return None
    try:
        return percent_decode(text)
    except URIError as exc:
        raise in_part(part, exc) from None


def user(ref: Components) -> str | None:
    """The userinfo up to its first ``:``, percent-decoded as UTF-8."""
    userinfo = ref.userinfo
    return None if userinfo is None else _decoded_part("userinfo", userinfo.partition(":")[0])


def password(ref: Components) -> str | None:
    """What follows the first ``:`` of the userinfo, percent-decoded;
    ``None`` when there is no ``:``.  Section 3.2.1: "user:password" in
    userinfo is deprecated, and passing authentication in clear text in a
    URI has proved a security risk in almost every case where it was used;
    read it only to move it somewhere safer."""
    userinfo = ref.userinfo
    if userinfo is None or ":" not in userinfo:
        return None
    name, _, secret = userinfo.partition(":")
    try:
        return percent_decode(secret)
    except URIError as exc:
        # Reported against the whole userinfo, so the message masks the
        # password as every message does, and the caret still points in it.
        offset = None if exc.offset is None else len(name) + 1 + exc.offset
        msg = f"userinfo: {exc.message}"
        raise URIError(
            msg, rule="userinfo", text=userinfo, offset=offset, secrets=userinfo_secret
        ) from None


def hostname(ref: Components) -> str | None:
    """The host without the brackets of an IP-literal (``::1``,
    ``v1.x``), an IPv4address as written, a reg-name percent-decoded as
    UTF-8 (its A-labels kept; ``host_unicode`` decodes those).  A reg-name
    whose decoding would hold a delimiter of a URL (``@ / : ? # [ ] \\``)
    raises ``URIError`` at its escape instead: ``evil.com%40good.com``
    names no host that a client reaches, and decoded it reads as
    ``evil.com@good.com``, which ends with ``good.com``."""
    host = ref.host
    if host is None or ref.host_kind == "IPv4address":
        return host
    if host.startswith("["):
        return host[1:-1]
    _refuse_delimiters(host)
    return _decoded_part("host", host)


def _refuse_delimiters(host: str) -> None:
    """``URIError`` at the first escape in ``host`` of a URL's delimiter."""
    at = _delimiter_escape(host)
    if at >= 0:
        msg = (
            f"the host {host!r} decodes to a delimiter, {host[at : at + 3]!r}: no client "
            "reaches such a name, and its decoded text reads as another URL's parts"
        )
        raise URIError(msg, rule="reg-name", text=host, offset=at, secrets=userinfo_secret)


#: What delimits a URL's parts (RFC 3986 section 2.2's gen-delims, and the
#: "\\" that WHATWG URL parsers read as "/"): a reg-name that decodes to
#: one names no host a client reaches.
HOST_DELIMITERS = frozenset("@/:?#[]\\")

#: The escape of any of them, in either case of hex.
_DELIMITER_ESCAPE = re.compile(
    "|".join(f"%{ord(char):02X}" for char in sorted(HOST_DELIMITERS)), re.IGNORECASE
)


def _delimiter_escape(host: str) -> int:
    """Where the first escape of a delimiter starts in ``host``, or -1."""
    found = _DELIMITER_ESCAPE.search(host) if "%" in host else None
    return -1 if found is None else found.start()


def host_unicode(ref: Components) -> str | None:
    """The host as Unicode text: a reg-name percent-decoded as UTF-8, then
    each ``xn--`` label decoded from its IDNA A-label; an IP literal or
    IPv4 address as it is.  Raises ``URIError`` when the escapes are not
    UTF-8, decode to a delimiter (as ``hostname`` does), or an ``xn--``
    label is no valid A-label."""
    host = ref.host
    if host is None or host.startswith("["):
        return host
    _refuse_delimiters(host)
    try:
        text = percent_decode(host)
    except URIError as exc:
        raise in_part("host", exc) from None
    labels = text.split(".")
    if not any(_is_a_label(label) for label in labels):
        return text
    return ".".join(_u_label(label, host) if _is_a_label(label) else label for label in labels)


def _is_a_label(label: str) -> bool:
    return label[:4].lower() == "xn--"


def _u_label(label: str, host: str) -> str:
    import idna as idna_codec

    try:
        return idna_codec.decode(label)
    except idna_codec.IDNAError as exc:
        msg = f"host: {label!r} is not a valid IDNA A-label: {exc}"
        raise URIError(msg, rule="reg-name", text=host, secrets=userinfo_secret) from None
