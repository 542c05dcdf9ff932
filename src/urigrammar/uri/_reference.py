"""``URIReference``: a URI-reference (RFC 3986 section 4.1), the top of the
URI model, and the public functions that take a reference or a string.

``URIReference`` is ``Components`` (the value: fields, ``str``, ``==``,
pickling) with the checked public constructor and the public methods, each
a thin wrapper over the module that does the work: resolution
(``_resolve``, section 5), normalization (``_normalize``, section 6),
building (``_build``), query pairs (``_query``), paths (``_path``) and
decoded views (``_views``).  Those modules work on ``Components`` and build
their results with the class they are given, so they never import this
module: every import in the model points down, and this module is the one
place that names ``URIReference`` as the class to build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, overload

from ..engine import later, untracked
from ._api import Method, parser_for, resolve_annotations, text_front, validate
from ._components import Components
from ._dialect import IRI

if TYPE_CHECKING:
    from . import _build, _convert, _normalize, _path, _pydantic_schema, _query, _resolve, _views
else:
    # The model's operation modules, each imported when a method first
    # reads it: a first ``parse`` imports none of them (nor ``dataclasses``
    # and ``ipaddress``, which they use).
    _build = later(globals(), "._build")
    _convert = later(globals(), "._convert")
    _normalize = later(globals(), "._normalize")
    _path = later(globals(), "._path")
    _pydantic_schema = later(globals(), "._pydantic_schema")
    _query = later(globals(), "._query")
    _resolve = later(globals(), "._resolve")
    _views = later(globals(), "._views")

_R = TypeVar("_R", bound="Reference")

# The public parse function of each dialect, for messages.
_PARSERS = {"URI": "parse", "IRI": "parse_iri"}

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from ipaddress import IPv4Address, IPv6Address

    # typing_extensions is read by type checkers only, which ship it
    # (typing.Unpack is 3.11+); nothing imports it at run time.
    from typing_extensions import Unpack

    from ._api import Parser
    from ._normalization import Normalization, NormalizationFlags, SchemeRule
    from ._normalize import Origin

__all__ = [
    "URIReference",
    "build",
    "equivalent",
    "normalize",
    "parse",
    "relativize",
    "resolve",
]


class Reference(Components):
    """What ``URIReference`` and ``IRIReference`` share: the checked
    constructor and every method.  Each method works in the class's own
    grammar (``dialect``) and returns the class of ``self``.

    >>> import urigrammar
    >>> for ref in (urigrammar.parse("http://a/b/c"), urigrammar.parse_iri("http://ä/b/c")):
    ...     print(type(ref).__name__, ref.resolve("../d"))
    URIReference http://a/d
    IRIReference http://ä/d
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # A pickle carries the text alone, and unpickling parses it: what
        # comes back is what its text reads as, whatever a pickle holds.
        return (_read_back, (type(self), str(self)))

    # pydantic v2 field type (``urigrammar.pydantic``); pydantic is imported
    # only when it calls these.
    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        return _pydantic_schema.core_schema(cls, source, handler)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: Any) -> dict[str, Any]:
        return _pydantic_schema.json_schema(cls, schema, handler)

    def __new__(
        cls: type[_R],
        *positional: object,
        scheme: str | None = None,
        userinfo: str | None = None,
        host: str | IPv4Address | IPv6Address | None = None,
        port: int | str | None = None,
        path: str = "",
        query: str | None = None,
        fragment: str | None = None,
    ) -> _R:
        """The reference with these components, each written as it appears
        in the URI (nothing is encoded; ``build`` encodes).  Each is checked
        against its rule and the combination against sections 3.3 and 4.2,
        as ``replace`` checks them, so ``parse(str(ref)) == ref`` holds for
        every reference; ``host_kind`` and ``port_text`` come from the
        grammar.  Raises ``URIError`` naming the part.  Keyword-only: to
        read a reference from text, call ``parse``."""
        if positional:
            msg = (
                f"{cls.__name__}() takes its components as keywords only "
                "(scheme=, userinfo=, host=, port=, path=, query=, fragment=); "
                f"to read one from text use urigrammar.{_PARSERS[cls.dialect.word]}(text)"
            )
            raise TypeError(msg)
        return _build.from_parts(
            cls,
            scheme=scheme,
            userinfo=userinfo,
            host=host,
            port=port,
            path=path,
            query=query,
            fragment=fragment,
        )

    # --- Resolution and normalization (sections 5 and 6): thin methods over
    # --- _resolve.py and _normalize.py; a string argument is read as this
    # --- reference's class.

    def resolve(self: _R, ref: _R | str, *, strict: bool = True) -> _R:
        """The target of ``ref`` with this URI as its base (section 5.2)."""
        return _resolve.resolve(self, ref, cls=type(self), strict=strict)

    def relativize(self: _R, target: _R | str) -> _R:
        """The shortest reference that resolves against this URI to ``target``."""
        return _resolve.relativize(self, target, cls=type(self))

    def normalize(
        self: _R, options: Normalization | None = None, **flags: Unpack[NormalizationFlags]
    ) -> _R:
        """This reference's normal form (sections 6.2.2 and 6.2.3): the
        options are ``urigrammar.normalize``'s."""
        return _normalize.normalize(
            self, options, cls=type(self), flags=flags, caller="Reference.normalize"
        )

    def equivalent(
        self,
        other: Reference | str,
        options: Normalization | None = None,
        **flags: Unpack[NormalizationFlags],
    ) -> bool:
        """Whether ``other`` has the same normal form (section 6.1): the
        options are ``urigrammar.equivalent``'s."""
        return _normalize.equivalent(
            self, other, options, cls=type(self), flags=flags, caller="Reference.equivalent"
        )

    # --- Building and changing references: thin methods over _build.py and
    # --- _query.py.

    @classmethod
    def build(cls: type[_R], **parts: Any) -> _R:
        """The reference with these parts, each percent-encoded for its rule
        (``urigrammar.build``: scheme, userinfo, host, port, path, query,
        fragment, idna)."""
        return _build.build(cls, **parts)

    def replace(self: _R, **parts: Any) -> _R:
        """A new reference with the given parts, as written (no encoding),
        validated like ``build``'s."""
        return _build.replace(self, **parts)

    def query_pairs(self, *, form: bool = False, errors: str = "strict") -> list[tuple[str, str]]:
        """The query's percent-decoded ``name=value`` pairs, in order."""
        return _query.query_pairs(self, form=form, errors=errors)

    def with_query_pairs(self: _R, pairs: Any, *, form: bool = False) -> _R:
        """This reference with its query encoded from ``(name, value)`` pairs."""
        return _query.with_query_pairs(self, pairs, form=form)

    def host_unicode(self) -> str | None:
        """The host as Unicode: percent-escapes and IDNA A-labels decoded."""
        return _views.host_unicode(self)

    # --- Conveniences: decoded views and one-part changes, thin methods over
    # --- _views.py, _path.py, _query.py and _normalize.py; each change
    # --- returns a new reference.

    @property
    def user(self) -> str | None:
        """The userinfo up to its first ``:``, percent-decoded (section
        3.2.1); ``URIError`` when its escapes are not UTF-8."""
        return _views.user(self)

    @property
    def password(self) -> str | None:
        """What follows the first ``:`` of the userinfo, percent-decoded;
        ``None`` without a ``:``.

        Section 3.2.1: the "user:password" form is deprecated, and passing
        authentication information in clear text in a URI has proved a
        security risk in almost every case where it has been used.  Read it
        only to move it somewhere safer; ``repr`` and error messages never
        show it."""
        return _views.password(self)

    @property
    def hostname(self) -> str | None:
        """The host without an IP-literal's brackets, a reg-name
        percent-decoded (section 3.2.2); ``None`` without an authority."""
        return _views.hostname(self)

    @property
    def decoded_segments(self) -> tuple[str, ...]:
        """``path_segments``, each percent-decoded as UTF-8 (section 3.3)."""
        return _path.decoded_segments(self)

    def port_or_default(self, *, schemes: Mapping[str, SchemeRule] | None = None) -> int | None:
        """The port, or the scheme's default port from ``SCHEME_RULES`` (or
        ``schemes``) when it is absent or empty (sections 3.2.3, 6.2.3)."""
        return _normalize.port_or_default(self, schemes)

    @property
    def origin(self) -> Origin | None:
        """RFC 6454 section 4: ``Origin(scheme, host, port)`` for http,
        https, ws and wss with a host; ``None`` (an opaque origin, equal to
        no other) for anything else.  ``str(origin)`` serializes it."""
        return _normalize.origin(self)

    def joinpath(self: _R, *segments: str) -> _R:
        """This reference with ``segments`` (decoded text, each encoded, so
        ``/`` becomes ``%2F``) appended to the path; see ``_build.joinpath``."""
        return _path.joinpath(self, *segments)

    def __truediv__(self: _R, segment: str) -> _R:
        """``ref / "seg"``: ``ref.joinpath("seg")``."""
        if not isinstance(segment, str):
            return NotImplemented
        return self.joinpath(segment)

    def with_path_segments(self: _R, segments: Iterable[str]) -> _R:
        """This reference with its path made of decoded ``segments``, in the
        ``path_segments`` convention (a leading ``""`` for an absolute path)."""
        return _path.with_path_segments(self, segments)

    def get_param(
        self, name: str, default: str | None = None, *, form: bool = False, errors: str = "strict"
    ) -> str | None:
        """The first decoded value of the query parameter ``name``, or ``default``."""
        return _query.get_param(self, name, default, form=form, errors=errors)

    def get_params(self, name: str, *, form: bool = False, errors: str = "strict") -> list[str]:
        """Every decoded value of the query parameter ``name``, in order."""
        return _query.get_params(self, name, form=form, errors=errors)

    def add_param(self: _R, name: str, value: str, *, form: bool = False) -> _R:
        """This reference with ``name=value`` added at the end of the query,
        the rest of the query as written."""
        return _query.add_param(self, name, value, form=form)

    def set_param(self: _R, name: str, value: str, *, form: bool = False) -> _R:
        """This reference with ``value`` the one value of ``name``: the first
        piece of that name keeps its place, the others go."""
        return _query.set_param(self, name, value, form=form)

    def remove_param(self: _R, name: str, *, form: bool = False) -> _R:
        """This reference without the query parameter ``name``."""
        return _query.remove_param(self, name, form=form)


