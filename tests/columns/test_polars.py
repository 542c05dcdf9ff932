"""``urigrammar.polars``: the ``uri`` namespace of expressions and Series
gives, row by row, what ``validate`` and ``parse`` give, on both back ends."""

from __future__ import annotations

import pytest
from _oracle import parsed, validated

from urigrammar.engine import Backend

pl = pytest.importorskip("polars")
pytest.importorskip("urigrammar.polars")

TEXTS: list[str | None] = [
    "http://a:8080/b?c#d",
    None,
    "",
    "x y",
    "http://é/",
    "//[v1.x]:",
    "a:" + "b" * 3000,
]


@pytest.mark.parametrize("rule", ["URI-reference", "IRI", "relative-ref"])
def test_expressions(backend: Backend, rule: str) -> None:
    frame = pl.DataFrame({"u": TEXTS})
    got = frame.lazy().select(
        valid=pl.col("u").uri.is_valid(rule, backend=backend),
        parts=pl.col("u").uri.parse(rule, backend=backend),
        offset=pl.col("u").uri.error_offset(rule, backend=backend),
    )
    out = got.collect()
    assert out["valid"].to_list() == validated(backend, rule, TEXTS)
    expected = parsed(backend, rule, TEXTS)
    assert out["parts"].to_list() == [row["reference"] for row in expected]
    assert out["offset"].to_list() == [row["error_offset"] for row in expected]


def test_series(backend: Backend) -> None:
    series = pl.Series("u", TEXTS)
    assert series.uri.is_valid(backend=backend).to_list() == validated(
        backend, "URI-reference", TEXTS
    )
    parts = series.uri.parse(backend=backend)
    assert parts.name == "u"
    assert parts.to_list() == [r["reference"] for r in parsed(backend, "URI-reference", TEXTS)]


def test_in_a_group_by(backend: Backend) -> None:
    frame = pl.DataFrame({"k": [1, 2, 1, 2, 1], "u": ["a:b", "::", None, "c:d", "e f"]})
    got = (
        frame.group_by("k", maintain_order=True)
        .agg(pl.col("u").uri.is_valid(backend=backend).sum())
        .sort("k")
    )
    assert got.to_dict(as_series=False) == {"k": [1, 2], "u": [1, 1]}
