"""Loading RFC 3986 Appendix A from ``rfc3986.abnf`` and naming its rules.

Data flow: the grammar file is read once, at import, and parsed by the
``abnf`` package's own ABNF grammar (RFC 5234) into a rule-list tree.  That
one tree feeds two consumers:

* ``abnf``'s grammar visitor, which defines the rules on ``RFC3986Rule`` (the
  ``abnf`` engine, used by ``parse(..., engine="abnf")`` and ``parse_tree``);
* ``_IRBuilder`` below, which turns each rule into the small ``_ir`` form the
  compiled engine (``_compile``) and the error locator (``_prefix``) work on.

The core rules of RFC 5234 Appendix B (ALPHA, DIGIT, HEXDIG, ...) are not in
the file: they come from ``abnf``.  Those that match single characters are
read off ``abnf``'s own rule objects by trying each octet, so no character
set is typed here either.

The file is package data (``urigrammar/rfc3986.abnf`` in a wheel); a source
checkout without an install falls back to ``grammar/rfc3986.abnf``.
"""

from __future__ import annotations

import difflib
import importlib.resources
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from abnf.parser import (
    ABNFGrammarNodeVisitor,
    ABNFGrammarRule,
    GrammarError,
    ParseError,
    Rule,
)

from ._errors import UnknownRuleError
from ._ir import Alt, Chars, Expr, Ref, Rep, Seq

__all__ = ["GRAMMAR", "Grammar", "RFC3986Rule", "grammar_text"]

_FILE_NAME = "rfc3986.abnf"


def grammar_text() -> str:
    """The text of the grammar file, from package data or the source tree."""
    packaged = importlib.resources.files("urigrammar").joinpath(_FILE_NAME)
    if packaged.is_file():
        return packaged.read_text(encoding="ascii")
    # An editable install or a bare checkout: the file stays at the top of
    # the repository, where it is committed, and is copied into the wheel.
    source = Path(__file__).resolve().parents[2] / "grammar" / _FILE_NAME
    return source.read_text(encoding="ascii")


class RFC3986Rule(Rule):
    """The rules of RFC 3986 Appendix A, defined from ``rfc3986.abnf``.

    A subclass of its own so that these rules never mix with another
    grammar's in ``abnf``'s per-class symbol table.
    """


def _crlf(text: str) -> str:
    # RFC 5234 section 2.2: a rule list is CRLF-terminated lines.
    return text.rstrip().replace("\r", "").replace("\n", "\r\n") + "\r\n"


def _children(node: Any, name: str) -> Iterator[Any]:
    return (child for child in node.children if child.name == name)


def _child(node: Any, name: str) -> Any:
    return next(_children(node, name))


class _IRBuilder:
    """Rule-list tree (RFC 5234 section 4 node names) -> ``_ir`` expressions."""

    def rule(self, node: Any) -> tuple[str, bool, Expr]:
        name = _child(node, "rulename").value
        incremental = "=/" in _child(node, "defined-as").value
        expr = self.alternation(_child(_child(node, "elements"), "alternation"))
        return name, incremental, expr

    def alternation(self, node: Any) -> Expr:
        items = tuple(self.concatenation(c) for c in _children(node, "concatenation"))
        return items[0] if len(items) == 1 else Alt(items)

    def concatenation(self, node: Any) -> Expr:
        items = tuple(self.repetition(c) for c in _children(node, "repetition"))
        return items[0] if len(items) == 1 else Seq(items)

    def repetition(self, node: Any) -> Expr:
        element = _child(node, "element")
        repeats = list(_children(node, "repeat"))
        if not repeats:
            return self.element(element.children[0])
        lo, hi = self.repeat(repeats[0].value)
        if hi == 0:
            # `0<pchar>` (path-empty): zero repetitions of anything match
            # the empty string, so the element -- prose here -- never runs.
            return Seq(())
        return Rep(lo, hi, self.element(element.children[0]))

    @staticmethod
    def repeat(text: str) -> tuple[int, int | None]:
        if "*" not in text:
            return int(text), int(text)
        lo, _, hi = text.partition("*")
        return int(lo or 0), int(hi) if hi else None

    def element(self, node: Any) -> Expr:
        kind = node.name
        if kind == "rulename":
            return Ref(node.value)
        if kind == "group":
            return self.alternation(_child(node, "alternation"))
        if kind == "option":
            return Rep(0, 1, self.alternation(_child(node, "alternation")))
        if kind == "char-val":
            return self.char_val(node.value)
        if kind == "num-val":
            return self.num_val(node.value)
        msg = f"the compiled engine cannot use {kind} {node.value!r}"
        raise GrammarError(msg)

    @staticmethod
    def char_val(text: str) -> Expr:
        # RFC 5234 section 2.3: a quoted string is case-insensitive.
        chars = tuple(Chars(frozenset({ord(c.lower()), ord(c.upper())})) for c in text[1:-1])
        return chars[0] if len(chars) == 1 else Seq(chars)

    @staticmethod
    def num_val(text: str) -> Expr:
        base = {"b": 2, "d": 10, "x": 16}[text[1].lower()]
        body = text[2:]
        if "-" in body:
            lo, hi = (int(part, base) for part in body.split("-"))
            return Chars(frozenset(range(lo, hi + 1)))
        chars = tuple(Chars(frozenset({int(part, base)})) for part in body.split("."))
        return chars[0] if len(chars) == 1 else Seq(chars)


