"""Percent-encoding (RFC 3986 sections 2.1 and 2.4), with the characters
each component admits unencoded read off the grammar.

In Appendix A a component that carries data is a repetition of single
characters and ``pct-encoded``::

    segment = *pchar
    pchar   = unreserved / pct-encoded / sub-delims / ":" / "@"

``admitted(rule)`` walks the rule's expression (the engine's IR), following rule names down
to character classes (the RFC 5234 core classes included), and collects the
single characters; no character set is typed in this module.  The rules of
that shape are ``ENCODE_RULES``: ``userinfo``, ``reg-name``, ``segment``,
``segment-nz``, ``segment-nz-nc``, ``query`` and ``fragment``.

Encoding is always UTF-8 (section 2.5) with uppercase hexadecimal digits
(section 2.1).  A lone surrogate has no UTF-8 form: encoding one raises
``URIError`` unless an ``errors`` handler such as ``"surrogatepass"`` or
``"surrogateescape"`` says otherwise, exactly as ``str.encode`` does; the
same handler given to ``percent_decode`` brings the text back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from functools import cache
from typing import Any

from .._errors import UnknownRuleError, URIError
from ..engine import Alt, Chars, CharSet, Expr, Grammar, Ref, Rep, text_of
from ..shipped import (
    SHIPPED,
    check_errors,
    decode_where,
    encode_except,
    percent_decode,
    percent_decode_bytes,
    shipped_rule,
    userinfo_secret,
)
from ._dialect import BIDI_FORMATTING, IRI, URI, Dialect

__all__ = [
    "CharClass",
    "admitted",
    "check_errors",
    "decode_where",
    "encode_except",
    "encode_path",
    "encode_rules",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
]

# The one rule a percent sign may start (section 2.1).
_PCT_ENCODED = "pct-encoded"


def _alternatives(expr: Expr | None, grammar: Grammar) -> tuple[CharSet, bool] | None:
    """The code points of an alternation of single characters and whether
    ``pct-encoded`` is one of the alternatives; ``None`` when ``expr`` is
    anything else (a sequence, a repetition, a multi-character core rule)."""
    if isinstance(expr, Chars):
        return expr.chars, False
    if isinstance(expr, Ref):
        name = grammar.canonical(expr.name)
        if name == _PCT_ENCODED:
            return CharSet(), True
        return _alternatives(grammar.expr(name), grammar)
    if isinstance(expr, Alt):
        codes = CharSet()
        escapes = False
        for item in expr.items:
            found = _alternatives(item, grammar)
            if found is None:
                return None
            codes |= found[0]
            escapes = escapes or found[1]
        return codes, escapes
    return None


class CharClass(AbstractSet[str]):
    """An immutable set of characters, held as code point intervals
    (the engine's ``CharSet``): ``iunreserved`` admits about a million
    characters, which a ``frozenset`` would have to hold one by one.  The
    ASCII members are also kept as a ``frozenset``, for the common lookups."""

    __slots__ = ("_ascii", "codes")

    def __init__(self, codes: CharSet) -> None:
        self.codes = codes
        self._ascii = frozenset(chr(c) for c in codes & CharSet([(0, 127)]))

    @classmethod
    def _from_iterable(cls, chars: Iterable[str]) -> CharClass:  # type: ignore[override]
        return cls(CharSet.of(ord(c) for c in chars))

    def __contains__(self, char: object) -> bool:
        if char in self._ascii:
            return True
        return (
            isinstance(char, str) and len(char) == 1 and char > "\x7f" and ord(char) in self.codes
        )

    def __iter__(self) -> Iterator[str]:
        return map(chr, self.codes)

    def __len__(self) -> int:
        return len(self.codes)

    def __hash__(self) -> int:
        return hash(self.codes)

    def __sub__(self, other: AbstractSet[Any]) -> CharClass:
        removed = CharSet.of(ord(c) for c in other if isinstance(c, str) and len(c) == 1)
        return CharClass(self.codes - removed)

    def __repr__(self) -> str:
        return f"CharClass({self.codes!r})"


def _admitted_by(name: str, grammar: Grammar) -> CharClass | None:
    # `*( a / b / pct-encoded / ... )` or `1*( ... )`: any string of the
    # single alternatives and escapes matches (with one item at least for
    # `1*`), which is what lets percent_encode promise a valid result.
    expr = grammar.expr(name)
    if not (isinstance(expr, Rep) and expr.lo <= 1 and expr.hi is None):
        return None
    found = _alternatives(expr.item, grammar)
    if found is None or not found[1]:
        return None
    return CharClass(found[0])


def _shipped_names() -> list[tuple[str, Grammar]]:
    # Each shipped rule once, with the grammar a lookup by name finds it in.
    return [
        (name, shipped_rule(name)[0])
        for name in dict.fromkeys(name for grammar in SHIPPED for name in grammar.rule_names)
    ]


@cache
def _admitted_table() -> dict[str, CharClass]:
    # Read off the grammars on first use, not at import (the grammars
    # themselves are read on first use): RFC 3986's rules and RFC 3987's
    # i-rules (isegment, iquery, ...), which widen them with ucschar.
    table: dict[str, CharClass] = {}
    for name, grammar in _shipped_names():
        chars = _admitted_by(name, grammar)
        if chars is not None:
            # RFC 3987 section 4.1: the ABNF admits the bidi formatting
            # characters, but an IRI MUST NOT contain them.
            table[name] = chars - BIDI_FORMATTING if grammar is IRI.grammar else chars
    return table


# The rule encoded a segment at a time rather than from a character set
# (and its RFC 3987 counterpart, ipath).
_PATH = "path"


@cache
def encode_rules() -> tuple[str, ...]:
    """The rules ``percent_encode`` encodes for, in the grammar's order: the
    data components, and ``path`` (segment by segment, ``/`` kept)."""
    admitted = _admitted_table()
    return tuple(
        name
        for name, _ in _shipped_names()
        if name in admitted or name in (URI.rule(_PATH), IRI.rule(_PATH))
    )


def __getattr__(name: str) -> object:
    # ENCODE_RULES needs the grammar read, which import does not do (PEP 562).
    if name == "ENCODE_RULES":
        return encode_rules()
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def _encode_rule(rule: str) -> str:
    # The rule as the grammar spells it; for a name no grammar has, the
    # error also lists the rules percent-encoding takes.
    try:
        return shipped_rule(rule)[1]
    except UnknownRuleError as exc:
        msg = f"{exc.message}; percent-encoding takes {', '.join(encode_rules())}"
        raise UnknownRuleError(msg, rule=exc.rule, text=exc.text, secrets=exc.secrets) from None


def admitted(rule: str) -> CharClass:
    """The characters that ``rule`` (one of ``ENCODE_RULES``) admits
    unencoded, as read off the grammar.  ``%`` is never among them, nor,
    in an RFC 3987 rule, a bidi formatting character: the ABNF admits those,
    but section 4.1 says an IRI MUST NOT contain them, so they are encoded."""
    name = _encode_rule(rule)
    chars = _admitted_table().get(name)
    if chars is None:
        msg = (
            f"percent-encoding is defined for {', '.join(encode_rules())}, not {name!r} "
            "(a rule that is not a repetition of single characters and pct-encoded)"
        )
        raise URIError(msg, rule=name)
    return chars


def encode_path(
    text: str,
    *,
    relative: bool = False,
    keep_escapes: bool = False,
    errors: str = "strict",
    dialect: Dialect = URI,
) -> str:
    """``text`` as a path (section 3.3): ``/`` stays the segment delimiter
    and each segment is encoded for ``segment`` on its own, the first for
    ``segment-nz-nc`` when ``relative`` (a relative reference, where a
    ``:`` there would read as a scheme delimiter, section 4.2); for
    the dialect's counterparts (``isegment``, ... for IRIs, RFC 3987)."""
    text = text_of(text)
    encoded: list[str] = []
    start = 0
    for segment in text.split("/"):
        rule = dialect.rule("segment-nz-nc" if relative and not encoded else "segment")
        try:
            encoded.append(
                encode_except(segment, admitted(rule), keep_escapes=keep_escapes, errors=errors)
            )
        except URIError as exc:
            offset = None if exc.offset is None else start + exc.offset
            raise URIError(
                exc.message,
                rule=dialect.rule(_PATH),
                text=text,
                offset=offset,
                secrets=userinfo_secret,
            ) from None
        start += len(segment) + 1
    return "/".join(encoded)


def percent_encode(
    text: str, rule: str = "segment", *, keep_escapes: bool = False, errors: str = "strict"
) -> str:
    """Percent-encode, as UTF-8 octets with uppercase hexadecimal digits,
    every character of ``text`` that ``rule`` does not admit (section 2.1).

    The result matches ``rule`` (``segment-nz`` and ``segment-nz-nc`` also
    need ``text`` non-empty).  ``%`` itself is encoded, so any text comes
    back from ``percent_decode``; with ``keep_escapes=True`` a ``%`` that
    starts a valid ``%XX`` is left alone, for text that is already partly
    encoded.  ``errors`` is the ``str.encode`` handler for lone surrogates.

    ``rule="path"`` encodes each ``/``-separated segment for ``segment``
    and keeps the ``/``: the result matches ``path``.  (As the first
    segment of a relative reference it also needs ``:`` encoded, which
    ``build`` does.)

    >>> import urigrammar
    >>> urigrammar.percent_encode("a b/ü"), urigrammar.percent_encode("a b/ü", "path")
    ('a%20b%2F%C3%BC', 'a%20b/%C3%BC')
    """
    name = _encode_rule(rule)
    for dialect in (URI, IRI):
        if name == dialect.rule(_PATH):
            return encode_path(text, keep_escapes=keep_escapes, errors=errors, dialect=dialect)
    try:
        return encode_except(text, admitted(rule), keep_escapes=keep_escapes, errors=errors)
    except URIError as exc:
        # The error names the rule, as every message does; for (i)userinfo
        # that also hides the password after its ":" (section 3.2.1).
        raise URIError(
            exc.message, rule=name, text=exc.text, offset=exc.offset, secrets=userinfo_secret
        ) from None
