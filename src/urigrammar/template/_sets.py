"""What each operator does (RFC 6570 Appendix A's table), with the
character sets of section 3.2.1 read off the grammar.

The grammar says which characters an operator is (``op-level2``,
``op-level3``); the behaviour of each (its first string, separator, whether
it names its variables, what an empty value adds, and which set passes
unencoded) is prose and a table in the RFC, so it is a table here, and a
test checks that its keys are exactly the grammar's operators.  The two
sets the table refers to, (U) ``unreserved`` and (U+R) ``unreserved /
reserved`` (with ``pct-encoded`` kept), are the grammar's rules, collected
by following rule names down to character classes.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from ..engine import Alt, Chars, CharSet, Expr, Grammar, Ref
from ..shipped import RFC6570

__all__ = [
    "NO_OPERATOR",
    "OPERATORS",
    "Operator",
    "allowed",
    "chars_of",
    "hexdig",
    "unreserved",
    "uri_chars",
]


def chars_of(grammar: Grammar, rule: str) -> CharSet:
    """The characters of a rule that is an alternation of single
    characters (``unreserved``, ``reserved``, ``op-level3``, ...)."""

    def walk(expr: Expr) -> CharSet:
        if isinstance(expr, Chars):
            return expr.chars
        if isinstance(expr, Ref):
            return walk(grammar.expr(expr.name))
        if isinstance(expr, Alt):
            out = CharSet()
            for item in expr.items:
                out |= walk(item)
            return out
        msg = f"rule {rule!r} is not an alternation of single characters"
        raise TypeError(msg)

    return walk(grammar.expr(rule))


def _text(chars: CharSet) -> frozenset[str]:
    return frozenset(map(chr, chars))


@cache
def unreserved() -> frozenset[str]:
    """(U): the characters section 3.2.1 lets through unencoded in every
    expression."""
    return _text(chars_of(RFC6570, "unreserved"))


@cache
def uri_chars() -> frozenset[str]:
    """(U+R): ``unreserved / reserved``, the characters allowed anywhere in a
    URI (sections 3.1 and 3.2.1); ``pct-encoded`` is kept as well."""
    return unreserved() | _text(chars_of(RFC6570, "reserved"))


@cache
def hexdig() -> frozenset[str]:
    """The digits of a ``pct-encoded`` triplet."""
    return _text(chars_of(RFC6570, "HEXDIG"))


class Operator(NamedTuple):
    """One column of Appendix A's table."""

    #: The operator character, "" for none (simple string expansion).
    char: str
    #: Written before the first defined variable's expansion.
    first: str
    #: Written between two defined variables' expansions.
    sep: str
    #: Whether ``name=`` precedes each value (path-style and form-style).
    named: bool
    #: What follows a name whose value is empty.
    ifemp: str
    #: (U+R) when true, (U) otherwise.
    reserved: bool


NO_OPERATOR = Operator("", "", ",", named=False, ifemp="", reserved=False)

#: Appendix A's table, by operator character (sections 3.2.2 to 3.2.9).
OPERATORS: dict[str, Operator] = {
    "": NO_OPERATOR,
    "+": Operator("+", "", ",", named=False, ifemp="", reserved=True),
    ".": Operator(".", ".", ".", named=False, ifemp="", reserved=False),
    "/": Operator("/", "/", "/", named=False, ifemp="", reserved=False),
    ";": Operator(";", ";", ";", named=True, ifemp="", reserved=False),
    "?": Operator("?", "?", "&", named=True, ifemp="=", reserved=False),
    "&": Operator("&", "&", "&", named=True, ifemp="=", reserved=False),
    "#": Operator("#", "#", ",", named=False, ifemp="", reserved=True),
}


def allowed(operator: Operator) -> frozenset[str]:
    """The characters a value keeps unencoded under ``operator``."""
    return uri_chars() if operator.reserved else unreserved()
