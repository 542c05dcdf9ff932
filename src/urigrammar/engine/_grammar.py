"""``Grammar``: one ABNF grammar, its namespace, and matchers built on demand.

A grammar is the rules of one ABNF file (RFC 5234), plus the grammars it
imports, plus the RFC 5234 Appendix B core rules, in that order of lookup:

* a name the file defines is the file's rule, whatever the imports define;
* a name the file uses but does not define (or defines only in prose, as
  ``<see RFC 3986>``) comes from the imports.  Two imports that define it
  differently are a ``GrammarError`` naming both: references resolve in
  the importing namespace, so whichever one won would also change what
  the other import's own rules mean, and the order of the imports would
  decide it silently.  The file settles it by defining the rule itself.
  Definitions that say the same (RFC 3987 restates RFC 3986's
  ``pct-encoded``, and RFC 6570 imports both) are one rule, the first
  import's text;
* the core rules come last, from ``abnf``; no grammar may redefine one
  (``abnf`` refuses that too: they are shared by every grammar).

References are resolved in the namespace of the grammar being matched, so
rules pulled in from an import see the file's own definitions.  That is
what makes an errata overlay possible: a small file that defines the
corrected rule and imports the published grammar, kept verbatim.

Each grammar has a namespace of its own, so two grammars that define the
same name never interfere, and loading one never changes another.

Matching: each rule compiles once into a ``Program`` (``_program``, which
says what runs it), kept in the grammar's one cache of programs.  A rule
that does not reach itself through its references is regular: a DFA, a
regex or the lazy automaton, linear on any input.  A rule that does (RFC
5322's ``comment``) is matched by the ``abnf`` engine, whose time and
memory grow quadratically, so it takes at most ``ABNF_MAX_LENGTH``
characters and raises ``InputTooLongError`` beyond: a text too long to
decide is never called invalid.  The back end (``_backend``) is the
default one unless a call names another.

Loading is lazy when asked (the grammars urigrammar ships): nothing is read
until a rule is first used, which keeps ``import urigrammar`` cheap.  A
grammar with a ``Store`` (``_cache``) first looks there for its rules and
programs, compiled before from the same grammar texts (``_artifact``), and
reads its text with ``abnf`` only when that fails.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._errors import (
    GrammarError,
    InputTooLongError,
    RuleMatchError,
    SecretFinder,
    UnknownRuleError,
)
from ._artifact import Key, Lineage, decode, encode, piece, program_from
from ._backend import Backend, default_backend
from ._cache import Store, log
from ._charset import CharSet
from ._ir import Alt, Chars, Expr, Ref, Rep, Seq, refs
from ._program import Program, build_program
from ._reader import RuleText, core_rules, read_rules

if TYPE_CHECKING:
    from ._compile import CompiledRule
    from ._dialect import Regex
    from ._match import RuleMatch
    from ._tables import TaggedTables

__all__ = ["ABNF_MAX_LENGTH", "Grammar"]


#: The longest text the ``abnf`` engine takes: at this length one parse
#: can already take about 0.4 s and several hundred MB (``'/' * 2048``
#: against RFC 3986's ``path``).
ABNF_MAX_LENGTH = 2048

#: The most prepared ``parse`` calls a grammar keeps (by rule, captures and
#: back end): a program that parses with ever new captures must not grow
#: the cache without bound.
_MAX_PARSERS = 256

_NONE: frozenset[str] = frozenset()


class _Core:
    """RFC 5234's core rules, by folded name: from the first compiled
    grammar loaded (``_artifact``), else read off ``abnf``'s own."""

    rules: dict[str, RuleText] | None = None


def _core() -> dict[str, RuleText]:
    """RFC 5234's core rules with their references inlined (they are not
    recursive), so that ``HEXDIG`` reads as one class and ``CRLF`` as two."""
    found = _Core.rules
    if found is None:
        found = _Core.rules = _read_core()
    return found


def _read_core() -> dict[str, RuleText]:
    from ._compile import merge_alternatives

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


def _check_backend(backend: object) -> None:
    if backend is not None and not isinstance(backend, Backend):
        msg = f"backend must be a Backend (urigrammar.engine.NATIVE or PURE), not {backend!r}"
        raise TypeError(msg)


def _matches_some(expr: Expr | None, productive: set[str]) -> bool:
    """Whether ``expr`` matches some string, given the rules known to."""
    if expr is None:
        return False
    if isinstance(expr, Chars):
        return bool(expr.chars)
    if isinstance(expr, Ref):
        return expr.name.casefold() in productive
    if isinstance(expr, Seq):
        return all(_matches_some(item, productive) for item in expr.items)
    if isinstance(expr, Alt):
        return any(_matches_some(item, productive) for item in expr.items)
    if isinstance(expr, Rep):
        return expr.lo == 0 or _matches_some(expr.item, productive)
    return _matches_some(expr.expr, productive)


