"""Normalization and comparison (RFC 3986 section 6).

``normalize`` applies the syntax-based normalizations of section 6.2.2, each
a small function below named after its step, then (by default) the
scheme-based normalization of section 6.2.3 from ``SCHEME_RULES``:

* 6.2.2.1 case: the scheme and the host to lowercase
  (``lowercase_host``; IP literals too), the hex digits of every
  percent-encoding to uppercase (``uppercase_percent_encodings``);
* 6.2.2.2 percent-encoding: a percent-encoded unreserved character is
  decoded in every component (``decode_unreserved``); which characters are
  unreserved is asked of the grammar's ``unreserved`` rule, and no reserved
  character is ever decoded (``%2F`` stays ``%2F``);
* 6.2.2.3 path segments: ``remove_dot_segments`` (section 5.2.4), for every
  path that resolution itself would pass to it, that is every path but
  that of a relative-path reference (whose leading ``..`` segments depend
  on the base it will be resolved against, section 5.2.1);
* 6.2.3 scheme-based (``Normalization.scheme_based``): an empty port is
  dropped for every scheme (section 3.2.3 advises it), a port written with
  leading zeros loses them, and for a scheme in the registry the default
  port is dropped and an empty path under an authority becomes ``/``.

Empty components are kept: ``http://a/?`` keeps its empty query, since no
scheme in the registry licenses dropping it (section 6.2.3).  With
``Normalization.ipv6_canonical`` an IPv6 host takes the RFC 5952 text form.

Which of the optional steps run is one value, ``Normalization``
(``_normalization``, with the scheme rules); the public functions also
take its fields as keywords and turn them into one at once
(``options_from``), so the defaults are written only in it.

``equivalent`` compares normalized forms; ``==`` compares components
exactly.

The functions work on ``Components``; a string is parsed into the class
passed as ``cls``, and the normal form has the class of its input (the
public wrappers in ``_reference`` pass ``URIReference``).
"""

from __future__ import annotations

import ipaddress
import re
import string
import unicodedata
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ..engine import NormalizeUri

from ..engine import KeySteps, TextReading
from ..engine import text_key as text_key_in_c
from ..engine import text_normalizer as text_normalizer_in_c
from ._api import TEXT, Api, default_api, normalizer, parse_as, validate
from ._components import (
    FIELDS,
    Components,
    RefT,
    compose_authority,
    evolve,
    port_number,
    recompose,
    significant_digits,
)
from ._dialect import Dialect
from ._encode import admitted, decode_where, encode_except
from ._normalization import (
    DEFAULT,
    NO_FLAGS,
    NO_RULE,
    SCHEME_RULES,
    FrozenRules,
    Normalization,
    SchemeRule,
    options_from,
)
from ._resolve import as_reference, remove_dot_segments, same_class, unambiguous_path

__all__ = [
    "ORIGIN_SCHEMES",
    "KeySteps",
    "Origin",
    "c_rules",
    "canonical_ipv6",
    "decode_unreserved",
    "equivalent",
    "front_table",
    "lowercase_host",
    "normalize",
    "normalize_by_scheme",
    "origin",
    "port_or_default",
    "text_key",
    "text_normalizer",
    "uppercase_percent_encodings",
]


# Section 2.1: pct-encoded = "%" HEXDIG HEXDIG (HEXDIG admits "a"-"f" too,
# RFC 5234 section 2.3).
_PERCENT_ENCODED = re.compile(r"%([0-9A-Fa-f]{2})")


@cache
def _unreserved() -> frozenset[str]:
    """The characters of the ``unreserved`` rule, asked of the grammar."""
    return frozenset(c for c in map(chr, range(128)) if validate("unreserved", c))


def uppercase_percent_encodings(text: str) -> str:
    """Section 6.2.2.1: ``%3a`` becomes ``%3A``."""
    if "%" not in text:
        return text
    return _PERCENT_ENCODED.sub(lambda m: m.group().upper(), text)


