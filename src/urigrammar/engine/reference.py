"""The ``abnf`` engine, the reference: how a grammar's rules are matched
by ``abnf``'s own parser, for the rules no automaton serves (a rule that
reaches itself, as RFC 5322's nested ``comment``) and when a caller asks
for it by name.

``abnf`` is recursive descent with backtracking: its time and memory grow
quadratically with the text, and its recursion with the nesting.  So it
takes at most ``ABNF_MAX_LENGTH`` characters and raises
``InputTooLongError`` beyond, or for nesting deeper than Python's stack: a
text too long to decide is never called invalid.

Each grammar gets its own ``abnf`` rule class (``AbnfRules``): ``abnf``
keeps one symbol table per class, and the base class holds only the core
rules.  The class is defined from ``abnf``'s rule nodes, by name, in the
grammar's namespace, rather than by copying definitions (``abnf``'s own
import lists copy a definition object, and so resolve in the source
grammar): a rule pulled in from an import then sees the importing file's
definitions, as everywhere else (``syntax.table``).
"""

from __future__ import annotations

from _thread import allocate_lock
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .._errors import InputTooLongError, SecretFinder

if TYPE_CHECKING:
    from .backend.pure import History, Span
    from .syntax.table import RuleTable

__all__ = ["ABNF_MAX_LENGTH", "AbnfRules", "RuleFallback", "rule_nodes", "tree_spans"]

#: The longest text the ``abnf`` engine takes: at this length one parse
#: can already take about 0.4 s and several hundred MB (``'/' * 2048``
#: against RFC 3986's ``path``).
ABNF_MAX_LENGTH = 2048

_NESTED = "too deeply nested for the abnf engine (Python's recursion limit)"


class AbnfRules:
    """``abnf``'s rule classes for one grammar, defined on first use from
    its rule nodes (``nodes()``: each rule as its namespace resolves it)."""

    def __init__(
        self, nodes: Callable[[], list[Any]], *, secrets: SecretFinder | None = None
    ) -> None:
        self._nodes = nodes
        self._secrets = secrets
        self._classes: dict[bool, Any] = {}
        self._lock = allocate_lock()

    def rule(self, name: str, *, first_match: bool = False) -> Any:
        """``abnf``'s rule object for ``name`` (canonical).  ``first_match``:
        its alternations take their first alternative that matches
        (``abnf``'s ``first_match_alternation``), where by default they
        take the longest."""
        found = self._classes.get(first_match)
        if found is None:
            with self._lock:
                found = self._classes.get(first_match)
                if found is None:
                    found = self._classes[first_match] = self._define(first_match)
        return found.get(name)

    def _define(self, first_match: bool) -> Any:
        from abnf.parser import ABNFGrammarNodeVisitor, Rule

        body = {"__module__": __name__, "first_match_alternation": first_match}
        rule_cls: Any = type(f"Rules_{id(self):x}", (Rule,), body)
        visitor = ABNFGrammarNodeVisitor(rule_cls=rule_cls)
        for node in self._nodes():
            visitor.visit(node)
        return rule_cls

    def parse(
        self, name: str, text: str, *, first_match: bool = False, regular: bool = False
    ) -> Any:
        """``abnf``'s derivation tree of ``text`` under rule ``name``, or
        ``None`` when the rule does not match; ``InputTooLongError`` past
        ``ABNF_MAX_LENGTH`` (``regular``: say that the automata take any
        length) or past Python's recursion.  ``first_match``: as ``rule``'s
        (``None`` may then also mean that a first alternative that matched
        led nowhere)."""
        from abnf.parser import ParseError

        if len(text) > ABNF_MAX_LENGTH:
            msg = (
                f"too long for the abnf engine, which takes at most {ABNF_MAX_LENGTH} "
                f"characters (this text has {len(text)})"
            )
            if regular:
                msg += "; the automata take any length"
            raise InputTooLongError(
                msg, rule=name, text=text, offset=ABNF_MAX_LENGTH, secrets=self._secrets
            )
        try:
            return self.rule(name, first_match=first_match).parse_all(text)
        except ParseError as exc:
            if isinstance(exc.__cause__, RecursionError):
                raise self._nested(name, text) from None
            return None
        except RecursionError:
            raise self._nested(name, text) from None

    def stop(self, name: str, text: str) -> int:
        """Where ``abnf``'s parse of ``text`` stopped: a lower bound of the
        longest viable prefix (the whole text when it matches)."""
        from abnf.parser import ParseError

        try:
            self.rule(name).parse_all(text)
        except ParseError as exc:
            if isinstance(exc.__cause__, RecursionError):
                raise self._nested(name, text) from None
            return min(exc.start, len(text))
        return len(text)

    def fallback(self, rule: str, names: Sequence[str]) -> RuleFallback:
        """Rule ``rule`` as ``backend.choose`` asks for it, capturing ``names``."""
        return RuleFallback(self, rule, names)

    def _nested(self, name: str, text: str) -> InputTooLongError:
        # abnf is recursive descent: nesting deeper than Python's stack is
        # undecided, not invalid.
        return InputTooLongError(_NESTED, rule=name, text=text, offset=0, secrets=self._secrets)