def _size(expr: Expr, sizes: dict[str, int | None], cap: int) -> int:
    """``_compile.expanded_size`` of ``expr`` with its references counted
    at the ``sizes`` of the rules they name, held at ``cap``."""
    if isinstance(expr, Chars):
        return 1
    if isinstance(expr, Ref):
        return sizes[expr.name.casefold()] or 0
    if isinstance(expr, (Seq, Alt)):
        return min(cap, sum(_size(item, sizes, cap) for item in expr.items) + 1)
    if isinstance(expr, Rep):
        copies = expr.lo if expr.hi is None else expr.hi
        return min(cap, _size(expr.item, sizes, cap) * max(copies, 1) + 1)
    return _size(expr.expr, sizes, cap)


def _folded(expr: Expr) -> object:
    """``expr`` with its rule names folded (RFC 5234 section 2.1: names are
    case-insensitive), as a value to compare."""
    if isinstance(expr, Ref):
        return Ref(expr.name.casefold())
    if isinstance(expr, (Seq, Alt)):
        return (type(expr), tuple(_folded(item) for item in expr.items))
    if isinstance(expr, Rep):
        return (Rep, expr.lo, expr.hi, _folded(expr.item))
    return expr


def _same_definition(first: RuleText, second: RuleText) -> bool:
    """Whether two definitions of one name say the same: one rule read
    twice, or the same expression written with other spacing, comments or
    case of names (RFC 3987 restates RFC 3986's ``pct-encoded`` so)."""
    if first is second:
        return True
    assert first.expr is not None
    assert second.expr is not None
    return _folded(first.expr) == _folded(second.expr)


def _import_conflict(
    label: str, key: str, first: tuple[Grammar, RuleText], second: tuple[Grammar, RuleText]
) -> GrammarError:
    """The error for two imports that define rule ``key`` differently."""
    (one, rule), (other, _) = first, second
    where = [grammar._origin(key) or grammar for grammar in (one, other)]
    msg = (
        f"{label}: rule {rule.name!r} is defined differently by two imports, "
        f"{where[0].name} and {where[1].name}; define it in {label} to choose "
        "(the file's own definition wins over every import's)"
    )
    return GrammarError(msg, rule=rule.name)