def decode_unreserved(text: str) -> str:
    """Section 6.2.2.2: ``%7E`` becomes ``~``; an encoded reserved or
    non-ASCII octet is left as it is."""
    if "%" not in text:
        return text
    unreserved = _unreserved()

    def decoded(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in unreserved else match.group()

    return _PERCENT_ENCODED.sub(decoded, text)


def _percent_normalized(text: str | None) -> str | None:
    if text is None or "%" not in text:
        return text
    return uppercase_percent_encodings(decode_unreserved(text))


def _composed(text: str) -> str:
    """``text`` in NFC between its percent-encodings: the hex digit of a
    ``%3A`` is no letter, and must not compose with a combining mark after
    it (``%3A`` + U+0301 would become ``%3`` and an accented ``Á``)."""
    parts = _PERCENT_ENCODED_SPLIT.split(text)
    return "".join(
        part if index % 2 else unicodedata.normalize("NFC", part)
        for index, part in enumerate(parts)
    )


_PERCENT_ENCODED_SPLIT = re.compile(r"(%[0-9A-Fa-f]{2})")


# A-Z to a-z and nothing else: str.lower() would also change non-ASCII
# letters, which RFC 3987 section 5.3.2.1 leaves alone.
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def lowercase_host(host: str) -> str:
    """Section 6.2.2.1 (and 3.2.2): the host's ASCII letters in lowercase,
    its percent-encodings in uppercase.  Applies to every kind of host; in
    an IRI, non-ASCII letters keep their case (RFC 3987 section 5.3.2.1:
    only US-ASCII is case-insensitive there)."""
    lowered = host.lower() if host.isascii() else host.translate(_ASCII_LOWER)
    return uppercase_percent_encodings(lowered)


@cache
def _reserved() -> frozenset[str]:
    """The characters of the ``reserved`` rule, asked of the grammar."""
    return frozenset(c for c in map(chr, range(128)) if validate("reserved", c))


def decode_admitted(text: str, rule: str) -> str:
    """RFC 3987 section 5.3.2.3 for an IRI component: each percent-encoded
    UTF-8 sequence that spells a character ``rule`` admits unencoded and
    that is not reserved is decoded (``%C3%A4`` -> ``ä`` in a path, ``%7E``
    -> ``~``); reserved characters, characters the component's rule does
    not admit (``iprivate`` outside ``iquery``), bidi formatting characters
    and octets that are not UTF-8 stay encoded, in uppercase."""
    return decode_where(text, _decodable(rule).__contains__)


@cache
def _decodable(rule: str) -> AbstractSet[str]:
    return admitted(rule) - _reserved()


def canonical_ipv6(host: str) -> str:
    """RFC 5952 section 4 text form of a bracketed IPv6 literal: lowercase,
    no leading zeros, the longest (first) run of two or more zero fields as
    ``::``; an IPv4-mapped address keeps its dotted quad (RFC 5952 section 5)."""
    address = ipaddress.IPv6Address(host[1:-1])
    if address.ipv4_mapped is not None:
        return f"[::ffff:{address.ipv4_mapped}]"
    return f"[{address.compressed}]"


def normalize_by_scheme(ref: RefT, schemes: Mapping[str, SchemeRule] | None = None) -> RefT:
    """Section 6.2.3 (and 3.2.3) on a reference whose scheme is already
    lowercase: drop an empty port or the scheme's default port, write the
    port without leading zeros, and give an empty path under an authority
    ``/`` when the scheme's rule says so."""
    port_text, path = _by_scheme(ref.scheme, ref.host, ref.port_text, ref.path, schemes)
    if port_text == ref.port_text and path == ref.path:
        return ref
    return evolve(ref, port_text=port_text, path=path)


def _by_scheme(
    scheme: str | None,
    host: str | None,
    port_text: str | None,
    path: str,
    schemes: Mapping[str, SchemeRule] | None,
) -> tuple[str | None, str]:
    """``normalize_by_scheme`` on the components it changes: the port
    and the path."""
    rules = SCHEME_RULES if schemes is None else schemes
    rule = rules.get(scheme or "", NO_RULE)
    if port_text is not None:
        # Compared as digit strings: a port may have millions of digits, and
        # converting those to int is quadratic (and refused past 4300).
        digits = significant_digits(port_text) if port_text else ""
        default = None if rule.default_port is None else str(rule.default_port)
        port_text = None if not digits or digits == default else digits
    if host is not None and not path and rule.empty_path_is_root:
        path = "/"
    return port_text, path


def normalize(
    ref: RefT | str,
    options: Normalization | None = None,
    *,
    cls: type[RefT],
    flags: Mapping[str, Any] = NO_FLAGS,
    caller: str = "normalize",
) -> RefT:
    """The normal form of ``ref`` (section 6.2.2, then 6.2.3 unless
    ``options.scheme_based`` is false); see the module docstring for each
    step and ``Normalization`` for the options (the defaults when
    ``None``).  Idempotent: ``normalize(normalize(r)) == normalize(r)``.  A
    string is parsed into ``cls``; the result has the class of ``ref``.
    For an IRI (RFC 3987 section 5.3.2), percent-encodings of characters
    the component admits are decoded, and ``options.nfc`` puts the decoded
    text in Unicode Normalization Form C (section 5.3.2.2), which is
    otherwise left as is.  ``flags``, keywords a public function
    ``caller`` was given, replace fields of ``options`` (``options_from``)."""
    options = options_from(options, flags, caller)
    r = as_reference(ref, cls)
    # Decoding can change which rule the host matches (section 3.2.2:
    # "%31.2.3.4" is a reg-name, "1.2.3.4" an IPv4address), so the
    # reference is read again from the grammar rather than carried over.
    return parse_as(type(r), native_text(r, options, normalizer()) or normal_text(r, options))


#: The default ports the C normalization reads (a C long on every platform).
_C_LONG = 2**31

#: The slots of a reference's record that hold its scheme, userinfo, host,
#: port, path, query and fragment, as the C normalization takes them.
_SLOTS = tuple(
    FIELDS.index(field)
    for field in ("scheme", "userinfo", "host", "port_text", "path", "query", "fragment")
)


@cache
def _decoded_octets() -> bytes:
    """For each ASCII octet, whether a percent-encoding of it is decoded
    (section 6.2.2.2: the ``unreserved`` characters, asked of the grammar)."""
    unreserved = _unreserved()
    return bytes(chr(octet) in unreserved for octet in range(128))


def native_text(
    r: Components, options: Normalization, normalize_uri: NormalizeUri | None
) -> str | None:
    """``normal_text`` by ``normalize_uri`` (a back end's C normalization,
    or ``None`` on the pure one), for a URI whose record the native back
    end made and whose text is ASCII; ``None`` where Python must do it."""
    if normalize_uri is None or r.dialect.word != "URI":
        return None
    if options.ipv6_canonical and r.host_kind == "IPv6address":
        return None  # RFC 5952's form: ipaddress writes it
    rule = NO_RULE
    if options.scheme_based:
        rules = SCHEME_RULES if options.schemes is None else options.schemes
        rule = rules.get((r.scheme or "").lower(), NO_RULE)
        port = rule.default_port
        if port is not None and not (type(port) is int and 0 <= port < _C_LONG):
            return None  # a default port C does not read: Python compares its digits
    return normalize_uri(
        r,
        _SLOTS,
        _decoded_octets(),
        rule.default_port,
        rule.empty_path_is_root,
        options.scheme_based,
    )


def c_rules(options: Normalization) -> dict[str, SchemeRule] | None:
    """The scheme rules C reads for ``options``: ``SCHEME_RULES`` itself
    when it names none (so additions to it take effect, as in Python), a
    copy of a read-only mapping, or ``None`` for a mapping of another kind,
    which Python reads its own way."""
    if options.schemes is None:
        return SCHEME_RULES
    if isinstance(options.schemes, FrozenRules):
        return dict(options.schemes)
    return None


def _text_reading(
    cls: type[Components], options: Normalization, functions: Api
) -> TextReading | None:
    """What C reads a text into ``cls`` with under ``options``, or ``None``
    where it cannot: an IRI class, options C does not read, the pure back
    end."""
    parse = functions.c_parse(cls)
    rules = c_rules(options)
    if parse is None or rules is None or cls.dialect.word != "URI":
        return None
    return TextReading(
        parse,
        bytes(_SLOTS),
        _decoded_octets(),
        rules,
        rule_type=SchemeRule,
        scheme_based=options.scheme_based,
        ipv6_canonical=options.ipv6_canonical,
    )


def text_normalizer(
    cls: type[RefT], options: Normalization | None = None, functions: Api | None = None
) -> Callable[[str], RefT | None] | None:
    """``normalize(text, options, cls=cls)`` for a text, in C: the record
    of its normal form, or ``None`` where Python must answer (a text that
    is no URI-reference; see ``engine.text_normalizer``).  ``None`` itself
    on the pure back end, for an IRI class, for a class of Python records,
    and for options C does not read.  ``functions``: the back end's (the
    default one's when ``None``)."""
    functions = functions or default_api()
    reading = _text_reading(cls, options or DEFAULT, functions)
    return None if reading is None else text_normalizer_in_c(functions.backend, reading)


def front_table(cls: type[RefT]) -> dict[str, Callable[[str], RefT | None]]:
    """The table of ``normalize``'s C front (``Api.text_front``): the C
    normalizer of a text into ``cls`` under the default options, or
    nothing where there is none."""
    made = text_normalizer(cls)
    return {} if made is None else {TEXT: made}


def text_key(
    cls: type[Components], options: Normalization, steps: KeySteps, functions: Api | None = None
) -> Callable[[str], str | None] | None:
    """``text_normalizer``'s function for a key (``urigrammar.canonicalize``):
    the text of a text's normal form, then ``steps``; ``None`` where
    Python must answer.  ``None`` itself where ``text_normalizer`` is."""
    functions = functions or default_api()
    reading = _text_reading(cls, options, functions)
    return None if reading is None else text_key_in_c(functions.backend, reading, steps)


def normal_text(r: Components, options: Normalization) -> str:
    """The text of ``r``'s normal form under ``options``, in Python: the
    pure back end's way, and any text C leaves to it."""
    dialect = r.dialect
    if dialect.word == "URI":
        percent: Callable[[str | None, str], str | None] = _uri_percent
    else:
        percent = _iri_percent(dialect, options.nfc)
    host = r.host
    if host is not None:
        if r.host_kind == dialect.rule("reg-name"):
            host = percent(host, "reg-name") or ""
        host = lowercase_host(decode_unreserved(host))
        if options.ipv6_canonical and r.host_kind == "IPv6address":
            host = canonical_ipv6(host)
    if options.nfc and dialect.word != "URI":
        # NFC's triplets are written per segment: "/" is no isegment's.
        path = "/".join(percent(segment, "segment") or "" for segment in r.path.split("/"))
    else:
        # Decoding never makes a "/" (it is reserved): the path at once.
        path = percent(r.path, "segment") or ""
    scheme = r.scheme
    if scheme is not None:
        scheme = scheme.lower()
        path = remove_dot_segments(path)
    elif path.startswith("/"):
        path = remove_dot_segments(path)
    port_text = r.port_text
    if options.scheme_based:
        port_text, path = _by_scheme(scheme, host, port_text, path, options.schemes)
    path = unambiguous_path(path, has_authority=host is not None, has_scheme=scheme is not None)
    authority = compose_authority(percent(r.userinfo, "userinfo"), host, port_text)
    query = percent(r.query, "query")
    return recompose(scheme, authority, path, query, percent(r.fragment, "fragment"))


def _uri_percent(text: str | None, _part: str) -> str | None:
    """A URI component's percent-encodings normalized (section 6.2.2)."""
    return _percent_normalized(text)


def _iri_percent(dialect: Dialect, nfc: bool) -> Callable[[str | None, str], str | None]:
    """An IRI component's percent-encodings of characters it admits
    decoded, the rest normalized (RFC 3987 section 5.3.2.3), then in NFC
    when ``nfc`` (section 5.3.2.2): ``(text, the part's rule) -> text``."""

    def percent(text: str | None, part: str) -> str | None:
        if text is None or (not nfc and "%" not in text):
            return text
        rule = dialect.rule(part)
        decoded = decode_admitted(text, rule)
        # RFC 3987 section 5.3.2.2: NFC only when asked for.
        if not nfc:
            return decoded
        composed = _composed(decoded)
        if composed == decoded:
            return composed
        # NFC can turn a character the component admits into one it does
        # not (U+1FEF GREEK VARIA into "`"): that one is percent-encoded,
        # as an IRI writes it.
        return encode_except(composed, admitted(rule), keep_escapes=True)

    return percent


def equivalent(
    a: RefT | str,
    b: RefT | str,
    options: Normalization | None = None,
    *,
    cls: type[RefT],
    flags: Mapping[str, Any] = NO_FLAGS,
    caller: str = "equivalent",
) -> bool:
    """Whether ``a`` and ``b`` have the same normal form under ``options``
    (section 6.1), with ``flags`` as ``normalize`` takes them; strings are
    parsed into ``cls`` first.  A URI and an IRI are compared as IRIs (RFC
    3987 section 5.3), so ``http://ex.com/%C3%A4`` is equivalent to
    ``http://ex.com/ä``."""
    options = options_from(options, flags, caller)
    x, y = same_class(as_reference(a, cls), as_reference(b, cls))
    return normalize(x, options, cls=cls) == normalize(y, options, cls=cls)


def port_or_default(r: Components, schemes: Mapping[str, SchemeRule] | None = None) -> int | None:
    """The port (section 3.2.3), or when it is absent or empty the default
    port of the scheme (compared without regard to case, section 3.1) in
    ``schemes`` (``SCHEME_RULES`` by default); ``None`` when neither."""
    if r.port_text:
        return port_number(r.port_text)
    rules = SCHEME_RULES if schemes is None else schemes
    rule = rules.get((r.scheme or "").lower())
    return None if rule is None else rule.default_port


#: The schemes whose URIs have a tuple origin here (RFC 6454 section 4
#: leaves the list to each scheme; these are the web's).
ORIGIN_SCHEMES = frozenset({"http", "https", "ws", "wss"})


class Origin(NamedTuple):
    """RFC 6454 section 4: the scheme and host in lowercase, and the port
    or the scheme's default.  ``str()`` is the ASCII serialization of
    section 6.2, with the port left out when it is the default.

    >>> import urigrammar
    >>> origin = urigrammar.parse("https://Example.com:443/a").origin
    >>> origin, str(origin)
    (Origin(scheme='https', host='example.com', port=443), 'https://example.com')
    """

    scheme: str
    host: str
    port: int | None

    def __str__(self) -> str:
        rule = SCHEME_RULES.get(self.scheme)
        default = None if rule is None else rule.default_port
        if self.port is None or self.port == default:
            return f"{self.scheme}://{self.host}"
        return f"{self.scheme}://{self.host}:{self.port}"


def origin(r: Components) -> Origin | None:
    """The origin of ``ref`` (RFC 6454 section 4) when its scheme is in
    ``ORIGIN_SCHEMES`` and it has a host; ``None`` otherwise, which stands
    for an opaque origin: RFC 6454 gives such a URI a fresh, globally unique
    identifier, equal to no other origin, so ``None`` must never be compared
    as equal.  The host is normalized as ``normalize`` does it (section
    6.2.2), so equivalent URIs have equal origins; it keeps the brackets of
    an IP-literal, as the serialization needs them."""
    scheme = (r.scheme or "").lower()
    if scheme not in ORIGIN_SCHEMES or r.host is None:
        return None
    host = lowercase_host(decode_unreserved(r.host))
    return Origin(scheme, host, port_or_default(r))
