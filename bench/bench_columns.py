"""Whole Arrow columns: ``urigrammar.arrow`` beside a Python loop over
``validate`` and the column engines' own regex matching.

1,000,000 rows (the corpus repeated), one process, each run's fastest
pass, the runs taking turns pass by pass:

- ``validate_array`` and ``parse_array`` (native, then pure on a tenth of
  the rows: the pure way goes row by row in Python);
- a Python loop over ``validate``;
- polars ``str.contains`` and pyarrow ``match_substring_regex`` with the
  library's URI-reference regex exported for each (``urigrammar.regex``,
  the ``rust`` and ``re2`` flavours), with a count of the rows where they
  disagree with ``validate_array``;

then the peak memory of a stream of batches, in a child process that
makes each batch when it is pulled.  Prints µs/row and the ratios the
targets name; never fails on them.

    python bench/bench_columns.py [--rows 1000000] [--repeats 5] [--batch 65536]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import urigrammar
from _common import corpus
from urigrammar.arrow import parse_array, validate_array
from urigrammar.engine import NATIVE, PURE

#: The issue's targets, µs per row.
VALIDATE_TARGET = 0.04
PARSE_TARGET = 0.25
LOOP_RATIO_TARGET = 4.0


def fastest(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Each run's fastest pass, in seconds, the runs taking turns."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def rss() -> int:
    """The resident memory now, in bytes (Linux), else the peak so far."""
    try:
        with open("/proc/self/statm") as file:
            return int(file.read().split()[1]) * resource.getpagesize()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def stream_child(rows: int, batch: int) -> None:
    """Pull a stream of ``rows`` rows through validate_array and
    parse_array, batch by batch, each batch made when it is pulled; print
    the most resident memory grew over its start (bytes), and the size of
    one batch and its parsed output."""
    import pyarrow as pa

    lines = corpus()

    def batches() -> Iterator[Any]:
        for start in range(0, rows, batch):
            texts = [lines[i % len(lines)] for i in range(start, min(rows, start + batch))]
            yield pa.record_batch({"u": pa.array(texts)})

    schema = pa.schema({"u": pa.string()})
    one = next(batches())
    size = one.nbytes + pa.array(parse_array(one.column(0))).nbytes
    del one
    base = rss()
    grew = 0
    for make in (validate_array, parse_array):
        reader = pa.RecordBatchReader.from_batches(schema, batches())
        out = pa.chunked_array(make(reader)) if make is validate_array else None
        if out is not None:  # bool: a column, not a table; its batches are small
            grew = max(grew, rss() - base)
            del out
            continue
        for _batch in pa.RecordBatchReader.from_stream(make(reader)):
            grew = max(grew, rss() - base)
    print(f"{grew} {size}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--batch", type=int, default=65_536)
    parser.add_argument("--stream-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stream_child:
        stream_child(args.rows, args.batch)
        return
    import polars as pl
    import pyarrow as pa
    import pyarrow.compute as pc

    lines = corpus()
    texts = (lines * (args.rows // len(lines) + 1))[: args.rows]
    column = pa.array(texts)
    series = pl.Series("u", texts)
    tenth = column.slice(0, args.rows // 10)
    rust = urigrammar.regex("URI-reference", "rust").pattern
    re2 = urigrammar.regex("URI-reference", "re2").pattern
    validate = urigrammar.validate
    print(f"{args.rows:,} rows ({len(lines):,} corpus URLs repeated), native: {NATIVE is not None}")

    runs: dict[str, Callable[[], object]] = {
        "validate_array": lambda: pa.array(validate_array(column, backend=NATIVE)),
        "parse_array": lambda: pa.array(parse_array(column, backend=NATIVE)),
        "validate_array (pure, a tenth)": lambda: pa.array(validate_array(tenth, backend=PURE)),
        "parse_array (pure, a tenth)": lambda: pa.array(parse_array(tenth, backend=PURE)),
        "loop over validate": lambda: [validate("URI-reference", t) for t in texts],
        "polars str.contains": lambda: series.str.contains(rust),
        "pyarrow match_substring_regex": lambda: pc.match_substring_regex(column, re2),
    }
    if NATIVE is None:
        for name in ("validate_array", "parse_array"):
            del runs[name]
    best = fastest(runs, args.repeats)
    per_row = {
        name: seconds / (len(tenth) if "tenth" in name else args.rows) * 1e6
        for name, seconds in best.items()
    }
    print(f"\n{'run':<34} {'µs/row':>8}")
    for name, micro in per_row.items():
        print(f"{name:<34} {micro:8.3f}")

    truth = pa.array(validate_array(column)).to_pylist()
    for name, got in (
        ("polars", series.str.contains(rust).to_list()),
        ("pyarrow", pc.match_substring_regex(column, re2).to_pylist()),
    ):
        wrong = sum(g != t for g, t in zip(got, truth, strict=True))
        print(f"{name}'s regex disagrees with validate_array on {wrong} rows")

    if NATIVE is not None:
        loop = per_row["loop over validate"]
        print("\ntargets")
        print(
            f"validate_array {per_row['validate_array']:.3f} µs/row "
            f"(target <= {VALIDATE_TARGET}): "
            f"{per_row['validate_array'] / VALIDATE_TARGET:.2f} of it; "
            f"{loop / per_row['validate_array']:.1f}x the loop (target >= {LOOP_RATIO_TARGET}x)"
        )
        print(
            f"parse_array    {per_row['parse_array']:.3f} µs/row (target <= {PARSE_TARGET}): "
            f"{per_row['parse_array'] / PARSE_TARGET:.2f} of it"
        )
        for peer in ("polars str.contains", "pyarrow match_substring_regex"):
            print(f"validate_array is {per_row[peer] / per_row['validate_array']:.1f}x {peer}")

    child = subprocess.run(
        [
            sys.executable,
            __file__,
            "--stream-child",
            "--rows",
            str(args.rows),
            "--batch",
            str(args.batch),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    grew, one_batch = map(int, child.stdout.split())
    print(
        f"\nstream of {args.rows:,} rows in batches of {args.batch:,}: resident memory grew "
        f"at most {grew / 2**20:.1f} MB; one batch and its parsed output: "
        f"{one_batch / 2**20:.1f} MB"
    )


if __name__ == "__main__":
    main()