# Untracked (engine.untracked): their records hold the text and the host's
# rule name, so they can be part of no cycle, and each parse then skips the
# garbage collector's bookkeeping.
@untracked
class URIReference(Reference):
    """A parsed URI-reference (RFC 3986 section 4.1).  Build one with
    ``parse``; ``str()`` recomposes it (section 5.3).

    Immutable: its text and where each component lies in it
    (``Components``), each field sliced when it is read.  Not a sequence;
    ``match`` unpacks the fields.  It compares equal only to another
    ``URIReference`` and has no ordering.  Every URI reference the library
    returns is one.

    >>> import urigrammar
    >>> ref = urigrammar.parse("https://user@example.com:8080/a/b?q=1#top")
    >>> ref.host, ref.port, ref.path, ref.query, ref.fragment
    ('example.com', 8080, '/a/b', 'q=1', 'top')
    """

    __slots__ = ()

    def to_iri(self, *, idna: bool = False) -> IRIReference:
        """The IRI this URI maps to (RFC 3987 section 3.2): ``to_iri``."""
        return _convert.to_iri(self, iri_cls=IRIReference, idna=idna)


@untracked
class IRIReference(Reference):
    """A parsed IRI-reference (RFC 3987 section 2.2): the fields, methods
    and conventions of ``URIReference``, over the IRI grammar, whose
    unreserved characters include ``ucschar`` (and ``iprivate`` in the
    query).  Build one with ``parse_iri``.  ``host_kind`` names RFC 3987's
    ``ireg-name`` for a registered name.  It compares equal only to another
    ``IRIReference``; ``to_uri`` maps it to a ``URIReference`` (section
    3.1).  No value holds a bidirectional formatting character (section
    4.1) unless it was parsed with ``allow_bidi=True``.

    >>> import urigrammar
    >>> iri = urigrammar.parse_iri("https://例え.jp/ä?q=ü")
    >>> iri.host, str(iri.to_uri())
    ('例え.jp', 'https://%E4%BE%8B%E3%81%88.jp/%C3%A4?q=%C3%BC')
    """

    __slots__ = ()
    dialect = IRI

    def to_uri(self, *, idna: bool = False) -> URIReference:
        """The URI this IRI maps to (RFC 3987 section 3.1): ``to_uri``."""
        return _convert.to_uri(self, uri_cls=URIReference, idna=idna)


