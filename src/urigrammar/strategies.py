"""Hypothesis strategies that generate text from the grammar itself.

``from_rule("URI-reference")`` draws strings that match the rule, walking
the same IR the automata are built from, so a test built on
it needs no hand-written generator that could drift from the RFC.  Usable
by downstream projects too; needs ``hypothesis`` (not a dependency of
urigrammar itself)::

    from hypothesis import given
    from urigrammar.strategies import from_rule

    @given(from_rule("URI"))
    def test_round_trip(text): ...
"""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from .engine import Alt, Chars, Expr, Grammar, Rep, Seq
from .shipped import shipped_rule

__all__ = ["from_rule", "uri_references"]

#: Unbounded repetitions (``*pchar``) draw at most this many items.
MAX_REPEAT = 6


def _strategy(expr: Expr, grammar: Grammar) -> st.SearchStrategy[str]:
    if isinstance(expr, Chars):
        # Pick an interval, then a code point in it: a class spanning
        # Unicode is a few intervals, never a list of every character.
        spans = [(lo, hi) for lo, hi in expr.chars.spans if hi >= 0]
        return st.sampled_from(spans).flatmap(lambda s: st.integers(s[0], s[1])).map(chr)
    if isinstance(expr, Seq):
        if not expr.items:
            return st.just("")
        return st.tuples(*(_strategy(i, grammar) for i in expr.items)).map("".join)
    if isinstance(expr, Alt):
        return st.one_of(*(_strategy(i, grammar) for i in expr.items))
    if isinstance(expr, Rep):
        hi = expr.lo + MAX_REPEAT if expr.hi is None else expr.hi
        item = _strategy(expr.item, grammar)
        return st.lists(item, min_size=expr.lo, max_size=hi).map("".join)
    return st.deferred(lambda: from_rule(expr.name, grammar))


@cache
def from_rule(name: str, grammar: Grammar | None = None) -> st.SearchStrategy[str]:
    """Strings matching rule ``name`` of ``grammar``; unless told, of the
    shipped grammar that defines it (RFC 3986 first, then RFC 3987, ...)."""
    if grammar is None:
        grammar, name = shipped_rule(name)
    return _strategy(grammar.expr(name), grammar)


def uri_references() -> st.SearchStrategy[str]:
    """Valid URI-references (RFC 3986 section 4.1)."""
    return from_rule("URI-reference")
