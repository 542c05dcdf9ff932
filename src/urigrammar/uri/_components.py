"""``Components``: the value of a URI-reference (RFC 3986 section 4.1), the
bottom of the URI model.

Everything about the value that needs no other module of the model lives
here: the eight fields and their properties, recomposition (section 5.3),
equality, ``repr`` and pickling, and the unchecked constructors the rest of
the model builds its results with.  ``_reference.URIReference`` subclasses
it with the public methods; every constructor here takes the class to build
(or reads it off ``type(ref)``), so no module below ``_reference`` needs to
know that class.

A frozen value.  ``None`` means a component's delimiter is absent, ``""``
that it is present and empty (``http://a?`` has query ``""``, ``http://a``
has query ``None``); the path is always a ``str``, possibly empty (section
3.3: every URI-reference has a path).  The port is kept as written
(``port_text``) besides its integer value, so that ``str()`` gives back
exactly the parsed text (section 5.3), ``http://a:/`` and ``http://a:0080/``
included.

``==`` and ``hash`` compare the components exactly; equivalence after
normalization (section 6) is a separate question.

``path_segments`` convention: the path split on ``"/"``, as written
(percent-encodings kept).  An absolute path starts with an empty segment
(``/a/b`` -> ``("", "a", "b")``), a rootless one does not (``a/b`` ->
``("a", "b")``), the empty path has no segments, and a trailing slash gives
a final empty segment (``/a/`` -> ``("", "a", "")``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .._errors import HIDDEN, PortTooLargeError, URIError
from ..engine import record_types
from ..shipped import userinfo_secret
from ._dialect import URI, Dialect

__all__ = [
    "FIELDS",
    "MAX_PORT_DIGITS",
    "PYTHON_RECORDS",
    "Components",
    "RefT",
    "compose_authority",
    "evolve",
    "layout",
    "path_clash",
    "port_digits",
    "port_number",
    "recompose",
    "significant_digits",
    "trusted",
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


def significant_digits(port_text: str) -> str:
    """The digits of a non-empty ``port`` without leading zeros (``"0"`` for
    zero): the text to compare ports by, with no conversion to ``int``."""
    return port_text.lstrip("0") or "0"


def port_number(text: str) -> int | None:
    """The value of a ``port`` as written (section 3.2.3); ``None`` for the
    empty port.  Raises ``PortTooLargeError`` past ``MAX_PORT_DIGITS``
    significant digits."""
    if not text:
        return None
    digits = significant_digits(text)
    if len(digits) > MAX_PORT_DIGITS:
        msg = (
            f"port: {len(digits)} significant digits, more than MAX_PORT_DIGITS "
            f"({MAX_PORT_DIGITS}), so the port has no int value; read port_text "
            "for its digits (section 3.2.3)"
        )
        raise PortTooLargeError(msg, rule="port", text=text, secrets=userinfo_secret)
    value = 0
    for start in range(0, len(digits), _DIGIT_CHUNK):
        chunk = digits[start : start + _DIGIT_CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


_CHUNK_SCALE = 10**_DIGIT_CHUNK
_PORT_BOUND = 10**MAX_PORT_DIGITS


def port_digits(value: int) -> str:
    """The decimal digits of a port given as an ``int`` (section 3.2.3).
    Raises ``URIError`` for a negative one and ``PortTooLargeError`` past
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
    # Formatted, not joined from a list: this runs once per resolve and
    # per normalize, and most references have only some of the parts.
    text = path if authority is None else f"//{authority}{path}"
    if scheme is not None:
        text = f"{scheme}:{text}"
    if query is not None:
        text = f"{text}?{query}"
    if fragment is not None:
        text = f"{text}#{fragment}"
    return text


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


#: The slots of a reference, in order: ``Record`` slot ``i`` is field
#: ``FIELDS[i]``.  The port is not stored, only its text: converting it at
#: parse time made parse quadratic in its length.
FIELDS = (
    "scheme",
    "userinfo",
    "host",
    "path",
    "query",
    "fragment",
    "host_kind",
    "port_text",
)

if TYPE_CHECKING:
    from ..engine import Field, Record
else:
    # The C record on the native back end, the Python one otherwise: one
    # interface (engine.Record), chosen once, as the back end is.
    Record, Field = record_types()


