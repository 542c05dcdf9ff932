"""Whole Arrow columns of texts validated and parsed: ``validate_array``
and ``parse_array``; and the URL function family over them (``host_array``,
``component_array``, ``registrable_domain_array``, ``public_suffix_array``,
``parameter_array``, ``parameter_names_array``, ``canonicalize_array``,
``surt_array``, ``lint_array``: each row the row function's answer, a
null where the row does not parse; they need pyarrow).

A column is anything that offers the Arrow PyCapsule interface
(``__arrow_c_array__`` or ``__arrow_c_stream__``): a pyarrow array or
chunked array, a polars Series, a DuckDB relation or result of one
column, a nanoarrow array or stream; of strings (utf8, large_utf8 or
utf8_view), or a struct of one such column.  What comes back offers the
same interface, so ``pyarrow.array(...)``, ``polars.Series(...)`` and
DuckDB take it without a copy.

On the native back end the rows are read from the column's UTF-8 buffers
in C, with no Python object per row (``engine.column_job``); a stream
goes batch by batch, each made as the consumer pulls it.  On the pure
back end (or for a rule C does not run) the rows go through Python one by
one, which needs pyarrow (``pip install 'urigrammar[arrow]'``), and a
stream goes batch by batch too (``_cstream``).  Either way, each row's answer is what
``validate``, ``parse`` or ``parse_iri`` gives for its text; a row whose
UTF-8 is ill-formed is a text that does not match.

Importing this module imports neither pyarrow nor polars.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import Canonicalization
from ..engine import Backend, Grammar, array_stream, column_array, column_stream, default_backend
from ..hygiene import c_key
from ..uri._columns import (
    PARSED_FIELDS,
    ParsePlan,
    parse_plan,
    reads_every_reference,
    validate_plan,
)
from . import _cstream, _family, _pure
from ._result import ArrowColumn, ArrowStream

__all__ = [
    "PARSED_FIELDS",
    "ArrowColumn",
    "ArrowStream",
    "canonicalize_array",
    "component_array",
    "host_array",
    "lint_array",
    "parameter_array",
    "parameter_names_array",
    "parse_array",
    "public_suffix_array",
    "registrable_domain_array",
    "surt_array",
    "validate_array",
]

ArrowData = ArrowColumn | ArrowStream


def _is_column(column: object) -> None:
    if not (hasattr(column, "__arrow_c_array__") or hasattr(column, "__arrow_c_stream__")):
        msg = (
            "column must offer the Arrow PyCapsule interface (__arrow_c_array__ or "
            f"__arrow_c_stream__), not {type(column).__name__}"
        )
        raise TypeError(msg)


def _native(job: Any, column: Any) -> ArrowData:
    if hasattr(column, "__arrow_c_array__"):
        return ArrowColumn(
            lambda: column_array(job, *column.__arrow_c_array__()),
            lambda made: array_stream(*made),
        )
    return ArrowStream(lambda: column_stream(job, column.__arrow_c_stream__()))


def _through_pyarrow(why: str, column: object, run: Any) -> ArrowData:
    pa = _pure.pyarrow(why)
    if hasattr(column, "__arrow_c_array__") or not hasattr(column, "__arrow_c_stream__"):
        (array,) = [run(pa, chunk) for chunk in _pure.chunks(pa, column)]
        stream = pa.chunked_array([array])
        return ArrowColumn(array.__arrow_c_array__, lambda _made: stream.__arrow_c_stream__())
    make_stream: Any = column.__arrow_c_stream__

    def make() -> object:
        kind, batches = _cstream.read(pa, make_stream())
        # The output's type, from a batch of no row (a column of no string
        # type raises here, when the stream is asked for).
        made = run(pa, _pure.strings(pa, pa.array([], kind)))
        return _cstream.export(made.type, (run(pa, _pure.strings(pa, b)) for b in batches))

    return ArrowStream(make)


def _parsed(pa: Any, chunk: Any, plan: ParsePlan) -> Any:
    """``parse_array``'s struct for one chunk, as a pyarrow array."""
    if plan.job is not None:
        return pa.array(_native(plan.job, chunk))
    return _pure.parse_chunk(pa, chunk, plan.fields, plan.row, plan.viable)


#: A function of the family on one chunk: pyarrow, the chunk's strings,
#: their parse (``parse_array``'s struct) and the row parser.
Compute = Callable[[Any, Any, Any, Callable[[str], Any]], Any]


