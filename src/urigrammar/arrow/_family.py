"""The URL function family over columns: for each row, what a row
function of the library gives for the reference that row parses to
(``parse`` for a URI rule, ``parse_iri`` for an IRI rule), and a null for
a null row or one that does not parse.

Each function reads a chunk (a pyarrow array of strings) and returns an
array of its length.  The components come from ``parse_array``, which the
native back end runs in C with no Python object per row; what depends on
the components only (a host's case, its registrable domain) is computed
once per distinct value or by pyarrow's compute kernels; what depends on
the whole reference (a canonical key, a SURT, lint) goes through the row
function, one row at a time, for the rows that parse (a canonical key
from the row's text, which ``canonicalize`` writes in C).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import (
    Canonicalization,
    Reference,
    canonicalize,
    lint,
    public_suffix,
    registrable_domain,
    surt,
    validate,
)
from .._errors import URIError
from ..engine import array_stream, key_column
from ._pure import well_formed
from ._result import ArrowColumn

__all__ = [
    "canonical_chunk",
    "component_chunk",
    "host_chunk",
    "key_chunk",
    "lint_chunk",
    "parameter_chunk",
    "parameter_names_chunk",
    "suffix_chunk",
    "surt_chunk",
]

Module = Any


def _references(pa: Module, chunk: Any, parsed: Any, read: Callable[[str], Reference]) -> Any:
    """Each row's reference, or ``None`` for a row that does not parse
    (the parse struct's ``reference`` is null there)."""
    pc = pa.compute
    valid = pc.is_valid(pc.struct_field(parsed, [0])).to_pylist()
    texts = well_formed(pa, chunk)  # a row that parses is well-formed
    return [
        read(text) if ok and text is not None else None
        for text, ok in zip(texts, valid, strict=True)
    ]


def component_chunk(pa: Module, chunk: Any, parsed: Any, name: str) -> Any:
    """The component ``name`` (a field of the parse) as written:
    ``parse_array``'s field."""
    return pa.compute.struct_field(parsed, ["reference", name])


def _distinct(pa: Module, chunk: Any, parsed: Any, name: str) -> tuple[Any, Any, Any]:
    """The component ``name`` dictionary encoded: its distinct values
    (one may repeat), each row's index among them (null where the
    component is), and the type of its strings.  The native back end's
    job writes it so; the pure back end's parse is encoded here."""
    field = component_chunk(pa, chunk, parsed, name)
    if pa.types.is_dictionary(field.type):
        return field.dictionary, field.indices, field.type.value_type
    encoded = pa.compute.dictionary_encode(field)
    return encoded.dictionary, encoded.indices, field.type


#: The most hosts ``host_chunk`` looks for one at a time.
_FEW = 4


def host_chunk(pa: Module, chunk: Any, parsed: Any, read: Callable[[str], Reference]) -> Any:
    """The host as ``normalize`` writes it (RFC 3986 section 6.2.2, RFC
    3987 section 5.3.2): case and percent-encodings normalized.  Asked
    once per distinct host as written, since that form depends on the
    host's text alone (its kind is the rule the text matches): a host of
    ASCII without ``%`` only changes case; another is read by
    ``normalize`` from a row that holds it: for a few such hosts, the
    first row of each (a search that stops there, each a pass over the
    rows at most); for more, every row holding one, found in one pass."""
    pc = pa.compute
    values, indices, kind = _distinct(pa, chunk, parsed, "host")
    names = [h.lower() if h.isascii() and "%" not in h else None for h in values.to_pylist()]
    rest = [k for k, name in enumerate(names) if name is None]
    if 0 < len(rest) <= _FEW:
        for k in rest:
            row = pc.index(indices, pa.scalar(k, indices.type)).as_py()
            names[k] = read(chunk[row].as_py()).normalize().host
    elif rest:
        holding = pc.is_in(indices, value_set=pa.array(rest, indices.type))
        texts = pc.filter(chunk, holding).to_pylist()
        for text, k in zip(texts, pc.filter(indices, holding).to_pylist(), strict=True):
            if names[k] is None:
                names[k] = read(text).normalize().host
    return pc.take(pa.array(names, kind), indices)


def suffix_chunk(pa: Module, chunk: Any, parsed: Any, *, registrable: bool, private: bool) -> Any:
    """``registrable_domain`` (or ``public_suffix``) of each row's host,
    asked once per distinct host as written: the answer depends on the
    host alone."""
    values, indices, kind = _distinct(pa, chunk, parsed, "host")
    answer = registrable_domain if registrable else public_suffix
    names = [None if h is None else answer(h, private=private) for h in values.to_pylist()]
    return pa.compute.take(pa.array(names, kind), indices)


def parameter_chunk(
    pa: Module, chunk: Any, parsed: Any, read: Callable[[str], Reference], name: str, errors: str
) -> Any:
    """``get_param(reference, name, errors=errors)``: the first decoded
    value of the query parameter ``name``, null where it has none."""
    kind = component_chunk(pa, chunk, parsed, "query").type
    values = [
        None if ref is None else ref.get_param(name, errors=errors)
        for ref in _references(pa, chunk, parsed, read)
    ]
    return pa.array(values, kind)


def parameter_names_chunk(
    pa: Module, chunk: Any, parsed: Any, read: Callable[[str], Reference], errors: str
) -> Any:
    """The decoded names of the query's pieces, in order and with repeats,
    as ``query_pairs(reference, errors=errors)`` reads them."""
    kind = component_chunk(pa, chunk, parsed, "query").type
    names = [
        None if ref is None else [pair[0] for pair in ref.query_pairs(errors=errors)]
        for ref in _references(pa, chunk, parsed, read)
    ]
    return pa.array(names, pa.list_(kind))


def canonical_chunk(pa: Module, chunk: Any, parsed: Any, options: Canonicalization) -> Any:
    """``canonicalize(text, options)`` of each row that parses: the text
    itself, which ``canonicalize`` reads as an IRI-reference, as every row
    that parses is one (the native back end writes most keys in C,
    straight from the text)."""
    pc = pa.compute
    kind = component_chunk(pa, chunk, parsed, "host").type
    valid = pc.is_valid(pc.struct_field(parsed, [0])).to_pylist()
    texts = well_formed(pa, chunk)  # a row that parses is well-formed
    keys = [
        canonicalize(text, options) if ok and text is not None else None
        for text, ok in zip(texts, valid, strict=True)
    ]
    return pa.array(keys, kind)


def key_chunk(
    pa: Module, chunk: Any, key: Callable[[str], str | None], options: Canonicalization
) -> Any:
    """``canonicalize(text, options)`` of each row read as an IRI-reference:
    ``key`` (a C key function) writes the keys of the rows it reads, in C
    (``engine.key_column``); ``canonicalize`` the others, a null where a
    row is no IRI-reference."""
    pc = pa.compute
    made = key_column(key, *chunk.__arrow_c_array__())
    keys = pa.array(ArrowColumn(lambda: made, lambda pair: array_stream(*pair)))
    left = pc.and_(pc.is_null(keys), pc.is_valid(chunk))
    if not pc.any(left).as_py():
        return keys
    rest = [
        None if text is None else _key_or_none(text, options)
        for text in well_formed(pa, pc.filter(chunk, left))
    ]
    return pc.replace_with_mask(keys, left, pa.array(rest, keys.type))


def _key_or_none(text: str, options: Canonicalization) -> str | None:
    if not validate("IRI-reference", text):
        return None  # no IRI-reference: a null, as parse_array's, with no error made
    try:
        return canonicalize(text, options)
    except URIError:
        return None  # a bidi formatting character (RFC 3987 section 4.1)


def surt_chunk(
    pa: Module,
    chunk: Any,
    parsed: Any,
    read: Callable[[str], Reference],
    options: Canonicalization | None,
    flags: dict[str, bool],
) -> Any:
    """``surt(reference, options, **flags)`` of each row that parses."""
    kind = component_chunk(pa, chunk, parsed, "host").type
    keys = [
        None if ref is None else surt(ref, options, **flags)
        for ref in _references(pa, chunk, parsed, read)
    ]
    return pa.array(keys, kind)


def lint_chunk(pa: Module, chunk: Any, parsed: Any, read: Callable[[str], Reference]) -> Any:
    """The codes of ``lint(reference)``'s findings, in the text's order."""
    codes: list[Sequence[str] | None] = [
        None if ref is None else [finding.code for finding in lint(ref)]
        for ref in _references(pa, chunk, parsed, read)
    ]
    return pa.array(codes, pa.list_(pa.string()))
