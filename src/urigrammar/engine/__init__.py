"""The ABNF engine: any RFC 5234 grammar, validated and parsed in linear time.

This layer knows nothing of URIs.  It is a pipeline of stages, each a
folder that imports only from the stages before it::

    base/      immutable values, and the wire checks of what is read back
    syntax/    ABNF text -> a resolved rule table; inlining; analyses
    automata/  an inlined rule -> NFA, lazy DFA, Pike VM, minimal DFA,
               tagged DFA, products, as plain tables
    regex/     an inlined rule -> a linear regex, in Python's flavour or
               another engine's
    program/   a compiled rule as plain data (``Program``), the one
               function that builds it, its file, and where files are kept
    backend/   the back ends (pure, native) and the one chooser of what
               runs a program (``choose``); Arrow column jobs
    result/    what a parse makes: records, ``RuleMatch``
    grammar    ``Grammar``, the facade: names, one cache of programs,
               validate, check, parse, regex; ``reference``: the ``abnf``
               engine; ``combined``: products of named rules, kept as
               data; ``load``: ``load_grammar`` and the per-user cache

``abnf`` itself is the reference engine and the one for non-regular rules.
``docs/design.md`` draws the pipeline.

The names below are the engine's internal API for the sibling packages
(``shipped``, ``uri``, ``template``, ``schemes``, ``arrow``): they import
from here, never from a stage's module (``tests/system/test_layers.py``
holds them to it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from .automata.product import difference, intersection
    from .automata.tables import Tables
    from .backend.backend import BACKENDS, NATIVE, PURE, Backend, default_backend, pure_reason
    from .backend.choose import Runs, front, runs, tables_predicate
    from .backend.columns import (
        ColumnJob,
        array_stream,
        column_array,
        column_job,
        column_stream,
    )
    from .backend.native import is_record_class
    from .backend.normal import (
        KeySteps,
        NormalizeUri,
        TextReading,
        host_lookup,
        key_column,
        text_key,
        text_normalizer,
        uri_normalizer,
    )
    from .backend.plan import Plan
    from .base.later import later
    from .base.value import exact, text_of
    from .combined import Part, combination, encode_combinations, recording
    from .grammar import Grammar, Reporting
    from .languages import alphabet, restricted, within
    from .load import cache_dir, cache_problem, clear_cache, load_grammar
    from .program.build import sharing
    from .program.store import PackageStore, Store
    from .reference import ABNF_MAX_LENGTH
    from .regex.emit import Emitter
    from .regex.flavours import FLAVOURS, Regex
    from .result.match import RuleMatch
    from .result.record import Field, Record, record_types, untracked
    from .syntax.analysis import END
    from .syntax.charset import CharSet
    from .syntax.inline import inline_rule, merge_alternatives
    from .syntax.ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq, refs

# Each name is imported from its module on first use (PEP 562): importing
# the engine costs nothing until a name is needed, and a process that loads
# its programs never imports the compiler.
_LAZY: dict[str, str] = {
    "difference": ".automata.product",
    "intersection": ".automata.product",
    "Tables": ".automata.tables",
    "BACKENDS": ".backend.backend",
    "NATIVE": ".backend.backend",
    "PURE": ".backend.backend",
    "Backend": ".backend.backend",
    "default_backend": ".backend.backend",
    "pure_reason": ".backend.backend",
    "Runs": ".backend.choose",
    "front": ".backend.choose",
    "runs": ".backend.choose",
    "tables_predicate": ".backend.choose",
    "ColumnJob": ".backend.columns",
    "array_stream": ".backend.columns",
    "column_array": ".backend.columns",
    "column_job": ".backend.columns",
    "column_stream": ".backend.columns",
    "is_record_class": ".backend.native",
    "Plan": ".backend.plan",
    "exact": ".base.value",
    "text_of": ".base.value",
    "Part": ".combined",
    "combination": ".combined",
    "encode_combinations": ".combined",
    "recording": ".combined",
    "Grammar": ".grammar",
    "Reporting": ".grammar",
    "alphabet": ".languages",
    "restricted": ".languages",
    "within": ".languages",
    "cache_dir": ".load",
    "cache_problem": ".load",
    "clear_cache": ".load",
    "load_grammar": ".load",
    "sharing": ".program.build",
    "PackageStore": ".program.store",
    "Store": ".program.store",
    "ABNF_MAX_LENGTH": ".reference",
    "Emitter": ".regex.emit",
    "FLAVOURS": ".regex.flavours",
    "Regex": ".regex.flavours",
    "RuleMatch": ".result.match",
    "Field": ".result.record",
    "Record": ".result.record",
    "record_types": ".result.record",
    "NormalizeUri": ".backend.normal",
    "uri_normalizer": ".backend.normal",
    "KeySteps": ".backend.normal",
    "host_lookup": ".backend.normal",
    "key_column": ".backend.normal",
    "text_normalizer": ".backend.normal",
    "text_key": ".backend.normal",
    "TextReading": ".backend.normal",
    "untracked": ".result.record",
    "later": ".base.later",
    "END": ".syntax.analysis",
    "CharSet": ".syntax.charset",
    "inline_rule": ".syntax.inline",
    "merge_alternatives": ".syntax.inline",
    "Alt": ".syntax.ir",
    "Cap": ".syntax.ir",
    "Chars": ".syntax.ir",
    "Expr": ".syntax.ir",
    "Ref": ".syntax.ir",
    "Rep": ".syntax.ir",
    "Seq": ".syntax.ir",
    "refs": ".syntax.ir",
}

__all__ = [
    "ABNF_MAX_LENGTH",
    "BACKENDS",
    "END",
    "FLAVOURS",
    "NATIVE",
    "PURE",
    "Alt",
    "Backend",
    "Cap",
    "CharSet",
    "Chars",
    "ColumnJob",
    "Emitter",
    "Expr",
    "Field",
    "Grammar",
    "KeySteps",
    "NormalizeUri",
    "PackageStore",
    "Part",
    "Plan",
    "Record",
    "Ref",
    "Regex",
    "Rep",
    "Reporting",
    "RuleMatch",
    "Runs",
    "Seq",
    "Store",
    "Tables",
    "TextReading",
    "alphabet",
    "array_stream",
    "cache_dir",
    "cache_problem",
    "clear_cache",
    "column_array",
    "column_job",
    "column_stream",
    "combination",
    "default_backend",
    "difference",
    "encode_combinations",
    "exact",
    "front",
    "host_lookup",
    "inline_rule",
    "intersection",
    "is_record_class",
    "key_column",
    "later",
    "load_grammar",
    "merge_alternatives",
    "pure_reason",
    "record_types",
    "recording",
    "refs",
    "restricted",
    "runs",
    "sharing",
    "tables_predicate",
    "text_key",
    "text_normalizer",
    "text_of",
    "untracked",
    "uri_normalizer",
    "within",
]


__getattr__ = lazy_names(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
