"""The compiled engine: a grammar rule -> one linear-time Python regex.

Theory of operation.  A rule that does not reach itself through its
references denotes a regular language and can be written as one regular
expression by inlining the rules it uses (``_inline``); the grammar sends
the others (``Grammar.is_regular``) to the ``abnf`` engine.  A backtracking regex engine
accepts exactly that language under ``fullmatch``; the work is in keeping it
linear on any input:

* single characters under one alternation merge into one class, so
  ``pchar`` is ``[class]|%XX`` rather than twenty branches;
* a repetition is emitted possessive (``*+``, Python 3.11+) when it is
  *deterministic* in its context: its element cannot match the empty string,
  the element's first characters are disjoint from what may follow the
  repetition, and the element is itself deterministic.  Then giving back an
  iteration can never let the rest match, so forbidding it changes no answer
  and removes the backtracking that makes regexes super-linear;
* such a repetition over ``[class] | other`` is emitted as
  ``(?:[class]++|other)*+``, which lets ``re`` consume whole runs of the
  class in C instead of one iteration per character.

Ambiguous places (RFC 3986's ``host = IP-literal / IPv4address / reg-name``,
the ``IPv6address`` forms, ``dec-octet``) stay ordinary backtracking: each of
their alternatives is bounded or deterministic, so retries cost a constant
number of linear scans.  Character classes are interval sets (``CharSet``),
so the analysis and the emitted classes cost the number of ranges, not of
code points: a Unicode-wide class is a handful of ranges.
``bench/bench_length.py`` measures the scaling.

For ``parse`` the rules the visitor handles are wrapped in capturing groups;
``CompiledRule.tree`` turns a match into a tree of ``RuleNode`` with the same
``name``/``children``/``value`` interface as ``abnf``'s nodes, so the one
visitor in ``_visitor`` reads trees from either engine.  Group numbers
follow the pattern's opening parentheses, which is pre-order, so a node's
parent is always built before it and siblings arrive in text order.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._errors import GrammarError
from ._charset import CharSet
from ._ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq, refs

if TYPE_CHECKING:
    from ._grammar import Grammar

__all__ = [
    "END",
    "MAX_STATES",
    "CompiledRule",
    "Emitted",
    "Emitter",
    "RuleNode",
    "Unsupported",
    "compile_body",
    "expanded_size",
    "inline_rule",
    "linear",
    "merge_alternatives",
]

_POSSESSIVE = sys.version_info >= (3, 11)
END = CharSet.of((-1,))  # in a follow set: the end of the text
_NONE = CharSet()


class Unsupported(Exception):
    """The rule reaches itself through its references: not regular."""


class RuleNode:
    """One rule's match in a compiled-engine tree (``abnf.Node``'s interface)."""

    __slots__ = ("children", "name", "value")

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value
        self.children: list[RuleNode] = []

    def __repr__(self) -> str:
        return f"RuleNode({self.name!r}, {self.value!r}, {self.children!r})"


def _inline(
    grammar: Grammar,
    expr: Expr,
    captures: frozenset[str],
    stack: tuple[str, ...],
    leaves: frozenset[str] = frozenset(),
    memo: dict[str, Expr] | None = None,
) -> Expr:
    """``expr`` with every rule reference replaced by its definition; the
    rules in ``captures`` are kept as ``Cap`` nodes, except inside a rule
    of ``leaves``, whose insides are never looked at.

    A chain of rules may be longer than Python's stack (``r0 = "a" / r1``,
    ``r1 = "a" / r2``, ...), so the rules that lead to no capture are
    inlined first, one at a time in dependency order (``_plain_bodies``),
    and a reference to one is a lookup here, not a descent.  Only the path
    to a captured rule is followed by recursion, and parse rules capture
    near the top."""
    if memo is None:
        memo = _plain_bodies(grammar, expr, captures)
    if isinstance(expr, Chars):
        return expr
    if isinstance(expr, Ref):
        name = grammar.canonical(expr.name)
        if name in stack:
            raise Unsupported(f"rule {name!r} is recursive")
        found = memo.get(name)
        if found is not None and (name not in captures or not captures):
            return found
        body = grammar.expr(name)
        inside = frozenset() if name in leaves else captures
        inner = _inline(grammar, body, inside, (*stack, name), leaves, memo)
        return Cap(name, inner) if name in captures else inner
    if isinstance(expr, Seq):
        items: list[Expr] = []
        for item in expr.items:
            node = _inline(grammar, item, captures, stack, leaves, memo)
            items.extend(node.items if isinstance(node, Seq) else (node,))
        return items[0] if len(items) == 1 else Seq(tuple(items))
    if isinstance(expr, Alt):
        return merge_alternatives(
            _inline(grammar, item, captures, stack, leaves, memo) for item in expr.items
        )
    assert isinstance(expr, Rep)
    item = _inline(grammar, expr.item, captures, stack, leaves, memo)
    if expr.lo == expr.hi == 1:
        return item
    if expr.hi == 0 or item == Seq(()):
        return Seq(())
    return _star_of_runs(Rep(expr.lo, expr.hi, item))


def _plain_bodies(grammar: Grammar, expr: Expr, captures: frozenset[str]) -> dict[str, Expr]:
    """The inlined body of every rule ``expr`` reaches that reaches no rule
    of ``captures`` (so inlines to no ``Cap``), by canonical name: each
    built from the ones it uses, in dependency order, with a stack of our
    own.  ``Unsupported`` for a rule that reaches itself."""
    memo: dict[str, Expr] = {}
    leads_to_capture: set[str] = set()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    todo: list[tuple[str, bool]] = [(grammar.canonical(n), False) for n in refs(expr)]
    while todo:
        name, expanded = todo.pop()
        if expanded:
            state[name] = 2
            used = [grammar.canonical(n) for n in refs(grammar.expr(name))]
            if name in captures or any(u in leads_to_capture for u in used):
                leads_to_capture.add(name)
            else:
                memo[name] = _inline(grammar, grammar.expr(name), frozenset(), (name,), memo=memo)
            continue
        if state.get(name) == 2:
            continue
        if state.get(name) == 1:
            raise Unsupported(f"rule {name!r} is recursive")
        state[name] = 1
        todo.append((name, True))
        for mentioned in refs(grammar.expr(name)):
            canonical = grammar.canonical(mentioned)
            if state.get(canonical) == 1:
                raise Unsupported(f"rule {canonical!r} is recursive")
            if state.get(canonical) != 2:
                todo.append((canonical, False))
    return memo


def merge_alternatives(items: Iterable[Expr]) -> Expr:
    """An alternation, flattened, with its single-character branches merged
    into one class where the first of them stood, when no branch between
    can start with their characters: the language is the same, and so is
    the first-match reading (RFC 3986's order of alternatives), since a
    branch that cannot start with a character fails on it wherever it
    stands.  One class beats many branches."""
    branches: list[Expr] = []
    for node in items:
        branches.extend(node.items if isinstance(node, Alt) else (node,))
    merged: list[Expr] = []
    class_at = -1
    between = _NONE  # what the branches after the class may start with
    first = Emitter().first
    for node in branches:
        if isinstance(node, Chars):
            if class_at >= 0 and between.isdisjoint(node.chars):
                held = merged[class_at]
                assert isinstance(held, Chars)
                merged[class_at] = Chars(held.chars | node.chars)
            else:
                class_at, between = len(merged), _NONE
                merged.append(node)
        else:
            merged.append(node)
            if class_at >= 0:
                try:
                    between = between | first(node)
                except TypeError:  # a rule not inlined: no class past it
                    class_at = -1
    return merged[0] if len(merged) == 1 else Alt(tuple(merged))


def _has_capture(node: Expr) -> bool:
    if isinstance(node, Cap):
        return True
    if isinstance(node, (Seq, Alt)):
        return any(_has_capture(i) for i in node.items)
    return isinstance(node, Rep) and _has_capture(node.item)


def _star_of_runs(node: Rep) -> Expr:
    """``*( a *x )`` as ``[ a *( a / x ) ]`` for a single character class
    ``a``: the same strings (every ``a`` starts a new iteration or is one
    more element), but the loop runs once per run of characters rather
    than once per ``a``.  This is ``path-abempty = *( "/" segment )``: a
    path becomes one class run ``[pchar/]`` broken only by ``%XX``."""
    item = node.item
    if (node.lo, node.hi) != (0, None) or not isinstance(item, Seq) or len(item.items) != 2:
        return node
    head, tail = item.items
    if (
        not isinstance(head, Chars)
        or not isinstance(tail, Rep)
        or (tail.lo, tail.hi) != (0, None)
        or _has_capture(tail)
    ):
        return node
    runs = Rep(0, None, merge_alternatives((head, tail.item)))
    return Rep(0, 1, Seq((head, runs)))


def _not_inlined(node: Ref) -> TypeError:
    return TypeError(f"rule reference {node.name!r} was not inlined")


class Emitter:
    """Analysis (nullable, FIRST, determinism) and regex emission."""

    def __init__(self, *, possessive: bool = _POSSESSIVE) -> None:
        self.possessive = possessive
        self.groups: list[tuple[str, int]] = []  # (rule name, parent group)
        self._open: list[int] = [0]
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
                raise _not_inlined(node)
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
                raise _not_inlined(node)
            self._first[key] = value
        return self._first[key]

    def _follows(self, items: tuple[Expr, ...], follow: CharSet) -> list[CharSet]:
        # What may follow each item of a sequence: the FIRST of the rest,
        # and the outer follow where the rest can be empty.
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
                for item, f in zip(node.items, self._follows(node.items, follow), strict=True)
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
            # The empty way last: the regex tries alternatives in order, so an
            # empty one before the others is taken whatever comes next, and a
            # possessive repetition around it would never come back for them
            # ("" / "b" inside 2*( "c" ... ) on "ccb").
            return empties == 0 or (
                empties == 1 and self.nullable(node.items[-1]) and seen.isdisjoint(follow)
            )
        if isinstance(node, Ref):
            raise _not_inlined(node)
        first = self.first(node.item)
        return (
            not self.nullable(node.item)
            and (node.lo == node.hi or first.isdisjoint(follow))
            and self.deterministic(node.item, first | follow)
        )

    def char_class(self, chars: CharSet) -> str:
        """The regex of one character of ``chars`` (a dialect's emitter
        spells it its own way: ``_dialect``)."""
        return chars.regex()

    def group_opening(self, rule: str) -> str:
        """What opens the capturing group of rule ``rule``, called in the
        order the groups open (a dialect's emitter names it)."""
        return "("

    def emit(self, node: Expr, follow: CharSet) -> str:
        if isinstance(node, Chars):
            return self.char_class(node.chars)
        if isinstance(node, Cap):
            self.groups.append((node.name, self._open[-1]))
            opening = self.group_opening(node.name)
            self._open.append(len(self.groups))
            body = self.emit(node.expr, follow)
            self._open.pop()
            return f"{opening}{body})"
        if isinstance(node, Seq):
            follows = self._follows(node.items, follow)
            return "".join(
                self._atom(item, f) if isinstance(item, Alt) else self.emit(item, f)
                for item, f in zip(node.items, follows, strict=True)
            )
        if isinstance(node, Alt):
            return "|".join(self.emit(item, follow) for item in node.items)
        if isinstance(node, Ref):
            raise _not_inlined(node)
        return self._repetition(node, follow)

    def _atom(self, node: Expr, follow: CharSet) -> str:
        body = self.emit(node, follow)
        if isinstance(node, (Chars, Cap)):
            return body
        return f"(?:{body})"

    def _repetition(self, node: Rep, follow: CharSet) -> str:
        lo, hi = node.lo, node.hi
        quantifier = (
            "*"
            if (lo, hi) == (0, None)
            else "+"
            if (lo, hi) == (1, None)
            else "?"
            if (lo, hi) == (0, 1)
            else f"{{{lo}}}"
            if lo == hi
            else f"{{{lo},}}"
            if hi is None
            else f"{{{lo},{hi}}}"
        )
        inner_follow = self.first(node.item) | follow if hi != 1 else follow
        possessive = self.possessive and lo != hi and self.deterministic(node, follow)
        item = node.item
        runs = [b for b in item.items if isinstance(b, Chars)] if isinstance(item, Alt) else []
        if possessive and hi is None and lo <= 1 and runs and (lo == 0 or not _has_capture(item)):
            # (c|o)* is c*(oc*)*: the class c is taken a run at a time, in C,
            # and the loop turns once per other element (a `%XX`), not once
            # per character.  (c|o)+ is one (c+|o) and then the same, which
            # writes o twice: not when o holds a group, whose copies would
            # be groups that ``groups`` does not list.
            assert isinstance(item, Alt)
            run = self.char_class(runs[0].chars)
            others = "|".join(self.emit(b, inner_follow) for b in item.items if b is not runs[0])
            star = f"{run}*+(?:(?:{others}){run}*+)*+"
            return star if lo == 0 else f"(?:{run}++|{others}){star}"
        body = self._atom(item, inner_follow)
        if isinstance(item, (Seq, Rep)):
            body = f"(?:{body})"
        return body + quantifier + ("+" if possessive else "")


@dataclass(frozen=True)
class CompiledRule:
    """One rule as a regex; ``groups`` names each capturing group (1-based
    position) and gives its enclosing group (0 for none)."""

    name: str
    pattern: re.Pattern[str]
    groups: tuple[tuple[str, int], ...]
    #: Whether ``pattern`` backtracks only at bounded choices outside every
    #: repetition (see ``linear``): linear, by a constant that depends on
    #: the grammar.
    linear: bool = True
    #: Whether ``pattern`` never backtracks past one character: every choice
    #: is decided by the next character (LL(1)), which is linear whatever
    #: the grammar.
    deterministic: bool = True

    def tree(self, text: str) -> RuleNode | None:
        """The rule-level tree of ``text``, or ``None`` when it does not match."""
        match = self.pattern.fullmatch(text)
        if match is None:
            return None
        root = RuleNode(self.name, text)
        nodes: list[RuleNode] = [root]
        spans = match.regs
        for index, (name, parent) in enumerate(self.groups, 1):
            start, end = spans[index]
            if start < 0:
                nodes.append(root)  # placeholder: never a parent of a match
                continue
            node = RuleNode(name, text[start:end])
            nodes[parent].children.append(node)
            nodes.append(node)
        return root


@dataclass(frozen=True)
class Emitted:
    """A rule body's regex source and what the analysis says of it."""

    source: str
    groups: tuple[tuple[str, int], ...]
    linear: bool
    deterministic: bool


def inline_rule(
    grammar: Grammar,
    name: str,
    captures: frozenset[str] = frozenset(),
    leaves: frozenset[str] = frozenset(),
) -> Expr:
    """Rule ``name`` (canonical) with its references inlined; rules in
    ``captures`` kept as ``Cap`` nodes, nothing inside a rule of ``leaves``.
    ``GrammarError`` when it expands past ``MAX_STATES``."""
    body = _inline(grammar, Ref(name), captures, (), leaves)
    states = expanded_size(body)
    if states > MAX_STATES:
        msg = (
            f"rule {name!r} is too large: it expands to about {states:,} "
            f"automaton states (at most {MAX_STATES:,})"
        )
        raise GrammarError(msg, rule=name)
    return body


def compile_body(name: str, body: Expr, *, possessive: bool = _POSSESSIVE) -> Emitted:
    """The regex of an inlined rule body, with possessive quantifiers where
    they change no answer (Python 3.11 on) or without any."""
    emitter = Emitter(possessive=possessive)
    source = emitter.emit(body, END)
    safe = linear(emitter, body, END, inside=False)
    decided = emitter.deterministic(body, END)
    return Emitted(source, tuple(emitter.groups), safe, decided)


# The most counts a non-deterministic bounded repetition may choose among
# and still count as a bounded choice (RFC 3986's largest is *6( h16 ":" )).
_FEW = 8

#: The most automaton states one rule may expand to (repetitions counted
#: out): ``1000(1000"a")`` would otherwise cost seconds and hundreds of MB.
MAX_STATES = 200_000


def expanded_size(node: Expr) -> int:
    """How many characters' worth of states ``node`` has once its bounded
    repetitions are written out (what ``_prefix`` builds)."""
    if isinstance(node, Chars):
        return 1
    if isinstance(node, Cap):
        return expanded_size(node.expr)
    if isinstance(node, (Seq, Alt)):
        return sum(expanded_size(item) for item in node.items) + 1
    if isinstance(node, Ref):
        raise _not_inlined(node)
    copies = node.lo if node.hi is None else node.hi
    return expanded_size(node.item) * max(copies, 1) + 1


def linear(emitter: Emitter, node: Expr, follow: CharSet, *, inside: bool) -> bool:
    """Whether the regex for ``node`` backtracks only a bounded number of
    times per character.

    A deterministic choice never backtracks.  A non-deterministic one (an
    alternation whose branches share a first character, a repetition that
    cannot be possessive) may retry, and that is bounded only when it stands
    outside every repetition and is itself bounded: then the retries are a
    fixed number of scans, set by the grammar, not by the text.  Inside a
    repetition (``(a|a)*``), or unbounded itself (``a*a*a*``), the retries
    multiply with the length, so such a rule is matched by the automaton
    instead.  RFC 3986 has choices only outside repetitions (``host``,
    ``IPv6address``, ``dec-octet``), so each of its rules passes."""
    if isinstance(node, Chars):
        return True
    if isinstance(node, Cap):
        return linear(emitter, node.expr, follow, inside=inside)
    if isinstance(node, Seq):
        follows = emitter._follows(node.items, follow)
        return all(
            linear(emitter, item, f, inside=inside)
            for item, f in zip(node.items, follows, strict=True)
        )
    if isinstance(node, Alt):
        if inside and not emitter.deterministic(node, follow):
            return False
        return all(linear(emitter, item, follow, inside=inside) for item in node.items)
    if isinstance(node, Ref):
        raise _not_inlined(node)
    choice = node.lo != node.hi and not emitter.deterministic(node, follow)
    # A choice among many counts (0*998"a") multiplies like a loop.
    if choice and (inside or node.hi is None or node.hi - node.lo > _FEW):
        return False
    repeats = node.hi is None or node.hi > 1
    inner = emitter.first(node.item) | follow if node.hi != 1 else follow
    return linear(emitter, node.item, inner, inside=inside or repeats)
