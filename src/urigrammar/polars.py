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
The URL function family of ``urigrammar.arrow`` is there too, by the
row functions' names: ``host``, ``component``, ``registrable_domain``,
``public_suffix``, ``parameter``, ``parameter_names``, ``canonicalize``,
``surt`` and ``lint`` (its codes); these need pyarrow as well
(``urigrammar[arrow]``), and the suffixes the Public Suffix List
(``urigrammar[psl]``).  Each takes ``backend=`` as those functions do.  The batches go to the C
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

from collections.abc import Callable
from typing import Any

from . import Canonicalization, arrow
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


#: A function of ``urigrammar.arrow``'s URL family, its arguments bound.
Family = Callable[[pl.Series], Any]

_LIST = pl.List(pl.String)


def _family(series: pl.Series, function: Family) -> pl.Series:
    return pl.Series(series.name, function(series)).alias(series.name)


class _Family:
    """The URL function family, each method a ``Family`` and its type;
    ``URIExpr`` maps them over batches, ``URISeries`` applies them."""

    def _apply(self, function: Family, dtype: Any) -> Any:
        raise NotImplementedError

    def host(self, rule: str = "IRI-reference", *, backend: Backend | None = None) -> Any:
        """Each host as ``normalize`` writes it (``arrow.host_array``)."""
        return self._apply(lambda s: arrow.host_array(s, rule, backend=backend), pl.String)

    def component(
        self, component: str, rule: str = "IRI-reference", *, backend: Backend | None = None
    ) -> Any:
        """One component as written (``arrow.component_array``)."""
        return self._apply(
            lambda s: arrow.component_array(s, component, rule, backend=backend), pl.String
        )

    def registrable_domain(
        self, rule: str = "IRI-reference", *, private: bool = True, backend: Backend | None = None
    ) -> Any:
        """Each host's registrable domain (``arrow.registrable_domain_array``)."""
        return self._apply(
            lambda s: arrow.registrable_domain_array(s, rule, private=private, backend=backend),
            pl.String,
        )

    def public_suffix(
        self, rule: str = "IRI-reference", *, private: bool = True, backend: Backend | None = None
    ) -> Any:
        """Each host's public suffix (``arrow.public_suffix_array``)."""
        return self._apply(
            lambda s: arrow.public_suffix_array(s, rule, private=private, backend=backend),
            pl.String,
        )

    def parameter(
        self,
        name: str,
        rule: str = "IRI-reference",
        *,
        errors: str = "replace",
        backend: Backend | None = None,
    ) -> Any:
        """The first decoded value of a query parameter (``arrow.parameter_array``)."""
        return self._apply(
            lambda s: arrow.parameter_array(s, name, rule, errors=errors, backend=backend),
            pl.String,
        )

    def parameter_names(
        self,
        rule: str = "IRI-reference",
        *,
        errors: str = "replace",
        backend: Backend | None = None,
    ) -> Any:
        """The query's decoded names (``arrow.parameter_names_array``)."""
        return self._apply(
            lambda s: arrow.parameter_names_array(s, rule, errors=errors, backend=backend), _LIST
        )

    def canonicalize(
        self,
        options: Canonicalization | None = None,
        rule: str = "IRI-reference",
        *,
        backend: Backend | None = None,
    ) -> Any:
        """Each canonical key (``arrow.canonicalize_array``)."""
        return self._apply(
            lambda s: arrow.canonicalize_array(s, options, rule, backend=backend), pl.String
        )

    def surt(
        self,
        options: Canonicalization | None = None,
        rule: str = "IRI-reference",
        *,
        with_scheme: bool = False,
        trailing_comma: bool = False,
        backend: Backend | None = None,
    ) -> Any:
        """Each SURT (``arrow.surt_array``)."""
        return self._apply(
            lambda s: arrow.surt_array(
                s,
                options,
                rule,
                with_scheme=with_scheme,
                trailing_comma=trailing_comma,
                backend=backend,
            ),
            pl.String,
        )

    def lint(self, rule: str = "IRI-reference", *, backend: Backend | None = None) -> Any:
        """The codes of each row's lint findings (``arrow.lint_array``)."""
        return self._apply(lambda s: arrow.lint_array(s, rule, backend=backend), _LIST)


@pl.api.register_expr_namespace("uri")
class URIExpr(_Family):
    """``pl.col(...).uri``: strict RFC 3986 / RFC 3987 validation and
    parsing, and the URL function family."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def _apply(self, function: Family, dtype: Any) -> pl.Expr:
        return self._expr.map_batches(
            lambda s: _family(s, function), return_dtype=dtype, is_elementwise=True
        )

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
class URISeries(_Family):
    """``series.uri``: the same as the expressions', on a Series."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series

    def _apply(self, function: Family, dtype: Any) -> pl.Series:
        return _family(self._series, function).cast(dtype)

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
