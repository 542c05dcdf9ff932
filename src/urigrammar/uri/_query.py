"""Queries as ``name=value`` pairs (RFC 3986 section 3.4 leaves the
query's inside to the scheme; this is the ``name=value&...`` convention of
HTML forms and most web APIs).

Choices the RFC leaves open, made here: pairs are split on ``&`` and then
on the first ``=``; empty pieces (``a=1&&b=2``) are skipped and a piece
without ``=`` has the value ``""``.  ``with_query_pairs`` encodes ``&``,
``=`` and ``+`` inside names and values, and writes no query at all for no
pairs.  The one-parameter functions keep every other piece of the query as
written.  Each function that changes the query returns its input's class
(through ``_build.replace``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .._errors import URIError
from ..shipped import userinfo_secret
from ._build import in_part, replace
from ._components import Components, RefT
from ._encode import admitted, check_errors, encode_except, percent_decode

__all__ = [
    "add_param",
    "get_param",
    "get_params",
    "parameter_name",
    "query_pairs",
    "remove_param",
    "set_param",
    "with_query_pairs",
]

# The delimiters of the name=value&... convention inside a query; "+" is a
# space in application/x-www-form-urlencoded, so it is encoded as data too.
_PAIR_DELIMITERS = frozenset("&=+")


def _decoded(query: str, start: int, text: str, *, form: bool, errors: str) -> str:
    if form:
        text = text.replace("+", " ")
    try:
        return percent_decode(text, errors=errors)
    except URIError as exc:
        offset = None if exc.offset is None else start + exc.offset
        raise URIError(
            f"query: {exc.message}",
            rule="query",
            text=query,
            offset=offset,
            secrets=userinfo_secret,
        ) from None


def query_pairs(
    ref: Components, *, form: bool = False, errors: str = "strict"
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


def _encoded_pair_item(text: object, *, form: bool, rule: str = "query") -> str:
    if not isinstance(text, str):
        msg = f"query pair names and values must be str, not {type(text).__name__}"
        raise TypeError(msg)
    # rule: the query rule of the reference's grammar (iquery for an IRI).
    keep = admitted(rule) - _PAIR_DELIMITERS
    try:
        if form:
            return "+".join(encode_except(word, keep) for word in text.split(" "))
        return encode_except(text, keep)
    except URIError as exc:
        raise in_part("query", exc) from None


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
    ref: RefT,
    pairs: Mapping[str, str] | Iterable[tuple[str, str]],
    *,
    form: bool = False,
) -> RefT:
    """``ref`` with its query made of ``pairs`` (a mapping or ``(name,
    value)`` pairs), each name and value percent-encoded so that ``&``,
    ``=``, ``+`` and ``#`` in them come back from ``query_pairs``; no pairs
    means no query.  ``form=True`` writes spaces as ``+``.  Anything but a
    mapping or pairs (2-item tuples or lists), a string above all, raises
    ``TypeError``."""
    rule = ref.dialect.rule("query")
    pieces = [
        f"{_encoded_pair_item(name, form=form, rule=rule)}="
        f"{_encoded_pair_item(value, form=form, rule=rule)}"
        for name, value in _pairs(pairs)
    ]
    return replace(ref, query="&".join(pieces) if pieces else None)


# --- One query parameter ---------------------------------------------------------


def parameter_name(piece: str, *, form: bool = False) -> str:
    """The name of a query piece (the text before its first ``=``),
    decoded to compare with a ``str``: octets that are not UTF-8 become
    lone surrogates, which equal no name and never raise."""
    name = piece.partition("=")[0]
    if form:
        name = name.replace("+", " ")
    if "%" not in name:
        return name  # nothing to decode
    return percent_decode(name, errors="surrogateescape")


def _name(name: object) -> str:
    if not isinstance(name, str):
        msg = f"a query parameter name must be str, not {type(name).__name__}"
        raise TypeError(msg)
    return str.__str__(name)  # a str subclass: the characters it holds


def _pieces(ref: Components) -> list[str]:
    return [] if ref.query is None else ref.query.split("&")


def get_params(
    ref: Components, name: str, *, form: bool = False, errors: str = "strict"
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
        if piece and parameter_name(piece, form=form) == name:
            key, _, value = piece.partition("=")
            at = start + len(key) + 1
            values.append(_decoded(query, at, value, form=form, errors=errors))
        start += len(piece) + 1
    return values


def get_param(
    ref: Components,
    name: str,
    default: str | None = None,
    *,
    form: bool = False,
    errors: str = "strict",
) -> str | None:
    """The first value of the query parameter ``name``, or ``default``."""
    values = get_params(ref, name, form=form, errors=errors)
    return values[0] if values else default


def add_param(ref: RefT, name: str, value: str, *, form: bool = False) -> RefT:
    """``ref`` with ``name=value`` (each encoded as ``with_query_pairs``
    encodes it) after the query's last piece; every other character of the
    query stays as written (``?flag&q=a+b`` gives ``?flag&q=a+b&x=1``)."""
    rule = ref.dialect.rule("query")
    piece = (
        f"{_encoded_pair_item(_name(name), form=form, rule=rule)}="
        f"{_encoded_pair_item(value, form=form, rule=rule)}"
    )
    query = ref.query
    if query:
        query += piece if query.endswith("&") else "&" + piece
    else:
        query = piece
    return replace(ref, query=query)


def set_param(ref: RefT, name: str, value: str, *, form: bool = False) -> RefT:
    """``ref`` with one value for the query parameter ``name``: the first
    piece of that name keeps its place and its name as written and takes
    ``value``, the others go; with no such piece, ``add_param``.  Every other
    piece stays as written."""
    name = _name(name)
    encoded = _encoded_pair_item(value, form=form, rule=ref.dialect.rule("query"))
    pieces: list[str] = []
    found = False
    for piece in _pieces(ref):
        if parameter_name(piece, form=form) != name:
            pieces.append(piece)
        elif not found:
            pieces.append(f"{piece.partition('=')[0]}={encoded}")
            found = True
    if not found:
        return add_param(ref, name, value, form=form)
    return replace(ref, query="&".join(pieces))


def remove_param(ref: RefT, name: str, *, form: bool = False) -> RefT:
    """``ref`` without any piece of the query parameter ``name``; the other
    pieces stay as written, and a query left empty goes with its ``?``."""
    name = _name(name)
    pieces = _pieces(ref)
    kept = [piece for piece in pieces if parameter_name(piece, form=form) != name]
    if len(kept) == len(pieces):
        return ref
    query = "&".join(kept)
    return replace(ref, query=query or None)
