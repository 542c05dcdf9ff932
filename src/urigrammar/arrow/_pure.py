"""The columns row by row in Python, through pyarrow: the pure back end's
way, and the native one's for a rule C does not run.  A row's UTF-8 is
decoded strictly (RFC 3629), as the C way reads it: a row that is not
well-formed does not match, its text read up to the ill-formed sequence."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .._errors import MissingExtraError

__all__ = ["chunks", "parse_chunk", "pyarrow", "strings", "validate_chunk"]

Module = Any


def pyarrow(why: str) -> Module:
    """The pyarrow module, or ``MissingExtraError`` saying ``why`` it is needed."""
    import importlib

    try:
        # By name: pyarrow ships no type stubs, and is Any here anyway.
        pa = importlib.import_module("pyarrow")
        # `import pyarrow` leaves out pyarrow.compute, which the URL
        # function family reads as `pa.compute`.
        importlib.import_module("pyarrow.compute")
    except ImportError:
        msg = f"{why} needs pyarrow, which is not installed: pip install 'urigrammar[arrow]'"
        raise MissingExtraError(msg) from None
    return pa


def chunks(pa: Module, column: object) -> Iterator[Any]:
    """The column's array of strings (utf8 or large_utf8), for a column
    that is one array (a stream goes through ``_cstream``)."""
    yield strings(pa, pa.array(column))


def strings(pa: Module, array: Any) -> Any:
    """``array`` as a plain array of strings: a table of one column is its
    column, utf8_view is large_utf8; ``TypeError`` for anything else."""
    kind = array.type
    if pa.types.is_struct(kind) and kind.num_fields == 1:
        array = array.flatten()[0]  # a table of one column; its nulls kept
        kind = array.type
    if pa.types.is_string_view(kind):
        array = array.cast(pa.large_string())
    elif not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        msg = f"an Arrow column of strings (utf8, large_utf8 or utf8_view) was expected, not {kind}"
        raise TypeError(msg)
    return array


def _texts(pa: Module, array: Any) -> Iterator[str | bytes | None]:
    """Each row: its text, ``None``, or the bytes that precede an
    ill-formed sequence, read as bytes (never a text)."""
    for raw in array.cast(pa.large_binary()).to_pylist():
        if raw is None:
            yield None
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield raw[: exc.start]


def well_formed(pa: Module, array: Any) -> list[str | None]:
    """Each row's text; ``None`` for a null row and for a row of ill-formed
    UTF-8, which is no text (``to_pylist`` would raise on it)."""
    return [text if isinstance(text, str) else None for text in _texts(pa, array)]


def validate_chunk(pa: Module, array: Any, row: Callable[[str], bool]) -> Any:
    values = [
        None if text is None else (isinstance(text, str) and row(text))
        for text in _texts(pa, array)
    ]
    return pa.array(values, pa.bool_())


def parse_chunk(
    pa: Module,
    array: Any,
    fields: tuple[str, ...],
    row: Callable[[str], tuple[str | None, ...] | int],
    viable: Callable[[str], int],
) -> Any:
    kind = pa.string() if pa.types.is_string(array.type) else pa.large_string()
    columns: list[list[str | None]] = [[] for _ in fields]
    errors: list[int | None] = []
    reference_null: list[bool] = []
    for text in _texts(pa, array):
        if text is None:
            found: tuple[str | None, ...] | int | None = None
        elif isinstance(text, bytes):
            found = viable(text.decode("utf-8"))
        else:
            found = row(text)
        reference_null.append(not isinstance(found, tuple))
        errors.append(found if isinstance(found, int) else None)
        values = found if isinstance(found, tuple) else (None,) * len(fields)
        for column, value in zip(columns, values, strict=True):
            column.append(value)
    reference = pa.StructArray.from_arrays(
        [pa.array(column, kind) for column in columns],
        names=list(fields),
        mask=pa.array(reference_null, pa.bool_()),
    )
    return pa.StructArray.from_arrays(
        [reference, pa.array(errors, pa.int64())], names=["reference", "error_offset"]
    )
