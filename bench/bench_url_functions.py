"""The URL function family over a column, beside ClickHouse's URL
functions run by chDB (ClickHouse in this process) on the same Arrow
table, end to end from Python: a pyarrow table in, a pyarrow column out.

    python bench/bench_url_functions.py [--rows 1000000] [--repeats 3]

Rows: the corpus repeated to ``--rows``.  Each pair is timed pass by pass
in turns; the table gives each one's fastest pass in µs per row and our
ratio to ClickHouse's:

- ``host_array`` beside ``domain(u)``;
- ``registrable_domain_array`` beside ``cutToFirstSignificantSubdomain(u)``;
- ``component_array`` for the port, path, query and fragment beside
  ``port``, ``path``, ``queryString`` and ``fragment``;
- ``canonicalize_array(CRAWL_KEY)`` on a hundredth of the rows (it runs
  the row function a row at a time), beside the issue's 0.5 µs target.

Where the two read a URL differently: compare_clickhouse.py.  Needs
pyarrow, publicsuffixlist and chdb.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import pyarrow as pa

import urigrammar
from _common import corpus
from urigrammar import arrow

#: The issue's targets: the ratio to ClickHouse, and µs per row.
RATIO_TARGET = 1.0
CANONICAL_TARGET = 0.5


def clickhouse(function: str, table: Any) -> Callable[[], object]:
    import chdb

    query = f"SELECT {function}(u) AS x FROM Python(table)"
    return lambda: chdb.query(query, "ArrowTable").column(0)


def fastest(runs: dict[str, Callable[[], object]], rows: int, repeats: int) -> dict[str, float]:
    """Each run's fastest pass, in µs per row, the runs taking turns."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], (time.perf_counter() - start) / rows * 1e6)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    lines = corpus()
    texts = (lines * (args.rows // len(lines) + 1))[: args.rows]
    table = pa.table({"u": pa.array(texts, pa.string())})
    column = table.column("u").combine_chunks()
    print(f"{args.rows:,} rows, back end {urigrammar.BACKEND}")
    pairs: list[tuple[str, Callable[[], object], str, Callable[[], object]]] = [
        (
            "host_array",
            lambda: pa.array(arrow.host_array(column)),
            "domain",
            clickhouse("domain", table),
        ),
        (
            "registrable_domain_array",
            lambda: pa.array(arrow.registrable_domain_array(column)),
            "cutToFirstSignificantSubdomain",
            clickhouse("cutToFirstSignificantSubdomain", table),
        ),
    ]
    for ours, theirs in (
        ("port", "port"),
        ("path", "path"),
        ("query", "queryString"),
        ("fragment", "fragment"),
    ):
        pairs.append(
            (
                f"component_array({ours!r})",
                lambda ours=ours: pa.array(arrow.component_array(column, ours)),
                theirs,
                clickhouse(theirs, table),
            )
        )
    print(f"{'urigrammar':34} {'µs/row':>8}  {'ClickHouse (chDB)':32} {'µs/row':>8}  {'ratio':>6}")
    for name, run, their_name, their_run in pairs:
        best = fastest({"ours": run, "theirs": their_run}, args.rows, args.repeats)
        ratio = best["ours"] / best["theirs"]
        mark = "" if ratio <= RATIO_TARGET else f"  (target {RATIO_TARGET}×)"
        print(
            f"{name:34} {best['ours']:8.3f}  {their_name + '(u)':32} {best['theirs']:8.3f}  "
            f"{ratio:6.2f}{mark}"
        )
    few = column.slice(0, max(1, args.rows // 100))
    crawl = urigrammar.CRAWL_KEY
    best = fastest(
        {"key": lambda: pa.array(arrow.canonicalize_array(few, crawl))}, len(few), args.repeats
    )
    print(
        f"canonicalize_array(CRAWL_KEY) on {len(few):,} rows: {best['key']:.3f} µs/row "
        f"(target {CANONICAL_TARGET})"
    )


if __name__ == "__main__":
    main()