def _by_chunk(
    name: str,
    column: object,
    rule: str,
    backend: Backend | None,
    compute: Compute,
    fields: tuple[str, ...] = PARSED_FIELDS,
    *,
    distinct: bool = False,
) -> ArrowData:
    """``compute`` over each chunk and its parse, which keeps ``fields``
    (some of ``PARSED_FIELDS``): a parse that keeps fewer runs a tagged
    DFA of fewer tags and writes fewer columns.  With ``distinct``, C
    writes the fields dictionary encoded (``compute`` then reads each
    distinct value once)."""
    _is_column(column)
    plan = parse_plan(rule, backend or default_backend(), fields, distinct=distinct)
    return _through_pyarrow(
        name,
        column,
        lambda pa, chunk: compute(pa, chunk, _parsed(pa, chunk, plan), plan.read),
    )


def validate_array(
    column: object,
    rule: str = "URI-reference",
    *,
    grammar: Grammar | None = None,
    backend: Backend | None = None,
) -> ArrowData:
    """A bool column: whether each row's text matches ``rule`` (as
    ``validate(rule, text)``), null where the row is null.  ``rule`` is a
    rule of the shipped grammars (any case), or of ``grammar`` when given;
    a regular rule (``URIError`` otherwise).  ``backend``: the back end
    that runs it (``urigrammar.engine.NATIVE`` or ``PURE``), by default
    the library's."""
    _is_column(column)
    plan = validate_plan(rule, backend or default_backend(), grammar)
    if plan.job is not None:
        return _native(plan.job, column)
    return _through_pyarrow(
        f"validate_array on the {(backend or default_backend()).name} back end",
        column,
        lambda pa, chunk: _pure.validate_chunk(pa, chunk, plan.row),
    )


def parse_array(
    column: object, rule: str = "URI-reference", *, backend: Backend | None = None
) -> ArrowData:
    """Each row's components under ``rule``, a rule ``parse`` takes
    (``URI-reference``, ``URI``, ``absolute-URI``, ``relative-ref``) or
    one ``parse_iri`` takes (their ``IRI`` counterparts), as a struct
    column::

        struct<reference: struct<scheme, userinfo, host, port, path, query,
                                 fragment: utf8>,
               error_offset: int64>

    ``reference`` holds the components, a null where one is absent
    (``""`` where it is there and empty), the port as its digits (``port
    = *DIGIT`` has no bound, so no integer type holds every port); it is
    null where the text does not parse, and ``error_offset`` is then where
    it stops matching, in code points, as ``check`` (or ``parse_iri``)
    reports it.  A null row has neither.  The struct itself is never null,
    so that a stream of it reads as a table (DuckDB, pyarrow's
    ``RecordBatchReader``).  The strings are utf8 for a
    utf8 column, large_utf8 otherwise.  Other rules raise ``URIError``:
    their captures repeat and nest, which no fixed struct holds."""
    _is_column(column)
    chosen = backend or default_backend()
    plan = parse_plan(rule, chosen)
    if plan.job is not None:
        return _native(plan.job, column)
    return _through_pyarrow(
        f"parse_array on the {chosen.name} back end",
        column,
        lambda pa, chunk: _pure.parse_chunk(pa, chunk, PARSED_FIELDS, plan.row, plan.viable),
    )


# The URL function family: each row's answer is the row function's for
# the reference the row parses to under ``rule`` (``parse_iri`` for an IRI
# rule, ``parse`` for a URI rule), a null for a null row or one that does
# not parse.  They need pyarrow (``pip install 'urigrammar[arrow]'``); the
# components are read by ``parse_array``, in C on the native back end.


def component_array(
    column: object,
    component: str,
    rule: str = "IRI-reference",
    *,
    backend: Backend | None = None,
) -> ArrowData:
    """One component of each row as written (``scheme``, ``userinfo``,
    ``host``, ``port`` as its digits, ``path``, ``query`` or
    ``fragment``): a null where it is absent or the row does not parse,
    ``""`` where it is there and empty."""
    if component not in PARSED_FIELDS:
        msg = f"component must be one of {', '.join(PARSED_FIELDS)}, not {component!r}"
        raise ValueError(msg)
    return _by_chunk(
        "component_array",
        column,
        rule,
        backend,
        lambda pa, chunk, parsed, _read: _family.component_chunk(pa, chunk, parsed, component),
        (component,),
    )


def host_array(
    column: object, rule: str = "IRI-reference", *, backend: Backend | None = None
) -> ArrowData:
    """Each row's host as ``normalize`` writes it (``normalize(ref).host``):
    lowercase, percent-encodings normalized (an IRI's decoded where they
    spell UTF-8)."""
    return _by_chunk(
        "host_array", column, rule, backend, _family.host_chunk, ("host",), distinct=True
    )


