"""Short hints for syntax errors about RFC 3986's URIs and their
components, where the fix is known: a character no URI may hold is
percent-encoded (section 2.1), and a URI is ASCII, so a text with other
characters is an IRI (RFC 3987), which ``to_uri`` maps to a URI.

The shipped RFC 3986 grammar hands ``uri_hint`` to the engine, which
appends its hint to the message of a syntax error; errors about other
grammars (RFC 3987, RFC 6570, a user's) get none.
"""

from __future__ import annotations

from ._secrets import userinfo_secret

__all__ = ["uri_hint"]

# The rules a whole URI or a component is checked against, where a
# percent-encoded octet is allowed (not scheme, port or an IP literal).
_URI_RULES = frozenset(
    name.casefold()
    for name in (
        "URI",
        "URI-reference",
        "absolute-URI",
        "relative-ref",
        "hier-part",
        "relative-part",
        "authority",
        "userinfo",
        "host",
        "reg-name",
        "path",
        "path-abempty",
        "path-absolute",
        "path-noscheme",
        "path-rootless",
        "segment",
        "segment-nz",
        "segment-nz-nc",
        "query",
        "fragment",
    )
)

# ASCII characters that are neither reserved nor unreserved (section 2):
# no URI holds them but percent-encoded.  "%" is left out: it is allowed,
# as the start of an escape.
_NEVER_IN_A_URI = frozenset(chr(c) for c in range(0x21)) | frozenset('"<>\\^`{|}\x7f')


def uri_hint(rule: str, text: str, offset: int) -> str | None:
    """The hint for ``text`` failing ``rule`` at ``offset``, or ``None``."""
    if rule.casefold() not in _URI_RULES or offset >= len(text):
        return None
    found = userinfo_secret(text, rule)
    if found is not None and found[1] <= offset < found[2]:
        return None  # the character is the password's: the hint would tell it
    char = text[offset]
    if char == " ":
        return "a space is written %20 in a URI"
    if char in _NEVER_IN_A_URI:
        return f"write it percent-encoded: %{ord(char):02X}"
    if not char.isascii():
        return (
            "a URI is ASCII: urigrammar.to_uri() turns an IRI into one, "
            "or read it as an IRI with parse_iri()"
        )
    return None
