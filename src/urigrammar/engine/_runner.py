"""Which engine validates regular rules: the native DFA runner or pure Python.

The C extension ``engine._native`` is optional: a wheel built without a C
compiler lacks it, and the regex engine (``_compile``, ``_prefix``) does the
work alone.  With it, a regular rule whose minimal DFA (``_dfa``) fits its
caps is run from tables by ``_native.Runner``, one table step a character.

``URIGRAMMAR_PURE`` set to anything but ``""`` or ``"0"`` in the environment
when urigrammar is imported forces the pure engine; ``engine()`` (and
``urigrammar.ENGINE``) says which is active (``"native"`` or ``"pure"``).
``use`` switches at run time (the tests run the validate-facing suite under
both): it empties every cache of matchers by rule name (``forget_on_switch``)
so that the next validate builds its matcher on the new engine; a matcher
already handed out keeps the engine it was made with.

``fast_entry`` puts a C-level hot path in front of a Python function that
looks matchers up by rule spelling (``uri._api.validate``): the
extension's ``Entry``, which runs a native matcher without entering Python
at all and calls the function for everything else.
"""

from __future__ import annotations

import functools
import os
import struct
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypedDict, TypeVar, cast

from ._dfa import Tables, build_tables
from ._ir import Expr
from ._tagged import TaggedTables

if TYPE_CHECKING:
    from ._native import Entry, Runner, Tagger

__all__ = [
    "NATIVE_AVAILABLE",
    "Plan",
    "active",
    "engine",
    "fast_entry",
    "forget_on_switch",
    "native_matcher",
    "native_parser",
    "use",
]


def _load() -> tuple[type[Runner] | None, type[Tagger] | None, type[Entry] | None]:
    try:
        from ._native import Runner
    except ImportError:  # built without a C compiler: the pure engine
        return None, None, None
    try:
        from ._native import Entry, Tagger
    except ImportError:  # a stale build from before Tagger and Entry: validate only
        return Runner, None, None
    return Runner, Tagger, Entry


_RUNNER, _TAGGER, _ENTRY = _load()

#: Whether the extension was built and imports.
NATIVE_AVAILABLE = _RUNNER is not None

_forced_pure = os.environ.get("URIGRAMMAR_PURE", "") not in ("", "0")


class _Switch:
    """The active engine; one mutable cell, so ``use`` needs no global."""

    engine = "native" if NATIVE_AVAILABLE and not _forced_pure else "pure"


def engine() -> str:
    """The engine that validates regular rules: ``"native"`` or ``"pure"``."""
    return _Switch.engine


class _Forgets(Protocol):
    def forget_matchers(self) -> None: ...


# What ``use`` empties: objects held weakly (grammars: one that goes away
# leaves the set by itself), and module-level caches' clear functions.
_holders: weakref.WeakSet[_Forgets] = weakref.WeakSet()
_clears: list[Callable[[], None]] = []


def forget_on_switch(
    holder: _Forgets | None = None, clear: Callable[[], None] | None = None
) -> None:
    """Have ``use`` call ``holder.forget_matchers()`` (held weakly) or
    ``clear()`` (held for good: for module-level caches)."""
    if holder is not None:
        _holders.add(holder)
    if clear is not None:
        _clears.append(clear)


def active() -> bool:
    """Whether new matchers are native."""
    return _Switch.engine == "native"


def use(engine: str) -> None:
    """Make new matchers ``"native"`` (when the extension is built) or ``"pure"``."""
    if engine not in ("native", "pure"):
        msg = f"engine must be 'native' or 'pure', not {engine!r}"
        raise ValueError(msg)
    if engine == "native" and not NATIVE_AVAILABLE:
        msg = "the native engine is not built (no C compiler at install time)"
        raise RuntimeError(msg)
    _Switch.engine = engine
    for holder in list(_holders):
        holder.forget_matchers()
    for clear in _clears:
        clear()


class Packed(TypedDict):
    """The runner's constructor arguments."""

    ascii: bytes
    starts: bytes
    classes: bytes
    moves: bytes
    accepting: bytes
    nclasses: int
    start: int


def pack(tables: Tables) -> Packed:
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
    DFA is over its caps (``_dfa.MAX_DFA_STATES``, ``MAX_BUILD_WORK``)."""
    if _RUNNER is None:
        return None
    tables = build_tables(body)
    if tables is None:
        return None
    try:
        runner = _RUNNER(**pack(tables))
    except (TypeError, ValueError):
        # An extension built from other sources (a stale build left in an
        # editable checkout) that refuses these tables: the pure matcher.
        return None
    fullmatch: Callable[[str], object | None] = runner.fullmatch
    return fullmatch


#: What a tagged parse returns (``_native.Tagger``): slot ``i`` of the
#: result is the value of the first of its candidates (capture number, and
#: a constant to give instead of the capture's text, or ``None``) that took
#: part in the match, else its default.
Plan = tuple[tuple[object, tuple[tuple[int, object], ...]], ...]


def _u16(values: list[int] | tuple[int, ...]) -> bytes:
    return struct.pack(f"={len(values)}H", *values)


def _u32(values: list[int] | tuple[int, ...]) -> bytes:
    return struct.pack(f"={len(values)}I", *values)


def pack_tagged(
    tables: TaggedTables, plan: Plan, cls: type[tuple[object, ...]] | None = None
) -> dict[str, object]:
    """The tagger's constructor arguments (native byte order)."""
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
        "into": cls,
    }


def native_parser(
    tables: TaggedTables | None, plan: Plan, cls: type[tuple[object, ...]] | None = None
) -> Callable[[str], tuple[object, ...] | None] | None:
    """The C tagger's ``parse`` for a rule's tagged DFA (``_tagged``): the
    plan's slots for a text the rule matches (a tuple, or ``cls`` made from
    it as ``tuple.__new__(cls, slots)`` makes it), else ``None``; ``None``
    when the extension is missing or the DFA was over its caps."""
    if _TAGGER is None or tables is None:
        return None
    try:
        tagger = _TAGGER(**pack_tagged(tables, plan, cls))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        # An extension built from other sources (a stale build) that
        # refuses these tables: the regex.
        return None
    parse: Callable[[str], tuple[object, ...] | None] = tagger.parse
    return parse


F = TypeVar("F", bound=Callable[..., object])


def fast_entry(
    table: dict[str, Callable[[str], object | None]], fallback: F, default: str | None = None
) -> F:
    """``fallback`` with a C-level hot path in front when the extension is
    built and the pure engine was not forced at import: a callable that,
    for ``(spelling, text)`` with ``spelling`` an exact ``str`` key of
    ``table`` and ``text`` a ``str``, returns whether ``table[spelling]``
    matches (a native matcher runs in C, any other is called), and calls
    ``fallback(*args, **kwargs)`` for everything else.  ``fallback`` must
    give the same answer for the same call, fill ``table``, and own every
    check and error.  The entry carries ``fallback``'s metadata
    (``__wrapped__``, ``__doc__``, ``__name__``, ``__qualname__``,
    ``__module__``), so ``help``, ``inspect.signature`` and pickling (by
    reference, as a function) see the function.

    With a ``default`` rule spelling the entry stands for a parse function
    instead: for ``(text)`` or ``(text, spelling)``, ``spelling`` defaulting
    to ``default``, it returns what ``table[spelling]`` returns for
    ``text`` unless that is ``None`` (a text the rule does not match), when
    ``fallback`` answers, with its error."""
    if _ENTRY is None or _forced_pure:
        return fallback
    entry = functools.update_wrapper(_ENTRY(table, fallback, default), fallback)
    return cast("F", entry)
