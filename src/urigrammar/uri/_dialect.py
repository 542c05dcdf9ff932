"""Which grammar a reference class reads and writes: RFC 3986 for URIs,
RFC 3987 for IRIs.

RFC 3987 section 2.2 builds the IRI grammar from RFC 3986's by widening
the unreserved characters, and renames every rule it changes: "If the
non-terminal contains 'URI', this has been changed to 'IRI'.  Otherwise,
an 'i' has been prefixed."  ``Dialect.rule`` applies that sentence to an
RFC 3986 rule name and keeps the result when the IRI grammar defines it
(``segment`` -> ``isegment``, ``URI-reference`` -> ``IRI-reference``),
the name itself otherwise (``port``, ``IPv6address``: the rules section
2.2 restates unchanged).  So the model names RFC 3986's rules once, and
each class finds its own grammar's counterparts.

Section 4.1 adds what the grammar does not say: IRIs MUST NOT contain the
bidirectional formatting characters.  ``Dialect.forbidden`` finds them.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

from .._errors import URISyntaxError
from ..engine import Grammar, text_of
from ..shipped import RFC3986, RFC3987, userinfo_secret

__all__ = ["BIDI_FORMATTING", "IRI", "URI", "Dialect", "bidi_error"]

#: RFC 3987 section 4.1: "IRIs MUST NOT contain bidirectional formatting
#: characters (LRM, RLM, LRE, RLE, LRO, RLO, and PDF)", U+200E, U+200F and
#: U+202A to U+202E; and Unicode's Bidi_Control property has since gained
#: the isolates U+2066 to U+2069 (Unicode 6.3) and ALM U+061C, which do the
#: same harm.  Not grammar: the ABNF admits all of them in ucschar.
BIDI_FORMATTING = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


@functools.cache
def _bidi() -> re.Pattern[str]:
    # Compiled at the first non-ASCII IRI: a process that reads URIs never
    # needs it.
    return re.compile("[" + "".join(sorted(BIDI_FORMATTING)) + "]")


@functools.cache
def _parse_rules(dialect: Dialect) -> tuple[str, ...]:
    # Asked at every parse: named once per dialect.
    rules = ("URI-reference", "URI", "absolute-URI", "relative-ref")
    return tuple(dialect.renamed(name) for name in rules)


@functools.cache
def _counterpart(dialect: Dialect, name: str) -> str:
    # Asked about a handful of names, for every component of every
    # reference that is normalized or mapped: a lookup, once.  The two
    # dialects and RFC 3986's rule names bound the cache.
    renamed = dialect.renamed(name)
    return renamed if dialect.grammar.find(renamed) is not None else name


class Dialect(NamedTuple):
    """A grammar and the rule names a reference class uses in it."""

    #: "URI" or "IRI": the word in the class's rule names.
    word: str
    grammar: Grammar

    def renamed(self, name: str) -> str:
        """RFC 3987 section 2.2's new name for RFC 3986's rule ``name``, for
        a rule the section changes; needs no grammar read."""
        if self.word == "URI":
            return name
        return name.replace("URI", "IRI") if "URI" in name else "i" + name

    def rule(self, name: str) -> str:
        """This grammar's counterpart of RFC 3986's rule ``name``: the
        renamed rule when the grammar defines it (the section changed the
        rule), ``name`` itself otherwise (``port``: a rule restated as is)."""
        return _counterpart(self, name)

    @property
    def parse_rules(self) -> tuple[str, ...]:
        """The rules ``parse`` takes: RFC 3986 sections 4.1 to 4.3, renamed.
        Section 2.2 changes all four, so no grammar is read to name them
        (``import urigrammar`` reads none); a test checks each exists."""
        return _parse_rules(self)

    def forbidden(self, text: str) -> int:
        """The offset of the first character this dialect refuses although
        the grammar admits it (section 4.1's bidi formatting characters, for
        IRIs), or -1.  ``str.isascii`` and the regex read a ``str``
        subclass's own characters, whatever its methods say."""
        if self.word == "URI" or str.isascii(text):
            return -1
        found = _bidi().search(text)
        return -1 if found is None else found.start()


def bidi_error(rule: str, text: str, offset: int) -> URISyntaxError:
    """The error for the bidi formatting character at ``offset``."""
    text = text_of(text)  # a str subclass: the characters it holds
    char = text[offset]
    name = unicodedata.name(char, "a bidi formatting character")
    msg = (
        f"U+{ord(char):04X} {name} at offset {offset}: IRIs must not contain bidirectional "
        "formatting characters (RFC 3987 section 4.1)"
    )
    return URISyntaxError(msg, rule=rule, text=text, offset=offset, secrets=userinfo_secret)


#: RFC 3986: URIReference's grammar.
URI = Dialect("URI", RFC3986)
#: RFC 3987: IRIReference's grammar.
IRI = Dialect("IRI", RFC3987)
