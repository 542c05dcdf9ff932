"""``build_program``: the one place a rule is compiled into a ``Program``.

Its own module, apart from ``program``: a process that loads its programs
from files (``artifact``) never imports the compiler (the analyses, the
automata builders and the regex emitter behind this module).
"""

from __future__ import annotations

from ..automata.dfa import build_tables
from ..automata.nfa import Thompson
from ..automata.tagged import build_tagged
from ..regex.emit import compile_body
from ..syntax.inline import inline_rule
from ..syntax.narrow import narrowed, narrowing
from ..syntax.table import RuleTable
from .program import Program

__all__ = ["build_program"]


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
    if captures:
        # Captures inside repetitions included: the tagged DFA's reading is
        # the one Grammar.parse gives on both back ends.  The URI parse
        # rules have none, so there it is the regex's reading.
        repeated = Thompson(body).repeated_capture
        tagged = build_tagged(body, repeated=True)
        if tagged is not None and list(tagged.names) != [n for n, _ in compiled.groups]:
            tagged = None  # never expected: the regex's groups are the oracle
    else:
        dfa = build_tables(body)
    return Program(
        *key,
        regular=True,
        vetted=vetted,
        ir=body,
        regex=compiled.source,
        regex_plain=plain.source,
        narrowing=narrow,
        narrow_regex=narrow_regex,
        narrow_regex_plain=narrow_plain,
        groups=compiled.groups,
        linear=compiled.linear,
        deterministic=compiled.deterministic,
        repeated=repeated,
        dfa=dfa,
        tagged=tagged,
    )
