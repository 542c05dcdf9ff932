"""Percent-encoding's mechanics (RFC 3986 sections 2.1, 2.4 and 2.5):
encode every character outside a set, decode, and the codec error
handlers, with ``HEXDIG`` read off the grammar.  Which set a component
admits is the URI model's business (``uri._encode``); the templates
(RFC 6570 section 3.2.1) use the same mechanics with their own sets.

Encoding is always UTF-8 (section 2.5) with uppercase hexadecimal digits
(section 2.1).  A lone surrogate has no UTF-8 form: encoding one raises
``URIError`` unless an ``errors`` handler such as ``"surrogatepass"`` or
``"surrogateescape"`` says otherwise, exactly as ``str.encode`` does; the
same handler given to ``percent_decode`` brings the text back.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from functools import cache

from .._errors import URIError
from ..engine import Chars, text_of
from ._grammars import RFC3986
from ._secrets import userinfo_secret

__all__ = [
    "check_errors",
    "decode_where",
    "encode_except",
    "hexdig",
    "percent_decode",
    "percent_decode_bytes",
]

# The one rule a percent sign may start (section 2.1).
_PCT_ENCODED = "pct-encoded"


@cache
def hexdig() -> frozenset[str]:
    expr = RFC3986.expr("HEXDIG")
    assert isinstance(expr, Chars)
    return frozenset(map(chr, expr.codes))


@cache
def _triplets() -> re.Pattern[str]:
    # One or more triplets in a row: such a run is decoded as one byte
    # string, so a UTF-8 sequence split over several triplets comes out whole.
    return re.compile("(?:%[{0}][{0}])+".format(re.escape("".join(sorted(hexdig())))))


# Python's own handlers (codecs.register_error can add more); the last two
# replace characters by text, so they only encode.
_DECODING_HANDLERS = (
    "strict",
    "ignore",
    "replace",
    "backslashreplace",
    "surrogateescape",
    "surrogatepass",
)


_ENCODING_HANDLERS = (*_DECODING_HANDLERS, "xmlcharrefreplace", "namereplace")


# A handler that only knows how to encode refuses this with TypeError.
_DECODE_PROBE = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "probe")


def check_errors(errors: object, *, decoding: bool) -> str:
    """``errors`` itself when it names a codec error handler that
    ``bytes.decode`` (``decoding``) or ``str.encode`` accepts: checked up
    front, so a bad name fails whether or not the text needs it.  A
    non-``str`` raises ``TypeError``, an unknown or unfit name ``URIError``
    listing the accepted handlers.  For ``decoding`` the handler is called
    once on a one-octet ``UnicodeDecodeError``: the handlers that only
    encode refuse it with ``TypeError``, which ``bytes.decode`` would
    otherwise raise from inside the codec."""
    if not isinstance(errors, str):
        msg = f"errors must be str, not {type(errors).__name__}"
        raise TypeError(msg)
    if errors == "strict":
        return errors
    try:
        handler = codecs.lookup_error(errors)
    except (LookupError, ValueError):  # ValueError: a name with a NUL in it
        handler = None
    if handler is not None and decoding:
        try:
            handler(_DECODE_PROBE)
        except TypeError:
            handler = None  # xmlcharrefreplace, namereplace: encoding only
        except UnicodeError:
            pass  # a strict-like handler: it raises, as strict does
    if handler is None:
        usable = _DECODING_HANDLERS if decoding else _ENCODING_HANDLERS
        msg = (
            f"errors={errors!r} is not a codec error handler that "
            f"{'decoding' if decoding else 'encoding'} accepts: use one of "
            f"{', '.join(usable)} or a handler registered with codecs.register_error"
        )
        raise URIError(msg)
    return errors


def _escape_at(text: str, index: int) -> bool:
    """Whether a valid ``%XX`` triplet starts at ``index``."""
    digits = text[index + 1 : index + 3]
    return len(digits) == 2 and all(d in hexdig() for d in digits)


def _utf8(text: str, start: int, end: int, errors: str) -> bytes:
    try:
        return text[start:end].encode("utf-8", errors)
    except UnicodeEncodeError as exc:
        offset = start + exc.start
        msg = f"cannot encode {text[offset]!r} as UTF-8: {exc.reason}"
        raise URIError(msg, text=text, offset=offset, secrets=userinfo_secret) from None


def encode_except(
    text: str, keep: Iterable[str], *, keep_escapes: bool = False, errors: str = "strict"
) -> str:
    """``text`` with every character outside ``keep`` percent-encoded as
    UTF-8; ``%`` is encoded too unless ``keep_escapes`` and it starts a
    valid ``%XX``.  ``percent_encode`` is this with the rule's set."""
    text = text_of(text)
    errors = check_errors(errors, decoding=False)
    keep = keep if isinstance(keep, AbstractSet) else frozenset(keep)
    out: list[str] = []
    for index, char in enumerate(text):
        if char != "%" and char in keep:
            out.append(char)
        elif char == "%" and keep_escapes and _escape_at(text, index):
            out.append(char)  # an escape the caller already wrote
        else:
            out.extend(f"%{octet:02X}" for octet in _utf8(text, index, index + 1, errors))
    return "".join(out)


