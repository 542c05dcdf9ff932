"""The tables a back end runs, as plain data: ``Tables`` (a minimal DFA,
built by ``dfa``) and ``TaggedTables`` (a tagged DFA, built by
``tagged``), each with its runner's loop in Python, the reference the
native runner is tested against, and its own reading and writing as data
(``to_data``, ``from_data``, checked by ``base.wire``).  Nothing here
builds anything, so a program loaded from its file needs no builder.
"""

from __future__ import annotations

import bisect
from itertools import pairwise
from typing import Any

from ..base import wire
from ..base.value import Value

__all__ = ["Tables", "TaggedTables"]


class _Classes(Value):
    """The partition of the code points into classes both tables share:
    interval ``i`` starts at ``starts[i]`` and is of class ``classes[i]``."""

    __slots__ = ()
    starts: tuple[int, ...]
    classes: tuple[int, ...]

    def ascii(self) -> tuple[int, ...]:
        """The class of each code point below 128: the runner's direct table."""
        return tuple(self.class_of(code) for code in range(128))

    def class_of(self, code: int) -> int:
        return self.classes[bisect.bisect_right(self.starts, code) - 1]


class Tables(_Classes):
    """A minimal complete DFA over classes of code points.

    ``starts[i]`` is the first code point of interval ``i`` (``starts[0] ==
    0``; interval ``i`` ends where ``i + 1`` starts, the last at U+10FFFF);
    ``classes[i]`` is its class.  ``moves[s * nclasses + c]`` is the state
    after class ``c`` in state ``s``; state 0 is dead (it loops on every
    class), ``start`` the initial state, ``accepting[s]`` 1 for a final one.
    """

    __slots__ = ("accepting", "classes", "moves", "nclasses", "start", "starts")
    starts: tuple[int, ...]
    classes: tuple[int, ...]
    nclasses: int
    moves: tuple[int, ...]
    accepting: tuple[bool, ...]
    start: int

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
    def nstates(self) -> int:
        return len(self.accepting)

    def to_data(self) -> dict[str, Any]:
        """The tables as JSON values (``from_data`` reads them back)."""
        return {
            "starts": list(self.starts),
            "classes": list(self.classes),
            "nclasses": self.nclasses,
            "moves": list(self.moves),
            "accepting": [int(a) for a in self.accepting],
            "start": self.start,
        }

    @classmethod
    def from_data(cls, data: object) -> Tables:
        """Tables from ``to_data``'s values; ``ValueError`` for anything
        that is not exactly that shape."""
        d = wire.record(data, {"starts", "classes", "nclasses", "moves", "accepting", "start"})
        nclasses = wire.integer(d["nclasses"], 1, 255)
        accepting = tuple(bool(a) for a in wire.integers(d["accepting"], 0, 1))
        nstates = len(accepting)
        tables = cls(
            starts=wire.integers(d["starts"], 0),
            classes=wire.integers(d["classes"], 0, nclasses - 1),
            nclasses=nclasses,
            moves=wire.integers(d["moves"], 0, nstates - 1),
            accepting=accepting,
            start=wire.integer(d["start"], 0, nstates - 1),
        )
        _check_classes(tables, len(tables.moves) != nstates * nclasses)
        return tables

    def run(self, text: str) -> tuple[int, bool]:
        """The end of the longest viable prefix of ``text``, and whether the
        rule matches all of it: the runner's loop, in Python."""
        state = self.start
        width = self.nclasses
        for pos, char in enumerate(text):
            state = self.moves[state * width + self.class_of(ord(char))]
            if state == 0:
                return pos, False
        return len(text), self.accepting[state]


