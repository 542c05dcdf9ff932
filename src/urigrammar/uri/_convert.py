"""Mapping IRIs to URIs and back (RFC 3987 sections 3.1 and 3.2).

Both directions work a component at a time, with that component's rule
from the grammars, so nothing here lists characters:

* ``to_uri`` (section 3.1, step 2): every character that the URI grammar
  does not admit in the component (RFC 3986's ``userinfo``, ``reg-name``,
  ``segment``, ``query``, ``fragment``) is percent-encoded as UTF-8; the
  ``%XX`` already there stay.  With ``idna=True`` a non-ASCII ``ireg-name``
  becomes A-labels instead (the ``idna`` package, UTS 46).
* ``to_iri`` (section 3.2): each percent-encoded UTF-8 sequence is decoded
  when the character it spells is admitted unencoded by the component's
  IRI rule (``iuserinfo``, ``ireg-name``, ``isegment``, ``iquery``,
  ``ifragment``) and is not reserved.  So ``%41`` becomes ``A`` (step 2),
  ``%25``, reserved characters and ASCII that URIs do not allow stay
  encoded (step 2), octets that are not strictly legal UTF-8 stay encoded
  (step 3), and so do characters not appropriate in that component (step
  4): ``iprivate`` outside ``iquery``, the noncharacters that ``ucschar``
  leaves out, and the bidi formatting characters of section 4.1.

Both take the classes to build, like the rest of the model, so that this
module stays below ``_reference``.
"""

from __future__ import annotations

from .._errors import URIError
from ..shipped import userinfo_secret
from ._api import parser_for
from ._components import Components, RefT, compose_authority, recompose
from ._encode import admitted, encode_except, percent_decode
from ._normalize import decode_admitted

__all__ = ["to_iri", "to_uri"]


def _encoded(text: str | None, rule: str) -> str | None:
    # An ASCII component of an IRI is one of the URI's already: RFC 3987
    # section 2.2 adds only non-ASCII characters to RFC 3986's rules.
    if text is None or text.isascii():
        return text
    # keep_escapes: a "%" in a parsed component always starts a triplet.
    return encode_except(text, admitted(rule), keep_escapes=True)


def _idna_host(host: str) -> str:
    import idna  # only a non-ASCII host with idna=True loads its tables

    name = percent_decode(host)
    try:
        return idna.encode(name, uts46=True).decode("ascii")
    except idna.IDNAError as exc:
        msg = f"host: {name!r} is not an internationalized domain name: {exc}"
        raise URIError(msg, rule="ireg-name", text=host, secrets=userinfo_secret) from None


def to_uri(iri: Components, *, uri_cls: type[RefT], idna: bool = False) -> RefT:
    """The URI of ``iri`` (RFC 3987 section 3.1), a ``uri_cls``."""
    text = str(iri)
    if text.isascii():
        # RFC 3987 section 2.2 adds only non-ASCII characters to RFC 3986's
        # rules: an ASCII IRI is its own URI, component for component.
        return parser_for(uri_cls)(text)
    dialect = uri_cls.dialect
    host = iri.host
    if host is not None and iri.host_kind == type(iri).dialect.rule("reg-name"):
        if idna and not host.isascii():
            host = _idna_host(host)
        else:
            host = _encoded(host, dialect.rule("reg-name"))
    segment = dialect.rule("segment")
    path = iri.path
    if not path.isascii():
        path = "/".join(_encoded(part, segment) or "" for part in path.split("/"))
    userinfo = _encoded(iri.userinfo, dialect.rule("userinfo"))
    authority = compose_authority(userinfo, host, iri.port_text)
    text = recompose(
        iri.scheme,
        authority,
        path,
        _encoded(iri.query, dialect.rule("query")),
        _encoded(iri.fragment, dialect.rule("fragment")),
    )
    return parser_for(uri_cls)(text)


def _unicode_host(host: str) -> str:
    """Section 3.2, after the examples: a host of A-labels "could be
    converted further" with ToUnicode; a host that is no valid IDN stays."""
    if "xn--" not in host.lower():
        return host
    import idna

    try:
        return str(idna.decode(host))
    except (idna.IDNAError, UnicodeError):
        return host


def to_iri(uri: Components, *, iri_cls: type[RefT], idna: bool = False) -> RefT:
    """The IRI of ``uri`` (RFC 3987 section 3.2), an ``iri_cls``; with
    ``idna``, A-labels in a reg-name become U-labels."""
    dialect = iri_cls.dialect
    host = uri.host
    if host is not None and uri.host_kind == type(uri).dialect.rule("reg-name"):
        host = decode_admitted(host, dialect.rule("reg-name"))
        if idna:
            host = _unicode_host(host)
    segment = dialect.rule("segment")
    path = "/".join(decode_admitted(part, segment) for part in uri.path.split("/"))

    def decoded(text: str | None, part: str) -> str | None:
        return None if text is None else decode_admitted(text, dialect.rule(part))

    userinfo = decoded(uri.userinfo, "userinfo")
    authority = compose_authority(userinfo, host, uri.port_text)
    text = recompose(
        uri.scheme,
        authority,
        path,
        decoded(uri.query, "query"),
        decoded(uri.fragment, "fragment"),
    )
    return parser_for(iri_cls)(text)
