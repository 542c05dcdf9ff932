"""Columns from polars, DuckDB and nanoarrow, and results they read, on
both back ends; and the pure back end without pyarrow."""

from __future__ import annotations

import sys

import pytest
from _oracle import parsed, validated

from urigrammar import MissingExtraError
from urigrammar.arrow import parse_array, validate_array
from urigrammar.engine import PURE, Backend

TEXTS: list[str | None] = [
    "http://a/b?c#d",
    None,
    "",
    "x y",
    "http://é/",
    "//h:99999999999999999999",
]


def test_polars_series(backend: Backend) -> None:
    pl = pytest.importorskip("polars")
    series = pl.Series("u", TEXTS)
    assert pl.Series(validate_array(series, backend=backend)).to_list() == validated(
        backend, "URI-reference", TEXTS
    )
    assert pl.Series(parse_array(series, backend=backend)).to_list() == parsed(
        backend, "URI-reference", TEXTS
    )
    chunked = pl.concat([series[:3], series[3:]], rechunk=False)
    assert pl.Series(validate_array(chunked[1:], "IRI", backend=backend)).to_list() == validated(
        backend, "IRI", TEXTS[1:]
    )


def test_duckdb(backend: Backend) -> None:
    duckdb = pytest.importorskip("duckdb")
    source = duckdb.connect()
    source.execute("create table t (u varchar)")
    source.executemany("insert into t values (?)", [[text] for text in TEXTS])
    # The results are read by another connection: a query cannot read
    # from its own connection while it runs.
    reader = duckdb.connect()
    # DuckDB finds them by their variable names.
    verdicts = validate_array(source.sql("select u from t"), backend=backend)  # noqa: F841
    assert reader.sql("select * from verdicts").fetchall() == [
        (v,) for v in validated(backend, "URI-reference", TEXTS)
    ]
    components = parse_array(source.sql("select u from t"), backend=backend)  # noqa: F841
    got = reader.sql("select reference, error_offset from components").fetchall()
    assert [{"reference": r, "error_offset": e} for r, e in got] == parsed(
        backend, "URI-reference", TEXTS
    )


def test_nanoarrow(backend: Backend) -> None:
    na = pytest.importorskip("nanoarrow")
    column = na.c_array(TEXTS, na.string())
    assert list(na.Array(validate_array(column, backend=backend)).to_pylist()) == validated(
        backend, "URI-reference", TEXTS
    )
    large = na.c_array(TEXTS, na.large_string())
    assert list(na.Array(parse_array(large, backend=backend)).to_pylist()) == parsed(
        backend, "URI-reference", TEXTS
    )


class _Column:
    """A column by its interface alone: the pure way asks pyarrow first."""

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]:
        raise AssertionError("read before pyarrow was asked for")


def test_the_pure_back_end_says_pyarrow_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(MissingExtraError, match=r"pyarrow.*urigrammar\[arrow\]"):
        validate_array(_Column(), backend=PURE)
    with pytest.raises(MissingExtraError, match="parse_array on the pure back end needs pyarrow"):
        parse_array(_Column(), backend=PURE)
