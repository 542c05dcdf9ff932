"""What runs a rule over a column's rows: the engine's C job where the
back end has one (``engine.column_job``), and the same answer row by row
in Python for every other case (the pure back end, a program C does not
run).  Both give, per row, what ``validate`` and ``parse`` (or
``parse_iri``) give for its text; ``urigrammar.arrow`` lays them out as
Arrow columns.

A parsed row is the reference's components, in ``PARSED_FIELDS`` order,
each ``None`` where the component is absent (section 5.3: undefined is
not empty), the port as its digits (``port = *DIGIT`` has no bound, so no
integer type holds every port; ``""`` is a port that is there and
empty).  A row that does not parse gives the offset ``check`` reports
instead, in code points; for an IRI, a bidi formatting character's, as
``parse_iri`` reports it (RFC 3987 section 4.1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .._errors import URIError, URISyntaxError
from ..engine import Backend, ColumnJob, Grammar, column_job
from ..shipped import shipped_rule
from ._api import api
from ._components import FIELDS
from ._dialect import BIDI_FORMATTING, IRI, URI, Dialect
from ._reference import IRIReference, Reference, URIReference
from ._visitor import CAPTURES, LEAVES, READS, plan

__all__ = [
    "PARSED_FIELDS",
    "ParsePlan",
    "ValidatePlan",
    "parse_plan",
    "reads_every_reference",
    "validate_plan",
]

#: The fields of a parsed row: ``URIReference``'s components, the port as
#: written (its ``port_text``).
PARSED_FIELDS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")

#: Each parsed field's slot among the parse's (``_components.FIELDS``).
_SLOTS = tuple(FIELDS.index("port_text" if f == "port" else f) for f in PARSED_FIELDS)

#: A parsed row: its fields, or the offset where the text stops matching.
Parsed = tuple[str | None, ...] | int


class ValidatePlan(NamedTuple):
    """The canonical rule name, the C job (or ``None``), and the row test."""

    rule: str
    job: ColumnJob | None
    row: Callable[[str], bool]


class ParsePlan(NamedTuple):
    """The canonical rule name, the fields of a parsed row (some of
    ``PARSED_FIELDS``, in their order), the C job (or ``None``), the row
    parse, the end of the longest viable prefix of a text (for a row whose
    UTF-8 turns ill-formed: the text before that), and the reference a
    text parses to (``URISyntaxError`` where it does not)."""

    rule: str
    fields: tuple[str, ...]
    job: ColumnJob | None
    row: Callable[[str], Parsed]
    viable: Callable[[str], int]
    read: Callable[[str], Reference]


def validate_plan(rule: str, backend: Backend, grammar: Grammar | None = None) -> ValidatePlan:
    """Validating ``rule`` (of ``grammar``, else of the shipped grammars)
    on ``backend``; ``URIError`` for a rule that is not regular (the
    ``abnf`` engine runs those, a text at a time)."""
    if grammar is None:
        found, name = shipped_rule(rule)
    else:
        found, name = grammar, grammar.canonical(rule)
    program = found.program(name)
    if not program.regular:
        msg = (
            f"{name} reaches itself (not a regular rule): columns take regular rules only; "
            "validate its texts one at a time"
        )
        raise URIError(msg, rule=name)
    matcher = found.matcher(name, backend=backend)

    def row(text: str) -> bool:
        return matcher(text) is not None

    return ValidatePlan(name, column_job(backend, program), row)


def _dialect(rule: str) -> tuple[Dialect, str]:
    grammar, name = shipped_rule(rule)
    for dialect in (URI, IRI):
        if grammar is dialect.grammar and name in dialect.parse_rules:
            return dialect, name
    rules = ", ".join((*URI.parse_rules, *IRI.parse_rules))
    msg = (
        f"parse_array takes a rule among {rules}, not {rule!r}: other rules' captures "
        "repeat and nest, which no fixed struct holds; use validate_array, or "
        "Grammar.parse a text at a time"
    )
    raise URIError(msg, rule=name)


def reads_every_reference(rule: str) -> bool:
    """Whether ``rule`` is IRI-reference (in any spelling): every URI and
    IRI reference matches it, as ``canonicalize`` reads a text."""
    return shipped_rule(rule) == shipped_rule("IRI-reference")


def _captures(fields: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The rules a tagged program captures to fill ``fields``, and those
    whose insides it never reads: the visitor's for every field (the
    program ``parse`` runs), else only the rules of those fields, none
    read inside (a program with fewer tags)."""
    if fields == PARSED_FIELDS:
        return CAPTURES, LEAVES
    wanted = {"port_text" if f == "port" else f for f in fields}
    captures = frozenset(name for name, read in READS.items() if read.field in wanted)
    return captures, captures


def parse_plan(
    rule: str,
    backend: Backend,
    fields: tuple[str, ...] = PARSED_FIELDS,
    *,
    distinct: bool = False,
) -> ParsePlan:
    """Parsing ``rule``, one of ``URI``'s or ``IRI``'s parse rules, on
    ``backend``, as ``parse`` (``URIReference``) or ``parse_iri``
    (``IRIReference``) does, each row's ``fields`` (some of
    ``PARSED_FIELDS``, in their order) kept; with ``distinct``, the C job
    writes them dictionary encoded, for a caller that computes something
    once per distinct value."""
    if not fields or any(f not in PARSED_FIELDS for f in fields):
        msg = f"fields must be some of {', '.join(PARSED_FIELDS)}, not {fields!r}"
        raise ValueError(msg)
    fields = tuple(f for f in PARSED_FIELDS if f in fields)
    slots = tuple(_SLOTS[PARSED_FIELDS.index(f)] for f in fields)
    dialect, name = _dialect(rule)
    grammar = dialect.grammar
    tagged = grammar.program(name, *_captures(fields))
    forbidden = "" if dialect is URI else "".join(sorted(BIDI_FORMATTING))
    job = column_job(
        backend,
        grammar.program(name),
        tagged,
        plan(tagged.names),
        tuple(zip(fields, slots, strict=True)),
        forbidden,
        distinct=distinct,
    )
    parse = api(backend).parser_for(URIReference if dialect is URI else IRIReference)

    def row(text: str) -> Parsed:
        try:
            ref = parse(text, name)
        except URISyntaxError as exc:
            return exc.offset if exc.offset is not None else 0
        values = ref._values()
        return tuple(values[slot] for slot in slots)

    def viable(text: str) -> int:
        return grammar.viable_prefix(name, text, backend=backend)

    return ParsePlan(name, fields, job, row, viable, lambda text: parse(text, name))
