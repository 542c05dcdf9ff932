"""The native back end's implementation: the C extension ``_native``
(sources in ``_native_c/``), and the tables handed to it.

The extension is optional: a wheel built without a C compiler lacks it,
and ``AVAILABLE`` is then false.  Its types run the automata's tables
(``automata.tables``) in C: ``Runner`` a minimal DFA, ``Tagger`` a tagged
DFA with a plan of output slots, ``Entry`` the C front of a function that
looks matchers up by name; ``Record`` and ``Field`` are what a parse
makes (``result.record`` is their Python twin).  Nothing here decides
what runs a program: ``choose`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..automata.tables import Tables, TaggedTables
from .plan import Plan

if TYPE_CHECKING:
    from types import ModuleType

try:
    from . import _native as _loaded
except ImportError:  # built without a C compiler: the pure back end only
    _loaded = None  # type: ignore[assignment]

#: The extension module (its types: ``_native.pyi``), or ``None`` when it
#: was not built.
MODULE: ModuleType | None = _loaded

#: Whether the extension was built and imports.
AVAILABLE = MODULE is not None


def record_types() -> tuple[type[Any], type[Any]] | None:
    """The C ``Record`` and ``Field``, or ``None`` without the extension."""
    if MODULE is None:
        return None
    return MODULE.Record, MODULE.Field


def runner(tables: Tables, otherwise: Callable[[str], object] | None = None) -> Any:
    """A C ``Runner`` of a minimal DFA, built from its bytes; ``otherwise``
    answers ``accepts`` for a text the DFA refuses."""
    assert MODULE is not None
    return MODULE.Runner(tables.to_bytes(), otherwise=otherwise)


def tagger(tables: TaggedTables, plan: Plan, into: type[Any] | None = None) -> Any:
    """A C ``Tagger`` of a tagged DFA, built from its bytes: ``parse``
    gives the plan's slots, as a tuple, or as a record of ``into`` (a
    subclass of the C ``Record``)."""
    assert MODULE is not None
    return MODULE.Tagger(tables.to_bytes(), plan, into)


def is_record_class(cls: type[Any]) -> bool:
    """Whether ``cls`` is a subclass of the C ``Record``, whose records a
    ``Tagger`` makes in C."""
    return MODULE is not None and issubclass(cls, MODULE.Record)


def entry(
    table: dict[Any, Any],
    fallback: Any,
    default: str | None,
    text_only: bool = False,
    by_identity: bool = False,
) -> Any:
    """A C ``Entry`` over ``table``, calling ``fallback`` for the rest."""
    assert MODULE is not None
    return MODULE.Entry(table, fallback, default, text_only, by_identity)
