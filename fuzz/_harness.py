"""What the fuzz targets share: drawing a text, checking an error, and
starting atheris with urigrammar instrumented.

Every target compares the native back end (C) with the pure one (Python),
which is its oracle: the same answer for the same text, or a crash.  A
crash is also any exception that is not the library's documented one.

urigrammar imports lazily, so instrumenting its imports would see a few
modules: each target makes its calls once first (``warm_up``), which loads
what the calls reach, then instruments every function of urigrammar's that
is loaded by then (``instrument_urigrammar``; ``atheris.instrument_all``
would take pyarrow's and the standard library's too, minutes of work for
coverage that is not ours).  The C extension is instrumented by its
compiler (``-fsanitize=fuzzer-no-link``; see README.md).
"""

from __future__ import annotations

import gc
import sys
import types
from collections.abc import Callable

import atheris

import urigrammar as u
from urigrammar.engine import NATIVE, PURE

if NATIVE is None:
    raise SystemExit("the fuzz targets compare the C extension with Python: it is not built")

BACKENDS = (NATIVE, PURE)


def text_from(fdp: atheris.FuzzedDataProvider, size: int | None = None) -> str:
    """A text drawn one of three ways: Unicode without surrogates, with
    them, or bytes read as ``argv`` and files are (UTF-8, surrogateescape)."""
    how = fdp.ConsumeIntInRange(0, 2)
    size = fdp.remaining_bytes() if size is None else size
    if how == 0:
        return str(fdp.ConsumeUnicodeNoSurrogates(size))
    if how == 1:
        return str(fdp.ConsumeUnicode(size))
    return bytes(fdp.ConsumeBytes(size)).decode("utf-8", "surrogateescape")


def offset_in(error: u.URIError | u.RuleMatchError) -> None:
    """The error's offset is inside the text it is about, and it renders."""
    if error.offset is not None and not 0 <= error.offset <= len(error.text or ""):
        raise AssertionError(f"offset {error.offset} outside {error.text!r}")
    str(error)


def same(what: str, native: object, pure: object) -> None:
    """The two back ends' answers are one."""
    if native != pure:
        raise AssertionError(f"{what}: C gives {native!r}, Python {pure!r}")


def outcome(call: Callable[[], object], errors: type[u.UrigrammarError] = u.URIError) -> object:
    """What ``call`` returns, or the class and offset of the documented
    error it raises (checked): the thing two back ends must agree on.  A
    URI function's errors are ``URIError``s; a user grammar's, through
    ``Grammar``, are ``RuleMatchError``s."""
    try:
        return call()
    except errors as exc:
        offset_in(exc)  # type: ignore[arg-type]
        return (type(exc).__name__, getattr(exc, "offset", None))


def instrument_urigrammar() -> int:
    """Instrument every loaded Python function of urigrammar; how many."""
    functions = [
        obj
        for obj in gc.get_objects()
        if isinstance(obj, types.FunctionType)
        and (obj.__module__ or "").partition(".")[0] == "urigrammar"
    ]
    for function in functions:
        atheris.instrument_func(function)
    return len(functions)


def run(test_one_input: Callable[[bytes], None], warm_up: Callable[[], None]) -> None:
    """Fuzz ``test_one_input`` with every urigrammar function ``warm_up``
    loads instrumented."""
    warm_up()
    print(f"INFO: instrumented {instrument_urigrammar()} functions of urigrammar", file=sys.stderr)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
