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

__all__ = ["RFC6455", "RFC6455_PUBLISHED", "RFC8141", "RFC9110", "SCHEME_FILES"]


#: RFC 8141 section 2 (urn), with ``alphanum``, which it takes from RFC 3986
#: in prose only (``rfc8141-imports.abnf``).
RFC8141_IMPORTS = shipped("rfc8141-imports.abnf", "RFC 8141 (imports)")
RFC8141 = shipped("rfc8141.abnf", "RFC 8141", RFC3986, RFC8141_IMPORTS)

#: RFC 9110 sections 4.2.1 and 4.2.2 (http, https): the rules they use,
#: which RFC 9110 gives in prose, are RFC 3986's.
RFC9110 = shipped("rfc9110.abnf", "RFC 9110", RFC3986)

#: RFC 6455 section 3 (ws, wss) as published: its prose rules filled by
#: RFC 3986's rules of the same names, "path" too.
RFC6455_PUBLISHED = shipped("rfc6455.abnf", "RFC 6455 (as published)", RFC3986)
#: RFC 6455 section 3 with its prose "path" read as RFC 3986's
#: path-abempty, as the prose says (``rfc6455-imports.abnf``).
RFC6455 = shipped("rfc6455-imports.abnf", "RFC 6455", RFC6455_PUBLISHED)

#: Every scheme grammar and its file, imports before what imports them.
SCHEME_FILES: tuple[tuple[Grammar, str], ...] = (
    (RFC8141_IMPORTS, "rfc8141-imports.abnf"),
    (RFC8141, "rfc8141.abnf"),
    (RFC9110, "rfc9110.abnf"),
    (RFC6455_PUBLISHED, "rfc6455.abnf"),
    (RFC6455, "rfc6455-imports.abnf"),
)
