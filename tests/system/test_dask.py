"""urigrammar in Dask map functions, on worker processes.

A partitioned text file of real URLs (``tests/data/real-urls.txt``, some of
them invalid) and more invalid texts goes through
``dask.bag.read_text(...).map(...)`` on a ``distributed.LocalCluster`` of two
worker processes: ``validate`` as is, and ``parse`` in a function that
catches ``URIError``, so ``URIReference`` objects and errors both travel
back to this process by pickle.  The results must equal a plain loop here,
in order.

The same texts, with nulls and empty strings, as a column of a Dask
dataframe go through the columns guide's recipe, ``with_uri_columns`` in
``map_partitions`` (``validate_array`` and ``parse_array`` on each
partition's column as a pyarrow array); each row must give what
``validate`` and ``parse`` give for its text.

Needs ``dask[bag,dataframe]`` and ``distributed`` (``tox -e dask``); the
default environments skip it.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

dask_bag = pytest.importorskip("dask.bag")
distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")
dd = pytest.importorskip("dask.dataframe")

# dask.dataframe requires both.
import pandas as pd  # noqa: E402
import pyarrow as pa  # noqa: E402

import urigrammar as u  # noqa: E402
from urigrammar.arrow import PARSED_FIELDS, parse_array, validate_array  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "real-urls.txt"
INVALID = [
    "http://a b/",
    "http://[::1",
    "http://a/%zz",
    "\x00",
    "http://h:port/",
    " http://a/",
    "http://a/\u00e9",
    "http://a/\udcff",  # written as the byte 0xFF, read back with surrogateescape
]
BLOCKSIZE = 2**12  # about 80 URLs a partition, so the 2,018 make some 25

Result = tuple[str, bool, "u.URIReference | u.URIError"]


def parse_or_error(text: str) -> Result:
    """The map function: ``parse``, with the error as a value."""
    try:
        return (text, True, u.parse(text))
    except u.URIError as exc:
        return (text, False, exc)


def worker_pid(_: str) -> int:
    return os.getpid()


# The columns guide's recipe (docs/guide/columns.md), verbatim (a test holds the two to each other).
def with_uri_columns(part: pd.DataFrame) -> pd.DataFrame:
    urls = pa.array(part["url"])  # pandas' missing values become Arrow nulls
    parsed = pa.array(parse_array(urls))
    reference = parsed.field("reference")  # null where the text does not parse
    added = pa.table(
        {
            "valid": pa.array(validate_array(urls)),
            **{f.name: v for f, v in zip(reference.type, reference.flatten(), strict=True)},
            "error_offset": parsed.field("error_offset"),
        }
    ).to_pandas(types_mapper=pd.ArrowDtype)
    return part.join(added.set_axis(part.index))


def expected_row(text: str | None) -> dict[str, Any]:
    """What ``with_uri_columns`` must give for ``text``, from ``validate``
    and ``parse``."""
    row: dict[str, Any] = {"url": text, "valid": None, "error_offset": None}
    row |= dict.fromkeys(PARSED_FIELDS)
    if text is None:
        return row
    row["valid"] = u.validate("URI-reference", text)
    try:
        ref = u.parse(text)
    except u.URISyntaxError as exc:
        row["error_offset"] = exc.offset
        return row
    row |= {f: getattr(ref, "port_text" if f == "port" else f) for f in PARSED_FIELDS}
    return row


@pytest.fixture(scope="module")
def lines() -> list[str]:
    corpus = CORPUS.read_text(encoding="utf-8").splitlines()
    # The invalid texts spread through the file, so they land in several
    # partitions.
    step = len(corpus) // len(INVALID)
    mixed: list[str] = []
    for i, bad in enumerate(INVALID):
        mixed += [*corpus[i * step : (i + 1) * step], bad]
    return mixed + corpus[len(INVALID) * step :]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # The workers are new processes that do not import this test module, so
    # its map functions travel by value; user code in an installed module
    # travels by reference and needs nothing like this.
    module = sys.modules[__name__]
    cloudpickle.register_pickle_by_value(module)
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        with distributed.Client(cluster) as dask_client:
            yield dask_client
    finally:
        cluster.close()
        cloudpickle.unregister_pickle_by_value(module)


@pytest.fixture
def bag(tmp_path: Path, lines: list[str]) -> Any:
    path = tmp_path / "urls.txt"
    path.write_bytes(
        "".join(line + "\n" for line in lines).encode("utf-8", errors="surrogateescape")
    )
    texts = dask_bag.read_text(
        str(path), blocksize=BLOCKSIZE, encoding="utf-8", errors="surrogateescape"
    ).map(str.rstrip, "\n")
    assert texts.npartitions > 10
    return texts


def test_validate_on_workers_matches_a_local_run(client: Any, bag: Any, lines: list[str]) -> None:
    valid = bag.map(functools.partial(u.validate, "URI-reference"))
    got = valid.compute()
    assert got == [u.validate("URI-reference", line) for line in lines]
    assert got.count(False) >= len(INVALID)


def test_parse_on_workers_pickles_references_and_errors(
    client: Any, bag: Any, lines: list[str]
) -> None:
    parsed, pids = dask_bag.compute(
        bag.map(parse_or_error),
        bag.map(worker_pid),
    )
    assert parsed == [parse_or_error(line) for line in lines]
    # The results were made in the worker processes, not here.
    workers = set(client.run(os.getpid).values())
    assert set(pids) <= workers
    assert os.getpid() not in workers
    errors = [result for _, ok, result in parsed if not ok]
    assert all(isinstance(error, u.URISyntaxError) for error in errors)
    assert {error.text for error in errors} >= set(INVALID)
    assert all(isinstance(ref, u.URIReference) for _, ok, ref in parsed if ok)


def test_the_columns_guide_shows_the_dataframe_recipe_tested_here() -> None:
    page = (ROOT / "docs" / "guide" / "columns.md").read_text(encoding="utf-8")
    assert inspect.getsource(with_uri_columns) in page


def test_dataframe_recipe_on_workers_matches_validate_and_parse(
    client: Any, lines: list[str]
) -> None:
    # Arrow strings are UTF-8, which cannot carry a lone surrogate.
    texts: list[str | None] = [
        line for line in lines if not any("\ud800" <= c <= "\udfff" for c in line)
    ]
    # Nulls and empty strings spread through the partitions.
    for at in range(0, len(texts), 150):
        texts[at:at] = [None, ""]
    frame = dd.from_pandas(pd.DataFrame({"url": texts}), npartitions=8)
    assert frame.npartitions > 1
    got = frame.map_partitions(with_uri_columns).compute()
    assert list(got.columns) == ["url", "valid", *PARSED_FIELDS, "error_offset"]
    assert got.index.tolist() == list(range(len(texts)))
    rows = pa.Table.from_pandas(got, preserve_index=False).to_pylist()
    assert [row["url"] for row in rows] == texts
    wrong = [row for row, text in zip(rows, texts, strict=True) if row != expected_row(text)]
    assert wrong[:5] == []
    assert sum(row["valid"] is False for row in rows) >= len(INVALID) - 1
    assert sum(row["url"] is None for row in rows) > 1
