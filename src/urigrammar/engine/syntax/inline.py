"""A rule with the rules it uses written in place: the body every automaton
and regex of the rule is built from.

A rule that does not reach itself through its references denotes a
regular language, and inlining the rules it uses gives one expression of
it (``syntax.ir``), whose only terminals are classes of characters.  Some
of the rules it uses may be kept as ``Cap`` nodes (the captures), so that
an automaton can say where each matched; nothing inside a rule of
``leaves`` is looked at.

Two rewrites keep the later stages small and fast, without changing the
language or the reading a backtracking regex gives:

* single characters under one alternation merge into one class
  (``merge_alternatives``), so ``pchar`` is ``[class] / %XX`` rather than
  twenty branches;
* ``*( a *x )`` with ``a`` one class becomes ``[ a *( a / x ) ]``
  (``_star_of_runs``): a path is one run of ``[pchar/]`` broken only by
  ``%XX``.

Inlining reads the rules through a ``Namespace`` (a ``syntax.table``
``RuleTable``), and nothing else of a grammar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from ..._errors import GrammarError
from .analysis import Analysis, not_inlined
from .ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq, refs
from .limits import MAX_DEPTH, MAX_STATES

__all__ = [
    "Namespace",
    "Unsupported",
    "expanded_size",
    "inline_rule",
    "inlined_core",
    "merge_alternatives",
]


class Namespace(Protocol):
    """What inlining reads of a grammar's rules."""

    def canonical(self, name: str) -> str:
        """The rule's name as the grammar spells it."""
        ...

    def expr(self, name: str) -> Expr:
        """The rule's expression, by any spelling of its name."""
        ...

    def uses(self, key: str) -> list[str]:
        """The folded names the rule of folded name ``key`` mentions."""
        ...


class Unsupported(Exception):
    """The rule reaches itself through its references: not regular."""


def _inline(
    rules: Namespace,
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
        memo = _plain_bodies(rules, expr, captures)
    if isinstance(expr, Chars):
        return expr
    if isinstance(expr, Ref):
        name = rules.canonical(expr.name)
        if name in stack:
            raise Unsupported(f"rule {name!r} is recursive")
        found = memo.get(name)
        if found is not None and (name not in captures or not captures):
            return found
        body = rules.expr(name)
        inside = frozenset() if name in leaves else captures
        inner = _inline(rules, body, inside, (*stack, name), leaves, memo)
        return Cap(name, inner) if name in captures else inner
    if isinstance(expr, Seq):
        items: list[Expr] = []
        for item in expr.items:
            node = _inline(rules, item, captures, stack, leaves, memo)
            items.extend(node.items if isinstance(node, Seq) else (node,))
        return items[0] if len(items) == 1 else Seq(tuple(items))
    if isinstance(expr, Alt):
        return merge_alternatives(
            _inline(rules, item, captures, stack, leaves, memo) for item in expr.items
        )
    assert isinstance(expr, Rep)
    item = _inline(rules, expr.item, captures, stack, leaves, memo)
    if expr.lo == expr.hi == 1:
        return item
    if expr.hi == 0 or item == Seq(()):
        return Seq(())
    return _star_of_runs(Rep(expr.lo, expr.hi, item))


def _plain_bodies(rules: Namespace, expr: Expr, captures: frozenset[str]) -> dict[str, Expr]:
    """The inlined body of every rule ``expr`` reaches that reaches no rule
    of ``captures`` (so inlines to no ``Cap``), by canonical name: each
    built from the ones it uses, in dependency order, with a stack of our
    own.  ``Unsupported`` for a rule that reaches itself."""
    memo: dict[str, Expr] = {}
    leads_to_capture: set[str] = set()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    todo: list[tuple[str, bool]] = [(rules.canonical(n), False) for n in refs(expr)]
    while todo:
        name, expanded = todo.pop()
        if expanded:
            state[name] = 2
            used = [rules.canonical(n) for n in rules.uses(name.casefold())]
            if name in captures or any(u in leads_to_capture for u in used):
                leads_to_capture.add(name)
            else:
                memo[name] = _inline(rules, rules.expr(name), frozenset(), (name,), memo=memo)
            continue
        if state.get(name) == 2:
            continue
        if state.get(name) == 1:
            raise Unsupported(f"rule {name!r} is recursive")
        state[name] = 1
        todo.append((name, True))
        for mentioned in rules.uses(name.casefold()):
            canonical = rules.canonical(mentioned)
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
    between = None  # what the branches after the class may start with
    first = Analysis().first
    for node in branches:
        if isinstance(node, Chars):
            if class_at >= 0 and (between is None or between.isdisjoint(node.chars)):
                held = merged[class_at]
                assert isinstance(held, Chars)
                merged[class_at] = Chars(held.chars | node.chars)
            else:
                class_at, between = len(merged), None
                merged.append(node)
        else:
            merged.append(node)
            if class_at >= 0:
                try:
                    found = first(node)
                except TypeError:  # a rule not inlined: no class past it
                    class_at = -1
                else:
                    between = found if between is None else between | found
    return merged[0] if len(merged) == 1 else Alt(tuple(merged))


def has_capture(node: Expr) -> bool:
    """Whether ``node`` holds a ``Cap``."""
    if isinstance(node, Cap):
        return True
    if isinstance(node, (Seq, Alt)):
        return any(has_capture(i) for i in node.items)
    return isinstance(node, Rep) and has_capture(node.item)


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
        or has_capture(tail)
    ):
        return node
    runs = Rep(0, None, merge_alternatives((head, tail.item)))
    return Rep(0, 1, Seq((head, runs)))


