"""Public suffixes and registrable domains, from the Public Suffix List.

The list is Mozilla's (https://publicsuffix.org), read by the
``publicsuffixlist`` package (the ``urigrammar[psl]`` extra): it ships the
list in the package, dated in its version (``1.1.2.20261023`` carries the
list of 2026-10-23), so a lookup never touches the network, and it applies
the list's own algorithm (wildcards, exceptions, the ``*`` rule for a
top-level label the list lacks) to U-labels and A-labels alike.

Only a host that is a reg-name (RFC 3986 section 3.2.2; an ireg-name in
an IRI) has a public suffix: an IP literal or an IPv4 address has none.
The host is read as ``normalize`` reads it: percent-encoded UTF-8 decoded,
ASCII letters lowercased (so ``%31.2.3.4`` is the address it spells, with
no suffix); one trailing dot (a fully qualified name) is dropped, as the
list's names have none.  The answer keeps the host's
labels as written, A-labels or U-labels.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from .._errors import MissingExtraError, URIError
from ..uri import (
    HOST_DELIMITERS,
    TEXT,
    Reference,
    URIReference,
    host_lookup,
    lowercase_host,
    parse_iri,
    percent_decode,
    text_front,
    validate,
)

__all__ = ["public_suffix", "public_suffix_list_version", "registrable_domain"]

_REG_NAMES = frozenset({"reg-name", "ireg-name"})


@cache
def _list(private: bool) -> Any:
    """The parsed list, one per choice of sections, made on first use."""
    try:
        from publicsuffixlist import PublicSuffixList
    except ImportError:
        msg = "public suffixes need the Public Suffix List: pip install 'urigrammar[psl]'"
        raise MissingExtraError(msg) from None
    return PublicSuffixList(only_icann=not private)


def public_suffix_list_version() -> str:
    """The version of the ``publicsuffixlist`` package that answers, whose
    last part is the date of the list it ships (``1.1.2.20261023``).

    >>> import urigrammar
    >>> urigrammar.public_suffix_list_version().count(".") >= 3
    True
    """
    _list(True)
    return importlib.metadata.version("publicsuffixlist")


def _raw_host(ref: Reference | str) -> str | None:
    """The reg-name of ``ref`` as written; ``None`` when it has none."""
    if isinstance(ref, str):
        # A host name on its own, unless it is an IPv4 address, which the
        # ireg-name rule admits too (section 3.2.2: first match wins).
        if ref and validate("ireg-name", ref) and not validate("IPv4address", ref):
            return ref
        try:
            parsed = parse_iri(ref)
        except URIError:
            return None
        return parsed.host if parsed.host_kind in _REG_NAMES else None
    if isinstance(ref, Reference):
        return ref.host if ref.host_kind in _REG_NAMES else None
    msg = f"expected a URIReference, an IRIReference or a str, not {type(ref).__name__}"
    raise TypeError(msg)


#: The answers with the whole list (``private``), by reg-name as written:
#: what the C fronts of ``public_suffix`` and ``registrable_domain`` look a
#: text, or its host, up in (``uri.host_lookup``); at most ``_KEPT`` each.
#: A text that is a host on its own is a reg-name as written, and a reg-name
#: never holds "/" or ":", so a text is looked up whole first.
_SUFFIXES: dict[str, str | None] = {}
_REGISTRABLE: dict[str, str | None] = {}
_KEPT = 1 << 16

#: The C fronts' tables (``uri.text_front``), filled on first use.
_SUFFIX_FRONT: dict[str, Callable[[str], str | None]] = {}
_REGISTRABLE_FRONT: dict[str, Callable[[str], str | None]] = {}


def _forget() -> None:
    """Forget the list and every answer it gave (for a test that takes the
    list away)."""
    _list.cache_clear()
    _answer.cache_clear()
    _SUFFIXES.clear()
    _REGISTRABLE.clear()


def _lookup(ref: Reference | str, private: bool, registrable: bool) -> str | None:
    """The list's answer for ``ref``'s reg-name, kept for the C front."""
    raw = _raw_host(ref)
    name = _name(raw) if raw else None
    found = None if name is None else _answer(name, private, registrable)
    if private and raw is not None:
        answers, front = (
            (_REGISTRABLE, _REGISTRABLE_FRONT) if registrable else (_SUFFIXES, _SUFFIX_FRONT)
        )
        if len(answers) < _KEPT:
            answers[raw] = found
        if not front:
            made = host_lookup(URIReference, answers)
            if made is not None:
                front[TEXT] = made
    return found


@lru_cache(maxsize=1 << 16)
def _name(host: str) -> str | None:
    """The name a reg-name spells, as the list is asked about it, or
    ``None``; remembered, as ``_answer`` is."""
    if "%" in host:
        decoded = lowercase_host(percent_decode(host, errors="surrogateescape"))
        if any("\ud800" <= char <= "\udfff" for char in decoded):
            return None  # octets that are not UTF-8 spell no name
    else:
        decoded = lowercase_host(host)
    name = decoded.removesuffix(".")
    if not name or name.startswith(".") or name.endswith(".") or ".." in name:
        return None  # an empty label is no domain name
    if any(char in HOST_DELIMITERS for char in name):
        return None  # "evil.com%40good.com" names no host a client reaches
    if validate("IPv4address", name):
        return None  # an address, once decoded (section 3.2.2: "%31.2.3.4")
    return name


@lru_cache(maxsize=1 << 16)
def _answer(name: str, private: bool, registrable: bool) -> str | None:
    """The list's answer for a host name, remembered: a crawl or a log
    asks about a few hosts many times, and each lookup walks the name's
    labels in Python.  Bounded, and safe from several threads."""
    found: str | None = (
        _list(private).privatesuffix(name) if registrable else _list(private).publicsuffix(name)
    )
    return found


@text_front(_SUFFIX_FRONT)
def public_suffix(ref: Reference | str, *, private: bool = True) -> str | None:
    """The public suffix of ``ref``'s host (a reference, a URI or IRI
    text, or a host name on its own): the longest suffix the Public Suffix
    List says anyone may register under, such as ``co.uk``; ``None`` for a
    host that is no reg-name, or has no suffix.  ``private=False`` reads
    the list's ICANN section only (``github.io`` is a private suffix).

    >>> import urigrammar
    >>> urigrammar.public_suffix("https://www.example.co.uk/a")
    'co.uk'
    >>> urigrammar.public_suffix("pages.github.io")
    'github.io'
    >>> urigrammar.public_suffix("pages.github.io", private=False)
    'io'
    >>> urigrammar.public_suffix("http://192.0.2.1/") is None
    True
    """
    return _lookup(ref, private, False)


@text_front(_REGISTRABLE_FRONT)
def registrable_domain(ref: Reference | str, *, private: bool = True) -> str | None:
    """The registrable domain of ``ref``'s host: its public suffix and one
    label more (``example.co.uk`` for ``www.example.co.uk``); ``None`` when
    the host is no reg-name, or is a public suffix itself.  ``private`` as
    for ``public_suffix``.

    >>> import urigrammar
    >>> urigrammar.registrable_domain("https://www.Example.co.uk/a")
    'example.co.uk'
    >>> urigrammar.registrable_domain("http://www.b%C3%BCcher.example/")
    'bücher.example'
    >>> urigrammar.registrable_domain("co.uk") is None
    True
    """
    return _lookup(ref, private, True)
