"""A ``uri`` namespace on polars expressions and Series, registered when
this module is imported::

    import polars as pl
    import urigrammar.polars  # noqa: F401

    frame.with_columns(
        valid=pl.col("u").uri.is_valid(),
        parts=pl.col("u").uri.parse(),
    )

``is_valid(rule)`` is ``urigrammar.arrow.validate_array`` on each batch
(null in, null out); ``parse(rule)`` the ``reference`` struct of
``parse_array`` (null where the text does not parse), and
``error_offset(rule)`` where such a text stops matching, in code points.
Each takes ``backend=`` as those functions do.  The batches go to the C
extension through the Arrow PyCapsule interface, without a copy and with
no Python object per row.  Needs polars
(``pip install 'urigrammar[polars]'``).
"""

from __future__ import annotations

from ._errors import MissingExtraError

try:
    import polars as pl
except ImportError:  # pragma: no cover - the extra is missing
    msg = "urigrammar.polars needs polars, which is not installed: pip install 'urigrammar[polars]'"
    raise MissingExtraError(msg) from None

from .arrow import PARSED_FIELDS, parse_array, validate_array
from .engine import Backend

__all__ = ["REFERENCE", "URIExpr", "URISeries"]

#: The type of ``parse()``: the components as strings (the port as its
#: digits: ``port = *DIGIT`` has no bound).
REFERENCE = pl.Struct(dict.fromkeys(PARSED_FIELDS, pl.String))


def _valid(series: pl.Series, rule: str, backend: Backend | None) -> pl.Series:
    made = validate_array(series, rule, backend=backend)
    return pl.Series(series.name, made, dtype=pl.Boolean)


def _parsed(series: pl.Series, rule: str, backend: Backend | None) -> pl.DataFrame:
    made = parse_array(series, rule, backend=backend)
    return pl.Series(series.name, made).struct.unnest()


def _reference(series: pl.Series, rule: str, backend: Backend | None) -> pl.Series:
    return _parsed(series, rule, backend)["reference"].alias(series.name)


def _error_offset(series: pl.Series, rule: str, backend: Backend | None) -> pl.Series:
    return _parsed(series, rule, backend)["error_offset"].alias(series.name)


@pl.api.register_expr_namespace("uri")
class URIExpr:
    """``pl.col(...).uri``: strict RFC 3986 / RFC 3987 validation and parsing."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def is_valid(self, rule: str = "URI-reference", *, backend: Backend | None = None) -> pl.Expr:
        """Whether each text matches ``rule`` (any rule of the shipped grammars)."""
        return self._expr.map_batches(
            lambda s: _valid(s, rule, backend), return_dtype=pl.Boolean, is_elementwise=True
        )

    def parse(self, rule: str = "URI-reference", *, backend: Backend | None = None) -> pl.Expr:
        """Each text's components (a struct; null where it does not parse)."""
        return self._expr.map_batches(
            lambda s: _reference(s, rule, backend), return_dtype=REFERENCE, is_elementwise=True
        )

    def error_offset(
        self, rule: str = "URI-reference", *, backend: Backend | None = None
    ) -> pl.Expr:
        """Where each text that does not parse stops matching (else null)."""
        return self._expr.map_batches(
            lambda s: _error_offset(s, rule, backend), return_dtype=pl.Int64, is_elementwise=True
        )


@pl.api.register_series_namespace("uri")
class URISeries:
    """``series.uri``: the same as the expressions', on a Series."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series

    def is_valid(self, rule: str = "URI-reference", *, backend: Backend | None = None) -> pl.Series:
        """Whether each text matches ``rule``."""
        return _valid(self._series, rule, backend)

    def parse(self, rule: str = "URI-reference", *, backend: Backend | None = None) -> pl.Series:
        """Each text's components (null where it does not parse)."""
        return _reference(self._series, rule, backend)

    def error_offset(
        self, rule: str = "URI-reference", *, backend: Backend | None = None
    ) -> pl.Series:
        """Where each text that does not parse stops matching (else null)."""
        return _error_offset(self._series, rule, backend)
