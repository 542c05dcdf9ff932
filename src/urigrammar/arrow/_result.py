"""The values ``validate_array`` and ``parse_array`` return: Arrow data
for any consumer of the Arrow PyCapsule interface (pyarrow, polars,
DuckDB, nanoarrow), which takes the buffers as they are, without a copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["ArrowColumn", "ArrowStream"]

Capsules = tuple[Any, Any]


class ArrowColumn:
    """One Arrow array, made when the column was given; each consumer that
    asks after the first takes a copy made anew (a consumer moves the
    array out of its capsule).  Also a stream of that one array, for the
    consumers that read streams (DuckDB)."""

    __slots__ = ("_made", "_make", "_stream")

    def __init__(self, make: Callable[[], Capsules], stream: Callable[[Capsules], object]) -> None:
        self._make = make
        self._stream = stream
        self._made: Capsules | None = make()

    def __repr__(self) -> str:
        return "<urigrammar ArrowColumn>"

    def __arrow_c_array__(self, requested_schema: object = None) -> Capsules:
        """The array's (schema, array) capsules (the requested schema is
        not honoured: the type is the column's own)."""
        made, self._made = self._made, None
        return made if made is not None else self._make()

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        """The array as a stream of one batch."""
        return self._stream(self.__arrow_c_array__())


class ArrowStream:
    """A stream of Arrow arrays, one per batch of the column it was given,
    each made when the consumer pulls it: memory holds a batch and its
    output.  Each ``__arrow_c_stream__`` reads the column's stream anew:
    a column that streams once (a DuckDB result) is read once."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self._make = make

    def __repr__(self) -> str:
        return "<urigrammar ArrowStream>"

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        """The stream's capsule (the requested schema is not honoured)."""
        return self._make()
