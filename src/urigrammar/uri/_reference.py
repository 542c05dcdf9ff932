"""``URIReference``: the components of a URI-reference (RFC 3986 section 4.1).

A frozen value object.  ``None`` means a component's delimiter is absent,
``""`` that it is present and empty (``http://a?`` has query ``""``,
``http://a`` has query ``None``); the path is always a ``str``, possibly
empty (section 3.3: every URI-reference has a path).  The port is kept as
written (``port_text``) besides its integer value, so that ``str()`` gives
back exactly the parsed text (section 5.3), ``http://a:/`` and
``http://a:0080/`` included.

``==`` and ``hash`` compare the components exactly; equivalence after
normalization (section 6) is a separate question.

``path_segments`` convention: the path split on ``"/"``, as written
(percent-encodings kept).  An absolute path starts with an empty segment
(``/a/b`` -> ``("", "a", "b")``), a rootless one does not (``a/b`` ->
``("a", "b")``), the empty path has no segments, and a trailing slash gives
a final empty segment (``/a/`` -> ``("", "a", "")``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._errors import URIError

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from ipaddress import IPv4Address, IPv6Address

    from ._normalize import Origin, SchemeRule

__all__ = [
    "MAX_PORT_DIGITS",
    "PortTooLargeError",
    "URIReference",
    "evolve",
    "path_clash",
    "port_digits",
    "port_number",
    "recompose",
    "significant_digits",
    "trusted_reference",
    "unchecked",
]

#: The most significant digits (leading zeros not counted) a port may have
#: for ``URIReference.port`` to give its value.  ``port = *DIGIT`` (section
#: 3.2.3) has no bound, but CPython converts at most 4300 digits between
#: ``int`` and ``str`` (CVE-2020-10735), and converting is quadratic, so a
#: longer port has no ``int``: its digits stay in ``port_text``.
MAX_PORT_DIGITS = 4300

# sys.set_int_max_str_digits() accepts 640 as its lowest limit: converting a
# chunk at a time keeps the conversion working whatever limit a program
# set, and with at most MAX_PORT_DIGITS digits it stays cheap.
_DIGIT_CHUNK = 640


# repr() shows a port_text up to this long; a longer one by its length.
_REPR_PORT = 64


class PortTooLargeError(URIError):
    """The port has more than ``MAX_PORT_DIGITS`` significant digits, so it
    gives no ``int``; ``port_text`` has its digits (section 3.2.3)."""


def significant_digits(port_text: str) -> str:
    """The digits of a non-empty ``port`` without leading zeros (``"0"`` for
    zero): the text to compare ports by, with no conversion to ``int``."""
    return port_text.lstrip("0") or "0"


def port_number(text: str) -> int | None:
    """The value of a ``port`` as written; ``None`` for the empty port.
    Raises ``PortTooLargeError`` past ``MAX_PORT_DIGITS`` significant digits."""
    if not text:
        return None
    digits = significant_digits(text)
    if len(digits) > MAX_PORT_DIGITS:
        msg = (
            f"port: {len(digits)} significant digits, more than MAX_PORT_DIGITS "
            f"({MAX_PORT_DIGITS}), so the port has no int value; read port_text "
            "for its digits (section 3.2.3)"
        )
        raise PortTooLargeError(msg, rule="port", text=text)
    value = 0
    for start in range(0, len(digits), _DIGIT_CHUNK):
        chunk = digits[start : start + _DIGIT_CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


_CHUNK_SCALE = 10**_DIGIT_CHUNK
_PORT_BOUND = 10**MAX_PORT_DIGITS


def port_digits(value: int) -> str:
    """The decimal digits of a port given as an ``int``.  Raises
    ``URIError`` for a negative one and ``PortTooLargeError`` past
    ``MAX_PORT_DIGITS`` digits, never ``ValueError``."""
    if value < 0:
        msg = f"port: a port is digits, so it cannot be {value} (section 3.2.3)"
        raise URIError(msg, rule="port")
    if value >= _PORT_BOUND:
        msg = (
            f"port: {value.bit_length()} bits is more than MAX_PORT_DIGITS "
            f"({MAX_PORT_DIGITS}) decimal digits (section 3.2.3); give the port as a str"
        )
        raise PortTooLargeError(msg, rule="port")
    # A chunk at a time, for the same reason as port_number.
    chunks: list[str] = []
    while value >= _CHUNK_SCALE:
        value, low = divmod(value, _CHUNK_SCALE)
        chunks.append(str(low).zfill(_DIGIT_CHUNK))
    chunks.append(str(value))
    return "".join(reversed(chunks))


def recompose(
    scheme: str | None,
    authority: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
) -> str:
    """Section 5.3, with undefined and empty components kept apart.  The
    parts are written as they are: ``path_clash`` says whether the text
    reads back as the same parts."""
    parts: list[str] = []
    if scheme is not None:
        parts += (scheme, ":")
    if authority is not None:
        parts += ("//", authority)
    parts.append(path)
    if query is not None:
        parts += ("?", query)
    if fragment is not None:
        parts += ("#", fragment)
    return "".join(parts)


def path_clash(path: str, *, has_authority: bool, has_scheme: bool) -> tuple[str, int] | None:
    """Where a path that matches ``path`` would recompose into text that
    reads back differently: the rule it must match in its place and the
    offset of the trouble, or ``None`` when it fits.  The one place these
    checks are written (used to refuse parts and to repair paths):

    * with an authority, the path is empty or begins with ``/`` (section
      3.3, ``path-abempty``);
    * without one, it cannot begin with ``//``, which would read as an
      authority (section 3.3, ``path-absolute``);
    * without a scheme either, its first segment cannot contain ``:``, which
      would read as a scheme delimiter (section 4.2, ``path-noscheme``).
    """
    if has_authority:
        return None if not path or path[0] == "/" else ("path-abempty", 0)
    if path.startswith("//"):
        return ("path-absolute", 1)
    if not has_scheme:
        colon = path.partition("/")[0].find(":")
        if colon >= 0:
            return ("path-noscheme", colon)
    return None


# The tuple layout: index of each field.  The port is not stored, only its
# text: converting it at parse time made parse quadratic in its length.
_FIELDS = (
    "scheme",
    "userinfo",
    "host",
    "path",
    "query",
    "fragment",
    "host_kind",
    "port_text",
)


class URIReference(tuple[Any, ...]):
    """A parsed URI-reference.  Build one with ``parse``; ``str()`` recomposes
    it (RFC 3986 section 5.3).

    Immutable: a tuple of its fields, like a named tuple, because ``parse``
    makes one per call and a tuple is the cheapest immutable object CPython
    builds.  It compares equal only to another ``URIReference`` and has no
    ordering.
    """

    __slots__ = ()
    __match_args__ = (
        "scheme",
        "userinfo",
        "host",
        "port",
        "path",
        "query",
        "fragment",
        "host_kind",
        "port_text",
    )

    def __new__(
        cls,
        *positional: object,
        scheme: str | None = None,
        userinfo: str | None = None,
        host: str | IPv4Address | IPv6Address | None = None,
        port: int | str | None = None,
        path: str = "",
        query: str | None = None,
        fragment: str | None = None,
    ) -> URIReference:
        """The reference with these components, each written as it appears
        in the URI (nothing is encoded; ``build`` encodes).  Each is checked
        against its rule and the combination against sections 3.3 and 4.2,
        as ``replace`` checks them, so ``parse(str(ref)) == ref`` holds for
        every reference; ``host_kind`` and ``port_text`` come from the
        grammar.  Raises ``URIError`` naming the part.  Keyword-only: to
        read a reference from text, call ``parse``."""
        if positional:
            msg = (
                "URIReference() takes its components as keywords only "
                "(scheme=, userinfo=, host=, port=, path=, query=, fragment=); "
                "to read a URI from text use urigrammar.parse(text)"
            )
            raise TypeError(msg)
        from ._build import from_parts

        ref = from_parts(
            scheme=scheme,
            userinfo=userinfo,
            host=host,
            port=port,
            path=path,
            query=query,
            fragment=fragment,
        )
        return ref if cls is URIReference else tuple.__new__(cls, ref)

    @property
    def scheme(self) -> str | None:
        """Section 3.1, as written (``None`` for a relative reference)."""
        value: str | None = self[0]
        return value

    @property
    def userinfo(self) -> str | None:
        """Section 3.2.1, as written."""
        value: str | None = self[1]
        return value

    @property
    def host(self) -> str | None:
        """Section 3.2.2, as written, brackets of an IP-literal included;
        ``None`` without an authority."""
        value: str | None = self[2]
        return value

    @property
    def port(self) -> int | None:
        """Section 3.2.3: the port's value; ``None`` when absent or empty.

        Converted from ``port_text`` on each access, so that ``parse`` stays
        linear.  Raises ``PortTooLargeError`` (a ``URIError``) for a port of
        more than ``MAX_PORT_DIGITS`` significant digits: read ``port_text``."""
        text: str | None = self[7]
        return None if text is None else port_number(text)

    @property
    def path(self) -> str:
        """Section 3.3, as written; always a ``str``, possibly empty."""
        value: str = self[3]
        return value

    @property
    def query(self) -> str | None:
        """Section 3.4, as written."""
        value: str | None = self[4]
        return value

    @property
    def fragment(self) -> str | None:
        """Section 3.5, as written."""
        value: str | None = self[5]
        return value

    @property
    def host_kind(self) -> str | None:
        """The rule the host matched: "IPv4address", "IPv6address",
        "IPvFuture" or "reg-name" (section 3.2.2); ``None`` without an
        authority."""
        value: str | None = self[6]
        return value

    @property
    def port_text(self) -> str | None:
        """The port as written: ``"0080"``, ``""`` for ``http://a:/``,
        ``None`` when there is no ``:``."""
        value: str | None = self[7]
        return value

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return tuple.__eq__(self, other)
        # A plain tuple must not compare equal, and returning NotImplemented
        # would let tuple's own comparison decide.
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = tuple.__hash__

    def _unordered(self, other: object) -> bool:
        result: bool = NotImplemented
        return result

    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __reduce__(self) -> tuple[Any, ...]:
        # The fields were checked when the reference was made: unpickling
        # takes the unchecked way, and converts no port.
        return (trusted_reference, tuple(self))

    @property
    def authority(self) -> str | None:
        """``[ userinfo "@" ] host [ ":" port ]`` (section 3.2), or ``None``."""
        if self.host is None:
            return None
        text = self.host
        if self.userinfo is not None:
            text = f"{self.userinfo}@{text}"
        if self.port_text is not None:
            text = f"{text}:{self.port_text}"
        return text

    @property
    def is_relative(self) -> bool:
        """A relative-ref (section 4.2): no scheme."""
        return self.scheme is None

    @property
    def is_absolute(self) -> bool:
        """Matches absolute-URI (section 4.3): a scheme and no fragment."""
        return self.scheme is not None and self.fragment is None

    @property
    def path_segments(self) -> tuple[str, ...]:
        """The path split on ``/``; see the module docstring for the convention."""
        return tuple(self.path.split("/")) if self.path else ()

    def __str__(self) -> str:
        return recompose(
            self.scheme,
            self.authority,
            self.path,
            self.query,
            self.fragment,
        )

    # --- Resolution and normalization (sections 5 and 6): thin methods over
    # --- _resolve.py and _normalize.py go here.

    def resolve(self, ref: URIReference | str, *, strict: bool = True) -> URIReference:
        """The target of ``ref`` with this URI as its base (section 5.2)."""
        from ._resolve import resolve

        return resolve(self, ref, strict=strict)

    def relativize(self, target: URIReference | str) -> URIReference:
        """The shortest reference that resolves against this URI to ``target``."""
        from ._resolve import relativize

        return relativize(self, target)

    def normalize(
        self,
        *,
        scheme_based: bool = True,
        ipv6_canonical: bool = False,
        schemes: Mapping[str, SchemeRule] | None = None,
    ) -> URIReference:
        """This reference's normal form (sections 6.2.2 and 6.2.3): the
        options are ``urigrammar.normalize``'s."""
        from ._normalize import normalize

        return normalize(
            self, scheme_based=scheme_based, ipv6_canonical=ipv6_canonical, schemes=schemes
        )

    def equivalent(
        self,
        other: URIReference | str,
        *,
        scheme_based: bool = True,
        ipv6_canonical: bool = False,
        schemes: Mapping[str, SchemeRule] | None = None,
    ) -> bool:
        """Whether ``other`` has the same normal form (section 6.1): the
        options are ``urigrammar.equivalent``'s."""
        from ._normalize import equivalent

        return equivalent(
            self,
            other,
            scheme_based=scheme_based,
            ipv6_canonical=ipv6_canonical,
            schemes=schemes,
        )

    # --- Building and changing references: thin methods over _build.py and
    # --- _encode.py go here.

    @classmethod
    def build(cls, **parts: Any) -> URIReference:
        """The reference with these parts, each percent-encoded for its rule
        (``urigrammar.build``: scheme, userinfo, host, port, path, query,
        fragment, idna)."""
        from ._build import build

        return build(**parts)

    def replace(self, **parts: Any) -> URIReference:
        """A new reference with the given parts, as written (no encoding),
        validated like ``build``'s."""
        from ._build import replace

        return replace(self, **parts)

    def query_pairs(self, *, form: bool = False, errors: str = "strict") -> list[tuple[str, str]]:
        """The query's percent-decoded ``name=value`` pairs, in order."""
        from ._build import query_pairs

        return query_pairs(self, form=form, errors=errors)

    def with_query_pairs(self, pairs: Any, *, form: bool = False) -> URIReference:
        """This reference with its query encoded from ``(name, value)`` pairs."""
        from ._build import with_query_pairs

        return with_query_pairs(self, pairs, form=form)

    def host_unicode(self) -> str | None:
        """The host as Unicode: percent-escapes and IDNA A-labels decoded."""
        from ._build import host_unicode

        return host_unicode(self)

    # --- Conveniences: decoded views and one-part changes, thin methods over
    # --- _build.py and _normalize.py; each returns a new reference.

    @property
    def user(self) -> str | None:
        """The userinfo up to its first ``:``, percent-decoded (section
        3.2.1); ``URIError`` when its escapes are not UTF-8."""
        from ._build import user

        return user(self)

    @property
    def password(self) -> str | None:
        """What follows the first ``:`` of the userinfo, percent-decoded;
        ``None`` without a ``:``.

        Section 3.2.1: the "user:password" form is deprecated, and passing
        authentication information in clear text in a URI has proved a
        security risk in almost every case where it has been used.  Read it
        only to move it somewhere safer; ``repr`` and error messages never
        show it."""
        from ._build import password

        return password(self)

    @property
    def hostname(self) -> str | None:
        """The host without an IP-literal's brackets, a reg-name
        percent-decoded (section 3.2.2); ``None`` without an authority."""
        from ._build import hostname

        return hostname(self)

    @property
    def decoded_segments(self) -> tuple[str, ...]:
        """``path_segments``, each percent-decoded as UTF-8 (section 3.3)."""
        from ._build import decoded_segments

        return decoded_segments(self)

    def port_or_default(self, *, schemes: Mapping[str, SchemeRule] | None = None) -> int | None:
        """The port, or the scheme's default port from ``SCHEME_RULES`` (or
        ``schemes``) when it is absent or empty (sections 3.2.3, 6.2.3)."""
        from ._normalize import port_or_default

        return port_or_default(self, schemes)

    @property
    def origin(self) -> Origin | None:
        """RFC 6454 section 4: ``Origin(scheme, host, port)`` for http,
        https, ws and wss with a host; ``None`` (an opaque origin, equal to
        no other) for anything else.  ``str(origin)`` serializes it."""
        from ._normalize import origin

        return origin(self)

    def joinpath(self, *segments: str) -> URIReference:
        """This reference with ``segments`` (decoded text, each encoded, so
        ``/`` becomes ``%2F``) appended to the path; see ``_build.joinpath``."""
        from ._build import joinpath

        return joinpath(self, *segments)

    def __truediv__(self, segment: str) -> URIReference:
        """``ref / "seg"``: ``ref.joinpath("seg")``."""
        if not isinstance(segment, str):
            return NotImplemented
        return self.joinpath(segment)

    def with_path_segments(self, segments: Iterable[str]) -> URIReference:
        """This reference with its path made of decoded ``segments``, in the
        ``path_segments`` convention (a leading ``""`` for an absolute path)."""
        from ._build import with_path_segments

        return with_path_segments(self, segments)

    def get_param(
        self, name: str, default: str | None = None, *, form: bool = False, errors: str = "strict"
    ) -> str | None:
        """The first decoded value of the query parameter ``name``, or ``default``."""
        from ._build import get_param

        return get_param(self, name, default, form=form, errors=errors)

    def get_params(self, name: str, *, form: bool = False, errors: str = "strict") -> list[str]:
        """Every decoded value of the query parameter ``name``, in order."""
        from ._build import get_params

        return get_params(self, name, form=form, errors=errors)

    def add_param(self, name: str, value: str, *, form: bool = False) -> URIReference:
        """This reference with ``name=value`` added at the end of the query,
        the rest of the query as written."""
        from ._build import add_param

        return add_param(self, name, value, form=form)

    def set_param(self, name: str, value: str, *, form: bool = False) -> URIReference:
        """This reference with ``value`` the one value of ``name``: the first
        piece of that name keeps its place, the others go."""
        from ._build import set_param

        return set_param(self, name, value, form=form)

    def remove_param(self, name: str, *, form: bool = False) -> URIReference:
        """This reference without the query parameter ``name``."""
        from ._build import remove_param

        return remove_param(self, name, form=form)

    def __repr__(self) -> str:
        # The constructor's call, so that eval(repr(ref)) == ref, except
        # that section 3.2.1 deprecates "user:password": whatever follows
        # the first ":" of userinfo is a secret and never goes into a log.
        shown: list[str] = []
        for name in ("scheme", "userinfo", "host", "port", "path", "query", "fragment"):
            value = self.port_text if name == "port" else getattr(self, name)
            if name == "port" and value is not None and len(value) > _REPR_PORT:
                # A megabyte of digits is no help in a log line.
                shown.append(f"port=<{len(value)} digits>")
                continue
            if name == "userinfo" and value is not None and ":" in value:
                value = value.partition(":")[0] + ":<hidden>"
            shown.append(f"{name}={value!r}")
        return f"URIReference({', '.join(shown)})"


def evolve(ref: URIReference, **changes: Any) -> URIReference:
    """``ref`` with some fields changed, as written and unchecked (the
    library's own ``dataclasses.replace``); ``URIReference.replace`` is the
    checked, public way."""
    values = dict(zip(_FIELDS, ref, strict=True))
    values.update(changes)
    return trusted_reference(**values)


def unchecked(**fields: Any) -> URIReference:
    """A reference with the given fields (the others absent), unchecked:
    for the library's own intermediate values (section 5.2.2 builds its
    target a part at a time)."""
    return evolve(_EMPTY, **fields)


def trusted_reference(
    scheme: str | None,
    userinfo: str | None,
    host: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
    host_kind: str | None,
    port_text: str | None,
) -> URIReference:
    """A ``URIReference`` from components the grammar has already checked:
    ``parse`` makes one per call, and unpickling one per reference, so this
    skips the public constructor's checks.  Private to the library."""
    values = (scheme, userinfo, host, path, query, fragment, host_kind, port_text)
    ref: URIReference = tuple.__new__(URIReference, values)
    return ref


_EMPTY = trusted_reference(None, None, None, "", None, None, None, None)
