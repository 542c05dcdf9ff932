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

``abnf`` itself is the reference engine and the one for non-regular rules.

The names below are the engine's internal API for the sibling packages
(``uri``, ``template``, ``cli``): they import from here, never from a
private module (``tests/test_layers.py`` holds them to it).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from .._errors import GrammarError
from ._backend import BACKENDS, NATIVE, PURE, Backend, Plan, default_backend, pure_reason
from ._cache import CacheStore, PackageStore, Store, cache_dir
from ._charset import CharSet
from ._compile import END, Emitter, compile_body, inline_rule, merge_alternatives
from ._grammar import ABNF_MAX_LENGTH, Grammar
from ._ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq, refs
from ._program import Program
from ._reader import read_rules

__all__ = [
    "ABNF_MAX_LENGTH",
    "BACKENDS",
    "END",
    "NATIVE",
    "PURE",
    "Alt",
    "Backend",
    "Cap",
    "CharSet",
    "Chars",
    "Emitter",
    "Expr",
    "Grammar",
    "PackageStore",
    "Plan",
    "Program",
    "Ref",
    "Rep",
    "Seq",
    "Store",
    "cache_dir",
    "compile_body",
    "default_backend",
    "inline_rule",
    "load_grammar",
    "merge_alternatives",
    "pure_reason",
    "read_rules",
    "refs",
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

    Rules the text uses but does not define come from ``imports``, in
    order, then from RFC 5234's core rules; a rule found nowhere raises
    ``GrammarError`` here, naming the rule and where it is used.

    With ``cache=True`` the rules and the programs compiled from them are
    kept in the per-user cache directory (``urigrammar.cache_dir()``) and
    read from there by the next process that loads the same texts, so that
    ``abnf`` reads the grammar once.  Off by default: a library call should
    not write to the user's home unasked; the command line turns it on."""
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
    store: Store | None = None
    if cache:
        # The entry's name is what its content depends on: the texts (its
        # own and its imports'), and the label that the header records.
        digest = hashlib.sha256(repr((label, text, [g.lineage for g in imports])).encode())
        store = CacheStore(cache_dir(), digest.hexdigest())
    return Grammar(lambda: text, name=label, imports=imports, store=store)
