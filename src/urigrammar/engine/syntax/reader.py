"""ABNF text -> rule definitions in the IR (``ir``).

``rulelist`` reads the text (RFC 5234 section 4, with RFC 7405's
case-sensitive strings) in one pass, and ``read_rules`` folds its lines
into rules: time and memory linear in the text, within ``limits``.
``abnf`` reads a rule's text only when its own engine runs the rule
(``abnf_nodes``).  The RFC 5234 Appendix B core rules are not text
anywhere: ``abnf`` defines them as combinator objects, and ``core_rules``
reads those objects into the same form, so CRLF and LWSP compile like any
rule and no character set is typed here.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import threading
from collections.abc import Callable
from functools import cache, partial
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..._errors import GrammarError
from ..base.later import later
from .charset import CharSet
from .ir import Alt, Chars, Expr, Ref, Rep, Seq
from .limits import MAX_GRAMMAR_LENGTH, MAX_RULE_LENGTH

if TYPE_CHECKING:
    from . import rulelist
else:
    # The reader of ABNF text, imported when a text is first read: a
    # process that runs compiled programs reads their rules' names only.
    rulelist = later(globals(), ".rulelist")

__all__ = ["RuleText", "abnf_nodes", "core_rules", "crlf", "read_rules"]


class RuleText:
    """One rule as read: its name as spelled, its expression (``None`` for a
    rule written wholly in prose, RFC 5234 section 4's ``prose-val``), and
    its definition as written, one entry per ``=`` or ``=/`` line.

    A rule made ``later`` (read back from a compiled file, or one of the
    core rules) holds what reads its expression and its definition when
    first asked: a process that runs compiled programs reads the rules'
    names only, and a grammar that uses two core rules reads two.
    Immutable."""

    __slots__ = ("_expr", "_read", "_source", "bare", "name", "prose")
    name: str
    #: Whether the rule is written wholly in prose (``expr`` is ``None``).
    prose: bool
    #: The definition's lines in CRLF form without their comments, what
    #: ``abnf_nodes`` gives ``abnf`` to read; empty for a rule made
    #: ``later``.
    bare: tuple[str, ...]
    _expr: Expr | None
    _source: tuple[str, ...]
    #: What reads the expression and the definition, until it has.
    _read: Callable[[], tuple[Expr | None, tuple[str, ...]]] | None

    def __init__(
        self, name: str, expr: Expr | None, source: tuple[str, ...], bare: tuple[str, ...] = ()
    ) -> None:
        _set(self, "name", name)
        _set(self, "prose", expr is None)
        _set(self, "_expr", expr)
        _set(self, "_source", source)
        _set(self, "bare", bare)
        _set(self, "_read", None)

    @classmethod
    def later(
        cls, name: str, prose: bool, read: Callable[[], tuple[Expr | None, tuple[str, ...]]]
    ) -> RuleText:
        """A rule whose expression and definition ``read`` gives when first
        asked (``ValueError`` then, from ``read`` or for an expression that
        is not of the kind ``prose`` says)."""
        made = cls.__new__(cls)
        _set(made, "name", name)
        _set(made, "prose", prose)
        _set(made, "bare", ())
        _set(made, "_read", read)
        return made

    def _decoded(self, read: Callable[[], tuple[Expr | None, tuple[str, ...]]]) -> None:
        # ``read`` is what the caller saw in ``_read``: another thread may
        # have decoded the rule and emptied ``_read`` since, and reading
        # twice gives the same expression.
        expr, source = read()
        if (expr is None) != self.prose:
            msg = f"rule {self.name!r}: its piece says otherwise than its index"
            raise ValueError(msg)
        _set(self, "_expr", expr)
        _set(self, "_source", source)
        _set(self, "_read", None)

    @property
    def expr(self) -> Expr | None:
        read = self._read
        if read is not None:
            self._decoded(read)
        return self._expr

    @property
    def source(self) -> tuple[str, ...]:
        read = self._read
        if read is not None:
            self._decoded(read)
        return self._source

    def __setattr__(self, name: str, value: object) -> None:
        msg = "RuleText is immutable"
        raise AttributeError(msg)

    def __repr__(self) -> str:
        return f"<RuleText {self.name!r}>"


_set = object.__setattr__


def crlf(text: str) -> str:
    """``text`` as RFC 5234 section 2.2 wants it: CRLF-terminated lines."""
    return text.rstrip().replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n") + "\r\n"


def _offset(text: str, converted: str, at: int) -> tuple[int, int, int]:
    """Line and column (from 0) of offset ``at`` of the CRLF form, and the
    offset of the same place in ``text`` itself."""
    line = converted.count("\r\n", 0, at)
    column = at - (converted.rfind("\n", 0, at) + 1)
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    return line, column, min(len(text), starts[min(line, len(starts) - 1)] + column)


def _syntax_error(text: str, converted: str, at: int) -> GrammarError:
    """The error for a text that is not a rule list, at the offending
    character ``at`` of its CRLF form: line, column, and offset into
    ``text`` itself."""
    line, column, offset = _offset(text, converted, at)
    if at >= len(converted) or converted[at] in "\r\n":
        what = "unexpected end of line"
    else:
        what = f"unexpected {converted[at]!r}"
    msg = f"not an ABNF rule list (RFC 5234): line {line + 1}, column {column + 1}: {what}"
    if converted[converted.rfind("\n", 0, at) + 1 :][:1] in (" ", "\t"):
        msg += (
            "; rules start in column 0 (an indented line is read as the continuation "
            "of the rule above it)"
        )
    return GrammarError(msg, text=text, offset=offset)


def read_rules(text: str) -> list[RuleText]:
    """The rules of an ABNF rule list (RFC 5234), ``=/`` lines folded into
    their rule (section 3.3), in the order of first definition; in time
    and memory linear in the text, within the limits of ``limits``."""
    if len(text) > MAX_GRAMMAR_LENGTH:
        msg = (
            f"the grammar is {len(text):,} characters long or more; at most "
            f"MAX_GRAMMAR_LENGTH ({MAX_GRAMMAR_LENGTH:,})"
        )
        raise GrammarError(msg)
    rulelist.check_nesting(text)
    converted = crlf(text)
    reader = rulelist.Reader(converted)
    try:
        definitions = reader.rules()
    except rulelist.Misread as exc:
        offset = _offset(text, converted, exc.at)[2]
        raise GrammarError(exc.message, rule=exc.rule, text=text, offset=offset) from None
    except RecursionError:  # nesting within MAX_NESTING, from a deep caller
        raise rulelist.stack_exhausted() from None
    if definitions is None:
        raise _syntax_error(text, converted, reader.far)
    # The reader reads CRLF lines (RFC 5234 section 2.2); a rule's source
    # keeps the line end its file was written with.
    ending = "\r\n" if "\r\n" in text else "\r" if "\r" in text else "\n"
    names: dict[str, str] = {}
    exprs: dict[str, Expr | None] = {}
    sources: dict[str, list[str]] = {}
    bare: dict[str, list[str]] = {}
    for made in definitions:
        name, key = made.name, made.name.casefold()
        written = converted[made.start : made.end]
        if key in exprs and made.incremental:
            old, expr = exprs[key], made.expr
            if old is None or expr is None:
                msg = f"rule {name!r} adds alternatives (=/) to prose"
                raise _at(msg, name, text, converted, made.start)
            # One alternation, however many =/ lines: nested, each line
            # would be a level for every pass that descends the rule.
            exprs[key] = Alt((*_alternatives(old), *_alternatives(expr)))
        elif key in exprs:
            msg = f"rule {name!r} is defined twice with '=' (use '=/' to add alternatives)"
            raise _at(msg, name, text, converted, made.start)
        elif made.incremental:
            msg = f"rule {name!r} adds alternatives (=/) before it is defined"
            raise _at(msg, name, text, converted, made.start)
        else:
            names[key], exprs[key], sources[key], bare[key] = name, made.expr, [], []
        sources[key].append(written.replace("\r\n", ending))
        bare[key].append(rulelist.uncommented(written))
        length = sum(map(len, bare[key]))
        if length > MAX_RULE_LENGTH:  # its =/ lines together
            raise _at(rulelist.too_long(name, length), name, text, converted, made.start)
    return [RuleText(names[k], exprs[k], tuple(sources[k]), tuple(bare[k])) for k in names]


def _alternatives(expr: Expr) -> tuple[Expr, ...]:
    return expr.items if isinstance(expr, Alt) else (expr,)


def _at(message: str, rule: str, text: str, converted: str, at: int) -> GrammarError:
    return GrammarError(message, rule=rule, text=text, offset=_offset(text, converted, at)[2])


def abnf_nodes(rule: RuleText) -> tuple[Any, ...]:
    """``abnf``'s ``rule`` nodes for a rule read from text, one per line
    that defines it: visiting them defines the rule for the ``abnf``
    engine.  ``abnf`` reads one rule at a time, without its comments,
    which ``MAX_RULE_LENGTH`` bounds."""
    from abnf.parser import ABNFGrammarRule, ParseError

    nodes = []
    for line in rule.bare:
        try:
            nodes.append(ABNFGrammarRule("rule").parse_all(line))
        except ParseError as exc:
            if isinstance(exc.__cause__, RecursionError):
                raise rulelist.stack_exhausted() from None
            msg = f"abnf does not read rule {rule.name!r} as urigrammar does: {exc}"
            raise GrammarError(msg, rule=rule.name) from None
    return tuple(nodes)


def _pure_parser() -> ModuleType:
    with _PURE_LOCK:  # one copy, and sys.modules free of it once it has run
        return _pure_parser_once()


_PURE_LOCK = threading.Lock()


@cache
def _pure_parser_once() -> ModuleType:
    """``abnf``'s pure-Python parser module, whose combinators show their
    parts.  With ``abnf``'s Rust backend (``abnf[rust]``), importing
    ``abnf`` rebinds that module's combinator names to the Rust classes,
    which keep their parts to themselves, and rebuilds the core rules with
    them; a private copy of the module, run apart from the one ``abnf``
    uses, still builds its core rules in Python."""
    import abnf.parser
    from abnf import _parser_python as py

    if abnf.parser._BACKEND != "rust":
        return py
    name = f"{py.__name__}_urigrammar_core"  # in abnf's package: its relative imports
    spec = importlib.util.spec_from_file_location(name, py.__file__)
    assert spec is not None, py.__file__
    assert spec.loader is not None, py.__file__
    module = importlib.util.module_from_spec(spec)
    # dataclasses reads a class's module from sys.modules while the module
    # runs; it leaves sys.modules after, so nothing else finds the copy.
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def _from_combinator(parser: Any) -> Expr:
    """One of ``abnf``'s combinator objects (the pure-Python ones its core
    rules are built from) in the IR."""
    py = _pure_parser()
    if isinstance(parser, py.Rule):
        return Ref(parser.name)
    if isinstance(parser, py.Alternation):
        return Alt(tuple([_from_combinator(p) for p in parser.parsers]))
    if isinstance(parser, py.Concatenation):
        return Seq(tuple([_from_combinator(p) for p in parser.parsers]))
    if isinstance(parser, py.Repetition):
        return Rep(parser.repeat.min, parser.repeat.max, _from_combinator(parser.element))
    if isinstance(parser, py.Option):
        return Rep(0, 1, _from_combinator(parser.alternation))
    if isinstance(parser, py.Literal):
        value = parser.value
        if isinstance(value, tuple):
            return Chars(CharSet([(ord(value[0]), ord(value[1]))]))
        return rulelist.char_val(value, sensitive=bool(parser.case_sensitive))
    msg = f"cannot read abnf's definition {parser!r}"
    raise GrammarError(msg)


def core_rules() -> list[RuleText]:
    """RFC 5234 Appendix B, read off ``abnf``'s own core rule objects."""
    core: list[Any] = _pure_parser().Rule.rules()
    return [RuleText.later(rule.name, False, partial(_read_core, rule)) for rule in core]


def _read_core(rule: Any) -> tuple[Expr | None, tuple[str, ...]]:
    return _from_combinator(rule.definition), ()
