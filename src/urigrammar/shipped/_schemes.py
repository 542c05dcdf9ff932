"""The grammars of URI schemes that urigrammar ships, for the scheme
profiles (``urigrammar.schemes``): each scheme's RFC ABNF verbatim, one
file per RFC under ``grammar/``, loaded with RFC 3986 (whose rules they
name) as an import.  Where a published grammar needs a correction, or a
rule its RFC takes from elsewhere only in prose, a small file beside it
says so and why (an erratum's ID, or the reason where none exists), as
``rfc6570-errata.abnf`` does for RFC 6570.

These grammars are not in ``SHIPPED``: a rule name given to the top-level
``validate`` is RFC 3986's, RFC 3987's or RFC 6570's, never a scheme's
(RFC 8089 defines its own ``host``-free ``local-path``; RFC 9110 its own
``absolute-path``).  A profile names its grammar.
"""

from __future__ import annotations

import os

from ..engine import CharSet, Grammar, PackageStore, restricted
from ._grammars import COMPILED, RFC3986, shipped

__all__ = [
    "DID_CORE",
    "DID_CORE_LOWERCASE",
    "ENCODED_IN_ADDR_SPEC",
    "RFC2045",
    "RFC2397",
    "RFC2397_PUBLISHED",
    "RFC3966",
    "RFC3966_REQUIREMENTS",
    "RFC3966_UNDELIMITED",
    "RFC4151",
    "RFC4151_REQUIREMENTS",
    "RFC5322",
    "RFC5322_PUBLISHED",
    "RFC5870",
    "RFC5870_REQUIREMENTS",
    "RFC5870_WGS84",
    "RFC6068",
    "RFC6068_DELIMITED",
    "RFC6068_ENCODED",
    "RFC6068_URI",
    "RFC6455",
    "RFC6455_PUBLISHED",
    "RFC6920",
    "RFC6920_REQUIREMENTS",
    "RFC7565",
    "RFC7565_PUBLISHED",
    "RFC8089",
    "RFC8089_E2",
    "RFC8089_E2_2",
    "RFC8089_E3_2",
    "RFC8141",
    "RFC9110",
    "RFC9110_REQUIREMENTS",
    "RFC9293_REQUIREMENTS",
    "SCHEME_FILES",
]


#: RFC 8141 section 2 (urn), with ``alphanum``, which it takes from RFC 3986
#: in prose only (``rfc8141-imports.abnf``).
RFC8141_IMPORTS = shipped("rfc8141-imports.abnf", "RFC 8141 (imports)")
RFC8141 = shipped("rfc8141.abnf", "RFC 8141", RFC3986, RFC8141_IMPORTS)

#: RFC 5322 sections 3.2.1 to 3.2.5 and the obsolete rules they use, as
#: published, and with erratum 1905 (``rfc5322-errata.abnf``): the rules
#: RFC 6068 takes from it.
RFC5322_PUBLISHED = shipped("rfc5322.abnf", "RFC 5322 (as published)")
RFC5322 = shipped("rfc5322-errata.abnf", "RFC 5322", RFC5322_PUBLISHED)

#: RFC 6068 section 2 (mailto), with RFC 3986 and RFC 5322 as imports.
#: Not regular: quoted-string reaches CFWS, and CFWS RFC 5322's nested
#: comment.
RFC6068 = shipped("rfc6068.abnf", "RFC 6068", RFC3986, RFC5322)

#: RFC 6068 restricted to the characters RFC 3986's URI uses
#: (``Grammar.restricted``): every rule matches the strings over those
#: characters its RFC 6068 rule matches, and no other.  quoted-string needs
#: a DQUOTE, which no URI holds, so it is not there, and mailtoURI no longer
#: reaches comment: it is regular.  A mailto URI is an RFC 3986 URI too, so
#: this is what the mailto profile matches with.  It has no file: its text
#: is written from RFC 6068's rules, its programs compiled with the others.
RFC6068_URI = restricted(
    RFC6068,
    RFC3986,
    "URI",
    name="RFC 6068 (over URI characters)",
    store=PackageStore(os.path.join(COMPILED, "rfc6068-uri.abnf.json")),
)

