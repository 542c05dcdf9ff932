"""Load and compile time of grammars whose classes span Unicode.

    python bench/bench_compile.py [--repeats 5]

The grammar is the shipped RFC 3987 (``grammar/rfc3987.abnf``, IRIs), whose
``ucschar`` spans about a million code points in 17 ranges.  For each rule
it prints the time to compile the rule (inlining, analysis, regex emission
and ``re.compile``), the size of the pattern, whether every choice in it is
decided by the next character, and which matcher ``validate`` uses; then
the time to read each shipped grammar file (``abnf``'s ABNF parser), for
scale.  Best of ``--repeats``.
"""

from __future__ import annotations

import argparse
import re
import time

import urigrammar
from urigrammar.engine import Grammar
from urigrammar.engine.syntax.reader import read_rules
from urigrammar.shipped import grammar_text

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
    print(f"{'rule':16} {'compile ms':>11} {'pattern chars':>14} {'LL(1)':>6} {'matcher':>9}")
    for rule in RULES:

        def compile_once(rule: str = rule) -> object:
            rfc3987.clear_caches()
            re.purge()  # re keeps compiled patterns too: time the real compile
            return rfc3987.program(rule)

        seconds, compiled = best(compile_once, args.repeats)
        pattern = compiled.pattern  # type: ignore[attr-defined]
        decided = compiled.deterministic  # type: ignore[attr-defined]
        matcher = "regex" if rfc3987.matcher(rule) == pattern.fullmatch else "automaton"
        size = len(pattern.pattern)
        print(f"{rule:16} {seconds * 1e3:11.1f} {size:14} {decided!s:>6} {matcher:>9}")
    print(f"\nread rfc3986.abnf with abnf's ABNF parser: {t86 * 1e3:.0f} ms")
    print(f"read rfc3987.abnf with abnf's ABNF parser: {t87 * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
