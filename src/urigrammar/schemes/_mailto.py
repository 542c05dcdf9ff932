"""The ``mailto`` scheme: RFC 6068, ``grammar/rfc6068.abnf``'s ``mailtoURI``.

As written the rule is not regular: ``local-part`` may be RFC 5322's
``quoted-string``, which reaches ``CFWS`` and its nested ``comment``.  But
a mailto URI is an RFC 3986 ``URI`` too, and a quoted-string needs a
DQUOTE, which no URI holds (RFC 3986 section 2): over the characters a URI
uses, ``mailtoURI`` is regular.  The profile matches with RFC 6068
restricted to those characters (``urigrammar.shipped.RFC6068_URI``,
``Grammar.restricted``), which accepts exactly the URI's strings the
published rule accepts, in linear time and at any length.

The ABNF is ambiguous where RFC 5322's atext holds "?", "&" and "=";
section 2's prose settles it (the first "?" begins the header fields, and
an addr-spec encodes "/", "?", "#", "[", "]", "&", ";" and "="), one
``Requirement`` (also a language, ``grammar/rfc6068-delimited.abnf``, so
that the native back end validates with one DFA), and the fields are read
from that split.  They follow
sections 2 and 5: ``to`` (the addresses, decoded), ``headers`` (the header
fields, decoded), ``subject`` and ``body``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .._errors import RuleMatchError
from ..shipped import ENCODED_IN_ADDR_SPEC, RFC6068_DELIMITED, RFC6068_URI, percent_decode
from ._profile import Profile, Requirement
from ._value import SchemeURI

if TYPE_CHECKING:
    from ..engine import RuleMatch

__all__ = ["MAILTO", "MailtoValue"]

_SCHEME = len("mailto:")


def _named(name: str, wanted: str) -> bool:
    """Whether a decoded header field name is ``wanted``: RFC 6068 section
    2, "<hfname> is case-insensitive"; header field names are US-ASCII
    (RFC 5322 section 2.2), so no other character folds into one."""
    return name.isascii() and name.lower() == wanted


def _split(text: str) -> tuple[str, str]:
    """The ``to`` part and the hfields (from their "?", or empty) of a
    mailto URI.  The ABNF is ambiguous here, as RFC 5322's atext holds "?",
    "=" and "&"; section 2 settles it: "?" serves as the delimiter, and an
    addr-spec MUST encode it, so the first "?" begins the hfields."""
    rest = text[_SCHEME:]
    cut = rest.find("?")
    return (rest, "") if cut < 0 else (rest[:cut], rest[cut:])


@lru_cache(maxsize=1)
def _part_matchers() -> tuple[object, object]:
    return RFC6068_URI.matcher("to"), RFC6068_URI.matcher("hfields")


def _delimited(match: RuleMatch) -> int | None:
    """Where the text breaks section 2's reading of "?" as the delimiter
    (see ``_split``): a character of item 1 unencoded in the ``to`` part,
    or a part its rule does not match; ``None`` when it keeps it."""
    text = match.text
    to, fields = _split(text)
    found = [at for at in map(to.find, ENCODED_IN_ADDR_SPEC) if at >= 0]
    if found:
        return _SCHEME + min(found)
    to_rule, fields_rule = _part_matchers()
    assert callable(to_rule)
    assert callable(fields_rule)
    if to and to_rule(to) is None:
        return _SCHEME + RFC6068_URI.viable_prefix("to", to)
    if fields and fields_rule(fields) is None:
        return _SCHEME + len(to) + RFC6068_URI.viable_prefix("hfields", fields)
    return None


class MailtoValue(SchemeURI):
    """A mailto URI (RFC 6068).  Every decoded field is percent-decoded as
    UTF-8 (section 2, items 4 and 5; section 5); octets that are not UTF-8
    raise ``URIError`` when the field is read.  A ``+`` stays a ``+``:
    section 5 says a space is ``%20``, and that a ``+`` standing for a
    space cannot be told from a real one."""

    __slots__ = ()

    FIELDS = ("to", "headers", "subject", "body")

    def _fields(self) -> tuple[tuple[str, str, str], ...]:
        """Each hfield as (decoded name, raw value, decoded value), in order."""
        fields = _split(self.text)[1]
        if not fields:
            return ()
        found = RFC6068_URI.parse("hfields", fields, captures=("hfname", "hfvalue"))
        names, values = found.groups("hfname"), found.groups("hfvalue")
        return tuple(
            (percent_decode(name), value, percent_decode(value))
            for name, value in zip(names, values, strict=True)
        )

    @property
    def to(self) -> tuple[str, ...]:
        """The addresses, decoded: the ``to`` part's addr-specs, then those of
        each ``to`` header field in order.  Section 2: "mailto:a,b",
        "mailto:?to=a,b" and "mailto:a?to=b" are equivalent.  A ``to``
        field's value is read with the ``to`` part's own rule (addr-specs
        split at ``,``); a value that is no such list (a display name, say)
        is one entry, decoded whole, and an empty one adds none."""
        to = _split(self.text)[0]
        found: list[str] = []
        if to:
            listed = RFC6068_URI.parse("to", to, captures=("addr-spec",))
            found.extend(percent_decode(addr) for addr in listed.groups("addr-spec"))
        for name, raw, decoded in self._fields():
            if not _named(name, "to") or not raw:
                continue
            try:
                listed = RFC6068_URI.parse("to", raw, captures=("addr-spec",))
            except RuleMatchError:
                found.append(decoded)
                continue
            found.extend(percent_decode(addr) for addr in listed.groups("addr-spec"))
        return tuple(found)

    @property
    def headers(self) -> tuple[tuple[str, str], ...]:
        """The header fields, (name, value) decoded, in the URI's order:
        every hfield but ``body``, which section 2 makes the message body,
        a pseudo header field (section 8.2).  Names are as written; compare
        them without case (section 2).  ``to`` fields are here as written
        and in ``to`` too."""
        return tuple((name, value) for name, _, value in self._fields() if not _named(name, "body"))

    def _first(self, wanted: str) -> str | None:
        for name, _, value in self._fields():
            if _named(name, wanted):
                return value
        return None

    @property
    def subject(self) -> str | None:
        """The first ``subject`` field's value, decoded, or ``None``.  Section
        2 leaves a repeated field to the user agent ("using only the first
        or last"); this reads the first."""
        return self._first("subject")

    @property
    def body(self) -> str | None:
        """The first ``body`` field's value, decoded, or ``None`` (section 2:
        the first text/plain body part; section 5: line breaks as
        ``%0D%0A``)."""
        return self._first("body")


#: The ``mailto`` profile: RFC 6068 section 2, over RFC 3986's characters.
MAILTO: Profile[MailtoValue] = Profile(
    "mailto",
    RFC6068_URI,
    "mailtoURI",
    value=MailtoValue,
    requirements=(
        Requirement(
            "RFC 6068 section 2",
            "to",
            "the first '?' begins the header fields, and an addr-spec holds none of "
            "'/', '?', '#', '[', ']', '&', ';', '=' unencoded",
            _delimited,
            language=(RFC6068_DELIMITED, "mailto-delimited"),
        ),
    ),
    cite="RFC 6068 section 2",
)
