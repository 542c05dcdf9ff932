"""Programs over Arrow string columns, in C (``_native_c/columns.c``).

A ``ColumnJob`` is what runs each row of a column: a program's DFA (the
verdict, and where a text stops being viable), and for a parse the
program's tagged DFA with a plan (``_backend.Plan``) and which of its
slots become which fields.  It exists on the native back end only, for
programs whose DFA (and tagged DFA) C runs (``Program.serves``);
``column_job`` says ``None`` otherwise, and the caller takes another way.

The columns go in and out as the Arrow PyCapsule interface's capsules:
nothing here imports pyarrow, and nothing knows a URI.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NewType

from ._backend import Backend, Plan, pack, pack_tagged

if TYPE_CHECKING:
    from ._program import Program

__all__ = ["ColumnJob", "array_stream", "column_array", "column_job", "column_stream"]

#: The C job (a capsule; ``column_job``).
ColumnJob = NewType("ColumnJob", object)


def _native() -> Any:
    from . import _native

    return _native


def column_job(
    backend: Backend,
    program: Program,
    tagged: Program | None = None,
    plan: Plan = (),
    fields: Sequence[tuple[str, int]] = (),
    forbidden: str = "",
) -> ColumnJob | None:
    """The job validating each row against ``program`` (``tagged`` is
    ``None``), or parsing it with ``tagged``'s tagged DFA and ``plan``, its
    ``fields`` (name, slot of the plan) making the output's struct, a row
    holding a code point of ``forbidden`` counting as no match at that
    code point.  ``None`` on the pure back end, or for a program C does not
    run.  Kept in the programs' memo, per back end and arguments."""
    if not backend.native or backend.serves(program) != "dfa":
        return None
    if tagged is not None and backend.serves(tagged) != "tagged":
        return None
    key = ("column_job", tagged.key if tagged is not None else None, plan, tuple(fields), forbidden)
    found: ColumnJob | None = program.made.get(key)
    if found is not None:
        return found
    native = _native()
    assert program.dfa is not None
    try:
        runner = native.Runner(**pack(program.dfa))
        tagger = None
        if tagged is not None:
            assert tagged.tagged is not None
            tagger = native.Tagger(**pack_tagged(tagged.tagged, plan))
        job = ColumnJob(native.column_job(runner, tagger, tuple(fields), forbidden))
    except (AttributeError, TypeError, ValueError):
        return None  # a stale build without columns, or tables it refuses
    return program.made.setdefault(key, job)  # type: ignore[no-any-return]


def column_array(job: ColumnJob, schema: object, array: object) -> tuple[object, object]:
    """``job`` over the Arrow array whose capsules are ``schema`` and
    ``array`` (``__arrow_c_array__``'s): the output's two capsules."""
    made: tuple[object, object] = _native().column_array(job, schema, array)
    return made


def column_stream(job: ColumnJob, stream: object) -> object:
    """``job`` over the Arrow stream capsule ``stream``, which it takes:
    a stream capsule whose batches are made as the consumer pulls them."""
    return _native().column_stream(job, stream)


def array_stream(schema: object, array: object) -> object:
    """An array's two capsules, which it takes, as a stream capsule of one
    batch, for ``column_stream``."""
    return _native().array_stream(schema, array)
