"""Time and peak memory of ``load_grammar`` against the size of the text,
up to a megabyte, beside ``abnf``'s reading of the same text where it
finishes in reasonable time.

    python bench/bench_grammar_loading.py [--largest BYTES] [--abnf-largest BYTES]

Four shapes of grammar, each grown to 10 KB, 100 KB and 1 MB (by default):

* ``comment``: one rule and one long comment line;
* ``rules``: independent small rules, as real grammars are written;
* ``chain``: each rule refers to the next (``r0 = r1`` ...);
* ``alternatives``: rules of 40 alternatives each, joined by one rule.

Each load runs in this process on a fresh text (no cache), timed once
with ``time.perf_counter`` and once more under ``tracemalloc`` for the
peak of Python's allocations.  The last column is µs per KB: flat when
time is linear in size.  ``abnf``'s ``rulelist`` reading of the whole text
is timed up to ``--abnf-largest`` (its time and memory grow with the
square of a line's length).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable

from abnf.parser import ABNFGrammarRule

import urigrammar
from urigrammar.engine.syntax.reader import crlf


def comment(size: int) -> str:
    return 'a = "x" ; ' + "c" * max(size - 12, 0) + "\n"


def rules(size: int) -> str:
    line = 'r{i} = "a" 1*DIGIT / %x30-39 [ "-" ALPHA ] ; rule {i}\n'
    count = max(size // len(line.format(i=10_000)), 1)
    return "".join(line.format(i=i) for i in range(count))


def chain(size: int) -> str:
    count = max(size // len("r10000 = r10001\n"), 1)
    return "".join(f"r{i} = r{i + 1}\n" for i in range(count)) + f'r{count} = "x"\n'


def alternatives(size: int) -> str:
    rule = " / ".join(f'"{j}"' for j in range(40))
    count = max(size // (len(rule) + 10), 1)
    top = "top = " + " / ".join(f"a{i}" for i in range(min(count, 60))) + "\n"
    return top + "".join(f"a{i} = {rule}\n" for i in range(count))


SHAPES: dict[str, Callable[[int], str]] = {
    "comment": comment,
    "rules": rules,
    "chain": chain,
    "alternatives": alternatives,
}


def measure(call: Callable[[], object]) -> tuple[float, int]:
    start = time.perf_counter()
    call()
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    call()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=1_000_000)
    parser.add_argument("--abnf-largest", type=int, default=10_000)
    args = parser.parse_args()
    sizes = [size for size in (10_000, 100_000, 1_000_000) if size <= args.largest]
    print(f"{'shape':<13} {'KB':>6} {'reader':<9} {'time s':>8} {'peak MB':>8} {'µs/KB':>8}")
    for name, make in SHAPES.items():
        for size in sorted({*sizes, 2_500, 5_000} if args.abnf_largest else sizes):
            text = make(size)
            kb = len(text) / 1000
            readers: list[tuple[str, Callable[[], object]]] = []
            if size in sizes:
                readers.append(("urigrammar", lambda t=text: urigrammar.load_grammar(t)))
            if size <= args.abnf_largest:
                converted = crlf(text)
                readers.append(
                    ("abnf", lambda c=converted: ABNFGrammarRule("rulelist").parse_all(c))
                )
            for reader, call in readers:
                elapsed, peak = measure(call)
                print(
                    f"{name:<13} {kb:>6.0f} {reader:<9} {elapsed:>8.3f} "
                    f"{peak / 1e6:>8.1f} {elapsed * 1e6 / kb:>8.0f}"
                )


if __name__ == "__main__":
    main()
