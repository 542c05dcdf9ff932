"""Where ClickHouse's URL functions (run by chDB) read the corpus
differently from the URL function family: for each pair, the number of
rows whose answers differ, and a few of them.  Not timed (that is
bench_url_functions.py); the columns guide's table comes from this run.

    python bench/compare_clickhouse.py [--examples 3]

ClickHouse gives ``""`` (or port 0) where it finds nothing; the family
gives a null, for a component that is absent or a row that does not
parse.  Those are counted as agreeing when ClickHouse's ``""`` meets our
null or ``""``, and its port 0 meets a null.  Needs pyarrow,
publicsuffixlist and chdb.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import pyarrow as pa

from _common import corpus
from urigrammar import arrow

#: Each pair: our function, ClickHouse's.
PAIRS: dict[str, tuple[Callable[[Any], object], str]] = {
    "host": (arrow.host_array, "domain"),
    "registrable domain": (arrow.registrable_domain_array, "cutToFirstSignificantSubdomain"),
    "port": (lambda c: arrow.component_array(c, "port"), "port"),
    "path": (lambda c: arrow.component_array(c, "path"), "path"),
    "query": (lambda c: arrow.component_array(c, "query"), "queryString"),
    "fragment": (lambda c: arrow.component_array(c, "fragment"), "fragment"),
}


def _agree(ours: object, theirs: object) -> bool:
    if ours is None:
        return theirs in ("", 0)
    if isinstance(theirs, int):
        return str(theirs) == str(ours).lstrip("0") or (ours == "" and theirs == 0)
    return ours == theirs


def kind(ours: object, theirs: object) -> str:
    """What sort of difference a row's pair of answers is."""
    if ours is None:
        return "only ClickHouse finds one"
    if theirs in ("", 0):
        return "only urigrammar finds one"
    if isinstance(ours, str) and isinstance(theirs, str) and ours == theirs.lower():
        return "case only"
    return "other"


def main() -> None:
    import chdb

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--examples", type=int, default=3)
    args = ap.parse_args()
    texts = corpus()
    table = pa.table({"u": pa.array(texts, pa.string())})
    column = table.column("u").combine_chunks()
    print(f"{len(texts):,} rows")
    for name, (function, clickhouse) in PAIRS.items():
        ours = pa.array(function(column)).to_pylist()
        query = f"SELECT {clickhouse}(u) AS x FROM Python(table)"
        theirs = chdb.query(query, "ArrowTable").column(0).to_pylist()
        differ = [
            (text, mine, other)
            for text, mine, other in zip(texts, ours, theirs, strict=True)
            if not _agree(mine, other)
        ]
        print(f"\n{name} vs {clickhouse}(u): {len(differ)} rows differ")
        kinds: dict[str, list[tuple[str, object, object]]] = {}
        for row in differ:
            kinds.setdefault(kind(row[1], row[2]), []).append(row)
        for sort, rows in sorted(kinds.items()):
            print(f"  {sort}: {len(rows)}")
            for text, mine, other in rows[: args.examples]:
                print(f"    {text[:90]!r}\n      urigrammar {mine!r}  ClickHouse {other!r}")


if __name__ == "__main__":
    main()
