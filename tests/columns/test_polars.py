"""``urigrammar.polars``: the ``uri`` namespace of expressions and Series
gives, row by row, what ``validate`` and ``parse`` give, on both back ends."""

from __future__ import annotations

import importlib.util

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


#: Each method of the URL function family, its arguments, and the
#: ``urigrammar.arrow`` function it must agree with.
FAMILY = [
    ("host", (), "host_array", ()),
    ("component", ("query",), "component_array", ("query",)),
    ("parameter", ("c",), "parameter_array", ("c",)),
    ("parameter_names", (), "parameter_names_array", ()),
    ("canonicalize", (), "canonicalize_array", ()),
    ("surt", (), "surt_array", ()),
    ("lint", (), "lint_array", ()),
]
if importlib.util.find_spec("publicsuffixlist") is not None:
    FAMILY += [
        ("registrable_domain", (), "registrable_domain_array", ()),
        ("public_suffix", (), "public_suffix_array", ()),
    ]


@pytest.mark.parametrize(("method", "args", "function", "arrow_args"), FAMILY)
def test_the_url_family_agrees_with_urigrammar_arrow(
    backend: Backend, method: str, args: tuple[str, ...], function: str, arrow_args: tuple[str, ...]
) -> None:
    pa = pytest.importorskip("pyarrow")
    import urigrammar.arrow

    texts = [*TEXTS, "HTTP://WWW.Example.co.uk:80/a/./b?c=%41&utm_source=x#f"]
    expected = pa.array(
        getattr(urigrammar.arrow, function)(pa.array(texts), *arrow_args, backend=backend)
    ).to_pylist()
    series = pl.Series("u", texts)
    made = getattr(series.uri, method)(*args, backend=backend)
    assert made.name == "u"
    assert made.to_list() == expected
    frame = pl.DataFrame({"u": texts}).lazy()
    out = frame.select(getattr(pl.col("u").uri, method)(*args, backend=backend)).collect()
    assert out["u"].to_list() == expected
