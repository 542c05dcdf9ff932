"""``RuleTable``: every rule one grammar resolves a name to.

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

References resolve in the table they are read from, so rules pulled in
from an import see the file's own definitions: that is what makes an
errata overlay possible (a small file that defines the corrected rule and
imports the published grammar, kept verbatim).

A table also answers what the compiler asks of the rules before it
inlines one: which rules reach themselves (``regular``), which rules a
rule reaches (``reach``), and which are too large to compile (``large``).
Rules are keyed by their folded name (RFC 5234 section 2.1: names are
case-insensitive).
"""

from __future__ import annotations

from _thread import allocate_lock
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from ..._errors import GrammarError
from ..base.later import later
from .ir import Alt, Chars, Expr, Ref, Rep, Seq, refs
from .limits import MAX_STATES
from .reader import RuleText, core_rules

if TYPE_CHECKING:
    from . import inline
else:
    # Inlining, imported when a rule is compiled or measured: a table read
    # back from a compiled file only names its rules.
    inline = later(globals(), ".inline")

__all__ = ["RuleTable", "adopt_core", "core"]


class _Core:
    """RFC 5234's core rules, by folded name, inlined: read off ``abnf``'s
    own on first need, unless a compiled grammar brought them
    (``adopt_core``), which spares importing ``abnf``."""

    rules: dict[str, RuleText] | None = None
    lock = allocate_lock()


def core() -> dict[str, RuleText]:
    """RFC 5234's core rules with their references inlined, by folded name."""
    found = _Core.rules
    if found is None:
        raw = {rule.name.casefold(): rule for rule in core_rules()}
        # Each read and inlined when first asked: a grammar that uses two
        # core rules reads two.
        made = {
            key: RuleText.later(rule.name, False, partial(_inlined_core, raw, key))
            for key, rule in raw.items()
        }
        with _Core.lock:
            found = _Core.rules = _Core.rules or made
    return found


def _inlined_core(raw: dict[str, RuleText], key: str) -> tuple[Expr | None, tuple[str, ...]]:
    expr = raw[key].expr
    assert expr is not None
    return inline.inlined_core(expr, lambda name: raw[name].expr), raw[key].source


def adopt_core(rules: Iterable[RuleText]) -> None:
    """The core rules as a compiled grammar holds them, unless known."""
    with _Core.lock:
        if _Core.rules is None:
            _Core.rules = {rule.name.casefold(): rule for rule in rules}


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
    """``inline.expanded_size`` of ``expr`` with its references counted at
    the ``sizes`` of the rules they name, held at ``cap``."""
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
    """``expr`` with its rule names folded, as a value to compare."""
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


