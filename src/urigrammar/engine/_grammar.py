"""``Grammar``: one ABNF grammar, its namespace, and matchers built on demand.

A grammar is the rules of one ABNF file (RFC 5234), plus the grammars it
imports, plus the RFC 5234 Appendix B core rules, in that order of lookup:

* a name the file defines is the file's rule, whatever the imports define;
* a name the file uses but does not define (or defines only in prose, as
  ``<see RFC 3986>``) comes from the first import that defines it;
* the core rules come last, from ``abnf``; no grammar may redefine one
  (``abnf`` refuses that too: they are shared by every grammar).

References are resolved in the namespace of the grammar being matched, so
rules pulled in from an import see the file's own definitions.  That is
what makes an errata overlay possible: a small file that defines the
corrected rule and imports the published grammar, kept verbatim.

Each grammar has a namespace of its own, so two grammars that define the
same name never interfere, and loading one never changes another.

Matching: a rule that does not reach itself through its references is
regular.  It compiles to one regex (``_compile``), used where the regex
cannot backtrack (or, in a vetted grammar, backtracks a bounded number of
times: see ``matcher``); otherwise the viable-prefix automaton (``_prefix``)
matches it, one step per character.  Error offsets come from that automaton
too.  A rule that
does reach itself (RFC 5322's ``comment``) is not regular and is matched by
the ``abnf`` engine, whose time and memory grow quadratically, so it takes
at most ``ABNF_MAX_LENGTH`` characters and raises ``InputTooLongError``
beyond: a text too long to decide is never called invalid.

Loading is lazy when asked (the grammars urigrammar ships): nothing is read
until a rule is first used, which keeps ``import urigrammar`` cheap.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from .._errors import GrammarError, InputTooLongError, UnknownRuleError, URISyntaxError
from ._compile import (
    MAX_STATES,
    CompiledRule,
    compile_rule,
    expanded_size,
    merge_alternatives,
)
from ._ir import Alt, Expr, Ref, Rep, Seq, refs
from ._prefix import Automaton
from ._reader import RuleText, core_rules
from ._runner import active as _native_active
from ._runner import forget_on_switch, native_matcher
from ._tagged import TaggedTables, build_tagged

__all__ = ["ABNF_MAX_LENGTH", "Grammar"]

#: The longest text the ``abnf`` engine takes: at this length one parse
#: can already take about 0.4 s and several hundred MB (``'/' * 2048``
#: against RFC 3986's ``path``).
ABNF_MAX_LENGTH = 2048

# How many spellings of rule names ``validate`` remembers on its fast path.
_FAST_ENTRIES = 256


@cache
def _core() -> dict[str, RuleText]:
    """RFC 5234's core rules with their references inlined (they are not
    recursive), so that ``HEXDIG`` reads as one class and ``CRLF`` as two."""
    raw = {rule.name.casefold(): rule for rule in core_rules()}

    def inline(expr: Expr) -> Expr:
        if isinstance(expr, Ref):
            found = raw[expr.name.casefold()].expr
            assert found is not None
            return inline(found)
        if isinstance(expr, Seq):
            return Seq(tuple(inline(item) for item in expr.items))
        if isinstance(expr, Alt):
            return merge_alternatives(inline(item) for item in expr.items)
        if isinstance(expr, Rep):
            return Rep(expr.lo, expr.hi, inline(expr.item))
        return expr

    return {
        key: RuleText(rule.name, inline(rule.expr), rule.source, rule.nodes)
        for key, rule in raw.items()
        if rule.expr is not None
    }


class _Table:
    """What a loaded grammar knows: every rule it resolves, by folded name."""

    def __init__(self, own: list[RuleText], imports: Sequence[Grammar], label: str) -> None:
        core = _core()
        self.own: dict[str, RuleText] = {}
        for rule in own:
            key = rule.name.casefold()
            if key in core:
                msg = (
                    f"{label}: {rule.name!r} is an RFC 5234 core rule, shared by every "
                    "grammar; a grammar cannot redefine it"
                )
                raise GrammarError(msg, rule=rule.name)
            self.own[key] = rule
        self.rules: dict[str, RuleText] = {}
        for key, rule in self.own.items():
            if rule.expr is not None:
                self.rules[key] = rule
        imported: dict[str, RuleText] = {}
        for grammar in imports:
            for key, rule in grammar._table().rules.items():
                if key not in self.rules and key not in imported:
                    imported[key] = rule
        self.rules.update(imported)
        for key, rule in self.own.items():
            if key not in self.rules:
                msg = (
                    f"{label}: rule {rule.name!r} is written in prose "
                    f"({''.join(rule.source).strip()!r}) and no import defines it"
                )
                raise GrammarError(msg, rule=rule.name)
        # Names as the grammar spells them: the file, then imports, then core.
        self.names: dict[str, str] = {key: rule.name for key, rule in self.rules.items()}
        self.core_names = tuple(rule.name for key, rule in core.items() if key not in self.names)
        for key, rule in core.items():
            self.names.setdefault(key, rule.name)
        for rule in self.own.values():
            if rule.expr is None:
                continue
            for used in refs(rule.expr):
                if used.casefold() not in self.names:
                    msg = (
                        f"{label}: rule {used!r}, used in {rule.name!r}, is defined "
                        "nowhere: not in this grammar, its imports, or RFC 5234's core rules"
                    )
                    raise GrammarError(msg, rule=used)

    def expr(self, key: str) -> Expr:
        rule = self.rules.get(key) or _core()[key]
        assert rule.expr is not None
        return rule.expr


class Grammar:
    """An ABNF grammar: validate and check text against its rules by name.

    Build one with ``urigrammar.load_grammar``; urigrammar's own grammars
    (``urigrammar.RFC3986``) are ``Grammar`` objects too.
    """

    def __init__(
        self,
        read: Callable[[], list[RuleText]],
        *,
        name: str,
        imports: Sequence[Grammar] = (),
        lazy: bool = False,
        vetted: bool = False,
    ) -> None:
        self.name = name
        self.imports = tuple(imports)
        # Which regexes to trust (see ``matcher``): only LL(1) ones, unless
        # the grammar's backtracking was vetted (urigrammar's own grammars,
        # whose long-input shapes bench/bench_length.py and the tests time).
        self._vetted = vetted
        self._read = read
        self._loaded: _Table | None = None
        self._lock = threading.Lock()
        self._compiled: dict[tuple[str, frozenset[str], frozenset[str]], CompiledRule] = {}
        self._automata: dict[str, Automaton] = {}
        self._natives: dict[str, Callable[[str], object | None] | None] = {}
        self._tagged: dict[tuple[str, frozenset[str], frozenset[str]], TaggedTables | None] = {}
        self._regular: dict[str, bool] = {}
        self._fast: dict[str, Callable[[str], Any]] = {}
        forget_on_switch(self)
        self._abnf: Any = None
        if not lazy:
            self._table()

    def __repr__(self) -> str:
        return f"<Grammar {self.name}>"

    def _table(self) -> _Table:
        table = self._loaded
        if table is None:
            with self._lock:
                if self._loaded is None:
                    self._loaded = _Table(self._read(), self.imports, self.name)
                table = self._loaded
        return table

    def clear_caches(self) -> None:
        """Forget every compiled matcher and automaton (they are rebuilt on
        next use); the rules themselves stay loaded."""
        with self._lock:
            self._compiled.clear()
            self._automata.clear()
            self._natives.clear()
            self._tagged.clear()
            self._fast.clear()

    def forget_matchers(self) -> None:
        """Forget the matchers remembered by rule spelling (the engine
        switched: ``_runner.use``); compiled patterns and DFAs stay."""
        self._fast.clear()

    # --- names and text ---------------------------------------------------

    @property
    def rule_names(self) -> tuple[str, ...]:
        """The rules this grammar defines, in file order, then those it imports."""
        return tuple(rule.name for rule in self._table().rules.values())

    @property
    def core_names(self) -> tuple[str, ...]:
        """The RFC 5234 core rules (ALPHA, DIGIT, CRLF, ...)."""
        return self._table().core_names

    @property
    def all_names(self) -> tuple[str, ...]:
        """Every name a rule may be given by: ``rule_names``, then the core."""
        return self.rule_names + self.core_names

    def find(self, name: str) -> str | None:
        """The rule's name as the grammar spells it (RFC 5234 section 2.1:
        names are case-insensitive); ``None`` when the grammar has no such rule."""
        if not isinstance(name, str):
            msg = f"rule name must be str, not {type(name).__name__}"
            raise TypeError(msg)
        # RFC 5234 section 2.1: names are ASCII, compared without case
        # (casefold alone would also let "\u017fcheme" mean "scheme").
        return self._table().names.get(name.casefold()) if name.isascii() else None

    def canonical(self, name: str) -> str:
        """The rule's name as the grammar spells it (RFC 5234 section 2.1:
        names are case-insensitive), or ``UnknownRuleError`` with close names."""
        found = self.find(name)
        if found is not None:
            return found
        names = self._table().names
        close = difflib.get_close_matches(name.casefold(), list(names), n=3, cutoff=0.6)
        hint = ", ".join(repr(names[c]) for c in close)
        msg = f"unknown rule {name!r}" + (f"; did you mean {hint}?" if hint else "")
        raise UnknownRuleError(msg, rule=name)

    def source(self, name: str) -> str | None:
        """The rule's definition as written in its file; ``None`` for a core rule."""
        rule = self._table().rules.get(self.canonical(name).casefold())
        return None if rule is None else "".join(rule.source)

    def expr(self, name: str) -> Expr:
        """The rule in ``_ir`` form."""
        return self._table().expr(self.canonical(name).casefold())

    def references(self, name: str) -> tuple[str, ...]:
        """The rules ``name`` uses, directly or not, in first-use order."""
        seen: dict[str, None] = {}
        todo = [self.canonical(name)]
        while todo:
            for used in refs(self.expr(todo.pop(0))):
                canonical = self.canonical(used)
                if canonical not in seen:
                    seen[canonical] = None
                    todo.append(canonical)
        return tuple(seen)

    def is_regular(self, name: str) -> bool:
        """Whether the rule never reaches itself through its references, so
        that it compiles to a linear-time matcher.  A rule that does (a
        nested comment, say) is matched by the ``abnf`` engine instead, on
        at most ``ABNF_MAX_LENGTH`` characters."""
        canonical = self.canonical(name)
        found = self._regular.get(canonical)
        if found is None:
            used = self.references(canonical)
            found = canonical not in used and all(
                rule not in self.references(rule) for rule in used
            )
            self._regular[canonical] = found
        return found

    # --- matching ---------------------------------------------------------

    def compiled(
        self,
        name: str,
        captures: frozenset[str] = frozenset(),
        leaves: frozenset[str] = frozenset(),
    ) -> CompiledRule:
        """The rule as a regex; ``captures`` become groups (see ``_compile``)."""
        key = (self.canonical(name), captures, leaves)
        found = self._compiled.get(key)
        if found is None:
            found = compile_rule(self, key[0], captures, leaves)
            self._compiled[key] = found
        return found

    def tagged(
        self,
        name: str,
        captures: frozenset[str] = frozenset(),
        leaves: frozenset[str] = frozenset(),
    ) -> TaggedTables | None:
        """The rule's tagged DFA (``_tagged``), its captures numbered as
        ``compiled(name, captures, leaves)``'s groups; ``None`` when it is
        over the caps.  Built once per key."""
        key = (self.canonical(name), captures, leaves)
        if key not in self._tagged:
            from ._compile import _inline

            compiled = self.compiled(*key)
            body = _inline(self, Ref(key[0]), captures - {key[0]}, (), leaves)
            found = build_tagged(body)
            if found is not None and list(found.names) != [n for n, _ in compiled.groups]:
                found = None  # never expected: the regex's groups are the oracle
            self._tagged[key] = found
        return self._tagged[key]

    def validate(self, rule: str, text: str) -> bool:
        """Whether all of ``text`` matches ``rule``.  Raises
        ``InputTooLongError`` for a non-regular rule and a text longer than
        ``ABNF_MAX_LENGTH``: such a text is not decided, never "invalid"."""
        fast = self._fast.get(rule)
        if fast is not None and isinstance(text, str):
            return fast(text) is not None
        name = self.canonical(rule)
        if not isinstance(text, str):
            msg = f"text must be str, not {type(text).__name__}"
            raise TypeError(msg)
        if not self.is_regular(name):
            return self.abnf_parse(name, text) is not None
        matcher = self.matcher(name)
        if len(self._fast) < _FAST_ENTRIES:
            self._fast[rule] = matcher
        return matcher(text) is not None

    def matcher(self, name: str) -> Callable[[str], object | None]:
        """For a regular rule: a function of a text that returns ``None``
        exactly when the rule does not match all of it, in linear time.

        That is the regex's ``fullmatch`` where the regex cannot backtrack
        past one character (every choice decided by the next character), and
        the automaton's run otherwise.  A grammar built ``vetted`` also trusts
        a regex whose choices are bounded and outside every repetition
        (``_compile.linear``): the retries are then a number set by the
        grammar, which for a grammar nobody vetted could be exponential in
        its size (twenty optional elements in a row)."""
        canonical = self.canonical(name)
        compiled = self.compiled(canonical)
        if _native_active():
            native = self._native(canonical)
            if native is not None:
                return native
        if compiled.deterministic or (self._vetted and compiled.linear):
            return compiled.pattern.fullmatch
        automaton = self._automaton(canonical)

        def accepts(text: str) -> object | None:
            return True if automaton.accepts(text) else None

        return accepts

    def _native(self, canonical: str) -> Callable[[str], object | None] | None:
        """The native runner's ``fullmatch`` for a regular rule (``_runner``),
        or ``None`` when its DFA is over the caps; built once per rule."""
        if canonical not in self._natives:
            from ._compile import _inline

            body = _inline(self, Ref(canonical), frozenset(), ())
            self._natives[canonical] = native_matcher(body)
        return self._natives[canonical]

    def check(self, rule: str, text: str) -> None:
        """Raise ``URISyntaxError`` unless ``text`` matches ``rule``; its
        offset is the end of the longest prefix of ``text`` that some string
        matching the rule starts with."""
        if not self.validate(rule, text):
            raise self.syntax_error(self.canonical(rule), text)

    def viable_prefix(self, name: str, text: str) -> int:
        """The length of the longest prefix of ``text`` that some string the
        (regular) rule matches starts with."""
        return self._automaton(self.canonical(name)).viable(text)

    def _automaton(self, canonical: str) -> Automaton:
        automaton = self._automata.get(canonical)
        if automaton is None:
            from ._compile import _inline

            body = _inline(self, Ref(canonical), frozenset(), ())
            if expanded_size(body) > MAX_STATES:
                self.compiled(canonical)  # raises the GrammarError that says so
            automaton = Automaton(body)
            self._automata[canonical] = automaton
        return automaton

    def syntax_error(self, name: str, text: str) -> URISyntaxError:
        """The error for a ``text`` that ``name`` does not match."""
        if self.is_regular(name):
            offset = self.viable_prefix(name, text)
        else:
            # No automaton for a recursive rule: abnf's own stop is the
            # offset, which may fall short of the longest viable prefix.
            from abnf.parser import ParseError

            try:
                self.abnf_rule(name).parse_all(text)
                offset = len(text)
            except ParseError as exc:
                if isinstance(exc.__cause__, RecursionError):
                    msg = "too deeply nested for the abnf engine (Python's recursion limit)"
                    raise InputTooLongError(msg, rule=name, text=text, offset=0) from None
                offset = min(exc.start, len(text))
        if offset < len(text):
            why = f"unexpected {text[offset]!r} at offset {offset}"
        else:
            why = f"the text ends at offset {offset} before the rule is complete"
        return URISyntaxError(f"not a valid {name}: {why}", rule=name, text=text, offset=offset)

    # --- the abnf engine ----------------------------------------------------

    def abnf_rule(self, name: str) -> Any:
        """``abnf``'s rule object for ``name``, in this grammar's namespace."""
        canonical = self.canonical(name)
        if self._abnf is None:
            with self._lock:
                if self._abnf is None:
                    self._abnf = self._define_abnf_rules()
        return self._abnf.get(canonical)

    def _define_abnf_rules(self) -> Any:
        from abnf.parser import ABNFGrammarNodeVisitor, Rule

        # A rule class per grammar: abnf keeps one symbol table per class,
        # so this grammar's names never mix with another's.
        rule_cls: Any = type(f"Rules_{id(self):x}", (Rule,), {"__module__": __name__})
        visitor = ABNFGrammarNodeVisitor(rule_cls=rule_cls)
        for rule in self._table().rules.values():
            for node in rule.nodes:
                visitor.visit(node)
        return rule_cls

    def abnf_parse(self, name: str, text: str) -> Any:
        """``abnf``'s derivation tree of ``text``, or ``None`` when the rule
        does not match; ``InputTooLongError`` past ``ABNF_MAX_LENGTH``."""
        from abnf.parser import ParseError

        canonical = self.canonical(name)
        if len(text) > ABNF_MAX_LENGTH:
            msg = (
                f"too long for the abnf engine, which takes at most {ABNF_MAX_LENGTH} "
                f"characters (this text has {len(text)})"
            )
            if self.is_regular(canonical):
                msg += "; the compiled engine takes any length"
            raise InputTooLongError(msg, rule=canonical, text=text, offset=ABNF_MAX_LENGTH)
        try:
            return self.abnf_rule(canonical).parse_all(text)
        except ParseError as exc:
            if isinstance(exc.__cause__, RecursionError):
                # abnf is recursive descent: nesting deeper than Python's
                # stack is undecided, not invalid.
                msg = "too deeply nested for the abnf engine (Python's recursion limit)"
                raise InputTooLongError(msg, rule=canonical, text=text, offset=0) from None
            return None
        except RecursionError:
            msg = "too deeply nested for the abnf engine (Python's recursion limit)"
            raise InputTooLongError(msg, rule=canonical, text=text, offset=0) from None
