"""Arrow C streams read and made batch by batch, through ``ctypes``: the
pure back end's way to keep a stream's memory to one batch and its output.

pyarrow imports and exports a stream only when it is of record batches (a
struct type); a column of strings is a stream of plain arrays.  So the
``ArrowArrayStream`` structure of the Arrow C stream interface is driven
here directly: ``read`` pulls the producer's batches one at a time, each
moved into a pyarrow array (``Array._import_from_c``), and ``export``
makes a stream whose ``get_next`` computes the next output batch only
when the consumer asks for it (``Array._export_to_c``).

The structures are the interface's, field for field
(https://arrow.apache.org/docs/format/CStreamInterface.html); every
pointer is a ``c_void_p`` so that ctypes converts nothing.  A consumer may
move the exported structure (copy it and mark the original released), so
the callbacks find their state by ``private_data``, a key into
``_STATES``, never by the structure's address.
"""

from __future__ import annotations

import ctypes
import errno
import itertools
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["export", "read"]

_VOIDP = ctypes.c_void_p
_RELEASE = ctypes.CFUNCTYPE(None, _VOIDP)
_STATUS = ctypes.CFUNCTYPE(ctypes.c_int, _VOIDP, _VOIDP)
_ERROR = ctypes.CFUNCTYPE(_VOIDP, _VOIDP)


class _Schema(ctypes.Structure):
    _fields_ = (
        ("format", _VOIDP),
        ("name", _VOIDP),
        ("metadata", _VOIDP),
        ("flags", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("children", _VOIDP),
        ("dictionary", _VOIDP),
        ("release", _VOIDP),
        ("private_data", _VOIDP),
    )


class _Array(ctypes.Structure):
    _fields_ = (
        ("length", ctypes.c_int64),
        ("null_count", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("buffers", _VOIDP),
        ("children", _VOIDP),
        ("dictionary", _VOIDP),
        ("release", _VOIDP),
        ("private_data", _VOIDP),
    )


class _Stream(ctypes.Structure):
    _fields_ = (
        ("get_schema", _STATUS),
        ("get_next", _STATUS),
        ("get_last_error", _ERROR),
        ("release", _RELEASE),
        ("private_data", _VOIDP),
    )


_NAME = b"arrow_array_stream"
_CAPSULE_NAME = ctypes.create_string_buffer(_NAME)
_DESTRUCTOR = ctypes.CFUNCTYPE(None, _VOIDP)
# Prototypes of their own, never ``ctypes.pythonapi.<name>`` itself: that
# object is shared by every module of the process, and its argtypes with it.
_get_pointer = ctypes.PYFUNCTYPE(_VOIDP, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi)
)
# The destructor gets the capsule as a bare pointer (it is being freed: no
# new reference to it may be made).
_get_raw_pointer = ctypes.PYFUNCTYPE(_VOIDP, _VOIDP, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi)
)
_new_capsule = ctypes.PYFUNCTYPE(ctypes.py_object, _VOIDP, _VOIDP, _DESTRUCTOR)(
    ("PyCapsule_New", ctypes.pythonapi)
)


class StreamError(RuntimeError):
    """The producer of a stream reported an error (its message)."""


def read(pa: Any, capsule: object) -> tuple[Any, Iterator[Any]]:
    """The stream's type, and its batches as pyarrow arrays, each pulled
    from the producer when the iterator is advanced."""
    address = _get_pointer(capsule, _NAME)
    stream = _Stream.from_address(address)
    schema = _Schema()
    if stream.get_schema(address, ctypes.addressof(schema)) != 0:
        raise StreamError(_last_error(stream, address))
    kind = pa.DataType._import_from_c(ctypes.addressof(schema))

    def batches() -> Iterator[Any]:
        held = capsule  # the capsule releases the stream when it goes
        while True:
            array = _Array()
            if stream.get_next(address, ctypes.addressof(array)) != 0:
                raise StreamError(_last_error(stream, address))
            if not array.release:
                del held
                return
            yield pa.Array._import_from_c(ctypes.addressof(array), kind)

    return kind, batches()


def _last_error(stream: _Stream, address: int) -> str:
    found = stream.get_last_error(address)
    return ctypes.string_at(found).decode("utf-8", "replace") if found else "no message"


class _State:
    __slots__ = ("batches", "error", "kind")

    def __init__(self, kind: Any, batches: Iterator[Any]) -> None:
        self.kind = kind
        self.batches = batches
        self.error = ctypes.create_string_buffer(b"")


#: The live exported streams' states, by ``private_data``.
_STATES: dict[int, _State] = {}
#: The exported structures, by address, until their capsule goes.
_STRUCTS: dict[int, _Stream] = {}
_KEYS = itertools.count(1)
_LOCK = threading.Lock()


def _state(address: int) -> _State | None:
    key = _Stream.from_address(address).private_data
    return None if key is None else _STATES.get(key)


def _failed(state: _State, exc: BaseException) -> int:
    state.error = ctypes.create_string_buffer(f"{type(exc).__name__}: {exc}".encode())
    return errno.EINVAL if isinstance(exc, (ValueError, TypeError)) else errno.EIO


def _get_schema_py(address: int, out: int) -> int:
    state = _state(address)
    if state is None:
        return errno.EINVAL
    try:
        state.kind._export_to_c(out)
    except Exception as exc:  # reported through get_last_error, as the interface says
        return _failed(state, exc)
    return 0


def _get_next_py(address: int, out: int) -> int:
    state = _state(address)
    if state is None:
        return errno.EINVAL
    try:
        batch = next(state.batches, None)
        if batch is None:
            ctypes.memset(out, 0, ctypes.sizeof(_Array))  # released: the end
        else:
            batch._export_to_c(out)
    except Exception as exc:  # reported through get_last_error, as the interface says
        return _failed(state, exc)
    return 0


def _get_last_error_py(address: int) -> int | None:
    state = _state(address)
    if state is None or not state.error.value:
        return None
    return ctypes.addressof(state.error)


def _release_py(address: int) -> None:
    stream = _Stream.from_address(address)
    key = stream.private_data
    with _LOCK:
        if key is not None:
            _STATES.pop(key, None)
    ctypes.memset(address, 0, ctypes.sizeof(_Stream))  # released: no callback left


def _destroy_py(capsule: int) -> None:
    address = _get_raw_pointer(capsule, _NAME)
    if address is None:
        return
    stream = _Stream.from_address(address)
    if ctypes.cast(stream.release, _VOIDP).value:  # never moved out: release it here
        stream.release(address)
    with _LOCK:
        _STRUCTS.pop(address, None)


# The callbacks as C function pointers (kept alive here, with the module).
_get_schema = _STATUS(_get_schema_py)
_get_next = _STATUS(_get_next_py)
_get_last_error = _ERROR(_get_last_error_py)
_release = _RELEASE(_release_py)
_destroy = _DESTRUCTOR(_destroy_py)


def export(kind: Any, batches: Iterator[Any]) -> object:
    """An ``arrow_array_stream`` capsule of ``batches`` (pyarrow arrays of
    type ``kind``), each computed when the consumer pulls it."""
    key = next(_KEYS)
    stream = _Stream(_get_schema, _get_next, _get_last_error, _release, key)
    address = ctypes.addressof(stream)
    with _LOCK:
        _STATES[key] = _State(kind, batches)
        _STRUCTS[address] = stream
    return _new_capsule(address, ctypes.addressof(_CAPSULE_NAME), _destroy)
