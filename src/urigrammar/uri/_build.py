"""Building references from parts and changing parts (RFC 3986 sections
3, 4.2 and 5.3).

``build`` takes each part as data, any Unicode text, and percent-encodes it
for its rule (``_encode``); ``replace`` takes parts as they are to appear in
the URI.  Both end in ``_assemble``, which checks each part against its rule
and the combination against sections 3 and 4.2, with an error that names the
part, then parses the recomposed text (section 5.3) into the class asked
for: the result's ``host_kind`` and ``port_text`` come from the grammar, as
for any parsed reference.  ``replace`` returns the class of its input;
``build`` and ``from_parts`` take the class to build.

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

Query pairs are in ``_query``, paths from decoded segments in ``_path``,
decoded views of the authority in ``_views``.
"""

from __future__ import annotations

import enum
import ipaddress
from typing import TypeVar

from .._errors import URIError, URISyntaxError
from ..shipped import userinfo_secret
from ._api import check, parse_as
from ._components import RefT, compose_authority, path_clash, port_digits, recompose
from ._dialect import Dialect
from ._encode import encode_path, percent_encode

__all__ = [
    "Host",
    "Port",
    "build",
    "encoded_text",
    "from_parts",
    "in_part",
    "replace",
]

#: What ``build`` and ``replace`` take as a host.
Host = str | ipaddress.IPv4Address | ipaddress.IPv6Address
#: What ``build`` and ``replace`` take as a port: digits, as an int or a str.
Port = int | str

_T = TypeVar("_T")


class _Keep(enum.Enum):
    KEEP = enum.auto()


_KEEP = _Keep.KEEP


def _str_part(part: str, value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    msg = f"{part} must be str or None, not {type(value).__name__}"
    raise TypeError(msg)


def in_part(part: str, exc: URIError) -> URIError:
    """``exc`` again, its message saying which part it is about; an error
    about no rule in particular is about the part's rule, so that a
    userinfo's password is masked in it (``_errors``)."""
    rule = exc.rule if exc.rule is not None else part
    return type(exc)(
        f"{part}: {exc.message}",
        rule=rule,
        text=exc.text,
        offset=exc.offset,
        secrets=userinfo_secret,
    )


def _check(part: str, text: str | None, rule: str) -> None:
    if text is None:
        return
    try:
        check(rule, text)
    except URISyntaxError as exc:
        raise in_part(part, exc) from None


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
    cls: type[RefT],
    *,
    scheme: str | None,
    userinfo: str | None,
    host: str | None,
    port_text: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
) -> RefT:
    """The ``cls`` with these parts, each as it appears in the URI, once
    each part matches its rule and they fit together (sections 3, 4.2)."""
    for part, text in (
        ("scheme", scheme),
        ("userinfo", userinfo),
        ("host", host),
        ("port", port_text),
        ("path", path),
        ("query", query),
        ("fragment", fragment),
    ):
        # The part's rule in the class's grammar: userinfo, or RFC 3987's iuserinfo.
        _check(part, _str_part(part, text), cls.dialect.rule(part))
    if path is None:
        msg = "path must be str, not None (the empty path is '')"
        raise TypeError(msg)
    if host is None:
        for part, text in (("userinfo", userinfo), ("port", port_text)):
            if text is not None:
                msg = f"{part}: a {part} needs a host to go with it (section 3.2)"
                raise URIError(msg, rule="authority", text=text, secrets=userinfo_secret)
    clash = path_clash(path, has_authority=host is not None, has_scheme=scheme is not None)
    if clash is not None:
        rule, offset = clash
        raise URIError(
            f"path: {_CLASHES[rule]}",
            rule=cls.dialect.rule(rule),
            text=path,
            offset=offset,
            secrets=userinfo_secret,
        )
    authority = compose_authority(userinfo, host, port_text)
    # Read back through the grammar, which gives host_kind and port_text.
    return parse_as(cls, recompose(scheme, authority, path, query, fragment))


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
        raise URIError(msg, rule="IP-literal", text=text, secrets=userinfo_secret)
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


def _reg_name(host: str, *, idna: bool, dialect: Dialect) -> str:
    if idna and not host.isascii():
        import idna as idna_codec  # only a non-ASCII host with idna=True loads its tables

        try:
            return idna_codec.encode(host, uts46=True).decode("ascii")
        except idna_codec.IDNAError as exc:
            msg = f"host: {host!r} is not an internationalized domain name: {exc}"
            raise URIError(msg, rule="reg-name", text=host, secrets=userinfo_secret) from None
    return encoded_text("host", host, dialect.rule("reg-name"))


