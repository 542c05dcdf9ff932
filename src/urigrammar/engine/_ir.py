"""A small intermediate form of ABNF, the input of the compiler.

``_reader`` builds it from the rule-list tree that the ``abnf`` package's
own ABNF parser returns for a grammar file; nothing here knows any
particular grammar.  RFC 5234 section 4 has four operators once options and
groups are unfolded, and a terminal is always one character from a set:

* ``Chars``: one character whose code point is in ``chars``, a ``CharSet``
  of intervals (so a class spanning Unicode costs a few pairs);
* ``Seq``: concatenation (section 3.1); ``Seq(())`` matches the empty string;
* ``Alt``: alternation (section 3.2);
* ``Rep``: ``lo*hi`` repetition (section 3.6), ``hi`` ``None`` for no bound;
  an option ``[x]`` (section 3.8) is ``Rep(0, 1, x)``;
* ``Ref``: a rule name, resolved through a grammar's namespace;
* ``Cap``: a rule already inlined but kept as a node of its own, so that the
  compiled engine can report where it matched (``_compile``).

A quoted string (section 2.3) is case-insensitive, so ``"v"`` becomes
``Chars({v, V})``; RFC 7405's ``%s"..."`` is case-sensitive.
"""

from __future__ import annotations

from ._charset import CharSet
from ._value import Value

__all__ = ["Alt", "Cap", "Chars", "Expr", "Ref", "Rep", "Seq", "refs"]


class Chars(Value):
    __slots__ = ("chars",)
    chars: CharSet

    def __init__(self, chars: CharSet) -> None:
        self._init(chars=chars)

    @property
    def codes(self) -> frozenset[int]:
        """Every code point, spelled out: for small classes only."""
        return frozenset(self.chars)


class Seq(Value):
    __slots__ = ("items",)
    items: tuple[Expr, ...]

    def __init__(self, items: tuple[Expr, ...]) -> None:
        self._init(items=items)


class Alt(Value):
    __slots__ = ("items",)
    items: tuple[Expr, ...]

    def __init__(self, items: tuple[Expr, ...]) -> None:
        self._init(items=items)


class Rep(Value):
    __slots__ = ("hi", "item", "lo")
    lo: int
    hi: int | None
    item: Expr

    def __init__(self, lo: int, hi: int | None, item: Expr) -> None:
        self._init(lo=lo, hi=hi, item=item)


class Ref(Value):
    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        self._init(name=name)


class Cap(Value):
    __slots__ = ("expr", "name")
    name: str
    expr: Expr

    def __init__(self, name: str, expr: Expr) -> None:
        self._init(name=name, expr=expr)


Expr = Chars | Seq | Alt | Rep | Ref | Cap


def refs(expr: Expr) -> list[str]:
    """The rule names ``expr`` mentions, in order of first mention."""
    found: dict[str, None] = {}

    def walk(node: Expr) -> None:
        if isinstance(node, Ref):
            found.setdefault(node.name, None)
        elif isinstance(node, (Seq, Alt)):
            for item in node.items:
                walk(item)
        elif isinstance(node, Rep):
            walk(node.item)
        elif isinstance(node, Cap):
            walk(node.expr)

    walk(expr)
    return list(found)
