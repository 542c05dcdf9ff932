"""urigrammar in Dask map functions, on worker processes.

A partitioned text file of real URLs (``tests/data/real-urls.txt``, some of
them invalid) and more invalid texts goes through
``dask.bag.read_text(...).map(...)`` on a ``distributed.LocalCluster`` of two
worker processes: ``validate`` as is, and ``parse`` in a function that
catches ``URIError``, so ``URIReference`` objects and errors both travel
back to this process by pickle.  The results must equal a plain loop here,
in order.

Needs ``dask[bag]`` and ``distributed`` (``tox -e dask``); the default
environments skip it.
"""

from __future__ import annotations

import functools
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

import urigrammar as u  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "data" / "real-urls.txt"
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