#: The components of ``text`` (RFC 3986 section 4.1); ``rule`` is one of
#: ``PARSE_RULES``.  Raises ``URISyntaxError`` for text the rule rejects.
#: (``parser_for`` makes it, so that its hot path is one dict lookup, a
#: ``fullmatch`` and the generated reader, with no call in between.)
parse: Parser[URIReference] = parser_for(URIReference)
# Its docstring is made with it, for any class; this one adds an example,
# on the function and on the C entry in front of it (engine.front), which
# holds a copy of the function's.
parse.__doc__ = getattr(parse, "__wrapped__", parse).__doc__ = f"""{parse.__doc__}

>>> import urigrammar
>>> ref = urigrammar.parse("https://example.com/a?q=1#top")
>>> ref.scheme, ref.host, ref.path, ref.query, ref.fragment
('https', 'example.com', '/a', 'q=1', 'top')
"""

_parse_iri = parser_for(IRIReference)
_parse_iri_unscreened = parser_for(IRIReference, screen=False)

#: The rules ``parse_iri`` accepts (RFC 3987 section 2.2's counterparts of
#: ``PARSE_RULES``).
IRI_PARSE_RULES = IRI.parse_rules


def parse_iri(
    text: str,
    rule: str = "IRI-reference",
    *,
    method: Method = "automata",
    allow_bidi: bool = False,
) -> IRIReference:
    """An ``IRIReference``: the components of ``text`` (RFC 3987 section
    2.2) under ``rule``, one of ``IRI_PARSE_RULES``.  Raises
    ``URISyntaxError`` for text the rule rejects, and for a bidirectional
    formatting character (section 4.1: IRIs MUST NOT contain them, though
    the ABNF admits them), naming it and its offset, unless ``allow_bidi``.

    >>> import urigrammar
    >>> urigrammar.parse_iri("https://example.com/日本?q=ü").path
    '/日本'
    """
    parse = _parse_iri_unscreened if allow_bidi else _parse_iri
    if method == "automata":
        # Positionally: the C entry in front of the parse function
        # (engine.front) hands any keyword to the function.
        return parse(text, rule)
    return parse(text, rule, method=method)