def tree_spans(tree: Any, keys: frozenset[str]) -> History:
    """Every occurrence of the rules ``keys`` (folded) in ``abnf``'s
    derivation tree, by folded name (a walk with its own stack: a tree may
    be deeper than Python's)."""
    found: dict[str, list[Span]] = {}
    todo: list[tuple[Any, int]] = [(tree, 0)]
    while todo:
        node, start = todo.pop()
        name = getattr(node, "name", "")
        end = start + len(node.value)
        if isinstance(name, str) and name.casefold() in keys:
            found.setdefault(name.casefold(), []).append((start, end))
        children = getattr(node, "children", ())
        at = start
        pairs = []
        for child in children:
            pairs.append((child, at))
            at += len(child.value)
        todo.extend(reversed(pairs))
    return {key: tuple(sorted(spans)) for key, spans in found.items()}


class RuleFallback:
    """One rule of ``AbnfRules`` as ``backend.choose`` asks for it (its
    ``Fallback``): the verdict, and the captures ``names`` read off the
    derivation tree, the rule's own occurrences among them (a rule that
    reaches itself may hold itself: a comment in a comment)."""

    def __init__(self, rules: AbnfRules, rule: str, names: Sequence[str]) -> None:
        self._rules = rules
        self._rule = rule
        self._keys = frozenset(name.casefold() for name in (*names, rule))

    def matches(self, text: str) -> bool:
        return self._rules.parse(self._rule, text) is not None

    def history(self, text: str) -> History | None:
        tree = self._rules.parse(self._rule, text)
        return None if tree is None else tree_spans(tree, self._keys)

    def spans(self, text: str, names: Sequence[str]) -> list[int] | None:
        history = self.history(text)
        if history is None:
            return None
        out: list[int] = []
        for name in names:
            found = history.get(name.casefold(), ())
            # The last to close, as a regex's group is set when it closes.
            last = max(found, key=_closing, default=(-1, -1))
            out.extend(last)
        return out


def _closing(span: Span) -> tuple[int, int]:
    """The order in which occurrences close: by end, then the outer first."""
    return (span[1], -span[0])


class _Nodes(Protocol):
    """What ``rule_nodes`` reads of a grammar."""

    @property
    def rules(self) -> RuleTable: ...

    @property
    def imports(self) -> Sequence[_Nodes]: ...

    def own_nodes(self) -> dict[str, tuple[Any, ...]]: ...


def rule_nodes(grammar: _Nodes) -> list[Any]:
    """``abnf``'s rule nodes of every rule ``grammar`` resolves (its own,
    and its imports' where its namespace finds them), for ``AbnfRules``."""

    def node_of(where: _Nodes, key: str) -> tuple[Any, ...]:
        table = where.rules
        if key in table.own:
            return where.own_nodes()[key]
        giver = table.givers[key]
        found = next(grammar for grammar in where.imports if grammar.rules is giver)
        return node_of(found, key)

    nodes: list[Any] = []
    for key in grammar.rules.rules:
        nodes.extend(node_of(grammar, key))
    return nodes
