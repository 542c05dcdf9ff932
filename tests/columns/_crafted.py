"""Arrow C data interface structs built by hand with ctypes, to hand the C
columns what no well-behaved producer makes: a column that breaks the
specification in one chosen way."""

from __future__ import annotations

import ctypes
from typing import Any


class Schema(ctypes.Structure):
    pass


class Array(ctypes.Structure):
    pass


SchemaRelease = ctypes.CFUNCTYPE(None, ctypes.POINTER(Schema))
ArrayRelease = ctypes.CFUNCTYPE(None, ctypes.POINTER(Array))

Schema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(Schema))),
    ("dictionary", ctypes.POINTER(Schema)),
    ("release", SchemaRelease),
    ("private_data", ctypes.c_void_p),
]
Array._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(Array))),
    ("dictionary", ctypes.POINTER(Array)),
    ("release", ArrayRelease),
    ("private_data", ctypes.c_void_p),
]


@SchemaRelease
def _release_schema(schema: Any) -> None:
    schema.contents.release = SchemaRelease()


@ArrayRelease
def _release_array(array: Any) -> None:
    array.contents.release = ArrayRelease()


_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Crafted:
    """A column offering ``__arrow_c_array__`` over the structs it keeps
    (their memory lives as long as it does)."""

    def __init__(self, schema: Schema, array: Array, keep: list[object]) -> None:
        self.schema, self.array, self._keep = schema, array, keep

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]:
        return (
            _new_capsule(ctypes.addressof(self.schema), b"arrow_schema", None),
            _new_capsule(ctypes.addressof(self.array), b"arrow_array", None),
        )


def int32s(*values: int) -> Any:
    return (ctypes.c_int32 * len(values))(*values)


def int64s(*values: int) -> Any:
    return (ctypes.c_int64 * len(values))(*values)


def raw(data: bytes) -> Any:
    return ctypes.create_string_buffer(data, len(data))


def column(
    format: bytes,
    length: int,
    buffers: list[Any],
    *,
    offset: int = 0,
    null_count: int = 0,
    child: Crafted | None = None,
    child_schema: bool = True,
) -> Crafted:
    """A column of ``format`` (a struct of one ``child`` when given, whose
    schema is a null pointer unless ``child_schema``) whose buffers are
    ctypes objects or ``None``."""
    keep: list[object] = list(buffers)
    schema = Schema(format=format, name=b"", flags=2, release=_release_schema)
    pointers = (ctypes.c_void_p * max(1, len(buffers)))(
        *[None if b is None else ctypes.addressof(b) for b in buffers]
    )
    array = Array(
        length=length,
        null_count=null_count,
        offset=offset,
        n_buffers=len(buffers),
        buffers=pointers,
        release=_release_array,
    )
    keep.append(pointers)
    if child is not None:
        schemas = (ctypes.POINTER(Schema) * 1)(
            ctypes.pointer(child.schema) if child_schema else None
        )
        arrays = (ctypes.POINTER(Array) * 1)(ctypes.pointer(child.array))
        schema.n_children = array.n_children = 1
        schema.children, array.children = schemas, arrays
        keep += [schemas, arrays, child]
    return Crafted(schema, array, keep)