resolve_annotations(parse_iri)  # as parse's: help() shows the types, not their names


def _read_back(cls: type[_R], text: str) -> _R:
    """A pickled reference: ``text`` parsed into ``cls`` under its dialect's
    reference rule.  Not screened for bidi characters: an ``IRIReference``
    made with ``allow_bidi=True`` pickles too."""
    return parser_for(cls, screen=False)(text)


def as_iri(ref: IRIReference | URIReference | str, allow_bidi: bool = False) -> IRIReference:
    """``ref`` as an ``IRIReference``: a URI read again as the IRI it is,
    a string read with ``parse_iri``."""
    if isinstance(ref, IRIReference):
        return ref
    if isinstance(ref, URIReference):
        # Every URI is an IRI (RFC 3987 section 2): its text reads as one,
        # ASCII and so free of bidi characters, and maps back to itself.
        return parse_iri(str(ref))
    if isinstance(ref, Reference):
        msg = f"expected an IRIReference or a str, not {type(ref).__name__}"
        raise TypeError(msg)
    return parse_iri(ref, allow_bidi=allow_bidi)


def to_uri(
    iri: IRIReference | URIReference | str, *, idna: bool = False, allow_bidi: bool = False
) -> URIReference:
    """The URI an IRI maps to (RFC 3987 section 3.1): every character the
    URI grammar does not admit in its component is percent-encoded as
    UTF-8; with ``idna=True`` a non-ASCII ``ireg-name`` becomes A-labels
    (``idna`` package, UTS 46).  A string is parsed with ``parse_iri``
    (``allow_bidi`` is its option; a bidi character is then encoded).  A
    ``URIReference`` is an IRI too, and maps to itself.

    >>> import urigrammar
    >>> str(urigrammar.to_uri("https://example.com/日本"))
    'https://example.com/%E6%97%A5%E6%9C%AC'
    """
    return _convert.to_uri(as_iri(iri, allow_bidi), uri_cls=URIReference, idna=idna)


