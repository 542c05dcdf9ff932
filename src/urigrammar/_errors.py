"""The exception hierarchy: every error urigrammar raises on a ``str`` input.

``UrigrammarError`` is the root, and subclasses ``ValueError`` so that code
already guarding URL handling with ``except ValueError`` keeps working.
Below it, two families: the ABNF engine's, about any grammar
(``GrammarError``, ``RuleMatchError``, ``UnknownRuleError``,
``InputTooLongError``, ``RegexExportError``), and ``URIError``, about the
URI family's texts and values.  ``URISyntaxError`` is in both: a text the
URI family's grammars refuse.  Each error carries the rule it was checked
against, the text and the offset as data, and its message shows the text
with a caret under that offset.  All of them pickle to equal objects
(``__reduce__``), so they survive a trip to a worker process.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

__all__ = [
    "GrammarError",
    "InputTooLongError",
    "MissingExtraError",
    "PortTooLargeError",
    "RegexExportError",
    "RuleMatchError",
    "SecretFinder",
    "URIError",
    "URISyntaxError",
    "UnknownRuleError",
    "UnknownSchemeError",
    "UrigrammarError",
    "caret_excerpt",
    "display_width",
]

# A message shows at most this many characters of the text each side of the
# offset: a 1 MB URI must not produce a 1 MB message.
_CONTEXT = 40


# Bidirectional formatting characters: shown as they are, they would
# reorder the line on a terminal that applies the Unicode bidi algorithm.
_BIDI_FORMATTING = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _escaped(char: str) -> bool:
    # Control characters (C0, DEL, C1), line and paragraph separators, bidi
    # formatting characters and lone surrogates (which cannot be encoded for
    # output) would break, reorder or fail to print the line.
    if " " <= char <= "~":
        return False
    category = unicodedata.category(char)
    return category in ("Cc", "Cs", "Zl", "Zp") or char in _BIDI_FORMATTING


def _shown(char: str) -> str:
    return ascii(char)[1:-1] if _escaped(char) else char


def _shown_text(text: str) -> str:
    # Printable ASCII, the common case, is shown as it is, in one step.
    if text.isascii() and text.isprintable():
        return text
    return "".join(_shown(c) for c in text)


def _stored(text: str) -> str:
    """A ``str`` subclass as the exact ``str`` of the characters it holds
    (as C reads it, whatever its own methods say); anything else as is."""
    return text if type(text) is str or not isinstance(text, str) else str.__str__(text)


def display_width(text: str) -> int:
    """The terminal columns ``text`` takes (as ``wcwidth`` counts, from the
    Unicode data Python ships): two for an East Asian wide or fullwidth
    character, none for a combining mark or a format character, one for
    any other.

    >>> import urigrammar
    >>> urigrammar.display_width("日本語"), len("日本語")
    (6, 3)
    """
    text = _stored(text)
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def caret_excerpt(text: str, offset: int) -> str:
    """Two lines: (part of) ``text`` and a caret under ``offset``.

    The text is shown as typed, but for the characters that would break or
    reorder the line (control and bidi formatting characters), which are
    escaped; the caret is placed by terminal columns (``display_width``).
    """
    start = max(0, offset - _CONTEXT)
    end = min(len(text), offset + _CONTEXT)
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    before = _shown_text(text[start:offset])
    after = _shown_text(text[offset:end])
    line = f"  {head}{before}{after}{tail}"
    caret = "  " + " " * (len(head) + display_width(before)) + "^"
    return f"{line}\n{caret}"


#: What stands for a password in messages, excerpts, reprs and masked
#: texts (``mask_password``): fixed, so that its length says nothing about
#: the password's, and made of ``*``, a sub-delim, so that a masked URI is
#: still a URI of the same parts.
HIDDEN = "****"

#: Where a text's secret is: (where the masked part of a quoted text starts,
#: where the secret starts, where it ends), for the rule the text was
#: checked against; ``None`` when it has none.  The URI family's finder
#: (a password in userinfo, RFC 3986 section 3.2.1) is the URI layer's
#: (``urigrammar.shipped``); errors about other grammars have none.
SecretFinder = Callable[[str, "str | None"], "tuple[int, int, int] | None"]


def _quoted_forms(secret: str) -> set[str]:
    # How a message may quote the secret: as is, or inside repr()/ascii() of
    # a longer text, with either quote character escaped.
    forms = {secret, repr(secret)[1:-1], ascii(secret)[1:-1]}
    for form in list(forms):
        forms |= {form.replace("'", "\\'"), form.replace('"', '\\"')}
    return forms


def _masked_message(
    message: str, text: str, found: tuple[int, int, int], offset: int | None
) -> str:
    userinfo_start, start, end = found
    userinfo = text[userinfo_start:end]
    for form in sorted(_quoted_forms(userinfo), key=len, reverse=True):
        message = message.replace(form, text[userinfo_start:start] + HIDDEN)
    password = text[start:end]
    if len(password) > 3:
        # Long enough not to match ordinary words of the message by chance.
        for form in sorted(_quoted_forms(password), key=len, reverse=True):
            message = message.replace(form, HIDDEN)
    if offset is not None and start <= offset < end:
        # check()'s wording (_api): the character it stopped at is a secret.
        message = message.replace(f"unexpected {text[offset]!r}", f"unexpected {HIDDEN}")
    return message


class UrigrammarError(ValueError):
    """Base of every error urigrammar raises for bad input.

    ``rule``, ``text`` and ``offset`` say which rule was being matched, on
    what, and where it went wrong; any of them may be ``None`` when the error
    is not about a position in a text (a bad argument combination, say).

    >>> import urigrammar
    >>> try: urigrammar.parse("http://exa mple.com")
    ... except urigrammar.UrigrammarError as error: print(error.rule, error.offset)
    URI-reference 10
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        text: str | None = None,
        offset: int | None = None,
        secrets: SecretFinder | None = None,
    ) -> None:
        # A str subclass is shown, and masked, by the characters it holds.
        text = None if text is None else _stored(text)
        # The message never shows a secret (a password, RFC 3986 section
        # 3.2.1, for the URI family's errors); ``text`` keeps it, for programs.
        found = None if text is None or secrets is None else secrets(text, rule)
        if found is not None and text is not None:
            message = _masked_message(message, text, found, offset)
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.text = text
        self.offset = offset
        self.secrets = secrets

    def __str__(self) -> str:
        text, offset = self.text, self.offset
        if text is None or offset is None:
            return self.message
        found = None if self.secrets is None else self.secrets(text, self.rule)
        if found is not None:
            # The excerpt shows HIDDEN in the password's place; the caret
            # moves with the text after it, or points at HIDDEN inside it.
            _, start, end = found
            text = text[:start] + HIDDEN + text[end:]
            if offset >= end:
                offset += len(HIDDEN) - (end - start)
            elif offset > start:
                offset = start
        return f"{self.message}\n{caret_excerpt(text, offset)}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild,
            (type(self), self.message, self.rule, self.text, self.offset, self.secrets),
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, UrigrammarError)
        return (self.message, self.rule, self.text, self.offset) == (
            other.message,
            other.rule,
            other.text,
            other.offset,
        )

    def __hash__(self) -> int:
        return hash((type(self), self.message, self.rule, self.text, self.offset))


