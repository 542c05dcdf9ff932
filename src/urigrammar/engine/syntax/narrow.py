"""Narrowing a body's alphabet: the non-ASCII code points that no class
of the body tells apart, each such block written as one representative.

A matcher asks of a character only which of the body's classes hold it.
Cut the code points from U+0080 up at every class's bounds, and each
piece lies wholly inside or wholly outside every class; pieces that the
same classes hold form one block.  Mapping each non-ASCII character of a
text to its block's representative, and each class to its ASCII part and
the representatives of the blocks it holds, then gives the same matches
at the same offsets (one character stays one character).  RFC 3987's
rules need three blocks (``ucschar``, ``iprivate``, neither).

Why: Python's ``re`` compiles a class a code point at a time below
U+10000, and ``ucschar`` holds some 55,000 of them in every class that
uses it, so the pure back end's first IRI match spent a tenth of a second
compiling; the narrowed regex compiles as fast as the URI rules' do.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..base.later import later
from .charset import CharSet
from .ir import Alt, Cap, Chars, Expr, Rep, Seq

if TYPE_CHECKING:
    import bisect
else:
    # Imported when a text is first narrowed: a program is read, and run
    # on the native back end, without.
    bisect = later(globals(), "bisect")

__all__ = ["Narrowing", "narrowed", "narrowing"]

_FIRST = 0x80  # ASCII stays as it is
_END = 0x110000


#: How many code points a table keeps once worked out: the few a script
#: uses, not the million a crafted text may hold.
_KEPT = 4096


class _Table(dict[int, int]):
    """What ``str.translate`` reads: ASCII to itself, any other code point
    to its block's representative, worked out when first met and kept for
    the first ``_KEPT`` of them."""

    __slots__ = ("_cuts", "_reps")

    def __init__(self, cuts: tuple[int, ...], reps: tuple[int, ...]) -> None:
        super().__init__((code, code) for code in range(_FIRST))
        self._cuts, self._reps = cuts, reps

    def __missing__(self, code: int) -> int:
        rep = self._reps[bisect.bisect_right(self._cuts, code) - 1]
        if len(self) < _FIRST + _KEPT:
            self[code] = rep  # a race keeps one of two equal values
        return rep


class Narrowing:
    """The blocks, as ``cuts`` (from U+0080 to U+110000, each block from
    one cut to the next) and each block's representative (``reps``).
    Immutable."""

    __slots__ = ("cuts", "reps", "table")
    cuts: tuple[int, ...]
    reps: tuple[int, ...]
    #: The ``str.translate`` table of ``narrow_text``.
    table: _Table

    def __init__(self, cuts: Sequence[int], reps: Sequence[int]) -> None:
        cuts, reps = tuple(cuts), tuple(reps)
        if (
            len(cuts) < 2
            or cuts[0] != _FIRST
            or cuts[-1] != _END
            or any(a >= b for a, b in itertools.pairwise(cuts))
            or len(reps) != len(cuts) - 1
            or any(not cuts[0] <= rep < _END for rep in reps)
        ):
            msg = "not a narrowing: cuts from U+0080 to U+110000, a representative each"
            raise ValueError(msg)
        object.__setattr__(self, "cuts", cuts)
        object.__setattr__(self, "reps", reps)
        object.__setattr__(self, "table", _Table(cuts, reps))

    def __setattr__(self, name: str, value: object) -> None:
        msg = "Narrowing is immutable"
        raise AttributeError(msg)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Narrowing):
            return NotImplemented
        return (self.cuts, self.reps) == (other.cuts, other.reps)

    def __hash__(self) -> int:
        return hash((self.cuts, self.reps))

    def __repr__(self) -> str:
        return f"<Narrowing of {len(self.reps)} pieces to {len(set(self.reps))} blocks>"

    def narrow_text(self, text: str) -> str:
        """``text`` with each non-ASCII character written as its block's
        representative."""
        return text.translate(self.table)

    def narrow_chars(self, chars: CharSet) -> CharSet:
        """A class of the body narrowed: its ASCII part, and the
        representatives of the blocks it holds."""
        ascii_part = [(lo, min(hi, _FIRST - 1)) for lo, hi in chars.spans if lo < _FIRST]
        held = {rep for cut, rep in zip(self.cuts[:-1], self.reps, strict=True) if cut in chars}
        return CharSet([*ascii_part, *((rep, rep) for rep in held)])

    def to_data(self) -> list[list[int]]:
        return [list(self.cuts), list(self.reps)]


def _classes(body: Expr) -> list[CharSet]:
    found: dict[CharSet, None] = {}
    work = [body]
    while work:
        node = work.pop()
        if isinstance(node, Chars):
            found.setdefault(node.chars, None)
        elif isinstance(node, (Seq, Alt)):
            work.extend(node.items)
        elif isinstance(node, Rep):
            work.append(node.item)
        elif isinstance(node, Cap):
            work.append(node.expr)
    return list(found)


#: How many non-ASCII code points a class must hold for narrowing to pay:
#: below it, ``re`` compiles the class in microseconds, and a text would
#: be translated for nothing.
_WORTH = 256


def _non_ascii(chars: CharSet) -> int:
    return sum(hi - max(lo, _FIRST) + 1 for lo, hi in chars.spans if hi >= _FIRST)


def narrowing(body: Expr) -> Narrowing | None:
    """The narrowing of an inlined body, or ``None`` when none of its
    classes holds more than ``_WORTH`` non-ASCII code points (nothing to
    gain)."""
    wide = [chars for chars in _classes(body) if chars.spans and chars.spans[-1][1] >= _FIRST]
    if all(_non_ascii(chars) <= _WORTH for chars in wide):
        return None
    cuts = {_FIRST, _END}
    for chars in wide:
        for lo, hi in chars.spans:
            if hi >= _FIRST:
                cuts.update((max(lo, _FIRST), hi + 1))
    ordered = sorted(cuts)
    first_of: dict[tuple[bool, ...], int] = {}
    reps = [first_of.setdefault(tuple(cut in chars for chars in wide), cut) for cut in ordered[:-1]]
    return Narrowing(ordered, reps)


def narrowed(body: Expr, narrowing: Narrowing) -> Expr:
    """``body`` with every class narrowed (``Narrowing.narrow_chars``)."""
    done: dict[CharSet, CharSet] = {}

    def narrow(node: Expr) -> Expr:
        if isinstance(node, Chars):
            found = done.get(node.chars)
            if found is None:
                found = done[node.chars] = narrowing.narrow_chars(node.chars)
            return Chars(found)
        if isinstance(node, Seq):
            return Seq(tuple([narrow(item) for item in node.items]))
        if isinstance(node, Alt):
            return Alt(tuple([narrow(item) for item in node.items]))
        if isinstance(node, Rep):
            return Rep(node.lo, node.hi, narrow(node.item))
        if isinstance(node, Cap):
            return Cap(node.name, narrow(node.expr))
        raise TypeError(f"rule reference {node!r} was not inlined")

    return narrow(body)