def to_iri(uri: URIReference | str, *, idna: bool = False) -> IRIReference:
    """The IRI a URI maps to (RFC 3987 section 3.2): percent-encoded UTF-8
    is decoded where the IRI grammar admits the character in that
    component, and only there; see ``_convert``.  With ``idna=True`` a
    host's A-labels become U-labels (IDNA ToUnicode, ``idna`` package).  A
    string is parsed with ``parse``: it must be a URI.

    >>> import urigrammar
    >>> str(urigrammar.to_iri("https://example.com/%E6%97%A5%E6%9C%AC"))
    'https://example.com/日本'
    """
    if isinstance(uri, IRIReference):
        msg = "to_iri takes a URIReference or a str, not an IRIReference"
        raise TypeError(msg)
    ref = _resolve.as_reference(uri, URIReference)
    return _convert.to_iri(ref, iri_cls=IRIReference, idna=idna)


def _is_iri_only(text: object) -> bool:
    """Whether ``text`` is a string that is an IRI-reference and no
    URI-reference (RFC 3987 section 2.2: every URI is an IRI)."""
    return (
        isinstance(text, str)
        and not validate("URI-reference", text)
        and validate("IRI-reference", text)
    )


def _class_for(*refs: Reference | str) -> type[Reference]:
    """The class strings are read into next to ``refs``: ``IRIReference``
    when any of them is one, or is a string that is an IRI-reference and no
    URI-reference; ``URIReference`` otherwise.  The one rule of every
    function here that takes a ``str | Reference``."""
    for r in refs:  # a loop, not any(): this runs once per normalize
        if isinstance(r, IRIReference) or _is_iri_only(r):
            return IRIReference
    return URIReference


@overload
def resolve(base: URIReference, ref: URIReference, *, strict: bool = True) -> URIReference: ...
@overload
def resolve(base: IRIReference, ref: Reference | str, *, strict: bool = True) -> IRIReference: ...
@overload
def resolve(base: Reference | str, ref: IRIReference, *, strict: bool = True) -> IRIReference: ...
@overload
def resolve(
    base: Reference | str, ref: Reference | str, *, strict: bool = True
) -> URIReference | IRIReference: ...
def resolve(base: Reference | str, ref: Reference | str, *, strict: bool = True) -> Reference:
    """The target URI of ``ref`` against ``base`` (section 5.2.2); see
    ``_resolve.resolve``.  Strings are parsed as URI-references, or as
    IRI-references when either side is an IRI: an ``IRIReference``, or a
    string that is an IRI-reference and no URI-reference (RFC 3987 section
    6.5); with an IRI on either side the target is an ``IRIReference``.

    >>> import urigrammar
    >>> str(urigrammar.resolve("http://a/b/c/d;p?q", "../g"))
    'http://a/b/g'
    """
    return _resolve.resolve(base, ref, cls=_class_for(base, ref), strict=strict)


@overload
def relativize(base: URIReference, target: URIReference) -> URIReference: ...
@overload
def relativize(base: IRIReference, target: Reference | str) -> IRIReference: ...
@overload
def relativize(base: Reference | str, target: IRIReference) -> IRIReference: ...
@overload
def relativize(base: Reference | str, target: Reference | str) -> URIReference | IRIReference: ...
def relativize(base: Reference | str, target: Reference | str) -> Reference:
    """The shortest reference that ``resolve(base, ...)`` (strict) turns into
    exactly ``target``: the inverse of section 5.2.2; see
    ``_resolve.relativize``.  Strings are read as ``resolve`` reads them.

    >>> import urigrammar
    >>> str(urigrammar.relativize("http://a/b/c/d;p?q", "http://a/b/g"))
    '../g'
    """
    return _resolve.relativize(base, target, cls=_class_for(base, target))


