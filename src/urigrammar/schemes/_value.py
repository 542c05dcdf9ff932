"""``SchemeURI``: the value a scheme profile parses a URI into.

It holds the parse (``RuleMatch``: the text and the spans of the captured
rules) and its profile; each field is sliced from the text when read.
``str()`` is the text, exactly.  Equal, and hashed, by class and text; a
scheme whose RFC defines equivalence (RFC 8141 section 3 for URNs)
overrides ``_key``.  Immutable; pickles as its scheme and text, parsed
again by the registered profile of that scheme.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .._errors import HIDDEN, UnknownSchemeError
from ..engine import text_of
from ..shipped import RFC3986, userinfo_secret
from ._profile import SCHEMES, Profile

if TYPE_CHECKING:
    from ..engine import Backend, RuleMatch

__all__ = ["SchemeURI", "parse_scheme"]

_V = TypeVar("_V", bound="SchemeURI")


class SchemeURI:
    """A URI that a scheme profile accepted.

    ``text`` (also ``str()``) is the URI as given; ``scheme`` its scheme as
    written; ``field(name)`` the text of one of the profile's fields (the
    last occurrence of its rule, ``None`` when it took no part), and
    ``fields`` all of them by name.  Subclasses for the shipped schemes add
    typed fields (``urigrammar.schemes``).

    >>> import urigrammar
    >>> value = urigrammar.parse_scheme("https://example.com/a?q=1")
    >>> isinstance(value, urigrammar.SchemeURI), value.scheme, value.field("host"), str(value)
    (True, 'https', 'example.com', 'https://example.com/a?q=1')
    """

    __slots__ = ("_match", "_profile")

    #: The typed fields ``as_dict`` reads, by property name; empty for the
    #: profile's ``fields`` as text.
    FIELDS: ClassVar[tuple[str, ...]] = ()

    _match: RuleMatch
    _profile: Profile[Any]

    def __init__(self) -> None:
        msg = f"{type(self).__name__} values come from a profile's parse()"
        raise TypeError(msg)

    @classmethod
    def _from_match(cls: type[_V], profile: Profile[Any], match: RuleMatch) -> _V:
        made = object.__new__(cls)
        object.__setattr__(made, "_match", match)
        object.__setattr__(made, "_profile", profile)
        return made

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"a {type(self).__name__} is immutable"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = f"a {type(self).__name__} is immutable"
        raise AttributeError(msg)

    @property
    def text(self) -> str:
        """The URI, exactly as given."""
        return self._match.text

    @property
    def scheme(self) -> str:
        """The scheme as written (compare it with ``.lower()``)."""
        text = self._match.text
        return text[: text.index(":")]

    @property
    def profile(self) -> Profile[Any]:
        return self._profile

    def _group(self, rule: str) -> str | None:
        return self._match.group(rule)

    def _span(self, rule: str) -> tuple[int, int] | None:
        return self._match.span(rule)

    def field(self, name: str) -> str | None:
        """The text of field ``name`` (``KeyError`` for a name the profile
        does not map)."""
        return self._match.group(self._profile.fields[name])

    @property
    def fields(self) -> dict[str, str | None]:
        """Every field of the profile, by name, as text."""
        group = self._match.group
        return {name: group(rule) for name, rule in self._profile.fields.items()}

    def as_dict(self) -> dict[str, Any]:
        """The typed fields by name (``FIELDS``), or, for a class that
        names none, ``fields``."""
        if not self.FIELDS:
            return dict(self.fields)
        return {name: getattr(self, name) for name in self.FIELDS}

    def __str__(self) -> str:
        return self._match.text

    def _key(self) -> object:
        return self._match.text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SchemeURI):
            return NotImplemented
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __repr__(self) -> str:
        text = self._match.text
        found = userinfo_secret(text)
        if found is not None:
            _, start, end = found
            text = text[:start] + HIDDEN + text[end:]
        return f"{type(self).__name__}({text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (self.scheme.lower(), self._match.text)

    def __copy__(self: _V) -> _V:
        return self

    def __deepcopy__(self: _V, memo: object) -> _V:
        return self


def _rebuild(scheme: str, text: str) -> SchemeURI:
    value: SchemeURI = SCHEMES[scheme].parse(text)
    return value


def parse_scheme(text: str, *, backend: Backend | None = None) -> SchemeURI:
    """The typed value of ``text`` by the profile of its scheme
    (``SCHEMES``).  ``URISyntaxError`` when it is no RFC 3986 ``URI`` or its
    profile rejects it; ``UnknownSchemeError`` (a ``URIError``) when no
    profile serves its scheme.

    >>> import urigrammar
    >>> value = urigrammar.parse_scheme("mailto:someone@example.com?subject=hi")
    >>> value, value.to, value.subject
    (MailtoValue('mailto:someone@example.com?subject=hi'), ('someone@example.com',), 'hi')
    """
    text = text_of(text)
    colon = text.find(":")
    scheme = text[:colon] if colon > 0 else ""
    if not scheme or not RFC3986.validate("scheme", scheme):
        RFC3986.check("URI", text)  # raises: no scheme, no URI
    try:
        profile = SCHEMES[scheme]
    except KeyError:
        known = ", ".join(SCHEMES)
        msg = f"no profile for the scheme {scheme!r}; urigrammar.SCHEMES has {known}"
        raise UnknownSchemeError(
            msg, rule="scheme", text=text, offset=0, secrets=userinfo_secret
        ) from None
    value: SchemeURI = profile.parse(text, backend=backend)
    return value
