"""The ABNF engine: any RFC 5234 grammar, validated and parsed in linear time.

This layer knows nothing of URIs.  Data flow::

    ABNF text --abnf's ABNF parser--> _reader: rules in _ir form (CharSet intervals)
      -> _grammar.Grammar: namespace, imports, core rules, one cache of programs
      -> _program.build_program: the one place a rule is compiled, and where
         the choice of what runs it is written down:
           _compile (inlining, regex source), _nfa (the Thompson automaton),
           _dfa (minimal DFA), _tagged (tagged DFA for captures), _prefix
           (lazy automaton: error offsets and the untrusted-regex fallback)
      -> _artifact (a grammar's rules and programs as JSON data) kept by
         _cache (package data built with the wheel, or the per-user cache)
      -> _backend: PURE (re, Python) or NATIVE (_native, C tables) runs them.
      -> _product: the intersection and difference of two minimal DFAs, for a
         backend to run; _combined: such a combination of named rules, kept
         as data.
      -> _dialect: a rule as a regex for another engine (RE2, Rust, Java).
      -> _record: what a parse makes, a text and the spans of its slots.

``abnf`` itself is the reference engine and the one for non-regular rules.

The names below are the engine's internal API for the sibling packages
(``uri``, ``template``, ``cli``): they import from here, never from a
private module (``tests/system/test_layers.py`` holds them to it).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._errors import GrammarError

if TYPE_CHECKING:
    from pathlib import Path

    from ._backend import BACKENDS, NATIVE, PURE, Backend, Plan, default_backend, pure_reason
    from ._cache import PackageStore, Store
    from ._charset import CharSet
    from ._columns import ColumnJob, array_stream, column_array, column_job, column_stream
    from ._combined import Part, combination
    from ._compile import END, Emitter, compile_body, inline_rule, merge_alternatives
    from ._dialect import DIALECTS, Regex
    from ._grammar import ABNF_MAX_LENGTH, Grammar
    from ._ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq, refs
    from ._match import RuleMatch
    from ._product import difference, intersection
    from ._program import Program
    from ._reader import read_rules
    from ._record import RAW_MAKERS, Field, Record, exact, record_types, untracked
    from ._tables import Tables

# Each name is imported from its module on first use (PEP 562): importing
# the engine, or one of its modules, costs nothing until a name is needed,
# and a process that loads its programs never imports the compiler.
_LAZY: dict[str, str] = {
    "BACKENDS": "_backend",
    "NATIVE": "_backend",
    "PURE": "_backend",
    "Backend": "_backend",
    "Plan": "_backend",
    "default_backend": "_backend",
    "pure_reason": "_backend",
    "PackageStore": "_cache",
    "Store": "_cache",
    "CharSet": "_charset",
    "ColumnJob": "_columns",
    "array_stream": "_columns",
    "column_array": "_columns",
    "column_job": "_columns",
    "column_stream": "_columns",
    "END": "_compile",
    "Emitter": "_compile",
    "compile_body": "_compile",
    "inline_rule": "_compile",
    "merge_alternatives": "_compile",
    "DIALECTS": "_dialect",
    "Regex": "_dialect",
    "ABNF_MAX_LENGTH": "_grammar",
    "Grammar": "_grammar",
    "RuleMatch": "_match",
    "Alt": "_ir",
    "Cap": "_ir",
    "Chars": "_ir",
    "Expr": "_ir",
    "Ref": "_ir",
    "Rep": "_ir",
    "Seq": "_ir",
    "refs": "_ir",
    "difference": "_product",
    "intersection": "_product",
    "Part": "_combined",
    "combination": "_combined",
    "Program": "_program",
    "read_rules": "_reader",
    "Field": "_record",
    "RAW_MAKERS": "_record",
    "exact": "_record",
    "Record": "_record",
    "record_types": "_record",
    "untracked": "_record",
    "Tables": "_tables",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    import importlib

    value = getattr(importlib.import_module("." + module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "ABNF_MAX_LENGTH",
    "BACKENDS",
    "DIALECTS",
    "END",
    "NATIVE",
    "PURE",
    "RAW_MAKERS",
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
    "PackageStore",
    "Part",
    "Plan",
    "Program",
    "Record",
    "Ref",
    "Regex",
    "Rep",
    "RuleMatch",
    "Seq",
    "Store",
    "Tables",
    "array_stream",
    "cache_dir",
    "cache_problem",
    "clear_cache",
    "column_array",
    "column_job",
    "column_stream",
    "combination",
    "compile_body",
    "default_backend",
    "difference",
    "exact",
    "inline_rule",
    "intersection",
    "load_grammar",
    "merge_alternatives",
    "pure_reason",
    "read_rules",
    "record_types",
    "refs",
    "untracked",
]


def load_grammar(
    source: str | os.PathLike[str],
    *,
    imports: Sequence[Grammar] = (),
    name: str | None = None,
    cache: bool = False,
) -> Grammar:
    """A ``Grammar`` from ABNF (RFC 5234, rules starting in column 0): the
    text itself (a ``str`` holding ``=`` or a line break), or a path to a
    file of it (any other ``str``, or an ``os.PathLike``), read as UTF-8.

    Rules the text uses but does not define come from ``imports``, then
    from RFC 5234's core rules; a rule found nowhere raises
    ``GrammarError`` here, naming the rule and where it is used, and so
    does a rule two imports define differently, naming both (the text
    settles it by defining the rule itself; see ``Grammar``).

    With ``cache=True`` the rules and the programs compiled from them are
    kept in the per-user cache directory (``urigrammar.cache_dir()``) and
    read from there by the next process that loads the same texts, so that
    ``abnf`` reads the grammar once.  Off by default: a library call should
    not write to the user's home unasked; the command line turns it on."""
    from pathlib import Path

    from ._cache import CacheStore, cache_dir
    from ._grammar import Grammar

    if isinstance(source, str) and ("=" in source or "\n" in source):
        text, label = source, name or "<text>"
    elif isinstance(source, str) and not source.strip():
        msg = "load_grammar needs ABNF text or the path of a file of it, not an empty string"
        raise GrammarError(msg)
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = name or str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            # A file that is missing, unreadable or not UTF-8 is a grammar
            # that does not load, like one that does not parse.
            msg = f"{label}: cannot read the grammar: {exc}"
            raise GrammarError(msg) from exc
    else:
        msg = f"source must be ABNF text (str) or a path, not {type(source).__name__}"
        raise TypeError(msg)
    for grammar in imports:
        if not isinstance(grammar, Grammar):
            msg = f"imports must be Grammar objects, not {type(grammar).__name__}"
            raise TypeError(msg)
    store: CacheStore | None = None
    if cache:
        # The entry's name is what its content depends on: the texts (its
        # own and its imports'), and the label that the header records.
        import hashlib

        digest = hashlib.sha256(repr((label, text, [g.lineage for g in imports])).encode())
        store = CacheStore(cache_dir(), digest.hexdigest())
    return Grammar(lambda: text, name=label, imports=imports, store=store)


def clear_cache() -> int:
    """Remove every compiled grammar from the per-user cache
    (``cache_dir()``); how many files.  ``OSError`` when the directory is
    one the cache refuses to use (a symbolic link, another user's, or
    writable by others): it is left alone."""
    from ._cache import cache_dir, clear

    return clear(cache_dir())


def cache_problem() -> str | None:
    """Why the per-user cache cannot be used, or ``None`` when it can (it
    is created, mode 0700, when missing)."""
    from ._cache import cache_dir, problem

    return problem(cache_dir())


def cache_dir() -> Path:
    """The per-user cache directory of compiled grammars:
    ``URIGRAMMAR_CACHE_DIR``, else the platform's user cache directory."""
    from ._cache import cache_dir as where

    return where()
