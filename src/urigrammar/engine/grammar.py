"""``Grammar``: one ABNF grammar by name, and its rules matched on demand.

A grammar is the rules of one ABNF file (RFC 5234), its imports and the
core rules, resolved as ``syntax.table`` says.  This class is the facade
over the stages: it reads its text (or its compiled form from a store)
into a rule table, keeps one cache of programs (``program``), and asks
``backend.choose`` what runs each.  Loading is lazy when asked (the
grammars urigrammar ships): nothing is read until a rule is first used,
which keeps ``import urigrammar`` cheap.

Matching: each rule compiles once into a ``Program``.  A rule that does
not reach itself through its references is regular: an automaton or a
regex runs it, in linear time.  A rule that does (RFC 5322's ``comment``)
is matched by the ``abnf`` engine (``reference``), on at most
``ABNF_MAX_LENGTH`` characters.  The back end is the default one unless a
call names another.

A grammar with a ``Store`` (``program.store``) first looks there for its
rules and programs, compiled before from the same grammar texts
(``program.artifact``), and reads its text with ``abnf`` only when that
fails.
"""

from __future__ import annotations

import os
from _thread import allocate_lock
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._errors import (
    RuleMatchError,
    SecretFinder,
    UnknownRuleError,
)
from .backend.backend import Backend, default_backend
from .backend.choose import Runs, runs
from .base.later import later
from .base.value import exact, text_of
from .base.wire import digest
from .compiled import CompiledForm, artifact, read_table
from .program.artifact import Lineage
from .program.program import Key, Program
from .program.store import Store
from .syntax.reader import abnf_nodes, read_rules
from .syntax.table import RuleTable

if TYPE_CHECKING:
    from . import reference
    from .program import build
    from .reference import AbnfRules
    from .regex import flavours
    from .regex.flavours import Regex
    from .result import match
    from .result.match import RuleMatch
    from .syntax.ir import Expr
else:
    # Imported when first used: a process that runs stored programs of
    # regular rules (every shipped one) never compiles a rule (build), runs
    # the abnf engine (reference), exports a regex (flavours) or parses a
    # grammar of its own (match).
    build = later(globals(), ".program.build")
    reference = later(globals(), ".reference")
    flavours = later(globals(), ".regex.flavours")
    match = later(globals(), ".result.match")

__all__ = ["Grammar", "Reporting"]

#: The most prepared calls a grammar keeps (by rule spelling, captures and
#: back end): a program that parses with ever new captures must not grow
#: the cache without bound.
_MAX_PREPARED = 256

_NONE: frozenset[str] = frozenset()

#: A grammar's text: the text itself, a function that writes it, or files
#: read one after the other.
Source = str | Callable[[], str] | tuple[str | os.PathLike[str], ...]


def _check_backend(backend: object) -> None:
    if backend is not None and not isinstance(backend, Backend):
        msg = f"backend must be a Backend (urigrammar.engine.NATIVE or PURE), not {backend!r}"
        raise TypeError(msg)


def _read(path: str | os.PathLike[str]) -> str:
    with open(path, encoding="utf-8") as file:
        return file.read()


class Reporting:
    """How a grammar reports a text that does not match: the error class it
    raises (``RuleMatchError``, or ``URISyntaxError`` for the URI family's
    grammars), what of a text its messages must not show (the URI family's
    passwords, ``SecretFinder``), and a short hint, from (rule, text,
    offset), for a syntax error whose fix is known."""

    __slots__ = ("errors", "hints", "secrets")

    def __init__(
        self,
        errors: type[RuleMatchError] = RuleMatchError,
        secrets: SecretFinder | None = None,
        hints: Callable[[str, str, int], str | None] | None = None,
    ) -> None:
        self.errors = errors
        self.secrets = secrets
        self.hints = hints

    def syntax_error(self, name: str, text: str, offset: int) -> RuleMatchError:
        """The error for a ``text`` that rule ``name`` stops matching at
        ``offset``."""
        text = text_of(text)
        if offset < len(text):
            why = f"unexpected {text[offset]!r} at offset {offset}"
        else:
            why = f"the text ends at offset {offset} before the rule is complete"
        hint = None if self.hints is None else self.hints(name, text, offset)
        if hint:
            why += f"; {hint}"
        message = f"not a valid {name}: {why}"
        return self.errors(message, rule=name, text=text, offset=offset, secrets=self.secrets)


