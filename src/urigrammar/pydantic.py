"""pydantic v2 support: strict, lossless URI fields (``pip install urigrammar[pydantic]``).

The reference classes are field types as they are (``url: URIReference``):
a string is parsed, the value is kept exactly as written, and it
serializes back with ``str()``.  This module adds the ``Annotated`` markers:

* ``Rule(name)``: the text must match the rule ``name`` of any shipped
  grammar (``"URI"``, ``"absolute-URI"``, ``"relative-ref"``, ``"IRI"``,
  ``"URI-Template"``, ``"IPv6address"``, ...), on a ``str`` field or on a
  reference field;
* ``Schemes(*names)``: the reference must have one of these schemes
  (compared case-insensitively, RFC 3986 section 3.1);
* ``Normalize(...)``: the value is replaced by its normal form (sections
  6.2.2 and 6.2.3; ``urigrammar.normalize``'s options: a
  ``Normalization``, or its fields as keywords).

Markers apply in the order written: ``Annotated[str, Rule("URI"),
Schemes("https"), Normalize()]`` checks the rule, then the scheme, then
normalizes.  A failed check is a pydantic error of type ``uri_syntax``
(``uri_scheme`` for a scheme not allowed, ``uri_error`` for any other
``URIError``) whose context carries ``rule`` and ``offset``; no message
shows a userinfo password, but pydantic itself repeats the input in
``ValidationError``'s text unless the model sets
``hide_input_in_errors=True``.

Two field types need no marker: ``AbsoluteURI`` and ``AbsoluteIRI``, a
``URIReference`` or ``IRIReference`` field that takes only a URI or an IRI
(with a scheme; a fragment allowed), where the reference classes alone take
``""`` and ``"not-a-url"``, which are valid relative references::

    from pydantic import BaseModel
    from urigrammar.pydantic import AbsoluteURI

    class Link(BaseModel):
        href: AbsoluteURI

    Link(href="https://example.com/a#b").href.host   # 'example.com'
    Link(href="not-a-url")                         # ValidationError, uri_syntax

URIs of one scheme, read by its profile (``urigrammar.SCHEMES``) into
its typed value (a ``urigrammar.SchemeURI``), serialized as their exact
text, JSON Schema format ``uri``:

* ``HttpURI``: an http or https URI (RFC 9110 section 4.2), an
  ``HttpValue``; ``Annotated[SchemeURI, Http(allowed_schemes=...,
  allowed_hosts=..., host_required=...)]`` narrows or widens it;
* ``URN``, ``DataURI``, ``FileURI``, ``MailtoURI``: ``Annotated[SchemeURI,
  Scheme(name)]``, by the profile of that scheme, found when a value is
  first validated (a scheme without a profile is then a ``uri_error``).

JSON Schema: a string, with ``format`` ``uri``, ``uri-reference``, ``iri``,
``iri-reference`` or ``uri-template`` exactly when the rule is ``URI``,
``URI-reference``, ``IRI``, ``IRI-reference`` or ``URI-Template``, and no
``format`` for any other rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import PydanticCustomError
from pydantic_core import core_schema as cs

import urigrammar
from urigrammar.uri._pydantic_schema import format_for, is_reference_type, pydantic_error

if TYPE_CHECKING:
    from pydantic.json_schema import JsonSchemaValue
    from typing_extensions import Unpack

    from urigrammar.uri._normalization import NormalizationFlags

__all__ = [
    "URN",
    "AbsoluteIRI",
    "AbsoluteURI",
    "DataURI",
    "FileURI",
    "Http",
    "HttpURI",
    "MailtoURI",
    "Normalize",
    "Rule",
    "Scheme",
    "Schemes",
]


def _text(value: object) -> str | None:
    """The text a validated value stands for: a ``str`` as it is, a
    reference by ``str()``; ``None`` for anything else (``None`` in an
    optional field, which the inner schema has already allowed)."""
    if isinstance(value, str):
        return value
    if is_reference_type(type(value)):
        return str(value)
    return None


def _wrap(
    check: Callable[[Any], Any], source: Any, handler: GetCoreSchemaHandler, *, first: bool
) -> cs.CoreSchema:
    """``handler(source)`` with ``check`` run on its result, or, with
    ``first`` and a reference class, on the input before the class parses
    it: so the error names the marker's rule, not the class's default."""
    inner = handler(source)
    if first and is_reference_type(source):
        return cs.no_info_before_validator_function(check, inner)
    return cs.no_info_after_validator_function(check, inner)


@dataclass(frozen=True)
class Rule:
    """The text must match the rule ``name``, of any shipped grammar (rule
    names are case-insensitive).  On a ``str`` field the string is kept as
    it is; on a reference field the text is checked before it is parsed,
    so ``Annotated[URIReference, Rule("URI")]`` takes only URIs (section
    3), and the field's value is still a ``URIReference``.  An unknown name
    raises ``UnknownRuleError`` here, when the marker is made."""

    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            msg = f"Rule() takes a rule name, a str, not {type(self.name).__name__}"
            raise TypeError(msg)
        # rule_source raises UnknownRuleError, with close names, for a name
        # no shipped grammar has: at model definition, not at first input.
        urigrammar.rule_source(self.name)

    def _check(self, value: Any) -> Any:
        text = _text(value)
        if text is not None:
            try:
                urigrammar.check(self.name, text)
            except urigrammar.UrigrammarError as exc:
                raise pydantic_error(exc) from None
        return value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> cs.CoreSchema:
        return _wrap(self._check, source, handler, first=True)

    def __get_pydantic_json_schema__(
        self, schema: cs.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        found = handler.resolve_ref_schema(handler(schema))
        name = format_for(self.name)
        if name is None:
            found.pop("format", None)
        else:
            found["format"] = name
        return found


def _scheme_of(text: str) -> str | None:
    """The scheme of a URI or IRI reference's text: what precedes its first
    ``:`` when that matches ``scheme`` (section 3.1); in a relative
    reference a ``/``, ``?``, ``#`` or nothing at all precedes any ``:``
    (section 4.2), and no scheme contains those."""
    head, colon, _ = text.partition(":")
    return head if colon and urigrammar.validate("scheme", head) else None


class Schemes:
    """The reference must have one of these schemes, compared
    case-insensitively (section 3.1: schemes are case-insensitive); a
    reference without a scheme fails too.  On a ``str`` field put it after
    a ``Rule``: it reads only the scheme, not the rest of the text."""

    __slots__ = ("names",)

    names: tuple[str, ...]

    def __init__(self, *names: str) -> None:
        if not names:
            msg = "Schemes() needs at least one scheme"
            raise TypeError(msg)
        for name in names:
            if not isinstance(name, str):
                msg = f"a scheme is a str, not {type(name).__name__}"
                raise TypeError(msg)
            urigrammar.check("scheme", name)
        object.__setattr__(self, "names", tuple(name.lower() for name in names))

    def __repr__(self) -> str:
        return f"Schemes({', '.join(map(repr, self.names))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Schemes) and other.names == self.names

    def __hash__(self) -> int:
        return hash((Schemes, self.names))

    def _check(self, value: Any) -> Any:
        text = _text(value)
        if text is None:
            return value
        scheme = value.scheme if is_reference_type(type(value)) else _scheme_of(text)
        if scheme is None or scheme.lower() not in self.names:
            raise _scheme_error(self.names, scheme, text)
        return value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> cs.CoreSchema:
        return _wrap(self._check, source, handler, first=False)


@dataclass(frozen=True, init=False)
class Normalize:
    """The value becomes its normal form (RFC 3986 sections 6.2.2 and
    6.2.3, RFC 3987 section 5.3 for IRIs) under ``options``, a
    ``urigrammar.Normalization``, or its fields as keywords, as
    ``urigrammar.normalize`` takes them (``Normalize(nfc=True)`` puts an
    IRI in NFC, RFC 3987 section 5.3.2.2).  A reference field gets the
    normalized reference; a ``str`` field its text, read as a
    URI-reference, or else as an IRI-reference, first: put a ``Rule``
    before it for anything narrower."""

    options: urigrammar.Normalization

    def __init__(
        self,
        options: urigrammar.Normalization | None = None,
        **flags: Unpack[NormalizationFlags],
    ) -> None:
        # As urigrammar.normalize reads its arguments, with the public names
        # only (an integration stays above the package): the keywords
        # replace fields of options, and an unknown one is a TypeError.
        if options is None:
            options = urigrammar.Normalization()
        elif not isinstance(options, urigrammar.Normalization):
            msg = f"Normalize() takes a Normalization as options, not {type(options).__name__}"
            raise TypeError(msg)
        if flags:
            options = dataclasses.replace(options, **flags)
        object.__setattr__(self, "options", options)

    def _normalize(self, value: Any) -> Any:
        try:
            if is_reference_type(type(value)):
                return value.normalize(self.options)
            if isinstance(value, str):
                return str(_reference(value).normalize(self.options))
        except urigrammar.UrigrammarError as exc:
            raise pydantic_error(exc) from None
        return value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> cs.CoreSchema:
        return _wrap(self._normalize, source, handler, first=False)


def _reference(text: str) -> urigrammar.URIReference | urigrammar.IRIReference:
    """``text`` as a ``URIReference``, or, when it is no URI-reference, as
    an ``IRIReference`` (every URI is an IRI, RFC 3987 section 2)."""
    if urigrammar.validate("URI-reference", text):
        return urigrammar.parse(text)
    return urigrammar.parse_iri(text)


#: A ``URIReference`` field that takes only a URI: RFC 3986 section 3's
#: ``URI``, a scheme and an optional fragment; JSON Schema format ``uri``.
AbsoluteURI = Annotated[urigrammar.URIReference, Rule("URI")]
AbsoluteURI.__doc__ = """A ``URIReference`` field that takes only an RFC 3986
``URI`` (section 3): a scheme, and the fragment optional.  Not section
4.3's ``absolute-URI``, which forbids a fragment: most fields called a URL
take ``https://example.com/page#part``, and ``Annotated[URIReference,
Rule("absolute-URI")]`` is the narrower type.  JSON Schema format ``uri``."""

#: An ``IRIReference`` field that takes only an IRI: RFC 3987 section 2.2's
#: ``IRI``; JSON Schema format ``iri``.
AbsoluteIRI = Annotated[urigrammar.IRIReference, Rule("IRI")]
AbsoluteIRI.__doc__ = """An ``IRIReference`` field that takes only an RFC 3987
``IRI`` (section 2.2): a scheme, and the fragment optional, as
``AbsoluteURI`` and for the same reason (``Rule("absolute-IRI")`` forbids
the fragment).  A URI is an IRI, so it is taken too; a bidi formatting
character is refused (section 4.1).  JSON Schema format ``iri``."""


# --- URIs of one scheme, as its profile reads them (urigrammar.SCHEMES) ------


def _scheme_error(names: tuple[str, ...], scheme: str | None, text: str) -> Exception:
    """The error of a text whose scheme is not one of ``names``, saying
    what the text has instead: another scheme, or none, and then why."""
    allowed = ", ".join(names)
    if scheme is not None:
        message = f"the scheme must be one of {allowed}, not {scheme!r} (RFC 3986 section 3.1)"
    elif text[:1].isspace():
        message = (
            f"a URI whose scheme is one of {allowed} was expected, and the text starts "
            "with white space, which no URI does (RFC 3986 sections 2 and 3.1)"
        )
    else:
        message = (
            f"a URI whose scheme is one of {allowed} was expected, and the text has no "
            'scheme (RFC 3986 section 3.1: a URI starts with its scheme and ":")'
        )
    context = {"rule": "scheme", "offset": 0, "schemes": allowed, "message": message}
    return PydanticCustomError("uri_scheme", "{message}", context)


class _SchemeMarker:
    """What the scheme markers share: a ``str`` (or a value of the same
    kind, read again from its text) becomes the typed value of its
    scheme's profile (``urigrammar.SchemeURI``), looked up when a value is
    validated, so a profile registered later serves too; the value
    serializes to its exact text; JSON Schema says a string of format
    ``uri``."""

    __slots__ = ("names",)

    names: tuple[str, ...]

    def __init__(self, names: tuple[str, ...]) -> None:
        for name in names:
            if not isinstance(name, str):
                msg = f"a scheme is a str, not {type(name).__name__}"
                raise TypeError(msg)
            urigrammar.check("scheme", name)
        object.__setattr__(self, "names", tuple(name.lower() for name in names))

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"a {type(self).__name__} is immutable"
        raise AttributeError(msg)

    def _profile(self, scheme: str) -> urigrammar.Profile[Any]:
        return urigrammar.SCHEMES[scheme]

    def _more(self, value: urigrammar.SchemeURI) -> None:
        """A subclass's constraints on the parsed value."""

    def _validate(self, value: Any) -> urigrammar.SchemeURI:
        if isinstance(value, urigrammar.SchemeURI):
            value = str(value)
        if not isinstance(value, str):
            raise PydanticCustomError(
                "uri_type", "Input should be a string or a {class_name}", {"class_name": "URI"}
            )
        scheme = _scheme_of(value)
        if scheme is None or scheme.lower() not in self.names:
            raise _scheme_error(self.names, scheme, value)
        try:
            parsed: urigrammar.SchemeURI = self._profile(scheme.lower()).parse(value)
        except KeyError:
            unknown = urigrammar.UnknownSchemeError(
                f"no profile for the scheme {scheme!r} (urigrammar.SCHEMES)",
                rule="scheme",
                text=value,
                offset=0,
            )
            raise pydantic_error(unknown) from None
        except urigrammar.UrigrammarError as exc:
            raise pydantic_error(exc) from None
        self._more(parsed)
        return parsed

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> cs.CoreSchema:
        serialize = cs.plain_serializer_function_ser_schema(str, when_used="unless-none")
        return cs.no_info_plain_validator_function(self._validate, serialization=serialize)

    def __get_pydantic_json_schema__(
        self, schema: cs.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "format": "uri"}


