"""One key per resource: ``canonicalize``.

The key is the normal form of RFC 3987 section 5.3 (for a URI too: every
URI is an IRI, section 2), mapped to a URI by section 3.1, as a string:
the way section 5.3.2.3 aligns two IRIs to compare them ("converting both
IRIs to URIs, ... eliminating escape differences in the resulting URIs,
and making sure that the case of the hexadecimal characters in the
percent-encoding is always the same (preferably uppercase)"):

* the IRI normal form decodes every percent-encoded character that its
  component admits unencoded and that is not reserved, so
  ``http://example.com/%C3%A4`` and ``http://example.com/ä`` meet, as
  ``equivalent`` says they should;
* the URI mapping then encodes every non-ASCII character as UTF-8 again,
  in uppercase hex, one spelling for each; so two references get one key
  exactly when ``equivalent`` calls them equal, and a key is ASCII: what
  an HTTP request line carries, and what any store, sort or join takes.

An ASCII reference with no percent-encoded octet past ASCII has the same
key by a shorter way: nothing in it is decoded into a non-ASCII character,
so its IRI normal form mapped to a URI is its URI normal form (RFC 3987
section 2.2 adds only non-ASCII characters to RFC 3986's rules), which the
native back end writes in C.

Options beyond equivalence (``Canonicalization``) then work on the key's
raw text: its query is cut at ``&`` and its pieces are dropped or sorted as
written, so no reserved octet is ever decoded (``%2F``, ``%3B`` and ``%26``
stay), and ``+`` stays ``+``.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from .._errors import URIError
from ..uri import (
    IRIReference,
    KeySteps,
    Normalization,
    URIReference,
    api,
    as_iri,
    normalize,
    parameter_name,
    parse,
    recompose,
    text_front,
    text_key,
    to_uri,
    validate,
)
from ._tracking import tracking_parameters

if TYPE_CHECKING:
    from ..engine import Backend

__all__ = ["CRAWL_KEY", "TRACKING_PARAMETERS", "Canonicalization", "canonicalize"]

#: The parameter names and globs of ``tracking-parameters.txt``: what
#: marketing and analytics tools add to links (``utm_*``, ``gclid``,
#: ``fbclid``, ...), each documented there with who adds it.
TRACKING_PARAMETERS: tuple[str, ...] = tracking_parameters()


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        # A str is an iterable of one-character names: surely a mistake.
        msg = "drop_parameters takes names or globs, not one str"
        raise TypeError(msg)
    if not isinstance(value, Iterable):
        msg = f"drop_parameters takes names or globs, not {type(value).__name__}"
        raise TypeError(msg)
    names = tuple(value)
    for name in names:
        if not isinstance(name, str):
            msg = f"a parameter name or glob must be str, not {type(name).__name__}"
            raise TypeError(msg)
    return names


@dataclass(frozen=True, slots=True, kw_only=True)
class Canonicalization:
    """What ``canonicalize`` does beyond equivalence: one immutable,
    hashable value (or its fields as keywords, ``canonicalize(ref,
    drop_fragment=True)``).  With every field at its default the key
    changes no meaning: ``equivalent(ref, canonicalize(ref))``.

    Steps that keep meaning:

    ``normalization``: the options of the normal form (``Normalization``:
    RFC 3986 section 6.2.3's scheme-based steps, which drop a default or
    empty port, are on by default; ``ipv6_canonical``; ``nfc``).

    ``idna``: a reg-name that is an internationalized domain name written
    as A-labels (``xn--bcher-kva.example`` for ``bücher.example``; the
    ``idna`` package, UTS 46).  RFC 3987 section 5.3.3 lets scheme-based
    normalization "consider IDN components and their conversions to
    punycode as equivalent"; ``equivalent`` does not, so this option makes
    keys meet that it would keep apart.  A host that is no valid IDN keeps
    its percent-encoded UTF-8.

    ``drop_fragment``: the fragment goes.  It is not part of what is
    retrieved (RFC 3986 section 3.5: it is separated from the URI before
    dereferencing), so the key stands for the retrieved resource.

    Steps that change the URI, for keys that stand for what a server
    almost always serves alike:

    ``sort_query``: the query's ``&``-separated pieces sorted by name (the
    text before the first ``=``, as the key writes it), stable, so pieces
    of one name keep their order.  RFC 3986 gives the order meaning; most
    servers give it none.

    ``drop_parameters``: the pieces whose name, percent-decoded, matches
    one of these names or shell-style globs (``fnmatch``, with its case:
    ``utm_*``; ``glob.escape`` makes a name with ``*``, ``?`` or ``[`` a
    plain one), go; ``TRACKING_PARAMETERS`` lists the common ones.  A
    query left empty goes with its ``?``, as ``remove_param`` does.

    ``drop_empty_query``: an empty query goes with its ``?``
    (``http://a/?`` becomes ``http://a/``; RFC 3987 section 5.3.3 says they
    "cannot be assumed to be equivalent").

    ``drop_www``: a reg-name's leading ``www.`` labels go (``www.www.a``
    becomes ``a``), never its last label: another host, which most sites
    serve alike.

    >>> import urigrammar
    >>> rules = urigrammar.Canonicalization(sort_query=True, drop_parameters=["utm_*"])
    >>> urigrammar.canonicalize("HTTP://Example.com:80/a?b=2&utm_source=x&a=1", rules)
    'http://example.com/a?a=1&b=2'
    """

    normalization: Normalization = field(default_factory=Normalization)
    idna: bool = False
    drop_fragment: bool = False
    sort_query: bool = False
    drop_parameters: tuple[str, ...] = ()
    drop_empty_query: bool = False
    drop_www: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.normalization, Normalization):
            msg = f"normalization must be a Normalization, not {type(self.normalization).__name__}"
            raise TypeError(msg)
        object.__setattr__(self, "drop_parameters", _names(self.drop_parameters))

    @property
    def keeps_meaning(self) -> bool:
        """Whether every key is ``equivalent`` to its reference: no step
        that changes the URI, and none that drops a part, is on."""
        return not (
            self.idna
            or self.drop_fragment
            or self.sort_query
            or self.drop_parameters
            or self.drop_empty_query
            or self.drop_www
        )


#: The key of a crawl: one per page fetched.  Hosts as A-labels, IPv6 in
#: RFC 5952 form, no fragment, no tracking parameters, the query sorted,
#: and no empty query.  ``www.`` stays: it names another host.
CRAWL_KEY = Canonicalization(
    normalization=Normalization(ipv6_canonical=True),
    idna=True,
    drop_fragment=True,
    sort_query=True,
    drop_parameters=TRACKING_PARAMETERS,
    drop_empty_query=True,
)

_DEFAULT = Canonicalization()
_FIELDS = frozenset(f.name for f in fields(Canonicalization))


def _options(options: Canonicalization | None, flags: Mapping[str, Any]) -> Canonicalization:
    if options is None:
        options = _DEFAULT
    elif not isinstance(options, Canonicalization):
        msg = f"canonicalize() takes a Canonicalization as options, not {type(options).__name__}"
        raise TypeError(msg)
    for name in flags:
        if name not in _FIELDS:
            msg = f"canonicalize() got an unexpected keyword argument {name!r}"
            raise TypeError(msg)
    return replace(options, **flags) if flags else options


@cache
def _matcher(patterns: tuple[str, ...]) -> tuple[frozenset[str], Callable[[str], object] | None]:
    """The exact names of ``patterns``, and one regex's match for the globs
    (fnmatch's own translation), or ``None`` without one.  Most names a
    crawl drops are exact: a set finds them in one lookup, where an
    alternation of them all is tried branch by branch."""
    exact = frozenset(p for p in patterns if not _GLOB.search(p))
    globs = [fnmatch.translate(p) for p in patterns if _GLOB.search(p)]
    return exact, re.compile("|".join(globs)).match if globs else None


#: What makes a pattern a glob (fnmatch: ``*``, ``?``, ``[seq]``).
_GLOB = re.compile(r"[*?\[]")


def _www_dropped(ref: URIReference) -> URIReference:
    """``ref`` without its host's leading ``www.`` labels.  Taken of the
    URI, after the IDNA mapping, which can make ``www.`` of other
    characters (fullwidth letters), so that a key is its own key."""
    host = ref.host
    if ref.host_kind != "reg-name" or host is None:
        return ref
    # Every leading "www." label, counted rather than cut off one by one
    # (each cut copies the rest).
    at = 0
    while host.startswith("www.", at) and len(host) > at + 4 and host[at + 4] != ".":
        at += 4
    return ref if at == 0 else ref.replace(host=host[at:])


#: A percent-encoded octet past ASCII: decoded, it may spell a character
#: the IRI normal form writes unencoded (then NFC, IDNA).
_OCTET_PAST_ASCII = re.compile(r"%[89A-Fa-f]")


def by_ascii(
    ref: URIReference | IRIReference | str, normalization: Normalization
) -> URIReference | None:
    """The key's URI by RFC 3986's normalization alone, for a reference
    whose text is ASCII with no percent-encoded octet past ASCII (see the
    module docstring); ``None`` for any other."""
    if isinstance(ref, str):
        text = ref
    elif isinstance(ref, (URIReference, IRIReference)):
        text = str(ref)
    else:
        return None  # the IRI way says what is wrong with it
    if not text.isascii() or _OCTET_PAST_ASCII.search(text):
        return None
    if isinstance(ref, URIReference):
        return normalize(ref, normalization)
    if not validate("URI-reference", text):
        return None  # the IRI way says what is wrong with it
    return normalize(parse(text), normalization)


def by_iri(ref: URIReference | IRIReference | str, options: Canonicalization) -> URIReference:
    """The key's URI by RFC 3987 section 5.3: the IRI normal form, mapped to
    a URI (with IDNA's A-labels when ``options.idna``)."""
    return _uri(normalize(as_iri(ref), options.normalization), options.idna)


def _uri(ref: IRIReference, idna: bool) -> URIReference:
    if idna:
        try:
            return to_uri(ref, idna=True)
        except URIError:
            pass  # no valid IDN: the host keeps its percent-encoded UTF-8
    return to_uri(ref)


def _query(query: str | None, options: Canonicalization) -> str | None:
    if query is None:
        return None
    if options.drop_parameters or options.sort_query:
        pieces = query.split("&")
        if options.drop_parameters:
            # Each name read as remove_param reads it.
            exact, glob = _matcher(options.drop_parameters)
            kept = []
            for piece in pieces:
                name = parameter_name(piece)
                if name not in exact and (glob is None or glob(name) is None):
                    kept.append(piece)
            if len(kept) < len(pieces) and not "&".join(kept):
                return None  # a query left empty goes with its "?", as remove_param does
            pieces = kept
        if options.sort_query:
            pieces.sort(key=lambda piece: piece.partition("=")[0])
        query = "&".join(pieces)
    return None if options.drop_empty_query and not query else query


#: The C key function of each options value seen, by identity (a value's
#: hash costs a key's time), with the value itself, which keeps its id
#: from being reused: what ``canonicalize``'s C front calls for a text and
#: that value (``None`` where C takes no text under it); at most
#: ``_C_KEYS_KEPT`` values.
_C_KEYS: dict[int, tuple[Canonicalization | None, Callable[[str], str | None] | None]] = {}
_C_KEYS_KEPT = 64


def _remember_c_key(options: Canonicalization | None) -> None:
    """Keep the C key function of ``options`` (a valid value, or
    ``None``) for the front, unless kept already or the table is full."""
    kept = _C_KEYS.get(id(options))
    if (kept is None or kept[0] is not options) and len(_C_KEYS) < _C_KEYS_KEPT:
        _C_KEYS[id(options)] = (options, c_key(options or _DEFAULT))


def c_key(
    options: Canonicalization, backend: Backend | None = None
) -> Callable[[str], str | None] | None:
    """The C function that writes ``canonicalize(text, options)`` for a
    text, or answers ``None`` where Python must; ``None`` where C takes no
    text under these options (the pure back end, Python records,
    ``drop_www``, a glob C does not read).  ``backend``: the back end (the
    default one when ``None``)."""
    exact: list[str] = []
    prefixes: list[str] = []
    for pattern in options.drop_parameters:
        stem = pattern.rstrip("*")
        if not pattern.isascii() or _GLOB.search(stem):
            return None  # a glob C does not read
        (exact if stem == pattern else prefixes).append(stem)
    if options.drop_www:
        return None
    steps = KeySteps(
        drop_fragment=options.drop_fragment,
        sort_query=options.sort_query,
        drop_empty_query=options.drop_empty_query,
        exact=frozenset(exact),
        prefixes=tuple(prefixes),
    )
    return text_key(URIReference, options.normalization, steps, api(backend))


@text_front(_C_KEYS, by_identity=True)
def canonicalize(
    ref: URIReference | IRIReference | str,
    options: Canonicalization | None = None,
    **flags: Any,
) -> str:
    """The key of ``ref``: the same string for every spelling that
    ``equivalent`` calls equal, URI or IRI, and a different one for any
    other (see the module docstring for its form); ``options`` (a
    ``Canonicalization``, or its fields as keywords) adds the steps beyond
    equivalence.  A string is read as an IRI-reference (``parse_iri``);
    every URI-reference is one.  Idempotent: a key is its own key.

    >>> import urigrammar
    >>> urigrammar.canonicalize("HTTP://Example.COM:80/%7Efred/./a%c3%a4")
    'http://example.com/~fred/a%C3%A4'
    >>> urigrammar.canonicalize("http://example.com/~fred/aä")
    'http://example.com/~fred/a%C3%A4'
    >>> urigrammar.canonicalize("https://Bücher.example/?utm_source=news#top", urigrammar.CRAWL_KEY)
    'https://xn--bcher-kva.example/'
    """
    chosen = _options(options, flags)
    if not flags:
        _remember_c_key(options)
    uri = by_ascii(ref, chosen.normalization) or by_iri(ref, chosen)
    if chosen.drop_www:
        uri = _www_dropped(uri)
    query = _query(uri.query, chosen)
    fragment = None if chosen.drop_fragment else uri.fragment
    if query == uri.query and fragment == uri.fragment:
        return str(uri)
    # The query's pieces are the URI's own, and the path is unchanged:
    # the parts recompose into a URI with these parts (section 5.3).
    return recompose(uri.scheme, uri.authority, uri.path, query, fragment)
