"""Which engine validates regular rules: the native DFA runner or pure Python.

The C extension ``engine._native`` is optional: a wheel built without a C
compiler lacks it, and the regex engine (``_compile``, ``_prefix``) does the
work alone.  With it, a regular rule whose minimal DFA (``_dfa``) fits its
caps is run from tables by ``_native.Runner``, one table step a character.

``URIGRAMMAR_PURE`` set to anything but ``""`` or ``"0"`` in the environment
when urigrammar is imported forces the pure engine; ``ENGINE`` says which is
active (``"native"`` or ``"pure"``).  ``use`` switches at run time (for the
tests, which run the validate-facing suite under both); matchers already
handed out, and the grammars' fast caches, keep the engine they were made
with until cleared.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from types import ModuleType

from ._dfa import Tables, build_tables
from ._ir import Expr

__all__ = ["ENGINE", "NATIVE_AVAILABLE", "active", "native_matcher", "use"]


def _load() -> ModuleType | None:
    try:
        from . import _native
    except ImportError:  # built without a C compiler: the pure engine
        return None
    return _native


_NATIVE = _load()

#: Whether the extension was built and imports.
NATIVE_AVAILABLE = _NATIVE is not None

_forced_pure = os.environ.get("URIGRAMMAR_PURE", "") not in ("", "0")

#: The engine that validates regular rules: ``"native"`` or ``"pure"``.
ENGINE = "native" if NATIVE_AVAILABLE and not _forced_pure else "pure"


def active() -> bool:
    """Whether new matchers are native."""
    return ENGINE == "native"


def use(engine: str) -> None:
    """Make new matchers ``"native"`` (when the extension is built) or ``"pure"``."""
    global ENGINE
    if engine not in ("native", "pure"):
        msg = f"engine must be 'native' or 'pure', not {engine!r}"
        raise ValueError(msg)
    if engine == "native" and not NATIVE_AVAILABLE:
        msg = "the native engine is not built (no C compiler at install time)"
        raise RuntimeError(msg)
    ENGINE = engine


def pack(tables: Tables) -> dict[str, bytes | int]:
    """The tables as the runner's constructor takes them (native byte order)."""
    return {
        "ascii": bytes(tables.ascii()),
        "starts": struct.pack(f"={len(tables.starts)}I", *tables.starts),
        "classes": bytes(tables.classes),
        "moves": struct.pack(f"={len(tables.moves)}H", *tables.moves),
        "accepting": bytes(tables.accepting),
        "nclasses": tables.nclasses,
        "start": tables.start,
    }


def native_matcher(body: Expr) -> Callable[[str], object | None] | None:
    """A ``fullmatch``-like function of the inlined rule ``body``, run from
    its DFA's tables in C; ``None`` when the extension is missing or the
    DFA is over its caps (``_dfa.MAX_DFA_STATES``)."""
    if _NATIVE is None:
        return None
    tables = build_tables(body)
    if tables is None:
        return None
    runner = _NATIVE.Runner(**pack(tables))
    fullmatch: Callable[[str], object | None] = runner.fullmatch
    return fullmatch
