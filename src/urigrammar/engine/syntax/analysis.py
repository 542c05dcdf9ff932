"""What the compiler knows of an inlined rule body before it emits
anything: whether a part may match the empty string (``nullable``), the
characters it may start with (``first``), whether it matches at most one
way deciding every choice on the next character (``deterministic``, LL(1)),
and whether a backtracking regex of it retries only a bounded number of
times per character (``linear``).

``inline.merge_alternatives`` asks ``first``; the regex emitter
(``regex.emit``) asks ``deterministic`` where a repetition may be
possessive, and the program (``program``) records ``deterministic`` and
``linear`` to decide whether a rule's regex may be trusted on any input.
Each ``Analysis`` remembers its answers by node, for one body.

The body is in ``syntax.ir`` form with every rule reference inlined; a
``Ref`` left in it is an error (``TypeError``).  ``END``, in a follow set,
stands for the end of the text.
"""

from __future__ import annotations

from .charset import CharSet
from .ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq

__all__ = ["END", "Analysis", "linear"]

#: In a follow set: the end of the text.
END = CharSet.of((-1,))
_NONE = CharSet()

# The most counts a non-deterministic bounded repetition may choose among
# and still count as a bounded choice (RFC 3986's largest is *6( h16 ":" )).
_FEW = 8


def not_inlined(node: Ref) -> TypeError:
    """The error for a rule reference left in a body that should have none."""
    return TypeError(f"rule reference {node.name!r} was not inlined")


class Analysis:
    """Nullable, FIRST and determinism of the nodes of one body, each
    computed once per node."""

    def __init__(self) -> None:
        self._nullable: dict[int, bool] = {}
        self._first: dict[int, CharSet] = {}

    def nullable(self, node: Expr) -> bool:
        key = id(node)
        if key not in self._nullable:
            if isinstance(node, Chars):
                value = False
            elif isinstance(node, Seq):
                value = all(self.nullable(i) for i in node.items)
            elif isinstance(node, Alt):
                value = any(self.nullable(i) for i in node.items)
            elif isinstance(node, Rep):
                value = node.lo == 0 or self.nullable(node.item)
            elif isinstance(node, Cap):
                value = self.nullable(node.expr)
            else:
                raise not_inlined(node)
            self._nullable[key] = value
        return self._nullable[key]

    def first(self, node: Expr) -> CharSet:
        key = id(node)
        if key not in self._first:
            value: CharSet
            if isinstance(node, Chars):
                value = node.chars
            elif isinstance(node, Seq):
                value = _NONE
                for item in node.items:
                    value |= self.first(item)
                    if not self.nullable(item):
                        break
            elif isinstance(node, Alt):
                value = _NONE
                for item in node.items:
                    value |= self.first(item)
            elif isinstance(node, Rep):
                value = self.first(node.item)
            elif isinstance(node, Cap):
                value = self.first(node.expr)
            else:
                raise not_inlined(node)
            self._first[key] = value
        return self._first[key]

    def follows(self, items: tuple[Expr, ...], follow: CharSet) -> list[CharSet]:
        """What may follow each item of a sequence: the FIRST of the rest,
        and the outer ``follow`` where the rest can be empty."""
        out: list[CharSet] = []
        after = follow
        for item in reversed(items):
            out.append(after)
            after = self.first(item) | after if self.nullable(item) else self.first(item)
        out.reverse()
        return out

    def deterministic(self, node: Expr, follow: CharSet) -> bool:
        """Whether ``node`` matches at most one way in this context, deciding
        every choice on the next character (LL(1))."""
        if isinstance(node, Chars):
            return True
        if isinstance(node, Cap):
            return self.deterministic(node.expr, follow)
        if isinstance(node, Seq):
            return all(
                self.deterministic(item, f)
                for item, f in zip(node.items, self.follows(node.items, follow), strict=True)
            )
        if isinstance(node, Alt):
            seen = _NONE
            empties = 0
            for item in node.items:
                first = self.first(item)
                if not seen.isdisjoint(first) or not self.deterministic(item, follow):
                    return False
                seen |= first
                empties += self.nullable(item)
            # The empty way last: a regex tries alternatives in order, so an
            # empty one before the others is taken whatever comes next, and a
            # possessive repetition around it would never come back for them
            # ("" / "b" inside 2*( "c" ... ) on "ccb").
            return empties == 0 or (
                empties == 1 and self.nullable(node.items[-1]) and seen.isdisjoint(follow)
            )
        if isinstance(node, Ref):
            raise not_inlined(node)
        first = self.first(node.item)
        return (
            not self.nullable(node.item)
            and (node.lo == node.hi or first.isdisjoint(follow))
            and self.deterministic(node.item, first | follow)
        )


def linear(analysis: Analysis, node: Expr, follow: CharSet = END, *, inside: bool = False) -> bool:
    """Whether a backtracking regex of ``node`` retries only a bounded
    number of times per character.

    A deterministic choice never backtracks.  A non-deterministic one (an
    alternation whose branches share a first character, a repetition that
    cannot be possessive) may retry, and that is bounded only when it stands
    outside every repetition and is itself bounded: then the retries are a
    fixed number of scans, set by the grammar, not by the text.  Inside a
    repetition (``(a|a)*``), or unbounded itself (``a*a*a*``), the retries
    multiply with the length, so such a rule is matched by an automaton
    instead.  RFC 3986 has choices only outside repetitions (``host``,
    ``IPv6address``, ``dec-octet``), so each of its rules passes."""
    if isinstance(node, Chars):
        return True
    if isinstance(node, Cap):
        return linear(analysis, node.expr, follow, inside=inside)
    if isinstance(node, Seq):
        follows = analysis.follows(node.items, follow)
        return all(
            linear(analysis, item, f, inside=inside)
            for item, f in zip(node.items, follows, strict=True)
        )
    if isinstance(node, Alt):
        if inside and not analysis.deterministic(node, follow):
            return False
        return all(linear(analysis, item, follow, inside=inside) for item in node.items)
    if isinstance(node, Ref):
        raise not_inlined(node)
    choice = node.lo != node.hi and not analysis.deterministic(node, follow)
    # A choice among many counts (0*998"a") multiplies like a loop.
    if choice and (inside or node.hi is None or node.hi - node.lo > _FEW):
        return False
    repeats = node.hi is None or node.hi > 1
    inner = analysis.first(node.item) | follow if node.hi != 1 else follow
    return linear(analysis, node.item, inner, inside=inside or repeats)