class _Table:
    """What a loaded grammar knows: every rule it resolves, by folded name."""

    def __init__(self, own: list[RuleText], imports: Sequence[Grammar], label: str) -> None:
        core = _core()
        self.own: dict[str, RuleText] = {}
        self._uses: dict[str, list[str]] = {}
        self._cycles: set[str] | None = None
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
        giver: dict[str, Grammar] = {}
        for grammar in imports:
            for key, rule in grammar._table().rules.items():
                if key in self.rules:
                    continue  # the file's own definition wins: an overlay
                if key not in imported:
                    imported[key] = rule
                    giver[key] = grammar
                elif not _same_definition(imported[key], rule):
                    raise _import_conflict(label, key, (giver[key], imported[key]), (grammar, rule))
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
        # Only the rules this file defines: a gap filled by an import, and
        # the import's own rules, are the import's to answer for.
        productive = self._productive()
        barren = [
            rule.name
            for key, rule in self.own.items()
            if rule.expr is not None and key not in productive
        ]
        if barren:
            listed = ", ".join(repr(name) for name in barren)
            msg = (
                f"{label}: {'rule' if len(barren) == 1 else 'rules'} {listed} can never "
                "match any text: every alternative needs a rule that can never match, "
                "so no derivation ever ends"
            )
            raise GrammarError(msg, rule=barren[0])

    def _productive(self) -> set[str]:
        """The rules (folded) that match some string: a rule is productive
        when some alternative of it consists of productive elements only
        (characters, rules known productive, repetitions that may be empty).
        The least fixed point, by a work list: a rule is looked at again
        only when a rule it uses becomes productive."""
        users: dict[str, list[str]] = {}
        for key in self.rules:
            for used in self.uses(key):
                users.setdefault(used, []).append(key)
        done: set[str] = set(_core())
        todo = list(self.rules)
        while todo:
            key = todo.pop()
            if key in done or not _matches_some(self.rules[key].expr, done):
                continue
            done.add(key)
            todo.extend(user for user in users.get(key, ()) if user not in done)
        return done

    def large(self, limit: int) -> list[str]:
        """The file's own regular rules (folded) that may expand past
        ``limit`` automaton states: each rule's size from its own form and
        the sizes of the rules it uses, in dependency order (a rule's size
        is counted once however many rules use it; a work stack, as chains
        of rules may be longer than Python's).  An estimate, within a small
        factor of the inlined body's ``expanded_size``."""
        cyclic = self._cyclic()
        cap = limit + 1
        sizes: dict[str, int | None] = {}  # None: not regular
        for root in self.own:
            work = [root]
            while work:
                key = work[-1]
                if key in sizes:
                    work.pop()
                    continue
                if key in cyclic:
                    sizes[key] = None
                    work.pop()
                    continue
                pending = [used for used in self.uses(key) if used not in sizes]
                if pending:
                    work.extend(pending)
                    continue
                work.pop()
                if any(sizes[used] is None for used in self.uses(key)):
                    sizes[key] = None
                else:
                    sizes[key] = _size(self.expr(key), sizes, cap)
        return [key for key in self.own if (sizes.get(key) or 0) > limit]

    def expr(self, key: str) -> Expr:
        rule = self.rules.get(key) or _core()[key]
        assert rule.expr is not None
        return rule.expr

    def uses(self, key: str) -> list[str]:
        """The folded names rule ``key`` mentions, in order."""
        found = self._uses.get(key)
        if found is None:
            found = self._uses[key] = [name.casefold() for name in refs(self.expr(key))]
        return found

    def reach(self, key: str) -> dict[str, None]:
        """The folded names of the rules ``key`` uses, directly or not, in
        first-use order (a walk with its own stack: a chain of rules may be
        longer than Python's)."""
        found: dict[str, None] = {}
        todo = [key]
        while todo:
            for folded in self.uses(todo.pop(0)):
                if folded not in found:
                    found[folded] = None
                    todo.append(folded)
        return found

    def regular(self, key: str) -> bool:
        """Whether the rule never reaches itself through its references, nor
        reaches a rule that does."""
        cyclic = self._cyclic()
        return key not in cyclic and not any(rule in cyclic for rule in self.reach(key))

    def _cyclic(self) -> set[str]:
        """The rules on a cycle of references: Tarjan's strongly connected
        components, with a stack of its own, once per grammar."""
        if self._cycles is not None:
            return self._cycles
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        cyclic: set[str] = set()
        for root in self.rules:
            if root in index:
                continue
            work: list[tuple[str, int]] = [(root, 0)]
            while work:
                node, at = work.pop()
                if at == 0:
                    index[node] = low[node] = len(index)
                    stack.append(node)
                    on_stack.add(node)
                edges = self.uses(node)
                if at < len(edges):
                    work.append((node, at + 1))
                    target = edges[at]
                    if target not in index:
                        work.append((target, 0))
                    elif target in on_stack:
                        low[node] = min(low[node], index[target])
                    continue
                for target in edges:
                    if target in on_stack:
                        low[node] = min(low[node], low[target])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges:
                        cyclic.update(component)
        self._cycles = cyclic
        return cyclic