#: RFC 6068 section 2, item 1: the characters an addr-spec MUST
#: percent-encode that a URI may hold unencoded: gen-delims but "@" and
#: ":" ("/", "?", "#", "[", "]"), and the sub-delims "&", ";" and "="
#: ("%" is RFC 3986's pct-encoded already).  Not a grammar's set: the
#: section's prose.
ENCODED_IN_ADDR_SPEC = frozenset("/?#[]&;=")

#: RFC 6068 over RFC 3986's URI characters but ``ENCODED_IN_ADDR_SPEC``,
#: every rule named "encoded-" and its RFC 6068 name: what an address may
#: hold unencoded, for ``rfc6068-delimited.abnf``.  No file, as
#: ``RFC6068_URI``.
RFC6068_ENCODED = restricted(
    RFC6068_URI,
    RFC3986,
    "URI",
    name="RFC 6068 (over URI characters an addr-spec holds unencoded)",
    store=PackageStore(os.path.join(COMPILED, "rfc6068-encoded.abnf.json")),
    prefix="encoded-",
    without=CharSet.of(map(ord, ENCODED_IN_ADDR_SPEC)),
)
#: RFC 6068 section 2's prose on where the header fields begin, written
#: as ABNF (not RFC text; the file says so): the mailto requirement's
#: language.
RFC6068_DELIMITED = shipped(
    "rfc6068-delimited.abnf", "RFC 6068 (delimited)", RFC6068_URI, RFC6068_ENCODED
)

#: RFC 2045 section 5.1 (MIME's Content-Type tokens), transcribed into
#: ABNF, with RFC 822's quoted-string: what RFC 2397's tokens are, decoded.
RFC2045 = shipped("rfc2045.abnf", "RFC 2045")
#: RFC 2397 section 3 (data), transcribed into ABNF: the rules it takes
#: from RFC 2396 and RFC 2045 in prose, as URI text (``-imports``); the
#: ``urlchar`` RFC 2396 lacks, as erratum 2045 reads it (``-errata``); the
#: four rules of section 3 (``RFC2397_PUBLISHED``); and ``data-URI``, with
#: section 2's base64 and RFC 3986's fragment (``RFC2397``, the profile's).
RFC2397_IMPORTS = shipped("rfc2397-imports.abnf", "RFC 2397 (imports)", RFC3986)
RFC2397_ERRATA = shipped("rfc2397-errata.abnf", "RFC 2397 (erratum 2045)", RFC2397_IMPORTS)
RFC2397_PUBLISHED = shipped(
    "rfc2397.abnf", "RFC 2397 (section 3)", RFC3986, RFC2397_IMPORTS, RFC2397_ERRATA
)
RFC2397 = shipped("rfc2397-uri.abnf", "RFC 2397", RFC3986, RFC2397_PUBLISHED)

#: RFC 8089 section 2 (file), as published.
RFC8089 = shipped("rfc8089.abnf", "RFC 8089", RFC3986)
#: Section 2 with Appendix E.2's drive letters ("file:c:/path").
RFC8089_E2 = shipped("rfc8089-appendix-e2.abnf", "RFC 8089 (Appendix E.2)", RFC8089)
#: Section 2 with Appendix E.2.2's vertical line ("file:///c|/path"): for
#: reading old URIs; RFC 3986 forbids the "|", and the file profile does
#: not use it.
RFC8089_E2_2 = shipped("rfc8089-appendix-e2-2.abnf", "RFC 8089 (Appendix E.2.2)", RFC8089)
#: Section 2 with Appendix E.2's drive letters and E.3.2's UNC strings
#: ("file:////host/share/path"): the file profile's grammar.
RFC8089_E3_2 = shipped("rfc8089-appendix-e3-2.abnf", "RFC 8089 (Appendices E.2, E.3.2)", RFC8089_E2)

