"""The tables a back end runs, as plain data: ``Tables`` (a minimal DFA,
built by ``dfa``) and ``TaggedTables`` (a tagged DFA, built by
``tagged``), each with its runner's loop in Python, the reference the
native runner is tested against.  Nothing here builds anything, so a
program loaded from its file needs no builder.

Each table is written as bytes (``to_bytes``) and read back from them
(``from_bytes``, which checks every index a run follows and refuses
anything else with ``ValueError``).  The same bytes are a program's file
piece (``program.artifact``) and what the C extension's ``Runner`` and
``Tagger`` are built from (``backend/_native_c/tables.c`` reads them and
checks them again): this docstring is the one description of the layout.
Little-endian, no padding; ``u8``, ``u16``, ``u32``, ``i32`` are
integers of that many bits, unsigned but ``i32``::

    both     magic        4 bytes: b"UGD1" (Tables) or b"UGT1" (TaggedTables)
             nintervals   u32: intervals of the code points, at least 1
             nclasses     u32: 1 to 255
             nstates      u32: state 0 is dead (every class leads back to it)
             start        u32: the start state (1 for a tagged DFA)
             starts       u32[nintervals]: the first code point of each
                          interval, from 0, increasing, at most 0x10FFFF
             classes      u8[nintervals]: each interval's class
             moves        u16[nstates * nclasses]: moves[s * nclasses + c]
    Tables   accepting    u8[nstates]: 1 for a final state, else 0
    Tagged   nrecords     u32, then nthreads, ntagsets, nsettags, nstart,
             ...          ntags (u32 each)
             recs         u16[nstates * nclasses]: each transition's record
             rec_first    u32[nrecords + 1]: record r's threads are
                          rec_first[r] .. rec_first[r + 1]
             rec_source   u16[nthreads]: each thread's source thread
             rec_tagset   u16[nthreads]: and the tag set it sets
             keeps        u8[nrecords]
             set_first    u32[ntagsets + 1]: tag set i's tags are
                          set_first[i] .. set_first[i + 1]
             set_tags     u8[nsettags]
             finals       i32[nstates]: each state's accepting thread, or -1
             start_tags   u16[nstart]: each start thread's tag set

A table read from bytes keeps them, and decodes its fields for Python
only when one is read: a program that runs in C never decodes them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from itertools import pairwise
from operator import le, lt
from typing import TYPE_CHECKING, Any, Literal

from ..base.later import later

if TYPE_CHECKING:
    import array
    import bisect
else:
    # Imported when the tables first run in Python: the native back end
    # reads them in C.
    bisect = later(globals(), "bisect")
    # Imported when tables are written, or read on a big-endian machine: a
    # little-endian reader casts the bytes in place.
    array = later(globals(), "array")

#: The width of each item code of the layout, in bytes.
_WIDTH = {"B": 1, "H": 2, "I": 4, "i": 4}

__all__ = ["Tables", "TaggedTables"]

_LITTLE = sys.byteorder == "little"
_MAX_CODE = 0x10FFFF


def _bad(what: str) -> ValueError:
    return ValueError(f"not a table: {what}")


class _Cursor:
    """Reads a blob front to back; ``ValueError`` past its end."""

    def __init__(self, blob: bytes) -> None:
        self.view = memoryview(blob)
        self.at = 0

    def u32(self) -> int:
        if self.at + 4 > len(self.view):
            raise _bad("truncated")
        value = int.from_bytes(self.view[self.at : self.at + 4], "little")
        self.at += 4
        return value

    def items(self, count: int, code: Literal["B", "H", "I", "i"]) -> Sequence[int]:
        """``count`` integers of ``code`` (``B``, ``H``, ``I`` or ``i``)."""
        size = count * _WIDTH[code]
        if count < 0 or self.at + size > len(self.view):
            raise _bad("truncated")
        part = self.view[self.at : self.at + size]
        self.at += size
        if code == "B":
            return part
        if _LITTLE:
            found_here: Sequence[int] = part.cast(code)
            return found_here
        found = array.array(code, part.tobytes())
        found.byteswap()
        return found

    def end(self) -> None:
        if self.at != len(self.view):
            raise _bad("bytes past its end")


def _most(values: Sequence[int], limit: int, what: str) -> None:
    """``ValueError`` unless every value is below ``limit``."""
    if len(values) and max(values) >= limit:
        raise _bad(f"{what}: an index out of range")


def _rising(values: Sequence[int], first: int, last: int, what: str) -> None:
    """``ValueError`` unless ``values`` run from ``first`` to ``last`` and
    never decrease."""
    if not len(values) or values[0] != first or values[-1] != last:
        raise _bad(f"{what}: not from {first} to {last}")
    # map, not a generator: a comparison per pair with no call of Python's.
    if not all(map(le, values, values[1:])):
        raise _bad(f"{what}: decreasing")


def _pack(code: str, values: Sequence[int]) -> bytes:
    found = array.array(code, values)
    if not _LITTLE:
        found.byteswap()
    return found.tobytes()


class _Dfa:
    """What both kinds of table share: the partition of the code points
    into classes (interval ``i`` starts at ``starts[i]`` and is of class
    ``classes[i]``, the last one ends at U+10FFFF), and the moves between
    states over them."""

    __slots__ = ("_blob", "_fields", "_low")
    MAGIC = b""
    _NAMES: tuple[str, ...] = ()

    _blob: bytes | None
    _fields: tuple[Any, ...] | None
    #: The class of each code point below 128, made when first asked.
    _low: tuple[int, ...] | None

    def _init(self, **fields: Any) -> None:
        object.__setattr__(self, "_fields", tuple(fields[name] for name in self._NAMES))
        object.__setattr__(self, "_blob", None)
        object.__setattr__(self, "_low", None)

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"{type(self).__name__} is immutable"
        raise AttributeError(msg)

    def _field(self, index: int) -> Any:
        fields = self._fields
        if fields is None:
            assert self._blob is not None
            fields = self._decode(self._blob)
            object.__setattr__(self, "_fields", fields)
        return fields[index]

    def _decode(self, blob: bytes) -> tuple[Any, ...]:
        raise NotImplementedError

    def _encode(self) -> bytes:
        raise NotImplementedError

    def to_bytes(self) -> bytes:
        """The table as bytes (the module's layout), made once."""
        blob = self._blob
        if blob is None:
            blob = self._encode()
            object.__setattr__(self, "_blob", blob)
        return blob

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Dfa)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self), self._key()))

    def _key(self) -> object:
        return self.to_bytes()

    def __reduce__(self) -> tuple[Any, ...]:
        return Tables.from_bytes, (self.to_bytes(),)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.nstates} states, {self.nclasses} classes>"

    # --- the shared fields ----------------------------------------------------

    @property
    def starts(self) -> tuple[int, ...]:
        found: tuple[int, ...] = self._field(0)
        return found

    @property
    def classes(self) -> tuple[int, ...]:
        found: tuple[int, ...] = self._field(1)
        return found

    @property
    def nclasses(self) -> int:
        found: int = self._field(2)
        return found

    @property
    def moves(self) -> tuple[int, ...]:
        found: tuple[int, ...] = self._field(3)
        return found

    @property
    def nstates(self) -> int:
        return len(self.moves) // self.nclasses

    def class_of(self, code: int) -> int:
        if code < 128:
            return self.ascii()[code]
        return self.classes[bisect.bisect_right(self.starts, code) - 1]

    def ascii(self) -> tuple[int, ...]:
        """The class of each code point below 128, made once."""
        low = self._low
        if low is None:
            starts, classes, after = self.starts, self.classes, bisect.bisect_right
            low = tuple([classes[after(starts, code) - 1] for code in range(128)])
            object.__setattr__(self, "_low", low)
        return low

    def classify(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], Any]:
        """What a loop in Python needs to class a code point with no call
        below 128: ``ascii()``, the starts and classes of the intervals,
        and ``bisect_right`` for the rest."""
        return self.ascii(), self.starts, self.classes, bisect.bisect_right

    def _head(self, start: int) -> bytes:
        starts, classes, moves = self.starts, self.classes, self.moves
        nclasses = self.nclasses
        return b"".join(
            (
                self.MAGIC,
                _pack("I", (len(starts), nclasses, len(moves) // nclasses, start)),
                _pack("I", starts),
                bytes(classes),
                _pack("H", moves),
            )
        )

    @classmethod
    def _read_head(cls, blob: bytes) -> tuple[_Cursor, int, int, list[Sequence[int]]]:
        """The cursor past the shared part, the state count, the start, and
        the shared part's fields, checked."""
        if blob[:4] != cls.MAGIC:
            raise _bad(f"not of the layout {cls.MAGIC!r}")
        cursor = _Cursor(blob)
        cursor.at = 4
        nintervals, nclasses, nstates, start = (cursor.u32() for _ in range(4))
        if not (1 <= nclasses <= 255 and 1 <= nstates <= 0x10000 and nintervals >= 1):
            raise _bad("sizes out of range")
        if start >= nstates:
            raise _bad("start: a state out of range")
        starts = cursor.items(nintervals, "I")
        classes = cursor.items(nintervals, "B")
        moves = cursor.items(nstates * nclasses, "H")
        if starts[0] != 0 or starts[-1] > _MAX_CODE or not all(map(lt, starts, starts[1:])):
            raise _bad("starts must start at 0 and increase within 0..0x10FFFF")
        _most(classes, nclasses, "classes")
        _most(moves, nstates, "moves")
        if any(moves[:nclasses]):
            raise _bad("moves: the dead state moves")
        return cursor, nstates, start, [starts, classes, moves]


class Tables(_Dfa):
    """A minimal complete DFA over classes of code points.

    ``moves[s * nclasses + c]`` is the state after class ``c`` in state
    ``s``; state 0 is dead (it loops on every class), ``start`` the initial
    state, ``accepting[s]`` true for a final one."""

    __slots__ = ()
    MAGIC = b"UGD1"
    _NAMES = ("starts", "classes", "nclasses", "moves", "accepting", "start")

    def __init__(
        self,
        starts: tuple[int, ...],
        classes: tuple[int, ...],
        nclasses: int,
        moves: tuple[int, ...],
        accepting: tuple[bool, ...],
        start: int,
    ) -> None:
        self._init(
            starts=starts,
            classes=classes,
            nclasses=nclasses,
            moves=moves,
            accepting=accepting,
            start=start,
        )

    @property
    def accepting(self) -> tuple[bool, ...]:
        found: tuple[bool, ...] = self._field(4)
        return found

    @property
    def start(self) -> int:
        found: int = self._field(5)
        return found

    def _encode(self) -> bytes:
        return self._head(self.start) + bytes(self.accepting)

    @classmethod
    def from_bytes(cls, blob: bytes) -> Tables:
        """The tables ``to_bytes`` wrote; ``ValueError`` for any bytes that
        are not exactly such tables."""
        cursor, nstates, _, _ = cls._read_head(blob)
        accepting = cursor.items(nstates, "B")
        _most(accepting, 2, "accepting")
        cursor.end()
        made = cls.__new__(cls)
        object.__setattr__(made, "_blob", bytes(blob))
        object.__setattr__(made, "_fields", None)
        object.__setattr__(made, "_low", None)
        return made

    def _decode(self, blob: bytes) -> tuple[Any, ...]:
        cursor, nstates, start, (starts, classes, moves) = self._read_head(blob)
        accepting = cursor.items(nstates, "B")
        return (
            tuple(starts),
            tuple(classes),
            len(moves) // nstates,
            tuple(moves),
            tuple(bool(a) for a in accepting),
            start,
        )


class TaggedTables(_Dfa):
    """A tagged DFA over classes of code points (``tagged`` says how it
    reads where each capture matched).

    ``moves[s * nclasses + c]`` is the target (0: dead) and
    ``recs[s * nclasses + c]`` the record of that transition; record ``r``
    is ``records[r]``, one (source thread, tag set) per thread of the
    target, a tag set being an index into ``tagsets``.  ``keeps[r]`` is
    true when a run of the record on a loop reads as its last step alone.
    ``finals[s]`` is the accepting thread of state ``s`` with the highest
    priority, or -1.  ``start_tags[k]`` is the tag set of thread ``k`` of
    the start state (state 1).  ``names[i]`` is capture ``i``, with tags
    ``2i`` (opened) and ``2i + 1`` (closed): not part of the bytes, which
    name no rule."""

    __slots__ = ("names",)
    MAGIC = b"UGT1"
    _NAMES = (
        "starts",
        "classes",
        "nclasses",
        "moves",
        "recs",
        "records",
        "keeps",
        "tagsets",
        "finals",
        "start_tags",
    )
    names: tuple[str, ...]

    def __init__(
        self,
        starts: tuple[int, ...],
        classes: tuple[int, ...],
        nclasses: int,
        moves: tuple[int, ...],
        recs: tuple[int, ...],
        records: tuple[tuple[tuple[int, int], ...], ...],
        keeps: tuple[bool, ...],
        tagsets: tuple[tuple[int, ...], ...],
        finals: tuple[int, ...],
        start_tags: tuple[int, ...],
        names: tuple[str, ...],
    ) -> None:
        self._init(
            starts=starts,
            classes=classes,
            nclasses=nclasses,
            moves=moves,
            recs=recs,
            records=records,
            keeps=keeps,
            tagsets=tagsets,
            finals=finals,
            start_tags=start_tags,
        )
        object.__setattr__(self, "names", names)

    start = 1

    def _key(self) -> object:
        return (self.to_bytes(), self.names)

    def __reduce__(self) -> tuple[Any, ...]:
        return TaggedTables.from_bytes, (self.to_bytes(), self.names)

    @property
    def recs(self) -> tuple[int, ...]:
        found: tuple[int, ...] = self._field(4)
        return found

    @property
    def records(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        found: tuple[tuple[tuple[int, int], ...], ...] = self._field(5)
        return found

    @property
    def keeps(self) -> tuple[bool, ...]:
        found: tuple[bool, ...] = self._field(6)
        return found

    @property
    def tagsets(self) -> tuple[tuple[int, ...], ...]:
        found: tuple[tuple[int, ...], ...] = self._field(7)
        return found

    @property
    def finals(self) -> tuple[int, ...]:
        found: tuple[int, ...] = self._field(8)
        return found

    @property
    def start_tags(self) -> tuple[int, ...]:
        found: tuple[int, ...] = self._field(9)
        return found

    @property
    def ntags(self) -> int:
        return 2 * len(self.names)

    def _encode(self) -> bytes:
        rec_first: list[int] = [0]
        sources: list[int] = []
        tagsets: list[int] = []
        for record in self.records:
            for source, tagset in record:
                sources.append(source)
                tagsets.append(tagset)
            rec_first.append(len(sources))
        set_first: list[int] = [0]
        set_tags: list[int] = []
        for tags in self.tagsets:
            set_tags.extend(tags)
            set_first.append(len(set_tags))
        counts = (
            len(self.records),
            len(sources),
            len(self.tagsets),
            len(set_tags),
            len(self.start_tags),
            self.ntags,
        )
        return b"".join(
            (
                self._head(1),
                _pack("I", counts),
                _pack("H", self.recs),
                _pack("I", rec_first),
                _pack("H", sources),
                _pack("H", tagsets),
                bytes(self.keeps),
                _pack("I", set_first),
                bytes(set_tags),
                _pack("i", self.finals),
                _pack("H", self.start_tags),
            )
        )

    @classmethod
    def _read(cls, blob: bytes) -> tuple[list[Sequence[int]], list[Sequence[int]], int]:
        """The shared fields and the tagged ones, checked, and the tags."""
        cursor, nstates, start, head = cls._read_head(blob)
        nrecords, nthreads, ntagsets, nsettags, nstart, ntags = (cursor.u32() for _ in range(6))
        if start != 1 or not (1 <= nrecords <= 0xFFFF and 1 <= ntagsets <= 0xFFFF):
            raise _bad("sizes out of range")
        if nstart < 1 or ntags > 254 or ntags % 2:
            raise _bad("sizes out of range")
        recs = cursor.items(len(head[2]), "H")
        rec_first = cursor.items(nrecords + 1, "I")
        rec_source = cursor.items(nthreads, "H")
        rec_tagset = cursor.items(nthreads, "H")
        keeps = cursor.items(nrecords, "B")
        set_first = cursor.items(ntagsets + 1, "I")
        set_tags = cursor.items(nsettags, "B")
        finals = cursor.items(nstates, "i")
        start_tags = cursor.items(nstart, "H")
        cursor.end()
        _most(recs, nrecords, "recs")
        _rising(rec_first, 0, nthreads, "rec_first")
        _most(rec_tagset, ntagsets, "rec_tagset")
        _most(keeps, 2, "keeps")
        _rising(set_first, 0, nsettags, "set_first")
        _most(set_tags, ntags, "set_tags")
        _most(start_tags, ntagsets, "start_tags")
        if len(finals) and (min(finals) < -1 or max(finals) > 0xFFFF):
            raise _bad("finals: a thread out of range")
        rest = [recs, rec_first, rec_source, rec_tagset, keeps, set_first, set_tags]
        return head, [*rest, finals, start_tags], ntags

    @classmethod
    def from_bytes(cls, blob: bytes, names: Sequence[str]) -> TaggedTables:
        """The tables ``to_bytes`` wrote, their captures named ``names``;
        ``ValueError`` for any bytes that are not exactly such tables."""
        *_, ntags = cls._read(blob)
        if ntags != 2 * len(names):
            raise _bad("names: not one per capture")
        made = cls.__new__(cls)
        object.__setattr__(made, "_blob", bytes(blob))
        object.__setattr__(made, "_fields", None)
        object.__setattr__(made, "_low", None)
        object.__setattr__(made, "names", tuple(names))
        return made

    def _decode(self, blob: bytes) -> tuple[Any, ...]:
        head, rest, _ = self._read(blob)
        starts, classes, moves = head
        recs, rec_first, rec_source, rec_tagset, keeps, set_first, set_tags, finals, starts_ = rest
        records = tuple(
            tuple(zip(rec_source[a:b], rec_tagset[a:b], strict=True))
            for a, b in pairwise(rec_first)
        )
        tagsets = tuple(tuple(set_tags[a:b]) for a, b in pairwise(set_first))
        return (
            tuple(starts),
            tuple(classes),
            len(moves) // len(finals),
            tuple(moves),
            tuple(recs),
            records,
            tuple(bool(k) for k in keeps),
            tagsets,
            tuple(finals),
            tuple(starts_),
        )
