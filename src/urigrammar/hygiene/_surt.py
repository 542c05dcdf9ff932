"""``surt``: the Sort-friendly URI Reordering Transform of web archives.

Heritrix and the Wayback Machine key their indexes (CDX files) on a URL's
SURT: the host's labels in reverse order, comma-separated, closed by ``)``,
then the path and query (``org,archive)/goo?a=1&a=2&b``), so that the URLs
of a domain and its subdomains sort together.  Here the SURT is taken of
the key ``canonicalize`` gives (``SURT_KEY`` by default: ``CRAWL_KEY``
without ``www.`` labels, as the archives' keys drop them), so every
spelling of one resource has one SURT, and no reserved octet is decoded.

A key without an authority (``dns:``, ``mailto:``) is its own SURT.  The
userinfo is left out, as the archives leave it out: it names no part of
the resource a server returns.  A host that holds ``,`` or ``)`` (which a
reg-name may, and a DNS name never does) gives a SURT that reads two
ways, as it does in the archives' own implementations.
"""

from __future__ import annotations

import dataclasses

from ..uri import IRIReference, URIReference, parse
from ._canonical import CRAWL_KEY, Canonicalization, canonicalize

__all__ = ["SURT_KEY", "surt"]

#: The ``Canonicalization`` a SURT is taken of by default: ``CRAWL_KEY``
#: with ``drop_www``.
SURT_KEY = dataclasses.replace(CRAWL_KEY, drop_www=True)


def surt(
    ref: URIReference | IRIReference | str,
    options: Canonicalization | None = None,
    *,
    with_scheme: bool = False,
    trailing_comma: bool = False,
) -> str:
    """The SURT of ``ref``'s key (``canonicalize(ref, options)``,
    ``SURT_KEY`` when ``options`` is ``None``): the host's labels reversed
    and joined by ``,`` (a dotted IPv4 address too, as the archives write
    it; an IP literal stays as it is), its port after a ``:``, then ``)``
    and the path, query and fragment that the options keep.
    ``with_scheme`` writes ``scheme://(`` first; ``trailing_comma`` puts
    a ``,`` after the last label.

    >>> import urigrammar
    >>> urigrammar.surt("http://www.archive.org/goo/?a=2&b&a=1")
    'org,archive)/goo/?a=2&a=1&b'
    >>> urigrammar.surt("https://Example.com:8443/a#top", with_scheme=True)
    'https://(com,example:8443)/a'
    >>> urigrammar.surt("dns:archive.org")
    'dns:archive.org'
    """
    key = parse(canonicalize(ref, SURT_KEY if options is None else options))
    host = key.host
    if host is None:
        return str(key)
    if key.host_kind in ("reg-name", "IPv4address"):
        labels = host.split(".")[::-1]
        host = ",".join(labels) + ("," if trailing_comma else "")
    if key.port_text is not None:
        host += ":" + key.port_text
    text = f"{key.scheme}://(" if with_scheme and key.scheme is not None else ""
    text += f"{host}){key.path}"
    if key.query is not None:
        text += "?" + key.query
    if key.fragment is not None:
        text += "#" + key.fragment
    return text
