"""Building references from parts, changing parts, query pairs and
internationalized hosts.

``build`` takes each part as data, any Unicode text, and percent-encodes it
for its rule (``_encode``); ``replace`` takes parts as they are to appear in
the URI.  Both end in ``_assemble``, which checks each part against its rule
and the combination against sections 3 and 4.2, with an error that names the
part, then returns ``parse`` of the recomposed text (section 5.3): the
result's ``host_kind`` and ``port_text`` come from the grammar, as for any
parsed reference.

Choices the RFC leaves open, made here:

* ``build`` keeps the scheme and a reg-name's case as given; lowercasing is
  normalization (section 6.2.2.1), not building.
* The first segment of a relative path (no scheme, no authority) is encoded
  for ``segment-nz-nc``, the rule ``path-noscheme`` uses for it (section
  4.2), so a ``:`` there becomes ``%3A`` and cannot read as a scheme
  delimiter; ``replace``, which encodes nothing, refuses such a path.
* Hosts: an ``ipaddress`` object, or a ``str`` that ``ipaddress`` reads as
  an address, becomes an IPv4address or a bracketed IP-literal; a ``str`` in
  brackets must be an IP-literal; anything else is a reg-name, percent-
  encoded as UTF-8 (section 3.2.2), or with ``idna=True`` and any non-ASCII
  character in it, converted to A-labels by the ``idna`` package (UTS 46
  processing).  An all-ASCII name stays a plain reg-name even then, since
  IDNA refuses names such as ``my_host`` that are fine reg-names.  IPv6 zone
  identifiers (``fe80::1%eth0``) are refused: RFC 3986 has no syntax for
  them.
* Query pairs are split on ``&`` and then on the first ``=``; empty pieces
  (``a=1&&b=2``) are skipped and a piece without ``=`` has the value ``""``.
  ``with_query_pairs`` encodes ``&``, ``=`` and ``+`` inside names and
  values, and writes no query at all for no pairs.
"""

from __future__ import annotations

import enum
import ipaddress
from collections.abc import Iterable, Mapping
from typing import TypeVar

from .._errors import URIError, URISyntaxError
from ._api import check, parse
from ._encode import (
    admitted,
    check_errors,
    encode_except,
    encode_path,
    percent_decode,
    percent_encode,
)
from ._reference import URIReference, path_clash, port_digits, recompose

__all__ = [
    "Host",
    "add_param",
    "build",
    "decoded_segments",
    "from_parts",
    "get_param",
    "get_params",
    "host_unicode",
    "hostname",
    "joinpath",
    "password",
    "query_pairs",
    "remove_param",
    "replace",
    "set_param",
    "user",
    "with_path_segments",
    "with_query_pairs",
]

#: What ``build`` and ``replace`` take as a host.
Host = str | ipaddress.IPv4Address | ipaddress.IPv6Address
#: What ``build`` and ``replace`` take as a port: digits, as an int or a str.
Port = int | str

_T = TypeVar("_T")

# The delimiters of the name=value&... convention inside a query; "+" is a
# space in application/x-www-form-urlencoded, so it is encoded as data too.
_PAIR_DELIMITERS = frozenset("&=+")


class _Keep(enum.Enum):
    KEEP = enum.auto()


_KEEP = _Keep.KEEP