class Components(Record):
    """The components of a URI-reference (section 4.1): the text it was
    read from and where each component lies in it (``engine.Record``).
    A field is sliced from the text when it is read, so ``parse`` makes no
    string, and ``str()`` is the text itself.  Not a sequence: no ``len``,
    indexing or iteration, since a URI is not one; ``match`` reads the
    fields by position (``__match_args__``) or by name.  It compares equal
    only to a value of its own class with the same components, and has no
    ordering.  Build one with ``trusted``, ``unchecked`` or ``evolve``; the
    checked, public way is ``URIReference``."""

    __slots__ = ()
    #: The grammar the class reads and writes: RFC 3986 here, RFC 3987 for
    #: ``IRIReference`` (``_dialect``).
    dialect: ClassVar[Dialect] = URI
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

    scheme: Field[str | None] = Field(
        0, "Section 3.1, as written (``None`` for a relative reference)."
    )
    userinfo: Field[str | None] = Field(1, "Section 3.2.1, as written.")
    host: Field[str | None] = Field(
        2,
        "Section 3.2.2, as written, brackets of an IP-literal included; "
        "``None`` without an authority.",
    )
    path: Field[str] = Field(3, "Section 3.3, as written; always a ``str``, possibly empty.")
    query: Field[str | None] = Field(4, "Section 3.4, as written.")
    fragment: Field[str | None] = Field(5, "Section 3.5, as written.")
    host_kind: Field[str | None] = Field(
        6,
        'The rule the host matched: "IPv4address", "IPv6address", "IPvFuture" '
        'or "reg-name" (section 3.2.2; "ireg-name" in an IRI, RFC 3987 section '
        "2.2); ``None`` without an authority.",
    )
    port_text: Field[str | None] = Field(
        7,
        'The port as written: ``"0080"``, ``""`` for ``http://a:/``, ``None`` '
        "when there is no ``:``.",
    )

    @property
    def port(self) -> int | None:
        """Section 3.2.3: the port's value; ``None`` when absent or empty.

        Converted from ``port_text`` on each access, so that ``parse`` stays
        linear.  Raises ``PortTooLargeError`` (a ``URIError``) for a port of
        more than ``MAX_PORT_DIGITS`` significant digits: read ``port_text``."""
        text = self.port_text
        return None if text is None else port_number(text)

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            # Equal components recompose to the same text (section 5.3), so
            # the text is compared first, and decides most comparisons.
            return bool(self._text == other._text and self._values() == other._values())
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        # Equal components make equal texts: the text's hash (which the str
        # caches) is a hash by components.
        return hash(self._text)

    def _unordered(self, other: object) -> bool:
        result: bool = NotImplemented
        return result

    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __reduce__(self) -> tuple[Any, ...]:
        # The fields were checked when the value was made: unpickling takes
        # the unchecked way, converts no port, and rebuilds the same class.
        return (trusted, (type(self), *self._values()))

    @property
    def authority(self) -> str | None:
        """``[ userinfo "@" ] host [ ":" port ]`` (section 3.2), or ``None``."""
        return compose_authority(self.userinfo, self.host, self.port_text)

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
        path = self.path
        return tuple(path.split("/")) if path else ()

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
                value = value.partition(":")[0] + ":" + HIDDEN
            shown.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"


def compose_authority(userinfo: str | None, host: str | None, port_text: str | None) -> str | None:
    """``[ userinfo "@" ] host [ ":" port ]`` (section 3.2), or ``None``
    without a host."""
    if host is None:
        return None
    text = host if userinfo is None else f"{userinfo}@{host}"
    return text if port_text is None else f"{text}:{port_text}"


#: A function of the model that returns the class it was given.
RefT = TypeVar("RefT", bound=Components)


def layout(
    scheme: str | None,
    userinfo: str | None,
    host: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
    host_kind: str | None,
    port_text: str | None,
) -> tuple[str, tuple[str, ...], tuple[int, ...]]:
    """The recomposition of the components (section 5.3) and a record's
    constants and spans over it (``engine.Record``): where each component
    lies in the text."""
    if host is None and (userinfo is not None or port_text is not None):
        msg = "userinfo and port are parts of an authority, which needs a host (section 3.2)"
        raise URIError(msg, rule="authority")
    spans = [-1] * 16
    parts: list[str] = []
    at = 0
    if scheme is not None:
        parts += (scheme, ":")
        spans[0], spans[1] = 0, len(scheme)
        at = len(scheme) + 1
    if host is not None:
        parts.append("//")
        at += 2
        if userinfo is not None:
            parts += (userinfo, "@")
            spans[2], spans[3] = at, at + len(userinfo)
            at += len(userinfo) + 1
        parts.append(host)
        spans[4], spans[5] = at, at + len(host)
        at += len(host)
        if port_text is not None:
            parts += (":", port_text)
            spans[14], spans[15] = at + 1, at + 1 + len(port_text)
            at += 1 + len(port_text)
    parts.append(path)
    spans[6], spans[7] = at, at + len(path)
    at += len(path)
    if query is not None:
        parts += ("?", query)
        spans[8], spans[9] = at + 1, at + 1 + len(query)
        at += 1 + len(query)
    if fragment is not None:
        parts += ("#", fragment)
        spans[10], spans[11] = at + 1, at + 1 + len(fragment)
    consts: tuple[str, ...] = ()
    if host_kind is not None:
        consts = (host_kind,)
        spans[12], spans[13] = -2, 0
    return "".join(parts), consts, tuple(spans)


#: Whether references are Python records, made from their values (the C
#: record is made from spans).
PYTHON_RECORDS = hasattr(Record, "_from_values")


def trusted(
    cls: type[RefT],
    scheme: str | None,
    userinfo: str | None,
    host: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
    host_kind: str | None,
    port_text: str | None,
) -> RefT:
    """A ``cls`` from components the grammar has already checked, over
    their recomposition (section 5.3).  Unpickling makes one per reference,
    so this skips the public constructor's checks.  Private to the library."""
    text, consts, spans = layout(
        scheme, userinfo, host, path, query, fragment, host_kind, port_text
    )
    if PYTHON_RECORDS:
        values = (scheme, userinfo, host, path, query, fragment, host_kind, port_text)
        return cls._from_values(text, values)
    return cls._make(text, consts, spans)


def evolve(ref: RefT, **changes: Any) -> RefT:
    """``ref`` with some fields changed, as written and unchecked (the
    library's own ``dataclasses.replace``), of ``ref``'s own class;
    ``URIReference.replace`` is the checked, public way."""
    values = dict(zip(FIELDS, ref._values(), strict=True))
    values.update(changes)
    return trusted(type(ref), **values)


_ABSENT = dict.fromkeys(FIELDS)
_ABSENT["path"] = ""


def unchecked(cls: type[RefT], **fields: Any) -> RefT:
    """A ``cls`` with the given fields (the others absent), unchecked: for
    the library's own intermediate values (section 5.2.2 builds its target
    a part at a time)."""
    return trusted(cls, **{**_ABSENT, **fields})
