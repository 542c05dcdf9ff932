"""The back ends that run programs (``_program``): a value, chosen once.

``PURE`` runs every program in Python: regexes (``re``) and, where a regex
could backtrack too much, the lazy automaton (``_prefix``).  ``NATIVE``
also does that, and runs a program's DFA (validate) and tagged DFA (parse)
from its tables in C (the extension ``engine._native``, optional: a wheel
built without a C compiler lacks it, and ``NATIVE`` is then ``None``).
``Program.serves`` says which runs what.

``default_backend()`` is the back end the library uses: native when the
extension imports, unless ``URIGRAMMAR_PURE`` is set (to anything but
``""`` or ``"0"``) in the environment when it is first asked.  It never
changes in a process.  Callers that want the other one pass it explicitly
(``Grammar.validate(..., backend=PURE)``); the tests take both that way.

What a back end makes of a program (a matcher, a tagger) is kept in the
program's ``made`` memo under the back end's name, so a program serves
each back end with no other cache.
"""

from __future__ import annotations

import functools
import os
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

if TYPE_CHECKING:
    from ._native import Entry, Runner, Tagger
    from ._program import Program
    from ._record import Field, Record
    from ._tables import Tables, TaggedTables

__all__ = [
    "BACKENDS",
    "NATIVE",
    "NATIVE_AVAILABLE",
    "NATIVE_RECORD",
    "PURE",
    "Backend",
    "Plan",
    "default_backend",
    "pure_reason",
]


def _load() -> tuple[type[Runner] | None, type[Tagger] | None, type[Entry] | None]:
    try:
        from ._native import Entry, Runner, Tagger
    except ImportError:  # built without a C compiler (or a stale build): pure
        return None, None, None
    return Runner, Tagger, Entry


def _load_record() -> tuple[type[Record], type[Field[Any]]] | None:
    try:
        from ._native import Field as CField
        from ._native import Record as CRecord
    except ImportError:  # no extension, or one built before records: pure
        return None
    # The same interface as _record's (the types say so only there).
    return cast("tuple[type[Record], type[Field[Any]]]", (CRecord, CField))


_RUNNER, _TAGGER, _ENTRY = _load()

#: The C ``Record`` and ``Field`` (``_record`` says what they are), or
#: ``None`` without the extension.
NATIVE_RECORD = _load_record()

#: Whether the extension was built and imports.
NATIVE_AVAILABLE = _RUNNER is not None


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
    tables: TaggedTables, plan: Plan, cls: type[Any] | None = None
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


F = TypeVar("F", bound=Callable[..., object])

Matcher = Callable[[str], object | None]


