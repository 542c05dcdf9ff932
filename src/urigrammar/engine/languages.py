"""What one rule's language is beside another's, on grammars: whether it
lies inside it (``within``), the characters it uses (``alphabet``), and a
grammar cut to an alphabet (``restricted``).  The scheme profiles use
them: most scheme rules are built from RFC 3986's and lie inside ``URI``,
so that a profile runs one DFA, not two; and RFC 6068's ``mailtoURI``,
which reaches RFC 5322's nested ``comment``, is regular over the
characters a URI uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base.later import later
from .grammar import Grammar
from .program.store import Store
from .syntax.charset import CharSet
from .syntax.ir import Expr
from .syntax.restrict import restricted_text, used
from .syntax.table import core

if TYPE_CHECKING:
    from .automata import product
else:
    # Imported when two languages are first compared: a profile whose
    # answer is stored never builds a product.
    product = later(globals(), ".automata.product")

__all__ = ["alphabet", "restricted", "within"]


def within(grammar: Grammar, name: str, other: Grammar, other_name: str) -> bool | None:
    """Whether every string rule ``name`` of ``grammar`` matches, rule
    ``other_name`` of ``other`` matches too (on their minimal DFAs);
    ``None`` when either rule has no DFA (it is not regular, or too large),
    so that nothing is known."""
    inner, outer = grammar.program(name).dfa, other.program(other_name).dfa
    if inner is None or outer is None:
        return None
    return product.included(inner, outer)


def alphabet(grammar: Grammar, name: str) -> CharSet:
    """The characters that occur in some string rule ``name`` matches
    (``syntax.restrict.used``): what ``restricted`` takes as an alphabet."""
    table = grammar.rules

    def lookup(key: str) -> Expr | None:
        return table.expr(key) if key in table.names else None

    return used(lookup, grammar.canonical(name).casefold())


def restricted(
    grammar: Grammar,
    chars: CharSet | Grammar,
    rule: str | None = None,
    *,
    name: str | None = None,
    store: Store | None = None,
    prefix: str = "",
    without: CharSet | None = None,
) -> Grammar:
    """``grammar`` with every rule restricted to an alphabet: the
    ``CharSet`` given, or the characters rule ``rule`` of the grammar given
    uses (``alphabet``).  Each rule of the new grammar matches exactly the
    strings over the alphabet that the rule of the same name matches in
    ``grammar``; a rule that matches none such is not in it
    (``syntax.restrict``).  A rule that reaches itself there may not here,
    and is then regular.  The new grammar is ABNF text written from the
    rules, read when first used (nothing is read here), kept in ``store``
    if given; it raises what ``grammar`` raises.  With a ``prefix`` every
    rule of the new grammar is named ``prefix`` and its name (the core
    rules keep theirs), so that a grammar may import both: the rule over
    the whole alphabet and the rule over a part of it.  The characters of
    ``without`` are taken out of the alphabet."""
    if isinstance(chars, Grammar):
        if rule is None:
            msg = "restricted(grammar, other, rule): the rule whose characters are the alphabet"
            raise TypeError(msg)
        what = f"the characters {chars.name}'s {rule} uses"
    elif isinstance(chars, CharSet):
        what = repr(chars)
    else:
        msg = f"the alphabet must be a CharSet or a Grammar, not {type(chars).__name__}"
        raise TypeError(msg)
    if without is not None:
        what += f" but {without!r}"
    label = name or f"{grammar.name} over {what}"

    def text() -> str:
        # Named, not looked up, until now: nothing is read before the text.
        found = chars if isinstance(chars, CharSet) else alphabet(chars, rule or "")
        if without is not None:
            found = found - without
        table = grammar.rules
        rules = {key: table.expr(key) for key in table.rules}
        core_exprs = {key: table.expr(key) for key in core()}
        header = (
            f"{label}: {grammar.name} with every rule restricted to {what},",
            "written out by urigrammar.engine.syntax.restrict from the grammar's rules.",
        )
        return restricted_text(rules, table.names, core_exprs, found, header, prefix)

    return grammar.derived(text, label, store)
