"""A small intermediate form of ABNF, the input of the compiler.

``reader`` builds it from the rule-list tree that the ``abnf`` package's
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
  automata can report where it matched (``syntax.inline``).

A quoted string (section 2.3) is case-insensitive, so ``"v"`` becomes
``Chars({v, V})``; RFC 7405's ``%s"..."`` is case-sensitive.
"""

from __future__ import annotations

from typing import Any

from ..base import wire
from ..base.value import Value
from .charset import CharSet

__all__ = [
    "Alt",
    "Cap",
    "Chars",
    "Expr",
    "Ref",
    "Rep",
    "Seq",
    "expr_from_data",
    "expr_to_data",
    "refs",
]


# Each node's fields are set by object's own setter, not ``Value._init``:
# reading a grammar makes a node per term, and a first parse of a small
# grammar is counted in such calls.
_set = object.__setattr__


class Chars(Value):
    __slots__ = ("chars",)
    chars: CharSet

    def __init__(self, chars: CharSet) -> None:
        _set(self, "chars", chars)

    @property
    def codes(self) -> frozenset[int]:
        """Every code point, spelled out: for small classes only."""
        return frozenset(self.chars)


class Seq(Value):
    __slots__ = ("items",)
    items: tuple[Expr, ...]

    def __init__(self, items: tuple[Expr, ...]) -> None:
        _set(self, "items", items)


class Alt(Value):
    __slots__ = ("items",)
    items: tuple[Expr, ...]

    def __init__(self, items: tuple[Expr, ...]) -> None:
        _set(self, "items", items)


class Rep(Value):
    __slots__ = ("hi", "item", "lo")
    lo: int
    hi: int | None
    item: Expr

    def __init__(self, lo: int, hi: int | None, item: Expr) -> None:
        _set(self, "lo", lo)
        _set(self, "hi", hi)
        _set(self, "item", item)


class Ref(Value):
    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class Cap(Value):
    __slots__ = ("expr", "name")
    name: str
    expr: Expr

    def __init__(self, name: str, expr: Expr) -> None:
        _set(self, "name", name)
        _set(self, "expr", expr)


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


def expr_to_data(expr: Expr) -> list[Any]:
    """An expression as JSON values: ``["c", [[lo, hi], ...]]``,
    ``["s", [...]]``, ``["a", [...]]``, ``["r", lo, hi, item]``,
    ``["n", name]``, ``["k", name, expr]`` (``expr_from_data`` reads them)."""
    if isinstance(expr, Chars):
        return ["c", [list(span) for span in expr.chars.spans]]
    if isinstance(expr, Seq):
        return ["s", [expr_to_data(item) for item in expr.items]]
    if isinstance(expr, Alt):
        return ["a", [expr_to_data(item) for item in expr.items]]
    if isinstance(expr, Rep):
        return ["r", expr.lo, expr.hi, expr_to_data(expr.item)]
    if isinstance(expr, Ref):
        return ["n", expr.name]
    return ["k", expr.name, expr_to_data(expr.expr)]


def expr_from_data(data: object) -> Expr:
    """``expr_to_data``'s values back; ``ValueError`` for any other shape,
    one nested too deeply to rebuild included."""
    try:
        return _expr_from_data(data)
    except RecursionError:
        msg = "an expression nested too deeply to read"
        raise ValueError(msg) from None


def _expr_from_data(data: object) -> Expr:
    node = wire.listed(data)
    kind = node[0] if node else None
    if kind == "c" and len(node) == 2:
        spans = wire.pairs(node[1])
        return Chars(CharSet((wire.integer(lo, 0), wire.integer(hi, 0)) for lo, hi in spans))
    if kind in ("s", "a") and len(node) == 2:
        items = tuple(_expr_from_data(item) for item in wire.listed(node[1]))
        return Seq(items) if kind == "s" else Alt(items)
    if kind == "r" and len(node) == 4:
        lo = wire.integer(node[1], 0, 1 << 31)
        hi = None if node[2] is None else wire.integer(node[2], 0, 1 << 31)
        return Rep(lo, hi, _expr_from_data(node[3]))
    if kind == "n" and len(node) == 2:
        return Ref(wire.text(node[1]))
    if kind == "k" and len(node) == 3:
        return Cap(wire.text(node[1]), _expr_from_data(node[2]))
    msg = f"not an expression: {kind!r}"
    raise ValueError(msg)