def _str_part(part: str, value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    msg = f"{part} must be str or None, not {type(value).__name__}"
    raise TypeError(msg)


def _in_part(part: str, exc: URIError) -> URIError:
    """``exc`` again, its message saying which part it is about."""
    return type(exc)(f"{part}: {exc.message}", rule=exc.rule, text=exc.text, offset=exc.offset)


def _check(part: str, text: str | None, rule: str) -> None:
    if text is None:
        return
    try:
        check(rule, text)
    except URISyntaxError as exc:
        raise _in_part(part, exc) from None


# What each clash of path_clash means, for the error message.
_CLASHES = {
    "path-abempty": "with an authority the path must be empty or begin with '/' (section 3.3)",
    "path-absolute": (
        "without an authority the path cannot begin with '//', "
        "which would read as an authority (section 3.3)"
    ),
    "path-noscheme": (
        "in a relative reference the first segment cannot contain ':', "
        "which would read as a scheme delimiter (section 4.2); "
        "write './' before it or encode ':' as '%3A'"
    ),
}


def _assemble(
    *,
    scheme: str | None,
    userinfo: str | None,
    host: str | None,
    port_text: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
) -> URIReference:
    """The reference with these parts, each as it appears in the URI, once
    each part matches its rule and they fit together (sections 3, 4.2)."""
    for part, text, rule in (
        ("scheme", scheme, "scheme"),
        ("userinfo", userinfo, "userinfo"),
        ("host", host, "host"),
        ("port", port_text, "port"),
        ("path", path, "path"),
        ("query", query, "query"),
        ("fragment", fragment, "fragment"),
    ):
        _check(part, _str_part(part, text), rule)
    if path is None:
        msg = "path must be str, not None (the empty path is '')"
        raise TypeError(msg)
    if host is None:
        for part, text in (("userinfo", userinfo), ("port", port_text)):
            if text is not None:
                msg = f"{part}: a {part} needs a host to go with it (section 3.2)"
                raise URIError(msg, rule="authority", text=text)
    clash = path_clash(path, has_authority=host is not None, has_scheme=scheme is not None)
    if clash is not None:
        rule, offset = clash
        raise URIError(f"path: {_CLASHES[rule]}", rule=rule, text=path, offset=offset)
    authority = None
    if host is not None:
        authority = host if userinfo is None else f"{userinfo}@{host}"
        if port_text is not None:
            authority = f"{authority}:{port_text}"
    # Read back through the grammar, which gives host_kind and port_text.
    return parse(recompose(scheme, authority, path, query, fragment))


def _port(port: object) -> str | None:
    if port is None or isinstance(port, str):
        return port
    if isinstance(port, int) and not isinstance(port, bool):
        return port_digits(port)
    msg = f"port must be int, str or None, not {type(port).__name__}"
    raise TypeError(msg)


def _ipv6(address: ipaddress.IPv6Address, text: str) -> str:
    if address.scope_id is not None:
        msg = (
            f"host: {text!r} has an IPv6 zone identifier, "
            "for which RFC 3986 has no syntax (section 3.2.2)"
        )
        raise URIError(msg, rule="IP-literal", text=text)
    return f"[{text}]"


def _address(host: object) -> str | None:
    """The host text of an IP address given as an object or as a string
    ``ipaddress`` reads; ``None`` for anything else."""
    if isinstance(host, ipaddress.IPv4Address):
        return str(host)
    if isinstance(host, ipaddress.IPv6Address):
        return _ipv6(host, str(host))
    if not isinstance(host, str):
        msg = f"host must be str, an ipaddress address or None, not {type(host).__name__}"
        raise TypeError(msg)
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        return _ipv6(address, host)
    return host


def _reg_name(host: str, *, idna: bool) -> str:
    if idna and not host.isascii():
        import idna as idna_codec  # only a non-ASCII host with idna=True loads its tables

        try:
            return idna_codec.encode(host, uts46=True).decode("ascii")
        except idna_codec.IDNAError as exc:
            msg = f"host: {host!r} is not an internationalized domain name: {exc}"
            raise URIError(msg, rule="reg-name", text=host) from None
    return _encoded_text("host", host, "reg-name")


def _raw_host(host: Host) -> str:
    address = _address(host)
    if address is not None:
        return address
    assert isinstance(host, str)
    return host


def _host(host: Host | None, *, idna: bool) -> str | None:
    if host is None:
        return None
    address = _address(host)
    if address is not None:
        return address
    assert isinstance(host, str)
    if host.startswith("[") and host.endswith("]"):
        _check("host", host, "IP-literal")
        return host
    return _reg_name(host, idna=idna)


def _encoded_text(part: str, text: str, rule: str) -> str:
    try:
        return percent_encode(text, rule)
    except URIError as exc:
        raise _in_part(part, exc) from None


def _encoded(part: str, text: object, rule: str) -> str | None:
    value = _str_part(part, text)
    return None if value is None else _encoded_text(part, value, rule)


def _encoded_path(path: object, *, relative: bool) -> str:
    text = _str_part("path", path)
    if text is None:
        msg = "path must be str, not None (the empty path is '')"
        raise TypeError(msg)
    try:
        return encode_path(text, relative=relative)
    except URIError as exc:
        raise _in_part("path", exc) from None


def build(
    *,
    scheme: str | None = None,
    userinfo: str | None = None,
    host: Host | None = None,
    port: Port | None = None,
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
    naming the part, for a combination RFC 3986 cannot express.  See the
    module docstring for hosts and ``idna``.
    """
    scheme = _str_part("scheme", scheme)
    host_text = _host(host, idna=idna)
    return _assemble(
        scheme=scheme,
        userinfo=_encoded("userinfo", userinfo, "userinfo"),
        host=host_text,
        port_text=_port(port),
        path=_encoded_path(path, relative=scheme is None and host_text is None),
        query=_encoded("query", query, "query"),
        fragment=_encoded("fragment", fragment, "fragment"),
    )


def _pick(new: _T | _Keep, old: _T) -> _T:
    return old if isinstance(new, _Keep) else new


def replace(
    ref: URIReference,
    *,
    scheme: str | _Keep | None = _KEEP,
    userinfo: str | _Keep | None = _KEEP,
    host: Host | _Keep | None = _KEEP,
    port: Port | _Keep | None = _KEEP,
    path: str | _Keep = _KEEP,
    query: str | _Keep | None = _KEEP,
    fragment: str | _Keep | None = _KEEP,
) -> URIReference:
    """A new reference: ``ref`` with the given parts, written as they are to
    appear in the URI (nothing is encoded); ``None`` removes a part.  An IP
    address, as an object or a ``str`` that ``ipaddress`` reads, is written
    as ``build`` writes it (``"::1"`` -> ``[::1]``); any other ``str`` host
    must match ``host``.  Raises ``URIError`` naming the part, as ``build``
    does."""
    host_text = ref.host
    if not isinstance(host, _Keep):
        host_text = None if host is None else _raw_host(host)
    return _assemble(
        scheme=_pick(scheme, ref.scheme),
        userinfo=_pick(userinfo, ref.userinfo),
        host=host_text,
        port_text=ref.port_text if isinstance(port, _Keep) else _port(port),
        path=_pick(path, ref.path),
        query=_pick(query, ref.query),
        fragment=_pick(fragment, ref.fragment),
    )


def from_parts(
    *,
    scheme: str | None = None,
    userinfo: str | None = None,
    host: Host | None = None,
    port: Port | None = None,
    path: str = "",
    query: str | None = None,
    fragment: str | None = None,
) -> URIReference:
    """The public ``URIReference(...)`` constructor: ``replace`` on the empty
    reference, so the two check parts in the same way."""
    return _assemble(
        scheme=scheme,
        userinfo=userinfo,
        host=None if host is None else _raw_host(host),
        port_text=_port(port),
        path=path,
        query=query,
        fragment=fragment,
    )


def _decoded(query: str, start: int, text: str, *, form: bool, errors: str) -> str:
    if form:
        text = text.replace("+", " ")
    try:
        return percent_decode(text, errors=errors)
    except URIError as exc:
        offset = None if exc.offset is None else start + exc.offset
        raise URIError(f"query: {exc.message}", rule="query", text=query, offset=offset) from None


def query_pairs(
    ref: URIReference, *, form: bool = False, errors: str = "strict"
) -> list[tuple[str, str]]:
    """The query's ``name=value`` pairs, percent-decoded, in order and with
    repeats.  Pieces are split on ``&`` and then on the first ``=``; empty
    pieces are skipped and a piece without ``=`` has the value ``""``.
    ``form=True`` also reads ``+`` as a space (application/x-www-form-
    urlencoded); ``errors`` is ``percent_decode``'s, checked up front."""
    check_errors(errors, decoding=True)
    query = ref.query
    if query is None:
        return []
    pairs: list[tuple[str, str]] = []
    start = 0
    for piece in query.split("&"):
        if piece:
            name, _, value = piece.partition("=")
            pairs.append(
                (
                    _decoded(query, start, name, form=form, errors=errors),
                    _decoded(query, start + len(name) + 1, value, form=form, errors=errors),
                )
            )
        start += len(piece) + 1
    return pairs


def _encoded_pair_item(text: object, *, form: bool) -> str:
    if not isinstance(text, str):
        msg = f"query pair names and values must be str, not {type(text).__name__}"
        raise TypeError(msg)
    keep = admitted("query") - _PAIR_DELIMITERS
    try:
        if form:
            return "+".join(encode_except(word, keep) for word in text.split(" "))
        return encode_except(text, keep)
    except URIError as exc:
        raise _in_part("query", exc) from None


def _pairs(pairs: object) -> list[tuple[object, object]]:
    """``pairs`` as a list of 2-tuples, or ``TypeError``: a string is an
    iterable of 2-character strings, which unpack as pairs by accident."""
    if isinstance(pairs, Mapping):
        return list(pairs.items())
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable):
        msg = f"pairs must be a mapping or an iterable of pairs, not {type(pairs).__name__}"
        raise TypeError(msg)
    found: list[tuple[object, object]] = []
    for item in pairs:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            shown = type(item).__name__ if isinstance(item, (tuple, list)) else repr(item)[:40]
            msg = f"each query pair must be a (name, value) tuple or list of 2 items, not {shown}"
            if isinstance(item, (tuple, list)):
                msg += f" of {len(item)} items"
            raise TypeError(msg)
        found.append((item[0], item[1]))
    return found


def with_query_pairs(
    ref: URIReference,
    pairs: Mapping[str, str] | Iterable[tuple[str, str]],
    *,
    form: bool = False,
) -> URIReference:
    """``ref`` with its query made of ``pairs`` (a mapping or ``(name,
    value)`` pairs), each name and value percent-encoded so that ``&``,
    ``=``, ``+`` and ``#`` in them come back from ``query_pairs``; no pairs
    means no query.  ``form=True`` writes spaces as ``+``.  Anything but a
    mapping or pairs (2-item tuples or lists), a string above all, raises
    ``TypeError``."""
    pieces = [
        f"{_encoded_pair_item(name, form=form)}={_encoded_pair_item(value, form=form)}"
        for name, value in _pairs(pairs)
    ]
    return replace(ref, query="&".join(pieces) if pieces else None)


def host_unicode(ref: URIReference) -> str | None:
    """The host as Unicode text: a reg-name percent-decoded as UTF-8, then
    each ``xn--`` label decoded from its IDNA A-label; an IP literal or
    IPv4 address as it is.  Raises ``URIError`` when the escapes are not
    UTF-8 or an ``xn--`` label is no valid A-label."""
    host = ref.host
    if host is None or host.startswith("["):
        return host
    try:
        text = percent_decode(host)
    except URIError as exc:
        raise _in_part("host", exc) from None
    labels = text.split(".")
    if not any(_is_a_label(label) for label in labels):
        return text
    return ".".join(_u_label(label, host) if _is_a_label(label) else label for label in labels)


def _is_a_label(label: str) -> bool:
    return label[:4].lower() == "xn--"


def _u_label(label: str, host: str) -> str:
    import idna as idna_codec

    try:
        return idna_codec.decode(label)
    except idna_codec.IDNAError as exc:
        msg = f"host: {label!r} is not a valid IDNA A-label: {exc}"
        raise URIError(msg, rule="reg-name", text=host) from None


# --- Paths from decoded segments (section 3.3) ---------------------------------


def _segment_list(segments: object, what: str) -> list[str]:
    if isinstance(segments, (str, bytes)) or not isinstance(segments, Iterable):
        msg = f"{what} must be an iterable of str segments, not {type(segments).__name__}"
        raise TypeError(msg)
    found = list(segments)
    for segment in found:
        if not isinstance(segment, str):
            msg = f"each path segment must be str, not {type(segment).__name__}"
            raise TypeError(msg)
    return found


def _joined(ref: URIReference, segments: list[str], *, first: int) -> str:
    """The path of ``segments``, those from index ``first`` on encoded as
    data: ``/`` in them becomes ``%2F``; the first segment of a relative
    reference also gets ``:`` encoded (section 4.2)."""
    relative = ref.scheme is None and ref.host is None
    out = segments[:first]
    for index in range(first, len(segments)):
        rule = "segment-nz-nc" if relative and index == 0 else "segment"
        out.append(_encoded_text("path", segments[index], rule))
    return "/".join(out)


def with_path_segments(ref: URIReference, segments: Iterable[str]) -> URIReference:
    """``ref`` with its path made of ``segments``, each decoded text that is
    percent-encoded for ``segment`` (so ``/`` in one becomes ``%2F``).  The
    convention is ``path_segments``'s: a leading ``""`` makes the path
    absolute, a trailing ``""`` a trailing slash, no segments the empty
    path; under an authority the path must be absolute or empty (section
    3.3), or ``URIError``.  ``.`` and ``..`` keep their meaning as
    dot-segments (section 3.3): no encoding can make them data, since
    ``%2E`` is unreserved and normalizes to ``.``."""
    found = _segment_list(segments, "segments")
    return replace(ref, path=_joined(ref, found, first=0))


def joinpath(ref: URIReference, *segments: str) -> URIReference:
    """``ref`` with ``segments`` appended to its path, each decoded text
    encoded as ``with_path_segments`` encodes it: ``/api`` and ``/api/``
    joined with ``v1`` both give ``/api/v1``, an empty path under an
    authority gives ``/v1``, and an empty segment adds a trailing slash.
    The query and fragment stay.  Unlike ``resolve`` (section 5.2), which
    replaces the last segment of a path without a trailing slash, this
    always appends."""
    added = _segment_list(segments, "segments")
    if not added:
        return ref
    kept = list(ref.path_segments)
    if kept and kept[-1] == "":
        kept.pop()  # a trailing slash: the new segment takes its place
    if not kept and ref.host is not None:
        kept = [""]  # section 3.3: a path under an authority starts with "/"
    return replace(ref, path=_joined(ref, kept + added, first=len(kept)))


def decoded_segments(ref: URIReference, *, errors: str = "strict") -> tuple[str, ...]:
    """``ref.path_segments``, each percent-decoded (``errors`` is
    ``percent_decode``'s)."""
    check_errors(errors, decoding=True)
    segments: list[str] = []
    for segment in ref.path_segments:
        try:
            segments.append(percent_decode(segment, errors=errors))
        except URIError as exc:
            raise _in_part("path", exc) from None
    return tuple(segments)


# --- One query parameter (section 3.4, the name=value&... convention) ---------


def _name_of(piece: str, *, form: bool) -> str:
    # Decoded only to compare: octets that are not UTF-8 cannot equal a
    # str name, and must not raise when another name is asked for.
    name = piece.partition("=")[0]
    if form:
        name = name.replace("+", " ")
    return percent_decode(name, errors="surrogateescape")


def _name(name: object) -> str:
    if not isinstance(name, str):
        msg = f"a query parameter name must be str, not {type(name).__name__}"
        raise TypeError(msg)
    return name


def _pieces(ref: URIReference) -> list[str]:
    return [] if ref.query is None else ref.query.split("&")


def get_params(
    ref: URIReference, name: str, *, form: bool = False, errors: str = "strict"
) -> list[str]:
    """Every value of the query parameter ``name``, decoded, in order (a
    piece without ``=`` has the value ``""``), as ``query_pairs`` reads
    them.  Only those values are decoded under ``errors``: another piece
    that is not UTF-8 does not get in the way."""
    name = _name(name)
    check_errors(errors, decoding=True)
    query = ref.query or ""
    values: list[str] = []
    start = 0
    for piece in _pieces(ref):
        if piece and _name_of(piece, form=form) == name:
            key, _, value = piece.partition("=")
            at = start + len(key) + 1
            values.append(_decoded(query, at, value, form=form, errors=errors))
        start += len(piece) + 1
    return values


def get_param(
    ref: URIReference,
    name: str,
    default: str | None = None,
    *,
    form: bool = False,
    errors: str = "strict",
) -> str | None:
    """The first value of the query parameter ``name``, or ``default``."""
    values = get_params(ref, name, form=form, errors=errors)
    return values[0] if values else default


def add_param(ref: URIReference, name: str, value: str, *, form: bool = False) -> URIReference:
    """``ref`` with ``name=value`` (each encoded as ``with_query_pairs``
    encodes it) after the query's last piece; every other character of the
    query stays as written (``?flag&q=a+b`` gives ``?flag&q=a+b&x=1``)."""
    piece = f"{_encoded_pair_item(_name(name), form=form)}={_encoded_pair_item(value, form=form)}"
    query = ref.query
    if query:
        query += piece if query.endswith("&") else "&" + piece
    else:
        query = piece
    return replace(ref, query=query)


def set_param(ref: URIReference, name: str, value: str, *, form: bool = False) -> URIReference:
    """``ref`` with one value for the query parameter ``name``: the first
    piece of that name keeps its place and its name as written and takes
    ``value``, the others go; with no such piece, ``add_param``.  Every other
    piece stays as written."""
    name = _name(name)
    encoded = _encoded_pair_item(value, form=form)
    pieces: list[str] = []
    found = False
    for piece in _pieces(ref):
        if _name_of(piece, form=form) != name:
            pieces.append(piece)
        elif not found:
            pieces.append(f"{piece.partition('=')[0]}={encoded}")
            found = True
    if not found:
        return add_param(ref, name, value, form=form)
    return replace(ref, query="&".join(pieces))


def remove_param(ref: URIReference, name: str, *, form: bool = False) -> URIReference:
    """``ref`` without any piece of the query parameter ``name``; the other
    pieces stay as written, and a query left empty goes with its ``?``."""
    name = _name(name)
    pieces = _pieces(ref)
    kept = [piece for piece in pieces if _name_of(piece, form=form) != name]
    if len(kept) == len(pieces):
        return ref
    query = "&".join(kept)
    return replace(ref, query=query or None)


# --- Decoded views of the authority (section 3.2) -------------------------------


def _decoded_part(part: str, text: str | None) -> str | None:
    if text is None:
        return None
    try:
        return percent_decode(text)
    except URIError as exc:
        raise _in_part(part, exc) from None


def user(ref: URIReference) -> str | None:
    """The userinfo up to its first ``:``, percent-decoded as UTF-8."""
    userinfo = ref.userinfo
    return None if userinfo is None else _decoded_part("userinfo", userinfo.partition(":")[0])


def password(ref: URIReference) -> str | None:
    """What follows the first ``:`` of the userinfo, percent-decoded;
    ``None`` when there is no ``:``.  Section 3.2.1: "user:password" in
    userinfo is deprecated, and passing authentication in clear text in a
    URI has proved a security risk in almost every case where it was used;
    read it only to move it somewhere safer."""
    userinfo = ref.userinfo
    if userinfo is None or ":" not in userinfo:
        return None
    return _decoded_part("userinfo", userinfo.partition(":")[2])


def hostname(ref: URIReference) -> str | None:
    """The host without the brackets of an IP-literal (``::1``,
    ``v1.x``), an IPv4address as written, a reg-name percent-decoded as
    UTF-8 (its A-labels kept; ``host_unicode`` decodes those)."""
    host = ref.host
    if host is None or ref.host_kind == "IPv4address":
        return host
    if host.startswith("["):
        return host[1:-1]
    return _decoded_part("host", host)
