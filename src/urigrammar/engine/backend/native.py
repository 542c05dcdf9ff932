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

import struct
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


def _u16(values: tuple[int, ...] | list[int]) -> bytes:
    return struct.pack(f"={len(values)}H", *values)


def _u32(values: tuple[int, ...] | list[int]) -> bytes:
    return struct.pack(f"={len(values)}I", *values)


def pack(tables: Tables) -> dict[str, Any]:
    """A ``Runner``'s constructor arguments."""
    return {
        "ascii": bytes(tables.ascii()),
        "starts": _u32(tables.starts),
        "classes": bytes(tables.classes),
        "moves": _u16(tables.moves),
        "accepting": bytes(tables.accepting),
        "nclasses": tables.nclasses,
        "start": tables.start,
    }


def runner(tables: Tables, otherwise: Callable[[str], object] | None = None) -> Any:
    """A C ``Runner`` of a minimal DFA; ``otherwise`` answers ``accepts``
    for a text the DFA refuses."""
    assert MODULE is not None
    return MODULE.Runner(**pack(tables), otherwise=otherwise)


def tagger(tables: TaggedTables, plan: Plan, into: type[Any] | None = None) -> Any:
    """A C ``Tagger`` of a tagged DFA: ``parse`` gives the plan's slots,
    as a tuple, or as a record of ``into`` (a subclass of the C
    ``Record``)."""
    assert MODULE is not None
    return MODULE.Tagger(**pack_tagged(tables, plan, into))


def pack_tagged(tables: TaggedTables, plan: Plan, into: type[Any] | None = None) -> dict[str, Any]:
    """A ``Tagger``'s constructor arguments."""
    rec_first = [0]
    sources: list[int] = []
    tagsets: list[int] = []
    for record in tables.records:
        for source, tagset in record:
            sources.append(source)
            tagsets.append(tagset)
        rec_first.append(len(sources))
    set_first = [0]
    set_tags: list[int] = []
    for tags in tables.tagsets:
        set_tags.extend(tags)
        set_first.append(len(set_tags))
    return {
        "ascii": bytes(tables.ascii()),
        "starts": _u32(tables.starts),
        "classes": bytes(tables.classes),
        "nclasses": tables.nclasses,
        "moves": _u16(tables.moves),
        "recs": _u16(tables.recs),
        "rec_first": _u32(rec_first),
        "rec_source": _u16(sources),
        "rec_tagset": _u16(tagsets),
        "keeps": bytes(tables.keeps),
        "set_first": _u32(set_first),
        "set_tags": bytes(set_tags),
        "finals": struct.pack(f"={len(tables.finals)}i", *tables.finals),
        "start_tags": _u16(tables.start_tags),
        "ntags": tables.ntags,
        "plan": plan,
        "into": into,
    }


def is_record_class(cls: type[Any]) -> bool:
    """Whether ``cls`` is a subclass of the C ``Record``, whose records a
    ``Tagger`` makes in C."""
    return MODULE is not None and issubclass(cls, MODULE.Record)


def entry(
    table: dict[str, Callable[[str], object | None]], fallback: Any, default: str | None
) -> Any:
    """A C ``Entry`` over ``table``, calling ``fallback`` for the rest."""
    assert MODULE is not None
    return MODULE.Entry(table, fallback, default)