def expanded_size(node: Expr) -> int:
    """How many characters' worth of states ``node`` has once its bounded
    repetitions are written out (what the automata build)."""
    return _measure(node)[0]


def _measure(node: Expr) -> tuple[int, int]:
    """``expanded_size`` of ``node`` and how deep it nests, with a stack of
    its own: a chain of rules inlines to a body as deep as the chain is
    long, past Python's stack."""
    measured: dict[int, tuple[int, int]] = {}  # by id: bodies are shared
    work: list[tuple[Expr, bool]] = [(node, False)]
    while work:
        expr, ready = work.pop()
        if id(expr) in measured:
            continue
        if isinstance(expr, Chars):
            measured[id(expr)] = (1, 1)
            continue
        if isinstance(expr, Ref):
            raise not_inlined(expr)
        inner: tuple[Expr, ...] = (
            (expr.expr,)
            if isinstance(expr, Cap)
            else expr.items
            if isinstance(expr, (Seq, Alt))
            else (expr.item,)
        )
        if not ready:
            work.append((expr, True))
            work.extend((item, False) for item in inner if id(item) not in measured)
            continue
        sizes = [measured[id(item)] for item in inner]
        depth = 1 + max((d for _, d in sizes), default=0)
        if isinstance(expr, Cap):
            size = sizes[0][0]
        elif isinstance(expr, (Seq, Alt)):
            size = sum(n for n, _ in sizes) + 1
        else:
            copies = expr.lo if expr.hi is None else expr.hi
            size = sizes[0][0] * max(copies, 1) + 1
        measured[id(expr)] = (size, depth)
    return measured[id(node)]


def inline_rule(
    rules: Namespace,
    name: str,
    captures: frozenset[str] = frozenset(),
    leaves: frozenset[str] = frozenset(),
) -> Expr:
    """Rule ``name`` (canonical) with its references inlined; rules in
    ``captures`` kept as ``Cap`` nodes, nothing inside a rule of ``leaves``.
    ``GrammarError`` when it expands past ``MAX_STATES``, or nests deeper
    than ``MAX_DEPTH``."""
    try:
        body = _inline(rules, Ref(name), captures, (), leaves)
    except RecursionError:
        # The path to a captured rule is followed by recursion: a chain of
        # captured rules past the stack nests past MAX_DEPTH too.
        msg = (
            f"rule {name!r} nests deeper than MAX_DEPTH ({MAX_DEPTH:,}) once its "
            "references are written in: a chain of captured rules each inside the next"
        )
        raise GrammarError(msg, rule=name) from None
    states, depth = _measure(body)
    if states > MAX_STATES:
        msg = (
            f"rule {name!r} is too large: it expands to about {states:,} "
            f"automaton states (at most {MAX_STATES:,})"
        )
        raise GrammarError(msg, rule=name)
    if depth > MAX_DEPTH:
        msg = (
            f"rule {name!r} nests {depth:,} deep once its references are written in "
            f"(at most MAX_DEPTH, {MAX_DEPTH:,}): a chain of rules that each wrap the "
            "next in a sequence or repetition; a chain of alternatives "
            '(r1 = "a" / r2) does not nest'
        )
        raise GrammarError(msg, rule=name)
    return body


def inlined_core(expr: Expr, lookup: Callable[[str], Expr | None]) -> Expr:
    """One of RFC 5234's core rules, ``expr``, with its references to the
    others (``lookup``, by folded name) inlined (they are not recursive),
    so that ``HEXDIG`` reads as one class and ``CRLF`` as two."""

    def inline(expr: Expr) -> Expr:
        if isinstance(expr, Ref):
            found = lookup(expr.name.casefold())
            assert found is not None
            return inline(found)
        if isinstance(expr, Seq):
            return Seq(tuple([inline(item) for item in expr.items]))
        if isinstance(expr, Alt):
            return merge_alternatives([inline(item) for item in expr.items])
        if isinstance(expr, Rep):
            return Rep(expr.lo, expr.hi, inline(expr.item))
        return expr

    return inline(expr)