def _suffixes(
    name: str,
    column: object,
    rule: str,
    backend: Backend | None,
    *,
    registrable: bool,
    private: bool,
) -> ArrowData:
    def compute(pa: Any, chunk: Any, parsed: Any, _read: Callable[[str], Any]) -> Any:
        return _family.suffix_chunk(pa, chunk, parsed, registrable=registrable, private=private)

    return _by_chunk(name, column, rule, backend, compute, ("host",), distinct=True)


def registrable_domain_array(
    column: object,
    rule: str = "IRI-reference",
    *,
    private: bool = True,
    backend: Backend | None = None,
) -> ArrowData:
    """``registrable_domain(ref, private=private)`` of each row: null for
    a host that is no reg-name, or is a public suffix itself.  Needs the
    Public Suffix List (``urigrammar[psl]``)."""
    return _suffixes(
        "registrable_domain_array", column, rule, backend, registrable=True, private=private
    )


def public_suffix_array(
    column: object,
    rule: str = "IRI-reference",
    *,
    private: bool = True,
    backend: Backend | None = None,
) -> ArrowData:
    """``public_suffix(ref, private=private)`` of each row.  Needs the
    Public Suffix List (``urigrammar[psl]``)."""
    return _suffixes(
        "public_suffix_array", column, rule, backend, registrable=False, private=private
    )


def parameter_array(
    column: object,
    name: str,
    rule: str = "IRI-reference",
    *,
    errors: str = "replace",
    backend: Backend | None = None,
) -> ArrowData:
    """``ref.get_param(name, errors=errors)``: the first value of the query
    parameter ``name``, percent-decoded (octets that are not UTF-8
    replaced, by default), null where there is none."""
    return _by_chunk(
        "parameter_array",
        column,
        rule,
        backend,
        lambda pa, chunk, parsed, read: _family.parameter_chunk(
            pa, chunk, parsed, read, name, errors
        ),
    )


def parameter_names_array(
    column: object,
    rule: str = "IRI-reference",
    *,
    errors: str = "replace",
    backend: Backend | None = None,
) -> ArrowData:
    """The names of each row's query pieces, decoded, in order and with
    repeats (``[name for name, _ in ref.query_pairs(errors=errors)]``), as
    a list column; an empty list where there is no query."""
    return _by_chunk(
        "parameter_names_array",
        column,
        rule,
        backend,
        lambda pa, chunk, parsed, read: _family.parameter_names_chunk(
            pa, chunk, parsed, read, errors
        ),
    )


def canonicalize_array(
    column: object,
    options: Canonicalization | None = None,
    rule: str = "IRI-reference",
    *,
    backend: Backend | None = None,
) -> ArrowData:
    """``canonicalize(ref, options)`` of each row: one key per resource
    (``CRAWL_KEY`` for a crawl's).  The key is the row function's, run a
    row at a time on the row's text: see docs/performance.md for its cost."""
    chosen = options if options is not None else Canonicalization()
    chosen_backend = backend or default_backend()
    key = c_key(chosen, chosen_backend) if chosen_backend.native else None
    if key is not None and reads_every_reference(rule):
        # Every row C writes a key for is a URI-reference, so an
        # IRI-reference: the keys come straight from the rows, in C.
        found = key
        return _through_pyarrow(
            "canonicalize_array",
            column,
            lambda pa, chunk: _family.key_chunk(pa, chunk, found, chosen),
        )
    return _by_chunk(
        "canonicalize_array",
        column,
        rule,
        backend,
        lambda pa, chunk, parsed, read: _family.canonical_chunk(pa, chunk, parsed, chosen),
    )


def surt_array(
    column: object,
    options: Canonicalization | None = None,
    rule: str = "IRI-reference",
    *,
    with_scheme: bool = False,
    trailing_comma: bool = False,
    backend: Backend | None = None,
) -> ArrowData:
    """``surt(ref, options, with_scheme=..., trailing_comma=...)`` of each
    row (``SURT_KEY`` when ``options`` is ``None``)."""
    flags = {"with_scheme": with_scheme, "trailing_comma": trailing_comma}
    return _by_chunk(
        "surt_array",
        column,
        rule,
        backend,
        lambda pa, chunk, parsed, read: _family.surt_chunk(pa, chunk, parsed, read, options, flags),
    )


def lint_array(
    column: object, rule: str = "IRI-reference", *, backend: Backend | None = None
) -> ArrowData:
    """The codes of ``lint(ref)``'s findings for each row, in the text's
    order (``LINT_CODES`` says what each means), as a list column."""
    return _by_chunk("lint_array", column, rule, backend, _family.lint_chunk)
