"""Sets of code points as sorted, disjoint closed intervals.

RFC 3987's ``ucschar`` spans about a million code points in 17 ranges; a
set of code points would have to hold every one of them, while a list of
intervals holds 17 pairs.  Every operation the compiler and the error
locator need (union, intersection, membership, the regex class) works on
the intervals directly, in time linear in their number.  The idea is
kjd/idna's ``intranges``; the code is this project's.

``-1`` is a legal member: the compiler uses it for "the end of the text" in
its follow sets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import itemgetter
from typing import TYPE_CHECKING

from ..base.later import later

if TYPE_CHECKING:
    import bisect
else:
    # Imported at the first membership test: a process that runs stored
    # programs decodes sets but never asks one what it holds.
    bisect = later(globals(), "bisect")

__all__ = ["CharSet"]

_FIRST = itemgetter(0)

#: The largest code point.
_LAST = 0x10FFFF


def _normalized(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sorted, merged intervals: touching or overlapping ones become one."""
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1] + 1:
            if hi > merged[-1][1]:
                merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return tuple(merged)


class CharSet:
    """An immutable set of code points, held as intervals ``(lo, hi)``."""

    __slots__ = ("_los", "spans")

    spans: tuple[tuple[int, int], ...]
    _los: tuple[int, ...]

    def __init__(self, spans: Iterable[tuple[int, int]] = ()) -> None:
        spans = tuple(spans)
        if len(spans) == 1:  # most sets are one interval: nothing to merge
            lo, hi = spans[0]
            spans = ((lo, hi),)
        elif spans:
            spans = _normalized(spans)
        object.__setattr__(self, "spans", spans)
        object.__setattr__(self, "_los", tuple(map(_FIRST, spans)))

    def __setattr__(self, name: str, value: object) -> None:
        msg = "CharSet is immutable"
        raise AttributeError(msg)

    @classmethod
    def of(cls, codes: Iterable[int]) -> CharSet:
        """The set of these code points."""
        return cls([(code, code) for code in codes])

    def __contains__(self, code: object) -> bool:
        if not isinstance(code, int):
            return False
        at = bisect.bisect_right(self._los, code) - 1
        return at >= 0 and code <= self.spans[at][1]

    def __bool__(self) -> bool:
        return bool(self.spans)

    def __len__(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.spans)

    def __iter__(self) -> Iterator[int]:
        for lo, hi in self.spans:
            yield from range(lo, hi + 1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CharSet):
            return NotImplemented
        return self.spans == other.spans

    def __hash__(self) -> int:
        return hash(self.spans)

    def __repr__(self) -> str:
        shown = ", ".join(f"{lo:#x}-{hi:#x}" if lo != hi else f"{lo:#x}" for lo, hi in self.spans)
        return f"CharSet({shown})"

    def __or__(self, other: CharSet) -> CharSet:
        return CharSet(self.spans + other.spans)

    def __and__(self, other: CharSet) -> CharSet:
        out: list[tuple[int, int]] = []
        a, b = self.spans, other.spans
        i = j = 0
        while i < len(a) and j < len(b):
            lo = max(a[i][0], b[j][0])
            hi = min(a[i][1], b[j][1])
            if lo <= hi:
                out.append((lo, hi))
            if a[i][1] < b[j][1]:
                i += 1
            else:
                j += 1
        return CharSet(out)

    def __sub__(self, other: CharSet) -> CharSet:
        out: list[tuple[int, int]] = []
        b = other.spans
        j = 0
        for lo, hi in self.spans:
            # Skip the intervals of other that end before this one starts.
            while j < len(b) and b[j][1] < lo:
                j += 1
            k = j
            start = lo
            while k < len(b) and b[k][0] <= hi:
                if b[k][0] > start:
                    out.append((start, b[k][0] - 1))
                start = max(start, b[k][1] + 1)
                k += 1
            if start <= hi:
                out.append((start, hi))
        return CharSet(out)

    def isdisjoint(self, other: CharSet) -> bool:
        return not (self & other)

    def regex(self) -> str:
        """A Python regex matching one character of the set (``-1`` left out).

        Always the set's own class, never its complement's negated one,
        though ``re`` would compile that faster where the set holds most of
        the code points below U+10000 (RFC 3987's ``ucschar``): a negated
        class tests every range it lists past U+FFFF for each character it
        matches, and IRI classes list one a plane, which made the pure back
        end's IRI ``validate`` two and a half times slower."""
        spans = [(max(lo, 0), hi) for lo, hi in self.spans if hi >= 0]
        if not spans:  # no character: a class nothing matches
            return "[^" + _ranges([(0, _LAST)]) + "]"
        if len(spans) == 1 and spans[0][0] == spans[0][1]:
            return _char(spans[0][0])
        return "[" + _ranges(spans) + "]"


def _ranges(spans: Iterable[tuple[int, int]]) -> str:
    return "".join([_char(lo) if lo == hi else f"{_char(lo)}-{_char(hi)}" for lo, hi in spans])


def _char(code: int) -> str:
    # Escapes for every code point, so no character is special in a class.
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