def _raw_host(host: Host) -> str:
    address = _address(host)
    if address is not None:
        return address
    assert isinstance(host, str)
    return host


def _host(host: Host | None, *, idna: bool, dialect: Dialect) -> str | None:
    if host is None:
        return None
    address = _address(host)
    if address is not None:
        return address
    assert isinstance(host, str)
    if host.startswith("[") and host.endswith("]"):
        _check("host", host, "IP-literal")
        return host
    return _reg_name(host, idna=idna, dialect=dialect)


def encoded_text(part: str, text: str, rule: str) -> str:
    try:
        return percent_encode(text, rule)
    except URIError as exc:
        raise in_part(part, exc) from None


def _encoded(part: str, text: object, rule: str) -> str | None:
    value = _str_part(part, text)
    return None if value is None else encoded_text(part, value, rule)


def _encoded_path(path: object, *, relative: bool, dialect: Dialect) -> str:
    text = _str_part("path", path)
    if text is None:
        msg = "path must be str, not None (the empty path is '')"
        raise TypeError(msg)
    try:
        return encode_path(text, relative=relative, dialect=dialect)
    except URIError as exc:
        raise in_part("path", exc) from None


def build(
    cls: type[RefT],
    *,
    scheme: str | None = None,
    userinfo: str | None = None,
    host: Host | None = None,
    port: Port | None = None,
    path: str = "",
    query: str | None = None,
    fragment: str | None = None,
    idna: bool = False,
) -> RefT:
    """``urigrammar.build`` (documented there, in ``_reference``), making a
    ``cls``; the module docstring says how hosts and ``idna`` are read."""
    scheme = _str_part("scheme", scheme)
    dialect = cls.dialect
    host_text = _host(host, idna=idna, dialect=dialect)
    relative = scheme is None and host_text is None
    return _assemble(
        cls,
        scheme=scheme,
        userinfo=_encoded("userinfo", userinfo, dialect.rule("userinfo")),
        host=host_text,
        port_text=_port(port),
        path=_encoded_path(path, relative=relative, dialect=dialect),
        query=_encoded("query", query, dialect.rule("query")),
        fragment=_encoded("fragment", fragment, dialect.rule("fragment")),
    )


def _pick(new: _T | _Keep, old: _T) -> _T:
    return old if isinstance(new, _Keep) else new


def replace(
    ref: RefT,
    *,
    scheme: str | _Keep | None = _KEEP,
    userinfo: str | _Keep | None = _KEEP,
    host: Host | _Keep | None = _KEEP,
    port: Port | _Keep | None = _KEEP,
    path: str | _Keep = _KEEP,
    query: str | _Keep | None = _KEEP,
    fragment: str | _Keep | None = _KEEP,
) -> RefT:
    """A new reference: ``ref`` with the given parts, written as they are to
    appear in the URI (nothing is encoded); ``None`` removes a part.  An IP
    address, as an object or a ``str`` that ``ipaddress`` reads, is written
    as ``build`` writes it (``"::1"`` -> ``[::1]``); any other ``str`` host
    must match ``host``.  Raises ``URIError`` naming the part, as ``build``
    does.  The result has ``ref``'s class."""
    host_text = ref.host
    if not isinstance(host, _Keep):
        host_text = None if host is None else _raw_host(host)
    return _assemble(
        type(ref),
        scheme=_pick(scheme, ref.scheme),
        userinfo=_pick(userinfo, ref.userinfo),
        host=host_text,
        port_text=ref.port_text if isinstance(port, _Keep) else _port(port),
        path=_pick(path, ref.path),
        query=_pick(query, ref.query),
        fragment=_pick(fragment, ref.fragment),
    )


def from_parts(
    cls: type[RefT],
    *,
    scheme: str | None = None,
    userinfo: str | None = None,
    host: Host | None = None,
    port: Port | None = None,
    path: str = "",
    query: str | None = None,
    fragment: str | None = None,
) -> RefT:
    """The public ``URIReference(...)`` constructor, making a ``cls``:
    ``replace`` on the empty reference, so the two check parts in the same
    way."""
    return _assemble(
        cls,
        scheme=scheme,
        userinfo=userinfo,
        host=None if host is None else _raw_host(host),
        port_text=_port(port),
        path=path,
        query=query,
        fragment=fragment,
    )
