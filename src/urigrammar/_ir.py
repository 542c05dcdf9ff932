"""A small intermediate form of ABNF, the input of the compiled engine.

``_grammar`` builds it from the rule-list tree that the ``abnf`` package's
own ABNF parser returns for ``grammar/rfc3986.abnf``; nothing here knows a
rule of RFC 3986.  RFC 5234 section 4 has four operators once options and
groups are unfolded, and a terminal is always one character from a set:

* ``Chars``: one character whose code point is in ``codes``;
* ``Seq``: concatenation (section 3.1); ``Seq(())`` matches the empty string;
* ``Alt``: alternation (section 3.2);
* ``Rep``: ``lo*hi`` repetition (section 3.6), ``hi`` ``None`` for no bound;
  an option ``[x]`` (section 3.8) is ``Rep(0, 1, x)``;
* ``Ref``: a rule name, resolved through the rule table;
* ``Cap``: a rule already inlined but kept as a node of its own, so that the
  compiled engine can report where it matched (``_compile``).

A quoted string (section 2.3) is case-insensitive, so ``"v"`` becomes
``Chars({v, V})``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Alt", "Cap", "Chars", "Expr", "Ref", "Rep", "Seq"]


@dataclass(frozen=True, slots=True)
class Chars:
    codes: frozenset[int]


@dataclass(frozen=True, slots=True)
class Seq:
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Alt:
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Rep:
    lo: int
    hi: int | None
    item: Expr


@dataclass(frozen=True, slots=True)
class Ref:
    name: str


@dataclass(frozen=True, slots=True)
class Cap:
    name: str
    expr: Expr


Expr = Chars | Seq | Alt | Rep | Ref | Cap