def _rebuild(
    cls: type[UrigrammarError],
    message: str,
    rule: str | None,
    text: str | None,
    offset: int | None,
    secrets: SecretFinder | None = None,
) -> UrigrammarError:
    return cls(message, rule=rule, text=text, offset=offset, secrets=secrets)


class URIError(UrigrammarError):
    """An error about a text or a value of the URI family: a URI, an IRI, a
    URI template, a scheme's URI, or one of their parts.

    >>> import urigrammar
    >>> try: urigrammar.percent_decode("100%")
    ... except urigrammar.URIError as error: print(error)
    malformed percent-encoding '%': '%' must start '%' HEXDIG HEXDIG
      100%
         ^
    """


class RuleMatchError(UrigrammarError):
    """The text does not match a rule of a grammar, any grammar (a user's
    RFC 3339 ``date-time``, say); ``offset`` is where the text stops being
    a prefix of any string the rule matches.

    >>> import urigrammar
    >>> date = urigrammar.load_grammar('date = 4DIGIT "-" 2DIGIT')
    >>> try: date.check("date", "2024-1")
    ... except urigrammar.RuleMatchError as error: print(error.rule, error.offset)
    date 6
    """


class URISyntaxError(RuleMatchError, URIError):
    """The text does not match a rule of the URI family's grammars (RFC
    3986, RFC 3987, RFC 6570), or breaks a requirement their prose adds.

    >>> import urigrammar
    >>> try: urigrammar.check("URI", "http://exa mple.com")
    ... except urigrammar.URISyntaxError as error: print(error)
    not a valid URI: unexpected ' ' at offset 10; a space is written %20 in a URI
      http://exa mple.com
                ^
    """