class Scheme(_SchemeMarker):
    """The value is a URI of one of these schemes, parsed by the scheme's
    profile (``urigrammar.SCHEMES[scheme].parse``): the field holds its
    typed value (``urigrammar.SchemeURI``: a ``URNValue`` for ``urn``, ...).
    Put it on ``urigrammar.SchemeURI``: ``Annotated[SchemeURI,
    Scheme("urn")]`` is ``URN``.  A scheme no profile serves is a
    ``uri_error`` when a value comes, not when the model is defined: the
    profiles are found when first used."""

    __slots__ = ()

    def __init__(self, *names: str) -> None:
        if not names:
            msg = "Scheme() needs at least one scheme"
            raise TypeError(msg)
        super().__init__(names)

    def __repr__(self) -> str:
        return f"Scheme({', '.join(map(repr, self.names))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scheme) and other.names == self.names

    def __hash__(self) -> int:
        return hash((Scheme, self.names))


class Http(_SchemeMarker):
    """The value is an http or https URI (RFC 9110 section 4.2), parsed by
    the profile (the field holds an ``HttpValue``: ``host``, ``port``,
    ``path``, ``query``, ``fragment``, ``origin``).

    ``allowed_schemes``: ``http``, ``https`` or both (the default);
    ``allowed_hosts``: the hosts allowed, compared without case as RFC
    3986 section 3.2.2 says (``None``: any host); ``host_required=False``
    takes an empty host, which RFC 9110 sections 4.2.1 and 4.2.2 tell a
    recipient to reject.  A URI with userinfo is refused (section 4.2.4:
    ``urigrammar.http_profile``).  An error of type ``uri_host`` names a
    host not allowed.

    ``policy``: a ``urigrammar.differential.HostPolicy`` the URI must pass
    too (wildcards, IDNA, addresses by address, internal addresses
    refused, decided on the host every reader agrees on); its refusal is an
    error of type ``uri_host`` that says why."""

    __slots__ = ("allowed_hosts", "host_required", "policy")

    allowed_hosts: frozenset[str] | None
    host_required: bool
    policy: urigrammar.differential.HostPolicy | None

    def __init__(
        self,
        *,
        allowed_schemes: tuple[str, ...] | list[str] = ("http", "https"),
        allowed_hosts: tuple[str, ...] | list[str] | frozenset[str] | None = None,
        host_required: bool = True,
        policy: urigrammar.differential.HostPolicy | None = None,
    ) -> None:
        if isinstance(allowed_schemes, str) or not allowed_schemes:
            msg = "allowed_schemes is a list of schemes: http, https or both"
            raise TypeError(msg)
        super().__init__(tuple(allowed_schemes))
        if not set(self.names) <= {"http", "https"}:
            msg = f"Http() serves http and https, not {', '.join(self.names)}"
            raise ValueError(msg)
        if isinstance(allowed_hosts, str):
            msg = "allowed_hosts is a list of hosts, not one str"
            raise TypeError(msg)
        hosts = None if allowed_hosts is None else frozenset(h.lower() for h in allowed_hosts)
        object.__setattr__(self, "allowed_hosts", hosts)
        object.__setattr__(self, "host_required", bool(host_required))
        object.__setattr__(self, "policy", policy)

    def __repr__(self) -> str:
        return (
            f"Http(allowed_schemes={self.names!r}, allowed_hosts="
            f"{None if self.allowed_hosts is None else sorted(self.allowed_hosts)!r}, "
            f"host_required={self.host_required!r}, policy={self.policy!r})"
        )

    def _key(self) -> tuple[object, ...]:
        return (self.names, self.allowed_hosts, self.host_required, self.policy)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Http) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash((Http, self._key()))

    def _profile(self, scheme: str) -> urigrammar.Profile[Any]:
        return urigrammar.http_profile(scheme, host_required=self.host_required)

    def _more(self, value: urigrammar.SchemeURI) -> None:
        if self.policy is not None:
            try:
                self.policy.check(str(value))
            except urigrammar.URIError as exc:
                # str() of the error hides any password of the text.
                message = str(exc).split("\n", 1)[0]
                context = {"rule": "host", "offset": exc.offset, "message": message}
                raise PydanticCustomError("uri_host", "{message}", context) from None
        if self.allowed_hosts is None:
            return
        host: str = value.host  # type: ignore[attr-defined]
        if host.lower() in self.allowed_hosts:
            return
        allowed = ", ".join(sorted(self.allowed_hosts))
        message = f"the host must be one of {allowed}, not {host!r} (RFC 3986 section 3.2.2)"
        offset = len(value.scheme) + 3  # after scheme "://": no userinfo here
        context = {"rule": "host", "offset": offset, "hosts": allowed, "message": message}
        raise PydanticCustomError("uri_host", "{message}", context)


#: An http or https URI (RFC 9110 section 4.2) with a host and no
#: userinfo: an ``HttpValue``.  ``Annotated[SchemeURI, Http(...)]`` for
#: narrower ones.
HttpURI = Annotated[urigrammar.SchemeURI, Http()]

#: A URN (RFC 8141): a ``URNValue``.
URN = Annotated[urigrammar.SchemeURI, Scheme("urn")]

#: A data URI (RFC 2397), by the ``data`` profile.
DataURI = Annotated[urigrammar.SchemeURI, Scheme("data")]

#: A file URI (RFC 8089), by the ``file`` profile.
FileURI = Annotated[urigrammar.SchemeURI, Scheme("file")]

#: A mailto URI (RFC 6068), by the ``mailto`` profile.
MailtoURI = Annotated[urigrammar.SchemeURI, Scheme("mailto")]