class Backend:
    """A way to run programs: ``"native"`` (tables in C, where a program has
    them) or ``"pure"`` (Python)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.native = name == "native"

    def __repr__(self) -> str:
        return f"<urigrammar back end {self.name!r}>"

    def __reduce__(self) -> str:
        # One object per back end: a pickled reference comes back as it.
        return self.name.upper()

    def serves(self, program: Program) -> str:
        """What runs ``program`` here (``Program.serves``)."""
        return program.serves(self.native)

    def matcher(self, program: Program) -> Matcher:
        """A ``fullmatch``-like function of a text for a regular program:
        ``None`` exactly when the rule does not match all of it, in linear
        time.  Made once per program and back end."""
        key = self.name + ":match"
        found: Matcher | None = program.made.get(key)
        if found is None:
            found = program.made.setdefault(key, self._matcher(program))
        return found

    def _matcher(self, program: Program) -> Matcher:
        serves = self.serves(program)
        if serves == "dfa":
            assert _RUNNER is not None
            assert program.dfa is not None
            try:
                runner = _RUNNER(**pack(program.dfa))
            except (TypeError, ValueError):
                pass  # tables the extension refuses (a stale build): the pure way
            else:
                fullmatch: Matcher = runner.fullmatch
                return fullmatch
        if serves in ("dfa", "regex"):
            return program.pattern().fullmatch
        automaton = program.made.get("automaton")
        if automaton is None:
            from ._prefix import Automaton

            assert program.body is not None
            automaton = program.made.setdefault("automaton", Automaton(program.body))

        def accepts(text: str) -> object | None:
            return True if automaton.accepts(text) else None

        return accepts

    def tables_matcher(
        self,
        tables: Tables,
        *,
        predicate: bool = False,
        otherwise: Callable[[str], bool] | None = None,
    ) -> Callable[[str], object] | None:
        """A ``fullmatch``-like function of a text for a DFA given as raw
        ``Tables`` (one that no program holds: ``_product.intersection``'s,
        say), or with ``predicate`` one that returns ``True`` or ``False``,
        and, given ``otherwise``, ``otherwise(text)`` for a text the DFA
        refuses (called from C: no Python frame for a text it accepts):
        the C runner on the native back end; ``None`` on the pure one,
        which runs no DFA, or when the extension refuses the tables, so
        that the caller keeps its own way.  Not kept: the caller keeps
        what it makes."""
        if otherwise is not None and not predicate:
            msg = "otherwise is for a predicate"
            raise ValueError(msg)
        if not self.native or _RUNNER is None:
            return None
        try:
            runner = _RUNNER(**pack(tables), otherwise=otherwise)
        except (TypeError, ValueError):
            return None  # tables the extension refuses (a stale build)
        return runner.accepts if predicate else runner.fullmatch

    def tagger(
        self, program: Program, plan: Plan, cls: type[Record] | None = None
    ) -> Callable[[str], Any] | None:
        """The C tagger's ``parse`` for a parse program: for a text the rule
        matches, the plan's slots as a tuple of values, or, given a
        ``Record`` class ``cls``, a record of ``cls`` whose slots are the
        plan's (made in C for a C record class, by ``cls._make`` for the
        Python one); else ``None``.  ``None`` on the pure back end or when
        the program has no tagged DFA."""
        if self.serves(program) != "tagged":
            return None
        key = ("tagger", plan, cls)
        if key in program.made:
            return program.made[key]  # type: ignore[no-any-return]
        assert _TAGGER is not None
        assert program.tagged is not None
        in_c = cls is not None and NATIVE_RECORD is not None and issubclass(cls, NATIVE_RECORD[0])
        try:
            made = _TAGGER(**pack_tagged(program.tagged, plan, cls if in_c else None))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            found = None  # a stale build that refuses these tables: the regex
        else:
            found = made.parse if cls is None or in_c else _maker(made, cls)
        return program.made.setdefault(key, found)

    def tag_positions(self, program: Program) -> Callable[[str], list[int] | None] | None:
        """The C tagger's ``tags`` for a program with captures: each tag's
        last position in a text the rule matches (-1: never set), else
        ``None``; ``None`` on the pure back end or without a tagged DFA."""
        if self.serves(program) != "tagged":
            return None
        key = ("tags",)
        if key in program.made:
            return program.made[key]  # type: ignore[no-any-return]
        assert _TAGGER is not None
        assert program.tagged is not None
        try:
            made = _TAGGER(**pack_tagged(program.tagged, ()))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            found = None  # a stale build that refuses these tables
        else:
            found = made.tags
        return program.made.setdefault(key, found)

    def entry(
        self,
        table: dict[str, Callable[[str], object | None]],
        fallback: F,
        default: str | None = None,
    ) -> F:
        """``fallback`` with a C-level hot path in front on the native back
        end: a callable that, for ``(spelling, text)`` with ``spelling`` an
        exact ``str`` key of ``table`` and ``text`` a ``str``, returns
        whether ``table[spelling]`` matches (a native matcher runs in C, any
        other is called), and calls ``fallback(*args, **kwargs)`` for
        everything else.  ``fallback`` must give the same answer for the
        same call, fill ``table``, and own every check and error; a
        spelling, once in ``table``, keeps a matcher that answers alike
        (the entry remembers the last one it found).  The entry
        carries ``fallback``'s metadata (``__wrapped__``, ``__doc__``,
        ``__name__``, ``__qualname__``, ``__module__``).

        With a ``default`` rule spelling the entry stands for a parse
        function instead: for ``(text)`` or ``(text, spelling)``, it returns
        what ``table[spelling]`` returns for ``text`` unless that is
        ``None``, when ``fallback`` answers, with its error."""
        if not self.native or _ENTRY is None:
            return fallback
        made = functools.update_wrapper(_ENTRY(table, fallback, default), fallback)
        return cast("F", made)


def _maker(tagger: Tagger, cls: type[Record]) -> Callable[[str], Any]:
    """The tagger's spans made into a record of ``cls``, a Python record
    class (``_record.Record``), which C cannot make."""
    spans, consts, make = tagger.spans, tagger.consts, cls._make

    def parse(text: str) -> Record | None:
        found = spans(text)
        return None if found is None else make(text, consts, found)

    return parse


#: Python only: regexes and the lazy automaton.
PURE = Backend("pure")

#: Tables in C where a program has them; ``None`` without the extension.
NATIVE: Backend | None = Backend("native") if NATIVE_AVAILABLE else None

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