class RuleTable:
    """The rules of one grammar: its file's own (``own``), those it takes
    from its imports (each resolved in this table), and the core rules.

    Built from the rules as read (``reader.read_rules``) and the imports'
    tables; every check of RFC 5234's rules on names is made here
    (``GrammarError``), and ``refuse_large`` makes the size check.  A
    table of rules read back from a compiled file (``checked`` false) is
    not checked again: its file was written from a table that was, for
    the same grammar texts, and a rule's expression is then read only when
    something asks for it."""

    def __init__(
        self,
        label: str,
        own: Sequence[RuleText],
        imports: Sequence[RuleTable] = (),
        *,
        checked: bool = True,
    ) -> None:
        self.label = label
        self.imports = tuple(imports)
        found_core = core()
        #: The file's rules, prose gaps included, in file order.
        self.own: dict[str, RuleText] = {rule.name.casefold(): rule for rule in own}
        self._uses: dict[str, list[str]] = {}
        self._regular: dict[str, bool] = {}
        self._cycles: set[str] | None = None
        if checked:
            self._check_core(found_core)
        #: Every rule a name resolves to here but the core rules.
        self.rules: dict[str, RuleText] = {
            key: rule for key, rule in self.own.items() if not rule.prose
        }
        #: Which import gives each imported rule.
        self.givers: dict[str, RuleTable] = {}
        for table in imports:
            for key, rule in table.rules.items():
                if key in self.rules and key not in self.givers:
                    continue  # the file's own definition wins: an overlay
                if key not in self.givers:
                    self.rules[key] = rule
                    self.givers[key] = table
                elif checked and not _same_definition(self.rules[key], rule):
                    raise self._conflict(key, table)
        # Names as the grammar spells them: the file, then imports, then core.
        self.names: dict[str, str] = {key: rule.name for key, rule in self.rules.items()}
        self.core_names = tuple(
            [rule.name for key, rule in found_core.items() if key not in self.names]
        )
        for key, rule in found_core.items():
            self.names.setdefault(key, rule.name)
        if checked:
            self._check_prose()
            self._check_references()
            self._check_productive()

    def _check_core(self, found_core: dict[str, RuleText]) -> None:
        for key, rule in self.own.items():
            if key in found_core:
                msg = (
                    f"{self.label}: {rule.name!r} is an RFC 5234 core rule, shared by "
                    "every grammar; a grammar cannot redefine it"
                )
                raise GrammarError(msg, rule=rule.name)

    def _check_prose(self) -> None:
        for key, rule in self.own.items():
            if key not in self.rules:
                msg = (
                    f"{self.label}: rule {rule.name!r} is written in prose "
                    f"({''.join(rule.source).strip()!r}) and no import defines it"
                )
                raise GrammarError(msg, rule=rule.name)

    def _conflict(self, key: str, other: RuleTable) -> GrammarError:
        """The error for two imports that define rule ``key`` differently."""
        rule = self.rules[key]
        names = [(table.origin(key) or table).label for table in (self.givers[key], other)]
        msg = (
            f"{self.label}: rule {rule.name!r} is defined differently by two imports, "
            f"{names[0]} and {names[1]}; define it in {self.label} to choose "
            "(the file's own definition wins over every import's)"
        )
        return GrammarError(msg, rule=rule.name)

    def _check_references(self) -> None:
        for rule in self.own.values():
            if rule.expr is None:
                continue
            for used in refs(rule.expr):
                if used.casefold() not in self.names:
                    msg = (
                        f"{self.label}: rule {used!r}, used in {rule.name!r}, is defined "
                        "nowhere: not in this grammar, its imports, or RFC 5234's core rules"
                    )
                    raise GrammarError(msg, rule=used)

    def _check_productive(self) -> None:
        # Only the rules this file defines: a gap filled by an import, and
        # the import's own rules, are the import's to answer for.
        productive = self._productive()
        barren = [
            rule.name for key, rule in self.own.items() if not rule.prose and key not in productive
        ]
        if barren:
            listed = ", ".join(repr(name) for name in barren)
            msg = (
                f"{self.label}: {'rule' if len(barren) == 1 else 'rules'} {listed} can never "
                "match any text: every alternative needs a rule that can never match, "
                "so no derivation ever ends"
            )
            raise GrammarError(msg, rule=barren[0])

    def refuse_large(self) -> None:
        """``GrammarError`` now, not at the rule's first use, for a rule of
        the file too large to compile.  The estimate (``large``) costs one
        pass over the rules; only a rule it puts near the limit is inlined
        to be measured exactly."""
        for key in self.large(MAX_STATES // 2):
            inline.inline_rule(self, self.own[key].name)

    # --- names --------------------------------------------------------------

    def find(self, name: str) -> str | None:
        """The rule's name as the grammar spells it (RFC 5234 section 2.1:
        names are ASCII, compared without case; casefold alone would also
        let "\\u017fcheme" mean "scheme"), or ``None``."""
        return self.names.get(name.casefold()) if name.isascii() else None

    def canonical(self, name: str) -> str:
        """The spelling of a name the table holds (``KeyError`` otherwise)."""
        return self.names[name.casefold()]

    def expr(self, name: str) -> Expr:
        """The expression of the rule named ``name`` (any case)."""
        key = name.casefold()
        rule = self.rules.get(key) or core()[key]
        assert rule.expr is not None
        return rule.expr

    def origin(self, key: str) -> RuleTable | None:
        """The table whose file defines rule ``key`` as this one resolves
        it: this one, an import's (or an import's import), or ``None`` for
        a core rule."""
        own = self.own.get(key)
        if own is not None and not own.prose:
            return self
        giver = self.givers.get(key)
        return None if giver is None else giver.origin(key)

    def inline(self, name: str, captures: frozenset[str] = frozenset()) -> Expr:
        """Rule ``name`` (canonical) with its references inlined, the rules
        of ``captures`` kept as ``Cap`` nodes (``inline.inline_rule``)."""
        return inline.inline_rule(self, name, captures)

    def named(self, key: str) -> tuple[str, ...]:
        """The rules rule ``key`` reaches through its references, in
        first-use order, but RFC 5234's core rules and the rules that always
        match one character (``unreserved``, ``alphanum``): what a parse
        captures when not told.  Those are the rules a grammar's author
        named; a one-character rule's span says nothing its text does not,
        and would cost a record at every character."""
        core_keys = {name.casefold() for name in self.core_names}
        kept: list[str] = []
        for used in self.reach(key):
            if used in core_keys:
                continue
            rule = self.names[used]
            if self.regular(used) and isinstance(inline.inline_rule(self, rule), Chars):
                continue
            kept.append(rule)
        return tuple(kept)

    # --- what the compiler asks -----------------------------------------------

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
        reaches a rule that does.  Kept per rule: every syntax error asks,
        and the walk over the references costs more than the error."""
        found = self._regular.get(key)
        if found is None:
            cyclic = self._cyclic()
            found = key not in cyclic and not any(rule in cyclic for rule in self.reach(key))
            self._regular[key] = found
        return found

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
        done: set[str] = set(core())
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

    def _cyclic(self) -> set[str]:
        """The rules on a cycle of references: Tarjan's strongly connected
        components, with a stack of its own, once per table."""
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
