"""Where a URL's text writes its host or path otherwise than a client uses
them, even where every reader reads the same URL once both readings are
normalized (RFC 3986 section 6.2.2): a check that compares the raw text
(``ref.host``, ``ref.path``) is then not checking what is fetched.

* ``raw-escaped-host``: a reg-name holding percent-encodings
  (``evil%2Ecom``), which clients decode (``evil.com``; RFC 3986 section
  6.2.2.2, the URL Standard's host parser);
* ``raw-dot-segment``: a path segment that is ``.`` or ``..`` once decoded
  (``/%2e%2e/admin``), which clients remove (RFC 3986 sections 6.2.2.2
  then 5.2.4; the URL Standard's path state): ``/admin`` is fetched;
* ``invalid-a-label``: an ``xn--`` label that is no A-label by IDNA 2008
  (the ``idna`` package: ``xn--example-``), which the URL Standard passes
  on (UTS 46 with CheckHyphens off) and IDNA 2008 clients refuse.

Each is a (kind, offset) pair over the text, which parses as the
reference ``ref`` (no base: the offsets are the text's own).
"""

from __future__ import annotations

import re

import idna

from ..uri import URIReference, percent_decode
from ._whatwg import SPECIAL_SCHEMES

__all__ = ["invalid_a_label", "raw_kinds"]

#: An escape, of any octet.
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")

#: What ends a label of a reg-name: a dot, written or escaped.
_DOT = re.compile(r"\.|%2[Ee]")


def raw_kinds(ref: URIReference) -> list[tuple[str, int]]:
    """The raw findings of the text of ``ref``, in the order of the text."""
    found: list[tuple[str, int]] = []
    scheme, userinfo, host = ref.scheme, ref.userinfo, ref.host
    at = 0 if scheme is None else len(scheme) + 1
    if host is not None:
        at += 2 + (0 if userinfo is None else len(userinfo) + 1)
        # Only a special URL's host is decoded by the URL Standard (3.5);
        # another scheme's stays an opaque host, as written.
        if ref.host_kind == "reg-name" and (scheme or "").lower() in SPECIAL_SCHEMES:
            found += _host_kinds(host, at)
        at += len(host) + (0 if ref.port_text is None else len(ref.port_text) + 1)
    found += _path_kinds(ref.path, at)
    return found


def _host_kinds(host: str, at: int) -> list[tuple[str, int]]:
    if "%" not in host:
        # The usual host: no escape, and most often no A-label to check.
        if "xn--" not in host.lower():
            return []
        found, start = [], 0
        for label in host.split("."):
            if label[:4].lower() == "xn--" and not _a_label(label):
                found.append(("invalid-a-label", at + start))
            start += len(label) + 1
        return found
    found = [("raw-escaped-host", at + host.index("%"))]
    start = 0
    for dot in _DOT.finditer(host + "."):
        # Each label, read as clients read it: its escapes decoded (a "%2E"
        # ends it as a "." does).
        label = percent_decode(host[start : dot.start()], errors="surrogateescape")
        if label[:4].lower() == "xn--" and not _a_label(label):
            found.append(("invalid-a-label", at + start))
        start = dot.end()
    return sorted(found, key=lambda kind: kind[1])


def _a_label(label: str) -> bool:
    """Whether ``label`` (``xn--`` first) is an A-label by IDNA 2008."""
    if not label.isascii():
        return False  # an escape of a non-ASCII octet, or one that is no UTF-8
    try:
        idna.decode(label)
    except (idna.IDNAError, UnicodeError):
        return False
    return True


def invalid_a_label(label: str) -> bool:
    """Whether ``label`` starts with ``xn--`` and is no A-label by IDNA 2008."""
    return label[:4].lower() == "xn--" and not _a_label(label)


def _path_kinds(path: str, at: int) -> list[tuple[str, int]]:
    if "%" not in path:
        return []
    found = []
    start = 0
    for segment in path.split("/"):
        if "%" in segment and len(segment) <= 9 and _is_dot_segment(segment):
            found.append(("raw-dot-segment", at + start))
        start += len(segment) + 1
    return found


def _is_dot_segment(segment: str) -> bool:
    """Whether ``segment``, its escapes decoded, is ``.`` or ``..`` (a dot
    escape is ``%2E``, three characters: nine at most make ``..``)."""
    if _ESCAPE.sub("", segment).strip(".") != "":
        return False  # a character that is no dot, written plainly
    try:
        return percent_decode(segment) in (".", "..")
    except ValueError:
        return False
