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

from ..engine import Grammar
from ._grammars import RFC3986, shipped

__all__ = [
    "RFC8089",
    "RFC8089_E2",
    "RFC8089_E2_2",
    "RFC8089_E3_2",
    "RFC8141",
    "SCHEME_FILES",
]


#: RFC 8141 section 2 (urn), with ``alphanum``, which it takes from RFC 3986
#: in prose only (``rfc8141-imports.abnf``).
RFC8141_IMPORTS = shipped("rfc8141-imports.abnf", "RFC 8141 (imports)")
RFC8141 = shipped("rfc8141.abnf", "RFC 8141", RFC3986, RFC8141_IMPORTS)

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

#: Every scheme grammar and its file, imports before what imports them.
SCHEME_FILES: tuple[tuple[Grammar, str], ...] = (
    (RFC8089, "rfc8089.abnf"),
    (RFC8089_E2, "rfc8089-appendix-e2.abnf"),
    (RFC8089_E2_2, "rfc8089-appendix-e2-2.abnf"),
    (RFC8089_E3_2, "rfc8089-appendix-e3-2.abnf"),
    (RFC8141_IMPORTS, "rfc8141-imports.abnf"),
    (RFC8141, "rfc8141.abnf"),
)