#: RFC 9110 sections 4.2.1 and 4.2.2 (http, https): the rules they use,
#: which RFC 9110 gives in prose, are RFC 3986's.
RFC9110 = shipped("rfc9110.abnf", "RFC 9110", RFC3986)
#: The prose requirements of RFC 9110 sections 4.2.1 to 4.2.5 on http(s)
#: URIs, written as ABNF (not RFC text; the file says so).
RFC9110_REQUIREMENTS = shipped("rfc9110-requirements.abnf", "RFC 9110 (requirements)", RFC9110)
#: The 16-bit TCP port (RFC 9293 section 3.1) that RFC 9110's and RFC
#: 6455's schemes name, as the language of the URIs whose port is past it
#: (not RFC text; the file says so).
RFC9293_REQUIREMENTS = shipped("rfc9293-requirements.abnf", "RFC 9293 (port)", RFC3986)

#: RFC 6455 section 3 (ws, wss) as published: its prose rules filled by
#: RFC 3986's rules of the same names, "path" too.
RFC6455_PUBLISHED = shipped("rfc6455.abnf", "RFC 6455 (as published)", RFC3986)
#: RFC 6455 section 3 with its prose "path" read as RFC 3986's
#: path-abempty, as the prose says (``rfc6455-imports.abnf``).
RFC6455 = shipped("rfc6455-imports.abnf", "RFC 6455", RFC6455_PUBLISHED)

#: W3C DID Core v1.0's "DID Syntax" and "DID URL Syntax" (did).
DID_CORE = shipped("did-core.abnf", "DID Core", RFC3986)
#: "DID Syntax"'s prose requirement that the scheme name be lower case,
#: written as ABNF (not W3C text; the file says so).
DID_CORE_LOWERCASE = shipped("did-core-lowercase.abnf", "DID Core (lower-case scheme)")

#: RFC 3966 section 3 (tel), read with ``rfc3966-errata.abnf``: the one
#: rule the published text writes so that no ABNF reader takes it.
RFC3966 = shipped("rfc3966.abnf", "RFC 3966", RFC3986, erratum="rfc3966-errata.abnf")
#: RFC 3966 over the characters its telephone-uri uses but ";", every rule
#: named "undelimited-" and its RFC 3966 name: what a parameter holds
#: between two ";", for ``rfc3966-requirements.abnf``.  No file, as
#: ``RFC6068_URI``.
RFC3966_UNDELIMITED = restricted(
    RFC3966,
    RFC3966,
    "telephone-uri",
    name='RFC 3966 (over telephone-uri characters but ";")',
    store=PackageStore(os.path.join(COMPILED, "rfc3966-undelimited.abnf.json")),
    prefix="undelimited-",
    without=CharSet.of([ord(";")]),
)
#: Prose requirements of RFC 3966 sections 3 and 5.3 on tel URIs, written
#: as ABNF (not RFC text; the file says so).
RFC3966_REQUIREMENTS = shipped(
    "rfc3966-requirements.abnf", "RFC 3966 (requirements)", RFC3966, RFC3966_UNDELIMITED
)

#: RFC 7565 section 7 (acct) as published: its userpart takes one
#: character, or a sub-delim first (``rfc7565.abnf``'s comment says why).
RFC7565_PUBLISHED = shipped("rfc7565.abnf", "RFC 7565 (as published)", RFC3986)
#: RFC 7565 with userpart's first alternation grouped
#: (``rfc7565-errata.abnf``): the acct profile's grammar.
RFC7565 = shipped("rfc7565-errata.abnf", "RFC 7565", RFC7565_PUBLISHED)

#: RFC 4151 section 2.1 (tag), with RFC 3986's pchar.
RFC4151 = shipped("rfc4151.abnf", "RFC 4151", RFC3986)
#: RFC 4151 section 2.2's prose requirement that the date be a day of the
#: Gregorian calendar, written as ABNF (not RFC text; the file says so).
RFC4151_REQUIREMENTS = shipped("rfc4151-requirements.abnf", "RFC 4151 (requirements)", RFC4151)

