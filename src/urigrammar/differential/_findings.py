"""What ``diff`` returns: each parser's reading of a text (``Reading``) and
the findings that explain where two readings part (``Finding``), with the
kinds a finding can have (``KINDS``) and the error ``agreed_host`` raises.

Findings are values: immutable, hashable, picklable, with a JSON form
(``to_json``) that the command line writes.  None of them holds a
password: what RFC 3986 section 3.2.1 or the URL Standard's authority
state reads as one is replaced by ``****`` in every reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from .._errors import URIError

__all__ = [
    "KINDS",
    "RFC_AND_WHATWG",
    "SEVERITIES",
    "Finding",
    "HostDisagreementError",
    "Kind",
    "Reading",
]

Kind = Literal[
    "stripped-control",
    "stripped-whitespace",
    "backslash",
    "scheme-without-slashes",
    "slash-count",
    "multiple-at",
    "ipv4-number",
    "percent-encoded-host",
    "idna-mapped-host",
    "host-missing",
    "port-range",
    "windows-drive-letter",
    "invalid-url-unit",
    "non-ascii",
    "rfc-failure",
    "whatwg-failure",
    "scheme-differs",
    "host-differs",
    "port-differs",
    "path-differs",
    "raw-escaped-host",
    "raw-dot-segment",
    "invalid-a-label",
    "bracketed-host",
    "reader-failure",
]

#: Every kind of finding, with what it means, where its ``offset`` points,
#: and the sections of the URL Standard (https://url.spec.whatwg.org/) and
#: of RFC 3986 whose rules part there.
KINDS: Mapping[str, str] = MappingProxyType(
    {
        "stripped-control": "a leading or trailing C0 control character, which the URL "
        "Standard strips (4.4, basic URL parser step 1) and RFC 3986 never allows (2); "
        "offset: the first one",
        "stripped-whitespace": "an ASCII tab or newline anywhere, or a leading or trailing "
        "space, which the URL Standard removes (4.4, steps 1 and 3) and RFC 3986 never "
        "allows (2; Appendix C leaves whitespace to the text around a URI); offset: the first one",
        "backslash": "a backslash, which the URL Standard reads as '/' in a special URL and "
        "keeps elsewhere (4.4, invalid-reverse-solidus) and RFC 3986 never allows (2); "
        "offset: the first one",
        "scheme-without-slashes": "a special scheme followed by no slash: the URL Standard "
        "reads an authority or resolves against the base (4.4, special authority slashes "
        "state), RFC 3986 a path without authority (3, 3.3); offset: just after the ':'",
        "slash-count": "a special URL whose run of slashes is not two: the URL Standard skips "
        "any number before the authority (4.4, special authority ignore slashes state), "
        "RFC 3986 takes exactly two (3.2) and reads the rest as path; offset: the single "
        "slash, or the third one",
        "multiple-at": "an authority with more than one '@': the URL Standard ends the "
        "credentials at the last (4.4, authority state), RFC 3986 the userinfo at the first "
        "and then refuses the host (3.2.1); offset: the second '@'",
        "ipv4-number": "a host that ends in a number: the URL Standard reads it as an IPv4 "
        "address in shorthand, octal or hexadecimal, or fails (3.5, ends in a number, IPv4 "
        "parser), and so does the numeric resolver (inet_aton under getaddrinfo), where "
        "RFC 3986 reads a reg-name (3.2.2, first-match-wins); offset: the host",
        "percent-encoded-host": "a special URL's host holding percent-encodings: the URL "
        "Standard decodes them before it reads the host (3.5, host parser), RFC 3986 reads "
        "a reg-name whatever they decode to (3.2.2, 6.2.2.2); offset: the first '%' of the host",
        "idna-mapped-host": "a host whose non-ASCII characters the URL Standard maps by UTS "
        "#46 (3.3, domain to ASCII) into another name, where RFC 3986 allows ASCII only "
        "and converts a percent-encoded name to IDNA as it is (3.2.2); offset: the first "
        "non-ASCII character of the host, or its first '%'",
        "host-missing": "a special URL (not file) without a host, which the URL Standard "
        "refuses (4.4, host-missing) and RFC 3986 allows (3.2.2: a reg-name may be empty); "
        "offset: where the host would start",
        "port-range": "a port above 65535, which the URL Standard refuses (4.4, port state, "
        "port-out-of-range) and RFC 3986 allows (3.2.3: port = *DIGIT); offset: the port",
        "windows-drive-letter": "a file URL with a Windows drive letter, which the URL "
        "Standard keeps at the root of the path and never takes as a host (4.4, file "
        "states), where RFC 3986 reads a host or a path segment like any other (3.2.2, "
        "3.3, 5.2.4); offset: the drive letter",
        "invalid-url-unit": "a character that is no URL code point, or a '%' without two "
        "hex digits: the URL Standard keeps or percent-encodes it (4.4, invalid-URL-unit), "
        "RFC 3986 refuses it there (2, 2.1); offset: that character",
        "non-ascii": "a non-ASCII character outside the host: the URL Standard "
        "percent-encodes it as UTF-8 (1.3, 4.4), RFC 3986 refuses it (2: a URI is ASCII; "
        "RFC 3987 maps an IRI to one); offset: that character",
        "rfc-failure": "RFC 3986 refuses the text where the URL Standard reads it, and no "
        "finer kind applies; offset: where RFC 3986 stops (the URISyntaxError's offset)",
        "whatwg-failure": "the URL Standard fails on the text where RFC 3986 reads it, and "
        "no finer kind applies; offset: the host, or 0 without an authority",
        "scheme-differs": "both read the text, with different schemes, and no finer kind "
        "applies; offset: the scheme",
        "host-differs": "both read the text, with different hosts, and no finer kind "
        "applies; offset: the host, or 0 when it comes from the base",
        "port-differs": "both read the text, with different ports, and no finer kind "
        "applies; offset: the port, or the end of the host",
        "path-differs": "both read the text, with different paths (after RFC 3986 section "
        "6.2.2's normalization of both), and no finer kind applies; offset: the path",
        "raw-escaped-host": "a reg-name written with percent-encodings, which clients decode "
        "before they connect (RFC 3986 6.2.2.2; the URL Standard's host parser, 3.5): a check "
        "of the host as written is no check of the host reached; offset: the first '%'",
        "raw-dot-segment": "a path segment that is '.' or '..' once decoded ('%2e%2e'), which "
        "clients remove (RFC 3986 6.2.2.2, then 5.2.4; the URL Standard's path state, 4.4): "
        "a check of the path as written is no check of the path fetched; offset: the segment",
        "invalid-a-label": "a label that starts with 'xn--' and is no A-label by IDNA 2008 "
        "(RFC 5890 2.3.2.1, by the idna package), which the URL Standard passes on (UTS #46 "
        "with CheckHyphens off, 3.3) and IDNA 2008 clients refuse; offset: the label",
        "bracketed-host": "a '[' in a host that is no IP literal: urllib.parse reads the "
        "bracketed part alone as the host (CVE-2024-11168, CVE-2025-0938), where RFC 3986 "
        "allows brackets only around a whole IP-literal (3.2.2) and other readers refuse "
        "the text or read another host; offset: the '['",
        "reader-failure": "one reader refuses the text where the other reads a URL, and no "
        "finer kind applies; offset: 0",
    }
)

#: The kinds of a text that every reader reads as one URL.
_SAME_URL = frozenset({"raw-escaped-host", "raw-dot-segment", "invalid-a-label"})

#: How much each kind matters: ``error`` where the readers read different
#: URLs, ``warning`` where they read the same one and its text says
#: otherwise than what a client uses (the ``raw-`` kinds and invalid
#: A-labels).
SEVERITIES: Mapping[str, str] = MappingProxyType(
    {
        kind: "warning"
        if kind in ("raw-escaped-host", "raw-dot-segment", "invalid-a-label")
        else "error"
        for kind in KINDS
    }
)


@dataclass(frozen=True, slots=True)
class Reading:
    """One parser's reading of a text: its scheme, host, port and path, or
    ``error``, why it is not a URL to that parser (the other fields then
    ``None``).  ``host_kind`` names what the host is: for RFC 3986 the rule
    it matched (``reg-name``, ``IPv4address``, ``IPv6address``,
    ``IPvFuture``; section 3.2.2), for the URL Standard its kind of host
    (``domain``, ``IPv4 address``, ``IPv6 address``, ``opaque host``,
    ``empty host``; section 3.1).  ``port`` is the port's digits as the
    parser gives them."""

    scheme: str | None = None
    host: str | None = None
    host_kind: str | None = None
    port: str | None = None
    path: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The reading as a JSON object, with the same keys every time."""
        return {
            "scheme": self.scheme,
            "host": self.host,
            "host_kind": self.host_kind,
            "port": self.port,
            "path": self.path,
            "error": self.error,
        }


