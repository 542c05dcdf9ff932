"""``lint``: the advice the RFCs give about how a URI is written.

A valid reference can still be written against the RFCs' advice: RFC 3986's
"should"s about case, percent-encoding, ports, dot segments, passwords and
host names, RFC 5952's text form of IPv6 addresses, RFC 3987's NFC, and the
"MUST NOT"s that RFC 9110 puts on the senders of ``http`` and ``https``
URIs.  Each ``Finding`` has a code, the section it comes from, where in the
text it is, a severity and a message; a message never shows a password.

Severities: ``error``, a sender's MUST NOT of a scheme's RFC; ``warning``,
a SHOULD whose neglect carries a risk (a password in the text, dot segments
a server may resolve differently, a name DNS cannot carry); ``advice``, a
SHOULD for uniformity (case, percent-encoding, ports).  The codes and their
sections are ``LINT_CODES``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from ..uri import (
    SCHEME_RULES,
    IRIReference,
    Reference,
    URIReference,
    canonical_ipv6,
    layout,
    parse,
    parse_iri,
    percent_decode,
    validate,
)

__all__ = ["LINT_CODES", "Finding", "lint"]

Severity = Literal["error", "warning", "advice"]

#: Each code: its severity and the section whose advice it is.
LINT_CODES: dict[str, tuple[Severity, str]] = {
    "scheme-case": ("advice", "RFC 3986 section 3.1"),
    "host-case": ("advice", "RFC 3986 section 3.2.2"),
    "percent-encoding-case": ("advice", "RFC 3986 section 2.1"),
    "percent-encoded-unreserved": ("advice", "RFC 3986 section 2.3"),
    "empty-port": ("advice", "RFC 3986 section 3.2.3"),
    "default-port": ("advice", "RFC 3986 section 3.2.3"),
    "dot-segments": ("warning", "RFC 3986 section 3.3"),
    "password": ("warning", "RFC 3986 section 3.2.1"),
    "dns-label-length": ("warning", "RFC 3986 section 3.2.2"),
    "dns-name-length": ("warning", "RFC 3986 section 3.2.2"),
    "ipv6-text-form": ("advice", "RFC 5952 section 4"),
    "not-nfc": ("advice", "RFC 3987 section 5.3.2.2"),
    "http-userinfo": ("error", "RFC 9110 section 4.2.4"),
    "http-empty-host": ("error", "RFC 9110 section 4.2.1"),
    "empty-path": ("advice", "RFC 3986 section 6.2.3"),
}

_HTTP = frozenset({"http", "https"})
_TRIPLET = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Spans of the record layout: (start, end) index pairs in its tuple.
_SCHEME, _USERINFO, _HOST, _PATH, _QUERY, _FRAGMENT, _PORT = 0, 2, 4, 6, 8, 10, 14


@dataclass(frozen=True, slots=True)
class Finding:
    """One piece of advice about a text: ``code`` (one of ``LINT_CODES``),
    the ``section`` it comes from, the ``offset`` and ``length`` of the
    characters it is about, its ``severity`` and a ``message``.

    >>> import urigrammar
    >>> for finding in urigrammar.lint("HTTP://a/%7e"):
    ...     print(finding)
    0: scheme-case (advice, RFC 3986 section 3.1): the scheme in lowercase: http
    9: percent-encoded-unreserved (advice, RFC 3986 section 2.3): unreserved: write ~
    9: percent-encoding-case (advice, RFC 3986 section 2.1): hex digits in uppercase: %7E
    """

    code: str
    section: str
    offset: int
    length: int
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.offset}: {self.code} ({self.severity}, {self.section}): {self.message}"


def _finding(code: str, offset: int, length: int, message: str) -> Finding:
    severity, section = LINT_CODES[code]
    return Finding(code, section, offset, length, severity, message)


def _spans(ref: Reference) -> tuple[int, ...]:
    return layout(
        ref.scheme,
        ref.userinfo,
        ref.host,
        ref.path,
        ref.query,
        ref.fragment,
        ref.host_kind,
        ref.port_text,
    )[2]


def _percent(text: str, start: int, *, secret: bool = False) -> Iterator[Finding]:
    """The percent-encoding findings of a component; a ``secret`` one (a
    userinfo, which may hold a password) gets messages that quote none of
    it."""
    for match in _TRIPLET.finditer(text):
        at, hexes = start + match.start(), match.group(1)
        if hexes != hexes.upper():
            shown = "" if secret else f": %{hexes.upper()}"
            yield _finding("percent-encoding-case", at, 3, f"hex digits in uppercase{shown}")
        char = chr(int(hexes, 16))
        if char in _UNRESERVED:
            shown = "the character itself" if secret else char
            yield _finding("percent-encoded-unreserved", at, 3, f"unreserved: write {shown}")


def _host(ref: Reference, start: int) -> Iterator[Finding]:
    host = ref.host or ""
    kind = ref.host_kind or ""
    # A letter of a percent-encoding is no letter of the name: its hex
    # digits are uppercase (section 2.1).
    letters = _TRIPLET.sub("", host)
    if kind != "IPv4address" and any("A" <= c <= "Z" for c in letters):
        yield _finding("host-case", start, len(host), "the host in lowercase")
    if kind == "IPv6address":
        canonical = canonical_ipv6(host)
        if host.lower() != canonical:
            yield _finding(
                "ipv6-text-form",
                start,
                len(host),
                f"the address in RFC 5952 form: {canonical}",
            )
    if not kind.endswith("reg-name") or not host:
        return
    labels = host.removesuffix(".").split(".")
    lengths = [_octets(percent_decode(label, errors="surrogateescape")) for label in labels]
    # Each label and the dot after it (section 3.2.2 counts the name's
    # characters; DNS its octets, RFC 1034 section 3.1).
    if sum(lengths) + len(lengths) - 1 > 255:
        yield _finding("dns-name-length", start, len(host), "a DNS name of at most 255 octets")
    at = start
    for label, length in zip(labels, lengths, strict=True):
        if length > 63:
            yield _finding("dns-label-length", at, len(label), "DNS labels of at most 63 octets")
        at += len(label) + 1


def _octets(label: str) -> int:
    """A label's length as DNS carries it: a non-ASCII label as an A-label
    (Punycode, without the IDNA mapping: the length is what counts).  A
    label of more than 59 characters is longer than 63 either way (an
    A-label has ``xn--`` and at least one character for each of the
    label's): it is counted so, since Python's Punycode takes time that
    grows with the square of the label."""
    if label.isascii() or len(label) > 59:
        return len(label) + (0 if label.isascii() else 4)
    try:
        return len("xn--" + label.lower().encode("punycode").decode("ascii"))
    except UnicodeError:
        return len(label)  # a lone surrogate: undecodable octets, no DNS name


def _dot_segments(ref: Reference, start: int) -> Iterator[Finding]:
    segments = ref.path.split("/")
    relative_path = ref.scheme is None and ref.host is None and not ref.path.startswith("/")
    leading = relative_path
    # Without an authority, a path that starts "//" must be written "/.//"
    # (section 3.3; the normal form keeps it): that "." is needed.
    needed = 1 if ref.host is None and ref.path.startswith("/.//") else -1
    at = start
    for index, segment in enumerate(segments):
        if segment in (".", ".."):
            if not leading and index != needed:
                yield _finding(
                    "dot-segments",
                    at,
                    len(segment),
                    "a dot segment outside the start of a relative path: resolve it away",
                )
        else:
            leading = False
        at += len(segment) + 1


def _findings(ref: Reference, text: str) -> Iterator[Finding]:
    spans = _spans(ref)
    scheme = ref.scheme
    lower = (scheme or "").lower()
    rule = SCHEME_RULES.get(lower)
    if scheme is not None and scheme != scheme.lower():
        yield _finding("scheme-case", 0, len(scheme), f"the scheme in lowercase: {scheme.lower()}")
    if ref.userinfo is not None:
        start = spans[_USERINFO]
        colon = ref.userinfo.find(":")
        if colon >= 0:
            # The password's place only: never its text.
            yield _finding(
                "password",
                start + colon + 1,
                len(ref.userinfo) - colon - 1,
                "a password in the userinfo is deprecated, and shown to whoever sees the URI",
            )
        yield from _percent(ref.userinfo, start, secret=True)
    if ref.host is not None:
        yield from _host(ref, spans[_HOST])
        if ref.host_kind is not None and ref.host_kind.endswith("reg-name"):
            yield from _percent(ref.host, spans[_HOST])
    port = ref.port_text
    if port is not None:
        colon = spans[_PORT] - 1
        if not port:
            yield _finding("empty-port", colon, 1, "no ':' when the port is empty")
        else:
            digits = port.lstrip("0") or "0"
            if (
                rule is not None
                and rule.default_port is not None
                and digits == str(rule.default_port)
            ):
                yield _finding(
                    "default-port",
                    colon,
                    len(port) + 1,
                    f"no port when it is the scheme's default ({rule.default_port})",
                )
    path_start = spans[_PATH]
    yield from _dot_segments(ref, path_start)
    yield from _percent(ref.path, path_start)
    if ref.query is not None:
        yield from _percent(ref.query, spans[_QUERY])
    if ref.fragment is not None:
        yield from _percent(ref.fragment, spans[_FRAGMENT])
    if rule is not None and rule.empty_path_is_root and ref.host is not None and not ref.path:
        yield _finding(
            "empty-path",
            path_start,
            0,
            f"an empty path under an authority is '/' for {lower}",
        )
    if lower in _HTTP:
        if ref.userinfo is not None:
            yield _finding(
                "http-userinfo",
                spans[_USERINFO],
                len(ref.userinfo) + 1,
                "a sender must not write userinfo in an http or https URI",
            )
        if ref.host == "":
            yield _finding(
                "http-empty-host",
                spans[_HOST],
                0,
                "a sender must not write an http or https URI with an empty host",
            )

    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        composed = unicodedata.normalize("NFC", text)
        at = next(
            (i for i, (a, b) in enumerate(zip(text, composed, strict=False)) if a != b),
            min(len(text), len(composed)),
        )
        # Back to the character the combining marks compose with.
        while at > 0 and unicodedata.combining(text[at]):
            at -= 1
        yield _finding("not-nfc", at, len(text) - at, "the text in Unicode Normalization Form C")


def lint(ref: Reference | str) -> tuple[Finding, ...]:
    """The advice the RFCs give about how ``ref`` is written, in the
    order of the text: a tuple of ``Finding`` (see ``LINT_CODES``), empty
    when there is none.  A string is read as a URI-reference, or as an
    IRI-reference when it is no URI-reference; a text that is neither
    raises ``URISyntaxError`` (its password masked, as ever).

    >>> import urigrammar
    >>> [f.code for f in urigrammar.lint("http://user:pw@Example.com:80/a/../b")]
    ['http-userinfo', 'password', 'host-case', 'default-port', 'dot-segments']
    >>> urigrammar.lint("https://example.com/")
    ()
    """
    if isinstance(ref, str):
        ref = parse(ref) if validate("URI-reference", ref) else parse_iri(ref)
    elif not isinstance(ref, (URIReference, IRIReference)):
        msg = f"expected a URIReference, an IRIReference or a str, not {type(ref).__name__}"
        raise TypeError(msg)
    text = str(ref)
    return tuple(sorted(_findings(ref, text), key=lambda f: (f.offset, f.code)))
