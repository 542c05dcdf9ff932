"""The exported regexes (``urigrammar.regex``) in the column engines,
against a Python loop over ``validate``, on the URL corpus sample repeated.

    python bench/bench_regex_flavours.py [--rows 500000] [--rule URI-reference]

Prints microseconds per row for each engine, and whether every engine gave
``validate``'s answer on every row.  Needs pyarrow, polars and duckdb
(skipped when missing).
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import urigrammar

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-urls.txt"


def best(run: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    """The best of ``repeat`` times of ``run`` and its result: the engine's
    own column, converted to Python only after the clock stops."""
    times = []
    got: object = None
    for _ in range(repeat):
        start = time.perf_counter()
        got = run()
        times.append(time.perf_counter() - start)
    return min(times), got


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--rule", default="URI-reference")
    args = parser.parse_args()
    lines = CORPUS.read_text("utf-8").splitlines()
    texts = (lines * (args.rows // len(lines) + 1))[: args.rows]
    rule = args.rule
    want = [urigrammar.validate(rule, t) for t in texts]
    # Each engine: what runs it, and how its column becomes a list of bool.
    engines: dict[str, tuple[Callable[[], object], Callable[[Any], list[bool]]]] = {
        "validate, a Python loop": (lambda: [urigrammar.validate(rule, t) for t in texts], list),
    }
    compiled = re.compile(urigrammar.regex(rule, "python").pattern)
    engines["python re, a Python loop"] = (
        lambda: [compiled.search(t) is not None for t in texts],
        list,
    )
    try:
        import polars as pl

        series = pl.Series(texts)
        rust = urigrammar.regex(rule, "rust").pattern
        engines["polars str.contains (rust)"] = (
            lambda: series.str.contains(rust),
            lambda got: got.to_list(),
        )
    except ImportError:
        pass
    try:
        import pyarrow as pa
        import pyarrow.compute as pc

        array = pa.array(texts, pa.string())
        re2 = urigrammar.regex(rule, "re2").pattern
        engines["pyarrow match_substring_regex (re2)"] = (
            lambda: pc.match_substring_regex(array, re2),
            lambda got: got.to_pylist(),
        )
        try:
            import duckdb

            con = duckdb.connect()
            con.register("rows", pa.table({"s": array}))
            query = f"select regexp_full_match(s, '{re2}') as ok from rows"
            engines["duckdb regexp_full_match (re2)"] = (
                lambda: con.execute(query).to_arrow_table(),
                lambda got: got.column("ok").to_pylist(),
            )
        except ImportError:
            pass
    except ImportError:
        pass
    print(f"{rule}, {len(texts):,} rows ({sum(want):,} valid)")
    for name, (run, listed) in engines.items():
        seconds, got = best(run)
        agrees = listed(got) == want
        print(f"  {name:38} {seconds / len(texts) * 1e6:6.3f} us/row  agrees: {agrees}")


if __name__ == "__main__":
    main()