#: The pair of readers a finding is about unless it says otherwise.
RFC_AND_WHATWG = ("rfc3986", "whatwg")


@dataclass(frozen=True, slots=True, repr=False)
class Finding:
    """One reason two readings of a text part: its ``kind`` (a key of
    ``KINDS``), the ``offset`` in the text where they part, the two
    ``readers`` (names of ``diff``'s readers: ``rfc3986`` and ``whatwg``
    unless said otherwise) and their ``readings``, in that order, and each
    reader's library version (``versions``).  ``rfc`` and ``whatwg`` are
    RFC 3986's and the URL Standard's readings when the pair is theirs,
    else ``None``; ``resolver``, when the numeric resolver reads the host
    otherwise than RFC 3986, is the IPv4 address it takes the host for."""

    kind: Kind
    offset: int
    rfc: Reading | None
    whatwg: Reading | None
    resolver: str | None = None
    readers: tuple[str, str] = RFC_AND_WHATWG
    readings: tuple[Reading, Reading] | None = None
    versions: tuple[str, str] = ("", "")

    def __post_init__(self) -> None:
        if self.readings is None and self.rfc is not None and self.whatwg is not None:
            object.__setattr__(self, "readings", (self.rfc, self.whatwg))

    def __repr__(self) -> str:
        # The readings once: as rfc and whatwg for their pair, else by reader.
        shown = [f"kind={self.kind!r}", f"offset={self.offset!r}"]
        if self.readers == RFC_AND_WHATWG:
            shown += [f"rfc={self.rfc!r}", f"whatwg={self.whatwg!r}"]
        else:
            shown += [f"readers={self.readers!r}", f"readings={self.readings!r}"]
        if self.resolver is not None:
            shown.append(f"resolver={self.resolver!r}")
        return f"Finding({', '.join(shown)})"

    @property
    def why(self) -> str:
        """What the kind means (``KINDS``)."""
        return KINDS[self.kind]

    @property
    def severity(self) -> str:
        """``error`` or ``warning`` (``SEVERITIES``)."""
        return SEVERITIES[self.kind]

    def to_json(self) -> dict[str, Any]:
        """The finding as a JSON object: ``kind``, ``severity``,
        ``offset``, ``readers`` (the two names), ``readings`` (each a
        reading's object) and ``versions``, each by reader name, and
        ``resolver``."""
        readings = self.readings or (Reading(), Reading())
        return {
            "kind": self.kind,
            "severity": self.severity,
            "offset": self.offset,
            "readers": list(self.readers),
            "readings": {
                name: found.to_json() for name, found in zip(self.readers, readings, strict=True)
            },
            "versions": dict(zip(self.readers, self.versions, strict=True)),
            "resolver": self.resolver,
        }


class HostDisagreementError(URIError):
    """RFC 3986, the URL Standard and the numeric resolver do not read one
    host from the text (``agreed_host``); ``findings`` says how they part,
    ``offset`` is the first finding's."""

    #: The findings about the host (set by ``agreed_host``; kept by pickling).
    findings: tuple[Finding, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # URIError's own reduction, with the findings as state (set back
        # into the instance's __dict__ on unpickling).
        rebuild, args = super().__reduce__()[:2]
        return rebuild, args, {"findings": self.findings}


# Named by the package users import it from, as urigrammar's public errors
# are (see urigrammar._errors).
HostDisagreementError.__module__ = "urigrammar.differential"
