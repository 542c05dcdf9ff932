"""The URL Standard's reading of a text, from Ada (the URL parser inside
Node.js) through ``can_ada``, the ``urigrammar[whatwg]`` extra.

Nothing here parses a URL: Ada does.  This module loads it on first use
(``import urigrammar`` never imports it), hands it the text as the URL
Standard's API would, and turns its answer into a ``Reading`` and into
keys to compare with RFC 3986's.

``can_ada`` over ``ada-url``: both bind the same Ada, but ``can_ada`` is a
nanobind extension whose ``URL`` reads a component on request, about
0.4 µs a parse with the four components ``diff`` compares, while
``ada-url`` goes through cffi and copies every component into a dict,
about 9 µs: more than the 3 µs a URL ``diff`` is allowed in all.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import TYPE_CHECKING

from .._errors import MissingExtraError
from ._findings import Reading

if TYPE_CHECKING:
    from can_ada import URL

__all__ = [
    "DEFAULT_PORTS",
    "IPV4_SERIALIZED",
    "SPECIAL_SCHEMES",
    "WHATWG_FAILURE",
    "ada",
    "host_kind",
    "whatwg_parse",
    "whatwg_reading",
]

#: The URL Standard's special schemes and their default ports (section
#: 4.1); ``file`` has none.
DEFAULT_PORTS: dict[str, str | None] = {
    "ftp": "21",
    "file": None,
    "http": "80",
    "https": "443",
    "ws": "80",
    "wss": "443",
}
SPECIAL_SCHEMES = frozenset(DEFAULT_PORTS)

#: What a failed reading says: Ada, like the URL Standard, names no reason.
WHATWG_FAILURE = "the URL Standard's basic URL parser returns failure (section 4.4)"

#: An IPv4 address as the URL Standard serializes one (section 3.6); in a
#: special URL no domain looks like this: one that ends in a number is read
#: as an address or refused (section 3.5).
IPV4_SERIALIZED = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")

_module: ModuleType | None = None


def ada() -> ModuleType:
    """The ``can_ada`` module, imported on the first call;
    ``MissingExtraError`` naming the extra when it is not installed."""
    global _module  # noqa: PLW0603 -- one import per process, then a plain read
    if _module is None:
        try:
            import can_ada
        except ImportError:
            msg = (
                "the URL Standard's reading needs Ada's Python binding, can_ada: "
                "pip install 'urigrammar[whatwg]'"
            )
            raise MissingExtraError(msg) from None
        _module = can_ada
    return _module


# Web IDL's USVString, which the URL Standard's API takes: a lone surrogate
# becomes U+FFFD (a Python str can hold one; UTF-8 cannot, and can_ada
# refuses the call).
_LONE_SURROGATE = re.compile(
    "[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)
_C0_OR_SPACE = "".join(map(chr, range(0x21)))


def _scalar_values(text: str) -> str:
    # A pair written as two code points is one character to Web IDL (its
    # strings are UTF-16): join it as JavaScript would.
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _LONE_SURROGATE.sub("\ufffd", joined)


def _without_nul(text: str, base: URL | None) -> str | None:
    """``text`` as can_ada can take it, or ``None`` when the URL Standard
    fails on it: the binding reads a string up to its first NUL.  The URL
    Standard strips leading and trailing C0 controls (section 4.4, step 1);
    elsewhere it refuses a NUL in a scheme, a host or a port, where ``%00``
    fails alike, and percent-encodes it as ``%00`` in a path, a query, a
    fragment or credentials.  So strip, and write ``%00``, but for the one
    place where ``%00`` would pass: the opaque host of a non-special URL
    (section 3.5, forbidden host code points)."""
    text = text.strip(_C0_OR_SPACE)
    clean = text.translate(_NO_TAB_OR_NEWLINE)
    scheme = _SCHEME.match(clean)
    if scheme is not None:
        name, rest = scheme.group(1).lower(), clean[scheme.end() :]
    else:
        name, rest = (None if base is None else base.protocol[:-1]), clean
    if name not in SPECIAL_SCHEMES and rest.startswith("//"):
        authority = _AUTHORITY.match(rest, 2)
        if authority is not None and "\x00" in authority.group().rpartition("@")[2]:
            return None
    return text.replace("\x00", "%00")


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_AUTHORITY = re.compile(r"[^/?#]*")
_NO_TAB_OR_NEWLINE = str.maketrans("", "", "\t\n\r")


def whatwg_parse(text: str, base: URL | None) -> URL | None:
    """Ada's parse of ``text`` against ``base`` (``None``: no base), or
    ``None`` for failure."""
    module = _module if _module is not None else ada()
    if "\x00" in text:
        cleaned = _without_nul(text, base)
        if cleaned is None:
            return None
        text = cleaned
    for _ in range(2):
        try:
            return module.parse(text) if base is None else base + text
        except ValueError:
            return None
        except TypeError:  # a lone surrogate: can_ada takes UTF-8 only
            text = _scalar_values(text)
    return None


def host_kind(url: URL, special: bool) -> str | None:
    """The kind of ``url``'s host in the URL Standard's words (section 3.1)."""
    if not url.has_hostname():
        return None
    host = url.hostname
    if not host:
        return "empty host"
    if host.startswith("["):
        return "IPv6 address"
    if not special:
        return "opaque host"
    return "IPv4 address" if IPV4_SERIALIZED.fullmatch(host) else "domain"


def whatwg_reading(url: URL | None) -> Reading:
    """The reading ``diff`` reports (its password masked by the caller)."""
    if url is None:
        return Reading(error=WHATWG_FAILURE)
    scheme = url.protocol[:-1]
    return Reading(
        scheme=scheme,
        host=url.hostname if url.has_hostname() else None,
        host_kind=host_kind(url, scheme in SPECIAL_SCHEMES),
        port=url.port or None,
        path=url.pathname,
    )