class Grammar:
    """An ABNF grammar: validate, check and parse text against its rules by
    name.

    Build one with ``urigrammar.load_grammar``; urigrammar's own grammars
    (``urigrammar.RFC3986``) are ``Grammar`` objects too.
    """

    def __init__(
        self,
        text: Callable[[], str],
        *,
        name: str,
        imports: Sequence[Grammar] = (),
        lazy: bool = False,
        vetted: bool = False,
        store: Store | None = None,
        errors: type[RuleMatchError] = RuleMatchError,
        secrets: SecretFinder | None = None,
        hints: Callable[[str, str, int], str | None] | None = None,
    ) -> None:
        self.name = name
        self.imports = tuple(imports)
        # Which regexes to trust (see ``Program.serves``): only LL(1) ones,
        # unless the grammar's backtracking was vetted (urigrammar's own
        # grammars, whose long-input shapes bench/bench_length.py and the
        # tests time).
        self._vetted = vetted
        self._text = text
        self._store = store
        # What a text that does not match raises, and what of a text its
        # errors must not show (the URI family's passwords: urigrammar.shipped).
        self._errors = errors
        self._secrets = secrets
        # A short hint for a syntax error whose fix is known, from (rule,
        # text, offset), appended to the message; None for no hint.
        self._hints = hints
        self._source: str | None = None
        self._loaded: _Table | None = None
        self._lock = threading.Lock()
        #: The one cache: every program built or loaded, by key.
        self._programs: dict[Key, Program] = {}
        #: Programs as the store holds them, decoded on first use (and, for
        #: a store that is written, every program's piece: what it writes).
        self._pieces: dict[Key, bytes] = {}
        self._abnf: dict[bool, Any] = {}
        self._text_nodes: dict[str, tuple[Any, ...]] | None = None
        self._defaults: dict[str, tuple[str, ...]] = {}
        self._parsers: dict[object, tuple[str, Callable[[str], RuleMatch | None]]] = {}
        self._validators: dict[object, Callable[[str], bool]] = {}
        self._regexes: dict[tuple[str, str, tuple[str, ...]], Regex] = {}
        if not lazy:
            self._refuse_large(self._table())

    def __repr__(self) -> str:
        return f"<Grammar {self.name}>"

    def _refuse_large(self, table: _Table) -> None:
        """``GrammarError`` now, not at the rule's first use, for a rule of
        the file too large to compile.  The estimate (``_Table.large``)
        costs one pass over the rules; only a rule it puts near the limit
        is inlined to be measured exactly."""
        from ._compile import MAX_STATES, inline_rule

        for key in table.large(MAX_STATES // 2):
            inline_rule(self, table.own[key].name)

    @property
    def vetted(self) -> bool:
        """Whether this grammar's regexes may backtrack a bounded number of
        times and still be trusted as linear (see ``_compile.linear``)."""
        return self._vetted

    def text(self) -> str:
        """The grammar's ABNF text, as it was read."""
        if self._source is None:
            self._source = self._text()
        return self._source

    @property
    def lineage(self) -> Lineage:
        """(name, sha256 of the text) of this grammar and of its imports,
        depth first: what its compiled programs depend on."""
        import hashlib

        digest = hashlib.sha256(self.text().encode("utf-8")).hexdigest()
        out: list[tuple[str, str]] = [(self.name, digest)]
        for grammar in self.imports:
            out.extend(grammar.lineage)
        return tuple(out)

    def _table(self) -> _Table:
        table = self._loaded
        if table is None:
            with self._lock:
                if self._loaded is None:
                    self._loaded = self._load()
                table = self._loaded
        return table

    def _load(self) -> _Table:
        """The rules, from the store when it holds them for these grammar
        texts, else read from the text by ``abnf`` (and stored)."""
        store = self._store
        if store is not None:
            data = store.read()
            if data is not None:
                found = decode(data, self.lineage)
                if isinstance(found, str):
                    log().info("urigrammar: compiling %s again: %s is %s", self.name, store, found)
                else:
                    rules, core, self._pieces = found
                    if _Core.rules is None:
                        _Core.rules = {rule.name.casefold(): rule for rule in core}
                    return _Table(rules, self.imports, self.name)
        table = _Table(read_rules(self.text()), self.imports, self.name)
        if store is not None and store.writable:
            store.write(encode(self.lineage, list(table.own.values()), list(_core().values()), {}))
        return table

    def clear_caches(self) -> None:
        """Forget every compiled program (they are rebuilt on next use); the
        rules themselves stay loaded."""
        with self._lock:
            self._programs.clear()
            self._parsers.clear()
            self._validators.clear()
            self._regexes.clear()
            if self._store is None or not self._store.writable:
                self._pieces.clear()

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
        import difflib

        names = self._table().names
        close = difflib.get_close_matches(name.casefold(), list(names), n=3, cutoff=0.6)
        hint = ", ".join(repr(names[c]) for c in close)
        msg = f"unknown rule {name!r} in {self.name}" + (f"; did you mean {hint}?" if hint else "")
        raise UnknownRuleError(msg, rule=name, text=name, secrets=self._secrets)

    def source(self, name: str) -> str | None:
        """The rule's definition as written in its file; ``None`` for a core rule."""
        rule = self._table().rules.get(self.canonical(name).casefold())
        return None if rule is None else "".join(rule.source)

    def expr(self, name: str) -> Expr:
        """The rule in ``_ir`` form."""
        return self._table().expr(self.canonical(name).casefold())

    def defined_in(self, name: str) -> Grammar | None:
        """The grammar whose file holds the definition ``name`` means here:
        this grammar, an import (or an import's import), or ``None`` for an
        RFC 5234 core rule."""
        return self._origin(self.canonical(name).casefold())

    def _origin(self, key: str) -> Grammar | None:
        table = self._table()
        own = table.own.get(key)
        if own is not None and own.expr is not None:
            return self
        if key in table.rules:
            for grammar in self.imports:
                if key in grammar._table().rules:
                    return grammar._origin(key)
        return None

    def references(self, name: str) -> tuple[str, ...]:
        """The rules ``name`` uses, directly or not, in first-use order."""
        table = self._table()
        return tuple(table.names[key] for key in table.reach(self.canonical(name).casefold()))

    def is_regular(self, name: str) -> bool:
        """Whether the rule never reaches itself through its references, so
        that it compiles to a linear-time matcher.  A rule that does (a
        nested comment, say) is matched by the ``abnf`` engine instead, on
        at most ``ABNF_MAX_LENGTH`` characters."""
        return self._table().regular(self.canonical(name).casefold())

    def within(self, name: str, other: Grammar, other_name: str) -> bool | None:
        """Whether every string rule ``name`` matches, rule ``other_name`` of
        ``other`` matches too (``_inclusion``, on their minimal DFAs);
        ``None`` when either rule has no DFA (it is not regular, or too
        large), so that nothing is known."""
        from ._inclusion import included

        inner, outer = self.program(name).dfa, other.program(other_name).dfa
        if inner is None or outer is None:
            return None
        return included(inner, outer)

    def alphabet(self, name: str) -> CharSet:
        """The characters that occur in some string rule ``name`` matches
        (``_restrict.used``): what ``restricted`` takes as an alphabet."""
        from ._restrict import used

        table = self._table()

        def lookup(key: str) -> Expr | None:
            return table.expr(key) if key in table.names else None

        return used(lookup, self.canonical(name).casefold())

    def restricted(
        self,
        alphabet: CharSet | Grammar,
        rule: str | None = None,
        *,
        name: str | None = None,
        store: Store | None = None,
        prefix: str = "",
        without: CharSet | None = None,
    ) -> Grammar:
        """This grammar with every rule restricted to an alphabet: the
        ``CharSet`` given, or the characters rule ``rule`` of the grammar
        given uses (``alphabet``).  Each rule of the new grammar matches
        exactly the strings over the alphabet that the rule of the same
        name matches here; a rule that matches none such is not in it
        (``_restrict``).  A rule that reaches itself here may not there,
        and is then regular.  The new grammar is ABNF text written from
        this one's rules (``text()``), read when first used (nothing is
        read here), kept in ``store`` if given; it raises what this one
        raises.  With a ``prefix`` every rule of the new grammar is named
        ``prefix`` and this one's name for it (the core rules keep theirs),
        so that a grammar may import both this one and the new one: the
        rule over the whole alphabet and the rule over a part of it.  The
        characters of ``without`` are taken out of the alphabet (of a
        rule's characters, say, which are known only when read)."""
        if isinstance(alphabet, Grammar):
            if rule is None:
                msg = "restricted(grammar, rule): the rule whose characters are the alphabet"
                raise TypeError(msg)
            # Named, not looked up: nothing is read until the text is.
            other, other_rule = alphabet, rule
            what = f"the characters {other.name}'s {rule} uses"
        elif isinstance(alphabet, CharSet):
            other, other_rule = None, None
            what = repr(alphabet)
        else:
            msg = f"alphabet must be a CharSet or a Grammar, not {type(alphabet).__name__}"
            raise TypeError(msg)
        if without is not None:
            what += f" but {without!r}"
        label = name or f"{self.name} over {what}"

        def text() -> str:
            from ._restrict import abnf_text, restrict

            chars = alphabet if other is None else other.alphabet(other_rule or "")
            assert isinstance(chars, CharSet)
            if without is not None:
                chars = chars - without
            table = self._table()
            rules: dict[str, Expr] = {}
            for key, found in table.rules.items():
                assert found.expr is not None
                rules[key] = found.expr
            core: dict[str, Expr] = {}
            for key, found in _core().items():
                assert found.expr is not None
                core[key] = found.expr
            header = (
                f"{label}: {self.name} with every rule restricted to {what},",
                "written out by urigrammar.engine._restrict from the grammar's rules.",
            )
            kept = restrict(rules, core, chars)
            names = dict(table.names)
            names.update((key, prefix + names[key]) for key in kept)
            return abnf_text(kept, names, header)

        return Grammar(
            text,
            name=label,
            lazy=True,
            vetted=self._vetted,
            store=store,
            errors=self._errors,
            secrets=self._secrets,
            hints=self._hints,
        )

    # --- programs -----------------------------------------------------------

    def program(
        self, name: str, captures: frozenset[str] = _NONE, leaves: frozenset[str] = _NONE
    ) -> Program:
        """Rule ``name`` compiled (``_program``), its ``captures`` kept as
        groups, nothing inside a rule of ``leaves``: built once, or loaded
        from the grammar's store."""
        canonical = self.canonical(name)
        key = (canonical, tuple(sorted(captures)), tuple(sorted(leaves)))
        found = self._programs.get(key)
        if found is None:
            found = self._stored(key)
        if found is None:
            found = build_program(self, canonical, captures, leaves)
            store = self._store
            if store is not None and store.writable:
                with self._lock:
                    self._pieces[key] = piece(found)
                    pieces = dict(self._pieces)
                own = list(self._table().own.values())
                store.write(encode(self.lineage, own, list(_core().values()), pieces))
        with self._lock:
            return self._programs.setdefault(key, found)

    def _stored(self, key: Key) -> Program | None:
        """The store's program for ``key``, decoded; ``None`` when it has
        none, or one that fails its checks (the reason is logged)."""
        stored = self._pieces.get(key)
        if stored is None:
            return None
        if self._store is None or not self._store.writable:
            self._pieces.pop(key, None)  # read once: nothing writes it back
        try:
            found = program_from(stored)
        except ValueError as exc:
            log().warning("urigrammar: compiling %s's %s again: %s", self.name, key[0], exc)
            return None
        if found.key != key:
            log().warning(
                "urigrammar: compiling %s's %s again: a program of another rule", self.name, key[0]
            )
            return None
        return found

    def programs(self) -> tuple[Program, ...]:
        """Every program built or loaded so far."""
        return tuple(self._programs.values())

    def compiled(
        self, name: str, captures: frozenset[str] = _NONE, leaves: frozenset[str] = _NONE
    ) -> CompiledRule:
        """The rule as a regex; ``captures`` become groups (see ``_compile``)."""
        from ._compile import CompiledRule

        program = self.program(name, captures, leaves)
        found: CompiledRule | None = program.made.get("compiled")
        if found is None:
            found = CompiledRule(
                program.rule,
                program.pattern(),
                program.groups,
                program.linear,
                program.deterministic,
            )
            found = program.made.setdefault("compiled", found)
        return found

    def tagged(
        self, name: str, captures: frozenset[str] = _NONE, leaves: frozenset[str] = _NONE
    ) -> TaggedTables | None:
        """The rule's tagged DFA (``_tagged``), its captures numbered as
        ``compiled(name, captures, leaves)``'s groups; ``None`` when it is
        over the caps."""
        return self.program(name, captures, leaves).tagged

    def regex(self, rule: str, dialect: str = "python", *, captures: Sequence[str] = ()) -> Regex:
        """The rule as a regex of ``dialect`` (``"python"``, ``"re2"``,
        ``"rust"`` or ``"java"``; see ``_dialect``) matching exactly the
        rule's strings, in time linear in the text on that dialect's engine;
        each occurrence of a rule of ``captures`` is a named group
        (``Regex.groups``).  ``RegexExportError`` (naming the rule and the
        dialect) for a rule the dialect cannot hold so: not regular, past
        the engine's limits, or able to backtrack without bound."""
        from ._compile import inline_rule
        from ._dialect import dialect_of, export

        if isinstance(captures, str):
            msg = "captures must be a sequence of rule names, not one str"
            raise TypeError(msg)
        chosen = dialect_of(dialect)
        canonical = self.canonical(rule)
        kept = frozenset(self.canonical(name) for name in captures) - {canonical}
        key = (canonical, chosen.name, tuple(sorted(kept)))
        found = self._regexes.get(key)
        if found is not None:
            return found
        if not self.is_regular(canonical):
            from .._errors import RegexExportError

            msg = (
                f"rule {canonical!r} has no {chosen.name} regex: it reaches itself "
                "through its references, so its language is not regular"
            )
            raise RegexExportError(msg, rule=canonical, dialect=chosen.name)
        body = self.program(canonical).body if not kept else inline_rule(self, canonical, kept)
        assert body is not None
        found = export(self, canonical, body, chosen)
        with self._lock:
            if len(self._regexes) < _MAX_PARSERS:
                self._regexes[key] = found
        return found

    # --- matching ---------------------------------------------------------

    def validate(self, rule: str, text: str, *, backend: Backend | None = None) -> bool:
        """Whether all of ``text`` matches ``rule``.  Raises
        ``InputTooLongError`` for a non-regular rule and a text longer than
        ``ABNF_MAX_LENGTH``: such a text is not decided, never "invalid"."""
        try:
            run = self._validators.get((rule, backend))
        except TypeError:  # an unhashable name: refused by canonical below
            run = None
        if run is None:
            run = self._validator(rule, backend)
        if not isinstance(text, str):
            msg = f"text must be str, not {type(text).__name__}"
            raise TypeError(msg)
        return run(text)

    def _validator(self, rule: str, backend: Backend | None) -> Callable[[str], bool]:
        """``validate``'s work for one rule, prepared and kept."""
        _check_backend(backend)
        program = self.program(rule)
        if not program.regular:
            canonical = program.rule

            def by_abnf(text: str) -> bool:
                return self.abnf_parse(canonical, text) is not None

            run = by_abnf
        else:
            matches = (backend or default_backend()).matcher(program)

            def by_program(text: str) -> bool:
                return matches(text) is not None

            run = by_program
        if len(self._validators) < _MAX_PARSERS:
            self._validators[(rule, backend)] = run
        return run

    def matcher(
        self, name: str, *, backend: Backend | None = None
    ) -> Callable[[str], object | None]:
        """For a regular rule: a function of a text that returns ``None``
        exactly when the rule does not match all of it, in linear time
        (what runs it: ``Program.serves``)."""
        return (backend or default_backend()).matcher(self.program(name))

    def check(self, rule: str, text: str, *, backend: Backend | None = None) -> None:
        """Raise ``RuleMatchError`` (``URISyntaxError`` for the shipped
        grammars) unless ``text`` matches ``rule``.  For a regular rule its
        offset is the end of the longest prefix of ``text`` that some string
        matching the rule starts with.  For a recursive rule it is where the
        ``abnf`` engine's parse stopped, only a lower bound of that: it may
        fall short of the longest viable prefix (0 for ``(a(b`` against
        ``nested = "(" *( name / nested ) ")"``, where 4, the whole text, is right)."""
        if not self.validate(rule, text, backend=backend):
            raise self.syntax_error(self.canonical(rule), text)

    def default_captures(self, name: str) -> tuple[str, ...]:
        """What ``parse(name, text)`` captures when not told: every rule
        ``name`` reaches through its references, in first-use order, but
        RFC 5234's core rules and the rules that always match one
        character (``unreserved``, ``alphanum``).  Those are the rules a
        grammar's author named; a one-character rule's span says nothing its
        text does not, and would cost a record at every character."""
        canonical = self.canonical(name)
        found = self._defaults.get(canonical)
        if found is None:
            from ._compile import inline_rule

            table = self._table()
            core = {key.casefold() for key in self.core_names}
            kept: list[str] = []
            for key in table.reach(canonical.casefold()):
                if key in core:
                    continue
                rule = self.canonical(key)
                if table.regular(key) and isinstance(inline_rule(self, rule), Chars):
                    continue
                kept.append(rule)
            found = self._defaults.setdefault(canonical, tuple(kept))
        return found

    def parse(
        self,
        rule: str,
        text: str,
        *,
        captures: Sequence[str] | None = None,
        backend: Backend | None = None,
    ) -> RuleMatch:
        """The ``RuleMatch`` of ``text``, which all of ``rule`` must match
        (else ``RuleMatchError``, as ``check`` raises it): where each rule of
        ``captures`` matched (by default ``default_captures(rule)``), read
        as ``_match`` says, in linear time and memory for a regular rule.
        A rule that reaches itself goes through ``abnf``'s tree, at most
        ``ABNF_MAX_LENGTH`` characters."""
        key: object = rule  # the common call: default captures and back end
        if captures is not None:
            if isinstance(captures, str):
                msg = "captures must be a sequence of rule names, not one str"
                raise TypeError(msg)
            captures = tuple(captures)  # an iterator is read once, here
            key = (rule, captures, backend)
        elif backend is not None:
            key = (rule, None, backend)
        try:
            found = self._parsers.get(key)
        except TypeError:  # an unhashable name: refused by canonical below
            found = None
        if found is None:
            found = self._parser(rule, captures, backend)
            if len(self._parsers) < _MAX_PARSERS:
                self._parsers[key] = found
        if not isinstance(text, str):
            msg = f"text must be str, not {type(text).__name__}"
            raise TypeError(msg)
        canonical, run = found
        made = run(text)
        if made is None:
            raise self.syntax_error(canonical, text)
        return made

    def _parser(
        self, rule: str, captures: Sequence[str] | None, backend: Backend | None
    ) -> tuple[str, Callable[[str], RuleMatch | None]]:
        """``parse``'s work for one rule and set of captures, prepared
        (``_match.reader``): the rule's canonical name, and the reader."""
        from ._match import reader

        _check_backend(backend)

        canonical = self.canonical(rule)
        names = self.default_captures(canonical) if captures is None else captures
        kept = tuple(dict.fromkeys(self.canonical(n) for n in names))
        program = self.program(canonical, frozenset(kept) - {canonical})
        if program.regular:
            return canonical, reader(program, kept, backend=backend or default_backend())
        return canonical, reader(program, kept, tree=lambda text: self.abnf_parse(canonical, text))

    def viable_prefix(self, name: str, text: str) -> int:
        """The length of the longest prefix of ``text`` that some string the
        (regular) rule matches starts with: the DFA run in Python, or the
        lazy automaton when the rule has no DFA."""
        program = self.program(name)
        if program.dfa is not None:
            return program.dfa.run(text)[0]
        automaton = program.made.get("automaton")
        if automaton is None:
            from ._prefix import Automaton

            assert program.body is not None
            automaton = program.made.setdefault("automaton", Automaton(program.body))
        return automaton.viable(text)  # type: ignore[no-any-return]

    def syntax_error(self, name: str, text: str) -> RuleMatchError:
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
                    raise InputTooLongError(
                        msg, rule=name, text=text, offset=0, secrets=self._secrets
                    ) from None
                offset = min(exc.start, len(text))
        if offset < len(text):
            why = f"unexpected {text[offset]!r} at offset {offset}"
        else:
            why = f"the text ends at offset {offset} before the rule is complete"
        hint = None if self._hints is None else self._hints(name, text, offset)
        if hint:
            why += f"; {hint}"
        return self._errors(
            f"not a valid {name}: {why}",
            rule=name,
            text=text,
            offset=offset,
            secrets=self._secrets,
        )

    # --- the abnf engine ----------------------------------------------------

    def abnf_rule(self, name: str, *, first_match: bool = False) -> Any:
        """``abnf``'s rule object for ``name``, in this grammar's namespace.
        ``first_match``: its alternations take their first alternative that
        matches (``abnf``'s ``first_match_alternation``), where by default
        they take the longest."""
        canonical = self.canonical(name)
        found = self._abnf.get(first_match)
        if found is None:
            with self._lock:
                found = self._abnf.get(first_match)
                if found is None:
                    found = self._abnf[first_match] = self._define_abnf_rules(first_match)
        return found.get(canonical)

    def _nodes(self) -> list[Any]:
        """``abnf``'s rule nodes of this grammar and its imports, as the
        namespace resolves them (a grammar loaded from its store has none:
        each grammar's text is read again, once)."""
        nodes: list[Any] = []
        for key in self._table().rules:
            nodes.extend(self._node_of(key))
        return nodes

    def _node_of(self, key: str) -> tuple[Any, ...]:
        """The nodes of rule ``key`` (folded) where this namespace finds it."""
        table = self._table()
        if key in table.own:
            found = table.own[key]
            return found.nodes or self._read_nodes()[key]
        for grammar in self.imports:
            if key in grammar._table().rules:
                return grammar._node_of(key)
        msg = f"rule {key!r} is in no import"
        raise GrammarError(msg, rule=key)

    def _read_nodes(self) -> dict[str, tuple[Any, ...]]:
        """This grammar's own rules' nodes, read from its text once."""
        if self._text_nodes is None:
            self._text_nodes = {
                rule.name.casefold(): rule.nodes for rule in read_rules(self.text())
            }
        return self._text_nodes

    def _define_abnf_rules(self, first_match: bool) -> Any:
        from abnf.parser import ABNFGrammarNodeVisitor, Rule

        # A rule class per grammar: abnf keeps one symbol table per class,
        # so this grammar's names never mix with another's.
        body = {"__module__": __name__, "first_match_alternation": first_match}
        rule_cls: Any = type(f"Rules_{id(self):x}", (Rule,), body)
        visitor = ABNFGrammarNodeVisitor(rule_cls=rule_cls)
        for node in self._nodes():
            visitor.visit(node)
        return rule_cls

    def abnf_parse(self, name: str, text: str, *, first_match: bool = False) -> Any:
        """``abnf``'s derivation tree of ``text``, or ``None`` when the rule
        does not match; ``InputTooLongError`` past ``ABNF_MAX_LENGTH``.
        ``first_match``: as ``abnf_rule``'s (``None`` may then also mean
        that a first alternative that matched led nowhere)."""
        from abnf.parser import ParseError

        canonical = self.canonical(name)
        if len(text) > ABNF_MAX_LENGTH:
            msg = (
                f"too long for the abnf engine, which takes at most {ABNF_MAX_LENGTH} "
                f"characters (this text has {len(text)})"
            )
            if self.is_regular(canonical):
                msg += "; the compiled engine takes any length"
            raise InputTooLongError(
                msg, rule=canonical, text=text, offset=ABNF_MAX_LENGTH, secrets=self._secrets
            )
        try:
            return self.abnf_rule(canonical, first_match=first_match).parse_all(text)
        except ParseError as exc:
            if isinstance(exc.__cause__, RecursionError):
                # abnf is recursive descent: nesting deeper than Python's
                # stack is undecided, not invalid.
                msg = "too deeply nested for the abnf engine (Python's recursion limit)"
                raise InputTooLongError(
                    msg, rule=canonical, text=text, offset=0, secrets=self._secrets
                ) from None
            return None
        except RecursionError:
            msg = "too deeply nested for the abnf engine (Python's recursion limit)"
            raise InputTooLongError(
                msg, rule=canonical, text=text, offset=0, secrets=self._secrets
            ) from None