#: ``normalize``'s C front's table, which its first call fills (``front_table``).
_NORMALIZE_TEXT: dict[str, Callable[[str], URIReference | None]] = {}


@overload
def normalize(
    ref: URIReference, options: Normalization | None = None, **flags: Unpack[NormalizationFlags]
) -> URIReference: ...
@overload
def normalize(
    ref: IRIReference, options: Normalization | None = None, **flags: Unpack[NormalizationFlags]
) -> IRIReference: ...
@overload
def normalize(
    ref: str, options: Normalization | None = None, **flags: Unpack[NormalizationFlags]
) -> URIReference | IRIReference: ...
@text_front(_NORMALIZE_TEXT)
def normalize(
    ref: Reference | str, options: Normalization | None = None, **flags: Unpack[NormalizationFlags]
) -> Reference:
    """The normal form of ``ref`` (section 6.2.2, then 6.2.3 unless
    ``scheme_based`` is false); see ``_normalize`` for each step.
    ``options`` is a ``Normalization`` (its defaults when ``None``); its
    fields may be given as keywords too (``nfc=True``), each replacing the
    field of ``options``.  Idempotent: ``normalize(normalize(r)) ==
    normalize(r)``.  A string is parsed as a URI-reference, or as an
    IRI-reference when it is one and no URI-reference; an IRI is
    normalized as RFC 3987 section 5.3.2 says, and ``nfc`` also puts it in
    NFC (section 5.3.2.2).

    >>> import urigrammar
    >>> str(urigrammar.normalize("HTTP://Example.COM:80/a/./b/../%7e"))
    'http://example.com/a/~'
    """
    found = _normalize.normalize(ref, options, cls=_class_for(ref), flags=flags)
    if not _NORMALIZE_TEXT:
        _NORMALIZE_TEXT.update(_normalize.front_table(URIReference))
    return found


def equivalent(
    a: Reference | str,
    b: Reference | str,
    options: Normalization | None = None,
    **flags: Unpack[NormalizationFlags],
) -> bool:
    """Whether ``a`` and ``b`` have the same normal form (section 6.1)
    under ``options`` and ``flags``, as ``normalize`` takes them.
    Strings are read as ``resolve`` reads them: when either side is an IRI
    (an ``IRIReference``, or a string that is an IRI-reference and no
    URI-reference) both are compared as IRIs (RFC 3987 section 5.3), so
    ``equivalent("http://ex.com/ä", "http://ex.com/%C3%A4")`` holds.

    >>> import urigrammar
    >>> urigrammar.equivalent("http://example.com", "HTTP://EXAMPLE.com:80/")
    True
    """
    return _normalize.equivalent(a, b, options, cls=_class_for(a, b), flags=flags)


def build(
    *,
    scheme: str | None = None,
    userinfo: str | None = None,
    host: _build.Host | None = None,
    port: _build.Port | None = None,
    path: str = "",
    query: str | None = None,
    fragment: str | None = None,
    idna: bool = False,
) -> URIReference:
    """The reference with these parts, each given as data and percent-encoded
    for its rule; ``None`` leaves a part out, ``""`` writes it empty.  The
    parts are keyword-only: seven optional positional strings invite a
    host in the userinfo's place.

    ``path`` keeps ``/`` as the segment delimiter; ``query`` and ``fragment``
    keep every character their rule admits (``&``, ``=``, ``/``, ``?``).
    ``port`` is an ``int`` or a ``str`` of digits.  Raises ``URIError``,
    naming the part, for a combination RFC 3986 cannot express.  See
    ``_build`` for hosts and ``idna``.

    >>> import urigrammar
    >>> str(urigrammar.build(scheme="https", host="example.com", path="/a b", query="q=ü"))
    'https://example.com/a%20b?q=%C3%BC'
    """
    return _build.build(
        URIReference,
        scheme=scheme,
        userinfo=userinfo,
        host=host,
        port=port,
        path=path,
        query=query,
        fragment=fragment,
        idna=idna,
    )
