"""Load and compile time of grammars whose classes span Unicode.

    python bench/bench_compile.py [--repeats 5]

The grammar is the shipped RFC 3987 (``grammar/rfc3987.abnf``, IRIs), whose
``ucschar`` spans about a million code points in 17 ranges.  For each rule
it prints the time to compile the rule from its rule table
(``build_program``: inlining, analysis, regex emission, the minimal DFA)
and then ``re.compile`` its regex, the size of the pattern, whether every
choice in it is decided by the next character, and what validates it on
each back end (``backend.choose``); then the time to read each shipped
grammar file (``read_rules``), for scale, and how many of the shipped
grammars' regular programs have a body of their own once inlined (the
rest share one, which ``engine.sharing()`` compiles once).  Best of
``--repeats``.
"""

from __future__ import annotations

import argparse
import re
import time

import urigrammar
from urigrammar.engine import NATIVE, PURE, Grammar, runs
from urigrammar.engine.program.build import build_program
from urigrammar.engine.program.program import Program
from urigrammar.engine.syntax.inline import inline_rule
from urigrammar.engine.syntax.reader import read_rules
from urigrammar.shipped import FILES, grammar_text

RULES = ("ucschar", "iunreserved", "ipath-abempty", "ihost", "IRI", "IRI-reference")


def best(run: object, repeats: int) -> tuple[float, object]:
    assert callable(run)
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    t86, _ = best(lambda: read_rules(grammar_text("rfc3986.abnf")), args.repeats)
    t87, _ = best(lambda: read_rules(grammar_text("rfc3987.abnf")), args.repeats)
    rfc3987: Grammar = urigrammar.RFC3987
    table = rfc3987.rules
    print(
        f"{'rule':16} {'compile ms':>11} {'re ms':>7} {'pattern chars':>14} {'LL(1)':>6} "
        f"{'native':>7} {'pure':>6}"
    )
    for rule in RULES:
        name = rfc3987.canonical(rule)

        def compile_once(name: str = name) -> Program:
            return build_program(table, name, frozenset(), frozenset(), vetted=rfc3987.vetted)

        seconds, program = best(compile_once, args.repeats)
        assert isinstance(program, Program)

        def regex_once(source: str = program.source) -> object:
            re.purge()  # re keeps compiled patterns too: time the real compile
            return re.compile(source)

        regex_seconds, _ = best(regex_once, args.repeats)
        chosen = [runs(program, backend).validates for backend in (NATIVE, PURE)]
        print(
            f"{rule:16} {seconds * 1e3:11.1f} {regex_seconds * 1e3:7.1f} "
            f"{len(program.source):14} {program.deterministic!s:>6} {chosen[0]:>7} {chosen[1]:>6}"
        )
    print(f"\nread rfc3986.abnf (read_rules): {t86 * 1e3:.0f} ms")
    print(f"read rfc3987.abnf (read_rules): {t87 * 1e3:.0f} ms")
    bodies = []
    for grammar, _ in FILES:
        for rule in grammar.all_names:
            name = grammar.canonical(rule)
            if grammar.rules.regular(name.casefold()):
                bodies.append(inline_rule(grammar.rules, name))
    print(
        f"shipped grammars: {len(bodies):,} regular programs, "
        f"{len(set(bodies)):,} bodies once inlined"
    )


if __name__ == "__main__":
    main()