class Grammar:
    """The rule table: names, ``abnf`` rules, source text and ``_ir`` forms."""

    def __init__(self, text: str) -> None:
        tree = ABNFGrammarRule("rulelist").parse_all(_crlf(text))
        ABNFGrammarNodeVisitor(rule_cls=RFC3986Rule).visit(tree)
        builder = _IRBuilder()
        self._canonical: dict[str, str] = {}
        self._source: dict[str, str] = {}
        self._expr: dict[str, Expr] = {}
        for node in _children(tree, "rule"):
            name, incremental, expr = builder.rule(node)
            key = name.casefold()
            if incremental and key in self._expr:
                # RFC 5234 section 3.3: `=/` adds alternatives to a rule.
                expr = Alt((self._expr[key], expr))
                self._source[key] += node.value
            else:
                self._canonical[key] = name
                self._source[key] = node.value
            self._expr[key] = expr
        self.rule_names: tuple[str, ...] = tuple(self._canonical.values())
        # RFC 5234 Appendix B: abnf keeps the core rules on its base class.
        core: list[Rule] = Rule.rules()  # type: ignore[no-untyped-call]
        self.core_names: tuple[str, ...] = tuple(
            r.name for r in core if r.name.casefold() not in self._canonical
        )
        for name in self.core_names:
            self._canonical.setdefault(name.casefold(), name)

    @property
    def all_names(self) -> tuple[str, ...]:
        """Every rule name: Appendix A in file order, then the RFC 5234 core."""
        return self.rule_names + self.core_names

    def canonical(self, name: str) -> str:
        """The rule's name as the grammar spells it (RFC 5234: names are
        case-insensitive), or ``UnknownRuleError`` with close names."""
        if not isinstance(name, str):
            msg = f"rule name must be str, not {type(name).__name__}"
            raise TypeError(msg)
        # RFC 5234 section 2.1: names are ASCII, compared without case
        # (casefold alone would also let "\u017fcheme" mean "scheme").
        found = self._canonical.get(name.casefold()) if name.isascii() else None
        if found is not None:
            return found
        close = difflib.get_close_matches(name.casefold(), list(self._canonical), n=3, cutoff=0.6)
        hint = ", ".join(repr(self._canonical[c]) for c in close)
        msg = f"unknown rule {name!r}" + (f"; did you mean {hint}?" if hint else "")
        raise UnknownRuleError(msg, rule=name)

    def abnf_rule(self, name: str) -> Rule:
        rule = RFC3986Rule.get(self.canonical(name))
        assert rule is not None
        return rule

    def source(self, name: str) -> str | None:
        """The rule's definition as written in the file; ``None`` for core rules."""
        return self._source.get(self.canonical(name).casefold())

    def expr(self, name: str) -> Expr | None:
        """The rule in ``_ir`` form, or ``None`` for a core rule that is not
        a single-character class (CRLF, LWSP: the compiled engine leaves
        those to ``abnf``)."""
        key = self.canonical(name).casefold()
        if key not in self._expr:
            self._expr[key] = self._core_class(key)  # type: ignore[assignment]
        return self._expr[key]

    def references(self, name: str) -> tuple[str, ...]:
        """The rules ``name`` uses, directly or not, in first-use order."""
        seen: dict[str, None] = {}

        def walk(expr: Expr | None) -> None:
            if isinstance(expr, Ref):
                canonical = self.canonical(expr.name)
                if canonical not in seen:
                    seen[canonical] = None
                    walk(self.expr(canonical))
            elif isinstance(expr, (Seq, Alt)):
                for item in expr.items:
                    walk(item)
            elif isinstance(expr, Rep):
                walk(expr.item)

        walk(self.expr(name))
        return tuple(seen)

    @staticmethod
    def _core_class(key: str) -> Chars | None:
        rule = Rule.get(key)
        assert rule is not None

        def matches(text: str) -> bool:
            try:
                rule.parse_all(text)
            except ParseError:
                return False
            return True

        # RFC 5234's core rules are defined over octets, so 256 probes find
        # the whole class.  A rule that matches the empty string or two
        # characters (LWSP, CRLF) is no class, and stays with `abnf`.
        codes = frozenset(code for code in range(256) if matches(chr(code)))
        if not codes or matches("") or any(matches(chr(c) * 2) for c in codes):
            return None
        return Chars(codes)


GRAMMAR = Grammar(grammar_text())