class UnknownRuleError(UrigrammarError, LookupError):
    """No rule of that name in the grammar (for the top-level functions:
    in the shipped grammars or RFC 5234's core rules).

    >>> import urigrammar
    >>> try: urigrammar.validate("URL", "http://example.com")
    ... except urigrammar.UnknownRuleError as error: print(error)
    unknown rule 'URL'; did you mean 'URI'?
    """


class UnknownSchemeError(URIError, LookupError):
    """No scheme profile serves the text's scheme (``urigrammar.SCHEMES``);
    ``register_scheme`` adds one.

    >>> import urigrammar
    >>> try: urigrammar.parse_scheme("x-unknown:thing")
    ... except urigrammar.UnknownSchemeError as error: print(error)
    no profile for the scheme 'x-unknown'; urigrammar.SCHEMES has acct, data, ...
      x-unknown:thing
      ^
    """


class InputTooLongError(UrigrammarError):
    """The ``abnf`` engine refuses input longer than its documented limit,
    because its time and memory grow quadratically with the length.

    >>> import urigrammar
    >>> try: urigrammar.parse_tree("URI", "a:" + "b" * urigrammar.ABNF_MAX_LENGTH)
    ... except urigrammar.InputTooLongError as error: print(error.message)
    too long for the abnf engine, which takes at most 2048 characters ...
    """


class PortTooLargeError(URIError):
    """The port has more than ``MAX_PORT_DIGITS`` significant digits, so it
    gives no ``int``; ``port_text`` has its digits (RFC 3986 section 3.2.3).

    >>> import urigrammar
    >>> ref = urigrammar.parse("http://example.com:" + "9" * 5000)
    >>> try: ref.port
    ... except urigrammar.PortTooLargeError: print(len(ref.port_text))
    5000
    """


class GrammarError(UrigrammarError):
    """A grammar cannot be loaded: it is not RFC 5234 ABNF, or it uses a
    rule that neither it nor its imports define (``rule`` names the rule,
    the message where it is used).

    >>> import urigrammar
    >>> try: urigrammar.load_grammar('greeting = "hello" SP name')
    ... except urigrammar.GrammarError as error: print(error.rule)
    name
    """


class RegexExportError(GrammarError):
    """A rule has no regex in a flavour (``Grammar.regex``): it is not
    regular, or its regex would pass the flavour engine's limits, or would
    backtrack there more than a bounded number of times per character.
    ``rule`` and ``flavour`` name them; the message says which limit.

    >>> import urigrammar
    >>> nested = urigrammar.load_grammar('list = "(" [list] ")"')
    >>> try: nested.regex("list")
    ... except urigrammar.RegexExportError as error: print(error.rule, error.flavour)
    list python
    """

    def __init__(self, message: str, *, rule: str | None = None, flavour: str = "") -> None:
        super().__init__(message, rule=rule)
        self.flavour = flavour

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_export, (self.message, self.rule, self.flavour))


def _rebuild_export(message: str, rule: str | None, flavour: str) -> RegexExportError:
    return RegexExportError(message, rule=rule, flavour=flavour)


class MissingExtraError(UrigrammarError, ImportError):
    """A feature needs a package that urigrammar installs only as an extra,
    and that package is missing; the message names the extra to install
    (``pip install 'urigrammar[whatwg]'``).  An ``ImportError`` too, since
    that is how code probes for an optional feature, and a
    ``UrigrammarError``, so that code (the command line among it) guarding
    urigrammar's calls with ``except UrigrammarError`` reports it rather
    than crash.

    >>> import urigrammar
    >>> issubclass(urigrammar.MissingExtraError, (ImportError, urigrammar.UrigrammarError))
    True
    """


# A traceback names an error by its class's module: the public errors name
# the package users import them from (urigrammar.URISyntaxError), not this
# private module.  Pickle finds them there too.
for _public in (
    UrigrammarError,
    URIError,
    RuleMatchError,
    URISyntaxError,
    UnknownRuleError,
    UnknownSchemeError,
    InputTooLongError,
    PortTooLargeError,
    GrammarError,
    RegexExportError,
    MissingExtraError,
):
    _public.__module__ = "urigrammar"
del _public