class Grammar:
    """An ABNF grammar: validate, check and parse text against its rules by
    name.

    Build one with ``urigrammar.load_grammar``; urigrammar's own grammars
    (``urigrammar.RFC3986``) are ``Grammar`` objects too.

    >>> import urigrammar
    >>> urigrammar.RFC3986.validate("URI", "http://example.com"), urigrammar.RFC3986.find("uri")
    (True, 'URI')
    """

    def __init__(
        self,
        source: Source,
        *,
        name: str,
        imports: Sequence[Grammar] = (),
        lazy: bool = False,
        vetted: bool = False,
        store: Store | None = None,
        reporting: Reporting | None = None,
    ) -> None:
        self.name = name
        self.imports = tuple(imports)
        # Whether the grammar's regexes may backtrack a bounded number of
        # times and still be trusted as linear (``Program.trusted``):
        # urigrammar's own grammars, whose long-input shapes
        # bench/bench_length.py and the tests time.
        self.vetted = vetted
        self._source = source
        self._compiled = None if store is None else CompiledForm(store, name, lambda: self.lineage)
        self.reporting = reporting or Reporting()
        self._lock = allocate_lock()
        self._text: str | None = None
        self._lineage: Lineage | None = None
        self._rules: RuleTable | None = None
        #: The one cache of programs, by key.
        self._programs: dict[Key, Program] = {}
        #: Calls prepared by rule spelling (validate, parse, regex): the name
        #: resolved and the program's runs asked once.
        self._prepared: dict[object, Any] = {}
        self._abnf_rules: AbnfRules | None = None
        self._text_nodes: dict[str, tuple[Any, ...]] | None = None
        if not lazy:
            self.rules.refuse_large()

    def __repr__(self) -> str:
        return f"<Grammar {self.name}>"

    # --- text and rules -------------------------------------------------------

    def text(self) -> str:
        """The grammar's ABNF text, as it was read."""
        if self._text is None:
            source = self._source
            if isinstance(source, str):
                self._text = exact(source)
            elif isinstance(source, tuple):
                self._text = "\n".join(_read(path) for path in source)
            else:
                self._text = source()
        return self._text

    @property
    def lineage(self) -> Lineage:
        """(name, sha256 of the text) of this grammar and of its imports,
        depth first: what its compiled programs depend on."""
        if self._lineage is None:
            found = [(self.name, digest(self.text().encode("utf-8")))]
            for grammar in self.imports:
                found.extend(grammar.lineage)
            self._lineage = tuple(found)
        return self._lineage

    @property
    def rules(self) -> RuleTable:
        """Every rule a name resolves to here (``syntax.table``)."""
        table = self._rules
        if table is None:
            with self._lock:
                if self._rules is None:
                    self._rules = self._load()
                table = self._rules
        return table

    def _load(self) -> RuleTable:
        """The rules, from the compiled form when it holds them for these
        grammar texts, else read from the text by ``abnf``."""
        imports = [grammar.rules for grammar in self.imports]
        if self._compiled is not None:
            return self._compiled.table(self.text, imports)
        return read_table(self.name, self.text(), imports)

    def clear_caches(self) -> None:
        """Forget every compiled program (they are rebuilt on next use); the
        rules themselves stay loaded."""
        with self._lock:
            self._programs.clear()
            self._prepared.clear()
            if self._compiled is not None:
                self._compiled.forget()

    # --- names ----------------------------------------------------------------

    @property
    def rule_names(self) -> tuple[str, ...]:
        """The rules this grammar defines, in file order, then those it imports."""
        return tuple(rule.name for rule in self.rules.rules.values())

    @property
    def core_names(self) -> tuple[str, ...]:
        """The RFC 5234 core rules (ALPHA, DIGIT, CRLF, ...)."""
        return self.rules.core_names

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
        return self.rules.find(name)

    def canonical(self, name: str) -> str:
        """The rule's name as the grammar spells it (RFC 5234 section 2.1:
        names are case-insensitive), or ``UnknownRuleError`` with close names."""
        found = self.find(name)
        if found is not None:
            return found
        import difflib  # only to suggest names

        names = self.rules.names
        close = difflib.get_close_matches(name.casefold(), list(names), n=3, cutoff=0.6)
        hint = ", ".join(repr(names[c]) for c in close)
        msg = f"unknown rule {name!r} in {self.name}" + (f"; did you mean {hint}?" if hint else "")
        raise UnknownRuleError(msg, rule=name, text=name, secrets=self.reporting.secrets)

    def source(self, name: str) -> str | None:
        """The rule's definition as written in its file; ``None`` for a core rule."""
        rule = self.rules.rules.get(self.canonical(name).casefold())
        return None if rule is None else "".join(rule.source)

    def expr(self, name: str) -> Expr:
        """The rule in ``syntax.ir`` form."""
        return self.rules.expr(self.canonical(name))

    def defined_in(self, name: str) -> Grammar | None:
        """The grammar whose file holds the definition ``name`` means here:
        this grammar, an import (or an import's import), or ``None`` for an
        RFC 5234 core rule."""
        origin = self.rules.origin(self.canonical(name).casefold())
        todo: list[Grammar] = [self]
        while todo and origin is not None:
            grammar = todo.pop(0)
            if grammar.rules is origin:
                return grammar
            todo.extend(grammar.imports)
        return None

    def references(self, name: str) -> tuple[str, ...]:
        """The rules ``name`` uses, directly or not, in first-use order."""
        table = self.rules
        return tuple(table.names[key] for key in table.reach(self.canonical(name).casefold()))

    def is_regular(self, name: str) -> bool:
        """Whether the rule never reaches itself through its references, so that it
        compiles to a linear-time matcher.  A rule that does (a nested comment, say) is
        matched by the ``abnf`` engine instead, on at most ``ABNF_MAX_LENGTH`` characters."""
        return self.rules.regular(self.canonical(name).casefold())

    def derived(self, text: Callable[[], str], name: str, store: Store | None) -> Grammar:
        """A grammar of ``text``, read when first used, that raises what
        this one raises and trusts its regexes as this one does
        (``languages.restricted``)."""
        return Grammar(
            text, name=name, lazy=True, vetted=self.vetted, store=store, reporting=self.reporting
        )

    # --- programs -------------------------------------------------------------

    def program(
        self, name: str, captures: frozenset[str] = _NONE, leaves: frozenset[str] = _NONE
    ) -> Program:
        """Rule ``name`` compiled (``program``), its ``captures`` kept as
        groups, nothing inside a rule of ``leaves``: built once, or loaded
        from the grammar's store."""
        canonical = self.canonical(name)
        key = (canonical, tuple(sorted(captures)), tuple(sorted(leaves)))
        found = self._programs.get(key)
        if found is None and self._compiled is not None:
            self.rules  # noqa: B018 (the compiled form is read with the rules)
            found = self._compiled.program(key)
        if found is None:
            found = build.build_program(self.rules, canonical, captures, leaves, vetted=self.vetted)
            if self._compiled is not None:
                self._compiled.keep(found)
        with self._lock:
            return self._programs.setdefault(key, found)

    def programs(self) -> tuple[Program, ...]:
        """Every program built or loaded so far."""
        return tuple(self._programs.values())

    def artifact(self) -> bytes:
        """The grammar's compiled form as a file (``program.artifact``): its
        rules, and every program built or loaded so far."""
        return artifact(self.lineage, self.rules, self.programs())

    def runs(
        self,
        name: str,
        captures: frozenset[str] = _NONE,
        leaves: frozenset[str] = _NONE,
        *,
        backend: Backend | None = None,
    ) -> Runs:
        """What runs rule ``name``'s program on ``backend`` (``backend.choose``)."""
        _check_backend(backend)
        program = self.program(name, captures, leaves)
        fallback = None
        if not program.regular:
            fallback = self._abnf.fallback(program.rule, program.names)
        return runs(program, backend or default_backend(), fallback)

    # --- matching ---------------------------------------------------------------

    def matcher(
        self, name: str, *, backend: Backend | None = None
    ) -> Callable[[str], object | None]:
        """A function of a text that returns ``None`` exactly when rule
        ``name`` does not match all of it (linear for a regular rule)."""
        return self.runs(name, backend=backend).fullmatch()

    def validate(self, rule: str, text: str, *, backend: Backend | None = None) -> bool:
        """Whether all of ``text`` matches ``rule``.  Raises
        ``InputTooLongError`` for a non-regular rule and a text longer than
        ``ABNF_MAX_LENGTH``: such a text is not decided, never "invalid"."""
        try:
            run = self._prepared.get(("validate", rule, backend))
        except TypeError:  # an unhashable name: refused by canonical below
            run = None
        if run is None:
            run = self.matcher(rule, backend=backend)
            self._prepare(("validate", rule, backend), run)
        # A str subclass is read by its own characters (``text_of``).
        return run(text if type(text) is str else text_of(text)) is not None

    def _prepare(self, key: object, made: object) -> None:
        if len(self._prepared) < _MAX_PREPARED:
            self._prepared[key] = made

    def check(self, rule: str, text: str, *, backend: Backend | None = None) -> None:
        """Raise ``RuleMatchError`` (``URISyntaxError`` for the shipped grammars) unless
        ``text`` matches ``rule``.  For a regular rule its offset is the end of the longest
        prefix of ``text`` that some string matching the rule starts with.  For a recursive
        rule it is where the ``abnf`` engine's parse stopped, only a lower bound of that."""
        if not self.validate(rule, text, backend=backend):
            raise self.syntax_error(self.canonical(rule), text)

    def default_captures(self, name: str) -> tuple[str, ...]:
        """What ``parse(name, text)`` captures when not told (``syntax.table.RuleTable.named``)."""
        return self.rules.named(self.canonical(name).casefold())

    def parse(
        self,
        rule: str,
        text: str,
        *,
        captures: Sequence[str] | None = None,
        backend: Backend | None = None,
    ) -> RuleMatch:
        """The ``RuleMatch`` of ``text``, which all of ``rule`` must match (else
        ``RuleMatchError``, as ``check`` raises it): where each rule of ``captures`` matched
        (by default ``default_captures(rule)``), in linear time and memory for a regular
        rule.  A rule that reaches itself goes through ``abnf``'s tree, at most
        ``ABNF_MAX_LENGTH`` characters."""
        key: object = rule  # the common call: default captures and back end
        if captures is not None:
            if isinstance(captures, str):
                msg = "captures must be a sequence of rule names, not one str"
                raise TypeError(msg)
            captures = tuple(captures)  # an iterator is read once, here
            key = ("parse", rule, captures, backend)
        elif backend is not None:
            key = ("parse", rule, None, backend)
        try:
            found = self._prepared.get(key)
        except TypeError:  # an unhashable name: refused by canonical below
            found = None
        if found is None:
            found = self._parser(rule, captures, backend)
            self._prepare(key, found)
        text = text if type(text) is str else text_of(text)
        canonical, run = found
        made: RuleMatch | None = run(text)
        if made is None:
            raise self.syntax_error(canonical, text)
        return made

    def _parser(
        self, rule: str, captures: Sequence[str] | None, backend: Backend | None
    ) -> tuple[str, Callable[[str], RuleMatch | None]]:
        """``parse``'s work for one rule and set of captures, prepared: the
        rule's canonical name, and the reader (``result.match``)."""
        canonical = self.canonical(rule)
        names = self.default_captures(canonical) if captures is None else captures
        kept = tuple(dict.fromkeys(self.canonical(n) for n in names))
        found = self.runs(canonical, frozenset(kept) - {canonical}, backend=backend)
        return canonical, match.reader(found, kept)

    def viable_prefix(self, name: str, text: str, *, backend: Backend | None = None) -> int:
        """The length of the longest prefix of ``text`` that some string the
        (regular) rule matches starts with."""
        return int(self.runs(name, backend=backend).viable()(text_of(text)))

    def syntax_error(self, name: str, text: str) -> RuleMatchError:
        """The error for a ``text`` that ``name`` does not match, at the end
        of the longest viable prefix (for a rule that reaches itself, where
        ``abnf``'s parse stopped: it may fall short of that)."""
        text = text_of(text)
        if self.is_regular(name):
            offset = self.viable_prefix(name, text)
        else:
            offset = self._abnf.stop(self.canonical(name), text)
        return self.reporting.syntax_error(name, text, offset)

    def regex(self, rule: str, flavour: str = "python", *, captures: Sequence[str] = ()) -> Regex:
        """The rule as a regex of ``flavour`` (``"python"``, ``"re2"``,
        ``"rust"`` or ``"java"``; see ``regex.flavours``) matching exactly
        the rule's strings, in time linear in the text on that flavour's
        engine; each occurrence of a rule of ``captures`` is a named group
        (``Regex.groups``).  ``RegexExportError`` (naming the rule and the
        flavour) for a rule the flavour cannot hold so: not regular, past
        the engine's limits, or able to backtrack without bound."""
        if isinstance(captures, str):
            msg = "captures must be a sequence of rule names, not one str"
            raise TypeError(msg)
        chosen = flavours.flavour_of(flavour)
        canonical = self.canonical(rule)
        kept = frozenset(self.canonical(name) for name in captures) - {canonical}
        key = ("regex", canonical, chosen.name, tuple(sorted(kept)))
        found: Regex | None = self._prepared.get(key)
        if found is not None:
            return found
        body = None
        if self.is_regular(canonical):
            body = self.program(canonical).body if not kept else self.rules.inline(canonical, kept)
        found = flavours.export(canonical, body, chosen, vetted=self.vetted)
        self._prepare(key, found)
        return found

    # --- the abnf engine --------------------------------------------------------

    @property
    def _abnf(self) -> AbnfRules:
        """``abnf``'s rules of this grammar (``reference``), made on first use."""
        found = self._abnf_rules
        if found is None:
            found = reference.AbnfRules(
                lambda: reference.rule_nodes(self), secrets=self.reporting.secrets
            )
            with self._lock:
                found = self._abnf_rules = self._abnf_rules or found
        return found

    def abnf_rule(self, name: str, *, first_match: bool = False) -> Any:
        """``abnf``'s rule object for ``name``, in this grammar's namespace
        (``reference.AbnfRules.rule``)."""
        return self._abnf.rule(self.canonical(name), first_match=first_match)

    def abnf_parse(self, name: str, text: str, *, first_match: bool = False) -> Any:
        """``abnf``'s derivation tree of ``text``, or ``None`` when the rule
        does not match; ``InputTooLongError`` past ``ABNF_MAX_LENGTH``
        (``reference.AbnfRules.parse``)."""
        canonical = self.canonical(name)
        return self._abnf.parse(
            canonical, text_of(text), first_match=first_match, regular=self.is_regular(canonical)
        )

    def own_nodes(self) -> dict[str, tuple[Any, ...]]:
        """``abnf``'s rule nodes of this grammar's own rules, by folded name,
        read once, a rule at a time (``reader.abnf_nodes``); a grammar
        loaded from its compiled form reads its text again for them."""
        if self._text_nodes is None:
            own = self.rules.own
            if not all(rule.bare for rule in own.values()):
                own = {rule.name.casefold(): rule for rule in read_rules(self.text())}
            self._text_nodes = {key: abnf_nodes(rule) for key, rule in own.items()}
        return self._text_nodes