def _utf8_length(lead: int) -> int:
    """The length of the UTF-8 sequence a lead octet starts (RFC 3629
    section 4: C2-DF two, E0-EF three, F0-F4 four); 0 for an octet no
    sequence starts with."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def decode_where(text: str, keep: Callable[[str], bool]) -> str:
    """``text`` with each percent-encoded UTF-8 sequence that spells one
    character for which ``keep`` is true decoded, one sequence at a time;
    every other triplet stays, its hex digits in uppercase (section 6.2.2.1).
    An octet that starts no strictly legal UTF-8 sequence stays encoded, and
    decoding resumes at the next octet, so ``%C3%A9%FF%C3%A9`` with ``keep``
    true gives ``é%FFé`` (RFC 3987 section 3.2, steps 2 to 4)."""
    if "%" not in text:
        return text
    out: list[str] = []
    position = 0
    for match in _triplets().finditer(text):
        out.append(text[position : match.start()])
        octets = _octets(match.group())
        index = 0
        while index < len(octets):
            size = _utf8_length(octets[index])
            piece = octets[index : index + size] if size else octets[index : index + 1]
            try:
                char = piece.decode("utf-8") if size and len(piece) == size else None
            except UnicodeDecodeError:  # overlong, surrogate, bad continuation
                char = None
            if char is None:
                piece = piece[:1]
            if char is not None and keep(char):
                out.append(char)
            else:
                out.extend(f"%{octet:02X}" for octet in piece)
            index += len(piece)
        position = match.end()
    out.append(text[position:])
    return "".join(out)


def _malformed(text: str, start: int, end: int) -> None:
    # Between two runs of triplets a "%" can only start a bad one.
    index = text.find("%", start, end)
    if index >= 0:
        shown = text[index : index + 3]
        msg = f"malformed percent-encoding {shown!r}: '%' must start '%' HEXDIG HEXDIG"
        raise URIError(msg, rule=_PCT_ENCODED, text=text, offset=index, secrets=userinfo_secret)


def _octets(run: str) -> bytes:
    return bytes.fromhex(run.replace("%", ""))


def percent_decode(text: str, *, errors: str = "strict") -> str:
    """Decode the ``%XX`` triplets of ``text`` as UTF-8; other characters
    are kept as they are.

    A ``%`` not followed by two hexadecimal digits raises ``URIError``
    whatever ``errors`` says (the text is not percent-encoded text).  Octets
    that are not UTF-8 raise ``URIError`` under ``errors="strict"``;
    ``"replace"``, ``"surrogateescape"`` and the other ``bytes.decode``
    handlers behave as there.  The error's ``offset`` is the index of the
    ``%`` that starts the bad triplet or the bad UTF-8 sequence.  An
    ``errors`` that is no decoding handler raises ``URIError`` whatever the
    text.

    >>> import urigrammar
    >>> urigrammar.percent_decode("a%20b%C3%BC"), urigrammar.percent_decode("100%25")
    ('a bü', '100%')
    """
    text = text_of(text)
    errors = check_errors(errors, decoding=True)
    if "%" not in text:
        return text
    out: list[str] = []
    position = 0
    for match in _triplets().finditer(text):
        _malformed(text, position, match.start())
        out.append(text[position : match.start()])
        try:
            out.append(_octets(match.group()).decode("utf-8", errors))
        except UnicodeDecodeError as exc:
            offset = match.start() + 3 * exc.start
            msg = f"percent-encoded octets are not UTF-8: {exc.reason}"
            raise URIError(msg, text=text, offset=offset, secrets=userinfo_secret) from None
        position = match.end()
    _malformed(text, position, len(text))
    out.append(text[position:])
    return "".join(out)


def percent_decode_bytes(text: str) -> bytes:
    """The octets ``text`` stands for: each ``%XX`` triplet is one octet and
    every other character its UTF-8 encoding.  For data that is not UTF-8
    text; raises ``URIError`` at a malformed triplet or a lone surrogate.

    >>> import urigrammar
    >>> urigrammar.percent_decode_bytes("%FF%00A")
    b'\\xff\\x00A'
    """
    text = text_of(text)
    out: list[bytes] = []
    position = 0
    for match in _triplets().finditer(text):
        _malformed(text, position, match.start())
        out += (_utf8(text, position, match.start(), "strict"), _octets(match.group()))
        position = match.end()
    _malformed(text, position, len(text))
    out.append(_utf8(text, position, len(text), "strict"))
    return b"".join(out)
