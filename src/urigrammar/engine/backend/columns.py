"""Programs over Arrow string columns, in C (``_native_c/columns.c``).

A ``ColumnJob`` is what runs each row of a column: a program's minimal
DFA (the verdict, and where a text stops being viable), and for a parse
the tagged DFA of another program with a plan (``plan``) and which of its
slots become which fields.  It exists on the native back end only, for
programs whose tables C runs (``choose``: ``dfa`` and ``tagged``);
``column_job`` says ``None`` otherwise, and the caller takes the rows one
by one instead.  A job runs the very ``Runner`` that validates the
program's texts one at a time.

The columns go in and out as the Arrow PyCapsule interface's capsules:
nothing here imports pyarrow, and nothing knows a URI.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NewType, cast

from ..program.program import Program
from . import native
from .backend import Backend
from .choose import runs
from .plan import Plan

__all__ = ["ColumnJob", "array_stream", "column_array", "column_job", "column_stream"]

#: The C job (a capsule; ``column_job``).
ColumnJob = NewType("ColumnJob", object)


def column_job(
    backend: Backend,
    program: Program,
    tagged: Program | None = None,
    plan: Plan = (),
    fields: Sequence[tuple[str, int]] = (),
    forbidden: str = "",
    *,
    distinct: bool = False,
) -> ColumnJob | None:
    """The job validating each row against ``program`` (``tagged`` is
    ``None``), or parsing it with ``tagged``'s tagged DFA and ``plan``, its
    ``fields`` (name, slot of the plan) making the output's struct, a row
    holding a code point of ``forbidden`` counting as no match at that
    code point; with ``distinct``, each field dictionary encoded (its
    distinct values, a value possibly repeated, and each row's index).
    ``None`` on the pure back end, or for a program C does not run.  Made
    once per program, back end and arguments."""
    verdict = runs(program, backend)
    if verdict.validates != "dfa":
        return None
    if tagged is not None and runs(tagged, backend).reads != "tagged":
        return None

    def make() -> ColumnJob:
        tagger = None
        if tagged is not None:
            assert tagged.tagged is not None
            tagger = native.tagger(tagged.tagged, plan)
        assert native.MODULE is not None
        job = native.MODULE.column_job(verdict.runner(), tagger, tuple(fields), forbidden, distinct)
        return ColumnJob(job)

    key = ("column_job", tagged, plan, tuple(fields), forbidden, distinct)
    return cast("ColumnJob", verdict.once(key, make))


def column_array(job: ColumnJob, schema: object, array: object) -> tuple[object, object]:
    """``job`` over the Arrow array whose capsules are ``schema`` and
    ``array`` (``__arrow_c_array__``'s): the output's two capsules."""
    assert native.MODULE is not None
    made: tuple[object, object] = native.MODULE.column_array(job, schema, array)
    return made


def column_stream(job: ColumnJob, stream: object) -> object:
    """``job`` over the Arrow stream capsule ``stream``, which it takes:
    a stream capsule whose batches are made as the consumer pulls them."""
    assert native.MODULE is not None
    return native.MODULE.column_stream(job, stream)


def array_stream(schema: object, array: object) -> object:
    """An array's two capsules, which it takes, as a stream capsule of one
    batch, for ``column_stream``."""
    assert native.MODULE is not None
    return native.MODULE.array_stream(schema, array)
