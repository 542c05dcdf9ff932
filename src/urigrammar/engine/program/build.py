"""``build_program``: the one place a rule is compiled into a ``Program``.

Its own module, apart from ``program``: a process that loads its programs
from files (``artifact``) never imports the compiler (the analyses, the
automata builders and the regex emitter behind this module).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

from ..automata.dfa import build_tables
from ..automata.nfa import Thompson
from ..automata.tagged import build_tagged
from ..regex.emit import compile_body
from ..syntax.inline import inline_rule
from ..syntax.ir import Expr
from ..syntax.narrow import narrowed, narrowing
from ..syntax.table import RuleTable
from .program import Program

__all__ = ["build_program", "sharing"]


def build_program(
    rules: RuleTable,
    name: str,
    captures: frozenset[str] = frozenset(),
    leaves: frozenset[str] = frozenset(),
    *,
    vetted: bool,
) -> Program:
    """The program of rule ``name`` (canonical) of the table ``rules``: the
    one place that compiles a rule.  ``vetted``: the grammar's regexes may
    backtrack a bounded number of times (``Program.trusted``).  Raises
    ``GrammarError`` for a rule too large to compile."""
    key = (name, tuple(sorted(captures)), tuple(sorted(leaves)))
    if not rules.regular(name.casefold()):
        return Program(*key, regular=False, vetted=vetted)
    body = inline_rule(rules, name, captures - {name}, leaves)
    return Program(*key, regular=True, vetted=vetted, ir=body, **_parts(body, bool(captures)))


def _parts(body: Expr, captured: bool) -> Mapping[str, Any]:
    """``_compile``'s, or the same body's within ``sharing()``."""
    shared = _SHARED.get()
    if shared is None:
        return _compile(body, captured)
    try:
        found = shared.get((body, captured))
    except RecursionError:  # a body nested too deep to hash: not shared
        return _compile(body, captured)
    if found is None:
        found = shared[body, captured] = _compile(body, captured)
    return found


#: The parts compiled within ``sharing()`` in this context, by body.
_SHARED: ContextVar[dict[tuple[Expr, bool], Mapping[str, Any]] | None] = ContextVar(
    "_SHARED", default=None
)


@contextmanager
def sharing() -> Iterator[None]:
    """Within the block, rules whose inlined bodies are equal are compiled
    once: their regexes and automata are a function of the body (and of
    whether it captures), immutable, and shared by the programs that hold
    them.  Most shipped grammars import RFC 3986's or RFC 3987's rules, so
    most of their programs share a body with another grammar's: compiling
    them all (``urigrammar._precompute``) takes about half the time this
    way.  Outside a block nothing is kept, so a process that compiles many
    grammars holds no more than their programs."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def _compile(body: Expr, captured: bool) -> Mapping[str, Any]:
    """The fields of a regular program that follow from its inlined body."""
    compiled = compile_body(body, possessive=True)
    plain = compile_body(body, possessive=False)
    narrow = narrowing(body)
    narrow_regex = narrow_plain = ""
    if narrow is not None:
        thin = narrowed(body, narrow)
        emitted = compile_body(thin, possessive=True)
        if emitted.groups == compiled.groups:  # never otherwise: one shape
            narrow_regex = emitted.source
            narrow_plain = compile_body(thin, possessive=False).source
        else:
            narrow = None
    dfa = tagged = None
    repeated = False
    if captured:
        # Captures inside repetitions included: the tagged DFA's reading is
        # the one Grammar.parse gives on both back ends.  The URI parse
        # rules have none, so there it is the regex's reading.
        repeated = Thompson(body).repeated_capture
        tagged = build_tagged(body, repeated=True)
        if tagged is not None and list(tagged.names) != [n for n, _ in compiled.groups]:
            tagged = None  # never expected: the regex's groups are the oracle
    else:
        dfa = build_tables(body)
    return MappingProxyType(
        {
            "regex": compiled.source,
            "regex_plain": plain.source,
            "narrowing": narrow,
            "narrow_regex": narrow_regex,
            "narrow_regex_plain": narrow_plain,
            "groups": compiled.groups,
            "linear": compiled.linear,
            "deterministic": compiled.deterministic,
            "repeated": repeated,
            "dfa": dfa,
            "tagged": tagged,
        }
    )
