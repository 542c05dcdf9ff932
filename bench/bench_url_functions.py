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
- ``canonicalize_array(CRAWL_KEY)`` on a tenth of the rows, beside a
  target of 0.5 µs a row.

Then, in child processes, a stream of 250,000, 1,000,000 and 3,000,000
rows in batches of 65,536 through ``host_array`` and
``registrable_domain_array``, each batch made when it is pulled: how much
resident memory grew, beside the size of one batch.

With ``--alone``, only ours, in a process that never loads chDB: the
host job (the C parse that writes each row's host, dictionary encoded),
``host_array`` and ``registrable_domain_array``, each pass after the same
pause.

Where the two read a URL differently: compare_clickhouse.py.  Needs
pyarrow, publicsuffixlist, chdb and nanoarrow.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pyarrow as pa

import urigrammar
from _common import corpus
from bench_columns import rss
from urigrammar import arrow

#: The issue's targets: the ratio to ClickHouse, and µs per row.
RATIO_TARGET = 1.0
CANONICAL_TARGET = 0.5


def clickhouse(function: str, table: Any) -> Callable[[], object]:
    import chdb

    query = f"SELECT {function}(u) AS x FROM Python(table)"
    return lambda: chdb.query(query, "ArrowTable").column(0)


#: The pause after each pass: ClickHouse's worker threads keep running
#: for a moment after a query returns, and a pass timed meanwhile shares
#: the cores with them (it took 1.6 times as long here).
SETTLE = 1.0


def fastest(runs: dict[str, Callable[[], object]], rows: int, repeats: int) -> dict[str, float]:
    """Each run's fastest pass, in µs per row, the runs taking turns, each
    after a pause (``SETTLE``)."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            time.sleep(SETTLE)
            start = time.perf_counter()
            run()
            best[name] = min(best[name], (time.perf_counter() - start) / rows * 1e6)
    return best


def stream_child(rows: int, batch: int) -> None:
    """Pull a stream of ``rows`` rows through host_array and
    registrable_domain_array, batch by batch; print the most resident
    memory grew (bytes) and one batch's size."""
    import nanoarrow

    lines = corpus()

    def batches() -> Any:
        for start in range(0, rows, batch):
            texts = [lines[i % len(lines)] for i in range(start, min(rows, start + batch))]
            yield pa.record_batch({"u": pa.array(texts)})

    schema = pa.schema({"u": pa.string()})
    size = next(batches()).nbytes
    base = rss()
    grew = 0
    for make in (arrow.host_array, arrow.registrable_domain_array):
        reader = pa.RecordBatchReader.from_batches(schema, batches())
        # nanoarrow reads a stream of arrays a batch at a time (pyarrow
        # reads one whole, or only a stream of structs a batch at a time).
        for _batch in nanoarrow.ArrayStream(make(reader)):
            grew = max(grew, rss() - base)
    print(f"{grew} {size}")


def memory(batch: int) -> None:
    for rows in (250_000, 1_000_000, 3_000_000):
        command = [sys.executable, __file__, "--stream-child", str(rows), "--batch", str(batch)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        grew, size = map(int, done.stdout.split())
        print(
            f"a stream of {rows:,} rows: resident memory grew at most {grew / 2**20:.1f} MB "
            f"(one batch of {batch:,} rows: {size / 2**20:.1f} MB)"
        )


def alone(rows: int, repeats: int) -> None:
    from urigrammar.arrow import _parsed
    from urigrammar.engine import default_backend
    from urigrammar.uri._columns import parse_plan

    lines = corpus()
    column = pa.array((lines * (rows // len(lines) + 1))[:rows], pa.string())
    plan = parse_plan("IRI-reference", default_backend(), ("host",), distinct=True)
    best = fastest(
        {
            "the host job": lambda: _parsed(pa, column, plan),
            "host_array": lambda: pa.array(arrow.host_array(column)),
            "registrable_domain_array": lambda: pa.array(arrow.registrable_domain_array(column)),
        },
        rows,
        repeats,
    )
    print(f"{rows:,} rows, back end {urigrammar.BACKEND}, no chDB in the process")
    for name, took in best.items():
        print(f"{name:34} {took:8.3f} µs/row")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--batch", type=int, default=65_536)
    ap.add_argument("--alone", action="store_true", help="ours only, no chDB in the process")
    ap.add_argument("--stream-child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.stream_child:
        stream_child(args.stream_child, args.batch)
        return
    if args.alone:
        alone(args.rows, args.repeats)
        return

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
    few = column.slice(0, max(1, args.rows // 10))
    crawl = urigrammar.CRAWL_KEY
    best = fastest(
        {"key": lambda: pa.array(arrow.canonicalize_array(few, crawl))}, len(few), args.repeats
    )
    print(
        f"canonicalize_array(CRAWL_KEY) on {len(few):,} rows: {best['key']:.3f} µs/row "
        f"(target {CANONICAL_TARGET})"
    )
    memory(args.batch)


if __name__ == "__main__":
    main()
