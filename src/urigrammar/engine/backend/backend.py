"""The back ends: a value, chosen once per process.

``PURE`` runs every program in Python (``pure``); ``NATIVE`` runs a
program's tables in C where it has them (``native``), and as the pure one
does otherwise; ``choose`` says which serves what.  ``NATIVE`` is ``None``
in an installation built without a C compiler.

``default_backend()`` is the back end the library uses: native when the
extension imports, unless ``URIGRAMMAR_PURE`` is set (to anything but
``""`` or ``"0"``) in the environment when it is first asked.  It never
changes in a process.  Callers that want the other one pass it explicitly
(``Grammar.validate(..., backend=PURE)``); the tests take both that way.
"""

from __future__ import annotations

import functools
import os

from . import native

__all__ = ["BACKENDS", "NATIVE", "PURE", "Backend", "default_backend", "pure_reason"]


class Backend:
    """A way to run programs: ``"native"`` (tables in C, where a program
    has them) or ``"pure"`` (Python)."""

    __slots__ = ("name", "native")

    def __init__(self, name: str) -> None:
        self.name = name
        self.native = name == "native"

    def __repr__(self) -> str:
        return f"<urigrammar back end {self.name!r}>"

    def __reduce__(self) -> str:
        # One object per back end: a pickled reference comes back as it.
        return self.name.upper()


#: Python only: regexes, the lazy DFA, the tables run in Python.
PURE = Backend("pure")

#: Tables in C where a program has them; ``None`` without the extension.
NATIVE: Backend | None = Backend("native") if native.AVAILABLE else None

#: Every back end this installation has, native first.
BACKENDS: tuple[Backend, ...] = (NATIVE, PURE) if NATIVE is not None else (PURE,)


def _forced_pure() -> bool:
    return os.environ.get("URIGRAMMAR_PURE", "") not in ("", "0")


@functools.cache
def default_backend() -> Backend:
    """The back end urigrammar uses: decided once, on first call."""
    if NATIVE is None or _forced_pure():
        return PURE
    return NATIVE


def pure_reason() -> str | None:
    """Why the default back end is pure, in words; ``None`` when it is native."""
    if default_backend() is not PURE:
        return None
    if NATIVE is None:
        return "the C extension was not built (no C compiler when it was installed)"
    return "URIGRAMMAR_PURE is set"