#: RFC 5870 section 3.3 (geo), its first block: any CRS.
RFC5870 = shipped("rfc5870.abnf", "RFC 5870")
#: RFC 5870 section 3.3 with its second block, the WGS-84 coordinates.
RFC5870_WGS84 = shipped("rfc5870-wgs84.abnf", "RFC 5870 (WGS-84)", RFC5870)
#: The prose requirements of RFC 5870 sections 3.3 and 3.4.2 on geo URIs,
#: written as ABNF (not RFC text; the file says so).
RFC5870_REQUIREMENTS = shipped(
    "rfc5870-requirements.abnf", "RFC 5870 (requirements)", RFC5870_WGS84
)

#: RFC 6920 section 3, Figure 4 (ni), with RFC 3986's authority, query
#: and unreserved.
RFC6920 = shipped("rfc6920.abnf", "RFC 6920", RFC3986)
#: The prose requirements of RFC 6920 sections 3 and 9.4 on ni URIs,
#: written as ABNF (not RFC text; the file says so).
RFC6920_REQUIREMENTS = shipped("rfc6920-requirements.abnf", "RFC 6920 (requirements)", RFC6920)

#: Every scheme grammar and its file, imports before what imports them.
SCHEME_FILES: tuple[tuple[Grammar, str], ...] = (
    (RFC8089, "rfc8089.abnf"),
    (RFC8089_E2, "rfc8089-appendix-e2.abnf"),
    (RFC8089_E2_2, "rfc8089-appendix-e2-2.abnf"),
    (RFC8089_E3_2, "rfc8089-appendix-e3-2.abnf"),
    (RFC8141_IMPORTS, "rfc8141-imports.abnf"),
    (RFC8141, "rfc8141.abnf"),
    (RFC5322_PUBLISHED, "rfc5322.abnf"),
    (RFC5322, "rfc5322-errata.abnf"),
    (RFC6068, "rfc6068.abnf"),
    (RFC6068_URI, "rfc6068-uri.abnf"),
    (RFC6068_ENCODED, "rfc6068-encoded.abnf"),
    (RFC6068_DELIMITED, "rfc6068-delimited.abnf"),
    (RFC2045, "rfc2045.abnf"),
    (RFC2397_IMPORTS, "rfc2397-imports.abnf"),
    (RFC2397_ERRATA, "rfc2397-errata.abnf"),
    (RFC2397_PUBLISHED, "rfc2397.abnf"),
    (RFC2397, "rfc2397-uri.abnf"),
    (RFC9110, "rfc9110.abnf"),
    (RFC9110_REQUIREMENTS, "rfc9110-requirements.abnf"),
    (RFC9293_REQUIREMENTS, "rfc9293-requirements.abnf"),
    (RFC6455_PUBLISHED, "rfc6455.abnf"),
    (RFC6455, "rfc6455-imports.abnf"),
    (DID_CORE, "did-core.abnf"),
    (DID_CORE_LOWERCASE, "did-core-lowercase.abnf"),
    (RFC3966, "rfc3966.abnf"),
    (RFC3966_UNDELIMITED, "rfc3966-undelimited.abnf"),
    (RFC3966_REQUIREMENTS, "rfc3966-requirements.abnf"),
    (RFC7565_PUBLISHED, "rfc7565.abnf"),
    (RFC7565, "rfc7565-errata.abnf"),
    (RFC4151, "rfc4151.abnf"),
    (RFC4151_REQUIREMENTS, "rfc4151-requirements.abnf"),
    (RFC5870, "rfc5870.abnf"),
    (RFC5870_WGS84, "rfc5870-wgs84.abnf"),
    (RFC5870_REQUIREMENTS, "rfc5870-requirements.abnf"),
    (RFC6920, "rfc6920.abnf"),
    (RFC6920_REQUIREMENTS, "rfc6920-requirements.abnf"),
)