class TaggedTables(_Classes):
    """A tagged DFA over classes of code points (see the module's docstring).

    ``starts``/``classes``/``nclasses`` partition the code points as in
    ``_dfa.Tables``.  ``moves[s * nclasses + c]`` is the target (0: dead)
    and ``recs[s * nclasses + c]`` the record of that transition; record
    ``r`` is ``records[r]``, one (source thread, tag set) per thread of the
    target, a tag set being an index into ``tagsets``.  ``keeps[r]`` is
    true when a run of the record on a loop reads as its last step alone.  ``finals[s]``
    is the accepting thread of state ``s`` with the highest priority, or -1.
    ``start_tags[k]`` is the tag set of thread ``k`` of the start state
    (state 1).  ``names[i]`` is capture ``i``, with tags ``2i`` (opened)
    and ``2i + 1`` (closed).
    """

    __slots__ = (
        "classes",
        "finals",
        "keeps",
        "moves",
        "names",
        "nclasses",
        "records",
        "recs",
        "start_tags",
        "starts",
        "tagsets",
    )
    starts: tuple[int, ...]
    classes: tuple[int, ...]
    nclasses: int
    moves: tuple[int, ...]
    recs: tuple[int, ...]
    records: tuple[tuple[tuple[int, int], ...], ...]
    keeps: tuple[bool, ...]
    tagsets: tuple[tuple[int, ...], ...]
    finals: tuple[int, ...]
    start_tags: tuple[int, ...]
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
            names=names,
        )

    start = 1

    @property
    def nstates(self) -> int:
        return len(self.finals)

    @property
    def ntags(self) -> int:
        return 2 * len(self.names)

    def to_data(self) -> dict[str, Any]:
        """The tables as JSON values (``from_data`` reads them back)."""
        return {
            "starts": list(self.starts),
            "classes": list(self.classes),
            "nclasses": self.nclasses,
            "moves": list(self.moves),
            "recs": list(self.recs),
            "records": [[list(pair) for pair in record] for record in self.records],
            "keeps": [int(k) for k in self.keeps],
            "tagsets": [list(tags) for tags in self.tagsets],
            "finals": list(self.finals),
            "start_tags": list(self.start_tags),
            "names": list(self.names),
        }

    @classmethod
    def from_data(cls, data: object) -> TaggedTables:
        """Tables from ``to_data``'s values; ``ValueError`` for anything
        that is not exactly that shape."""
        d = wire.record(data, _TAGGED_FIELDS)
        nclasses = wire.integer(d["nclasses"], 1, 255)
        finals = wire.integers(d["finals"], -1, 1 << 16)
        nstates = len(finals)
        names = wire.texts(d["names"])
        tagsets = tuple(
            wire.integers(tags, 0, 2 * len(names) - 1) for tags in wire.listed(d["tagsets"])
        )
        records = tuple(
            tuple(
                (wire.integer(s, 0, 1 << 16), wire.integer(t, 0, len(tagsets) - 1))
                for s, t in wire.pairs(record)
            )
            for record in wire.listed(d["records"])
        )
        tables = cls(
            starts=wire.integers(d["starts"], 0),
            classes=wire.integers(d["classes"], 0, nclasses - 1),
            nclasses=nclasses,
            moves=wire.integers(d["moves"], 0, nstates - 1),
            recs=wire.integers(d["recs"], 0, len(records) - 1),
            records=records,
            keeps=tuple(bool(k) for k in wire.integers(d["keeps"], 0, 1)),
            tagsets=tagsets,
            finals=finals,
            start_tags=wire.integers(d["start_tags"], 0, len(tagsets) - 1),
            names=names,
        )
        _check_classes(
            tables,
            len(tables.moves) != nstates * nclasses
            or len(tables.recs) != len(tables.moves)
            or len(tables.keeps) != len(records),
        )
        return tables

    def tags(self, text: str) -> list[int] | None:
        """Each tag's position in the regex's reading of ``text`` (-1 for
        a tag never set), or ``None`` when the rule does not match: the
        runner's algorithm, in Python."""
        width = self.nclasses
        state = self.start
        events: list[tuple[int, int]] = []  # (position after, record)
        for pos, char in enumerate(text, 1):
            at = state * width + self.class_of(ord(char))
            target, record = self.moves[at], self.recs[at]
            if target == 0:
                return None
            if record:
                if (
                    target == state
                    and self.keeps[record]
                    and events
                    and events[-1]
                    == (
                        pos - 1,
                        record,
                    )
                ):
                    events[-1] = (pos, record)  # a run on a loop: its last one
                else:
                    events.append((pos, record))
            state = target
        thread = self.finals[state]
        if thread < 0:
            return None
        values = [-1] * self.ntags
        for pos, record in reversed(events):
            source, tagset = self.records[record][thread]
            for tag in self.tagsets[tagset]:
                if values[tag] < 0:
                    values[tag] = pos
            thread = source
        for tag in self.tagsets[self.start_tags[thread]]:
            values[tag] = max(values[tag], 0)
        return values

    def groups(self, text: str) -> tuple[str | None, ...] | None:
        """What ``re.Match.groups()`` gives for the rule's regex, or ``None``."""
        values = self.tags(text)
        if values is None:
            return None
        out: list[str | None] = []
        for index in range(len(self.names)):
            opened, closed = values[2 * index], values[2 * index + 1]
            out.append(text[opened:closed] if opened >= 0 and closed >= 0 else None)
        return tuple(out)


_TAGGED_FIELDS = {
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
    "names",
}


def _check_classes(tables: _Classes, bad: bool) -> None:
    """``ValueError`` when ``bad`` (sizes that disagree) or the partition
    of the code points is not one."""
    starts = tables.starts
    if (
        bad
        or len(starts) != len(tables.classes)
        or not starts
        or starts[0] != 0
        or any(a >= b for a, b in pairwise(starts))
    ):
        msg = "not the expected data: DFA tables of inconsistent sizes"
        raise ValueError(msg)
