"""ABNF text -> rule definitions in the IR (``ir``).

The text is parsed by the ``abnf`` package's own grammar of ABNF (RFC 5234
section 4, with RFC 7405's case-sensitive strings) into a rule-list tree,
and ``_Builder`` turns each ``rule`` node into an expression of ``ir``.  The
RFC 5234 Appendix B core rules are not text anywhere: ``abnf`` defines
them as combinator objects, and ``core_rules`` reads those objects into the
same form, so CRLF and LWSP compile like any rule and no character set is
typed here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..._errors import GrammarError
from .charset import CharSet
from .ir import Alt, Chars, Expr, Ref, Rep, Seq
from .nesting import check_nesting, stack_exhausted

__all__ = ["RuleText", "core_rules", "crlf", "read_rules"]


class RuleText:
    """One rule as read: its name as spelled, its expression (``None`` for a
    rule written wholly in prose, RFC 5234 section 4's ``prose-val``), and
    its definition as written, one entry per ``=`` or ``=/`` line.

    A rule made ``later`` (read back from a compiled file, or one of the
    core rules) holds what reads its expression and its definition when
    first asked: a process that runs compiled programs reads the rules'
    names only, and a grammar that uses two core rules reads two.
    Immutable."""

    __slots__ = ("_expr", "_read", "_source", "name", "nodes", "prose")
    name: str
    #: Whether the rule is written wholly in prose (``expr`` is ``None``).
    prose: bool
    #: ``abnf``'s ``rule`` nodes for the source lines: visiting them defines
    #: the rule for the ``abnf`` engine, on whichever rule class needs it.
    nodes: tuple[Any, ...]
    _expr: Expr | None
    _source: tuple[str, ...]
    #: What reads the expression and the definition, until it has.
    _read: Callable[[], tuple[Expr | None, tuple[str, ...]]] | None

    def __init__(
        self, name: str, expr: Expr | None, source: tuple[str, ...], nodes: tuple[Any, ...] = ()
    ) -> None:
        _set(self, "name", name)
        _set(self, "prose", expr is None)
        _set(self, "_expr", expr)
        _set(self, "_source", source)
        _set(self, "nodes", nodes)
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
        _set(made, "nodes", ())
        _set(made, "_read", read)
        return made

    def _decoded(self) -> None:
        read = self._read
        assert read is not None
        expr, source = read()
        if (expr is None) != self.prose:
            msg = f"rule {self.name!r}: its piece says otherwise than its index"
            raise ValueError(msg)
        _set(self, "_expr", expr)
        _set(self, "_source", source)
        _set(self, "_read", None)

    @property
    def expr(self) -> Expr | None:
        if self._read is not None:
            self._decoded()
        return self._expr

    @property
    def source(self) -> tuple[str, ...]:
        if self._read is not None:
            self._decoded()
        return self._source

    def __setattr__(self, name: str, value: object) -> None:
        msg = "RuleText is immutable"
        raise AttributeError(msg)

    def __repr__(self) -> str:
        return f"<RuleText {self.name!r}>"


_set = object.__setattr__


# The largest repetition count a rule may write, and the largest code point.
_MAX_COUNT = 99_999
_MAX_COUNT_DIGITS = len(str(_MAX_COUNT))
_MAX_CODE = 0x10FFFF


class _Prose(Exception):
    """A ``prose-val``: no machine can read it."""


def crlf(text: str) -> str:
    """``text`` as RFC 5234 section 2.2 wants it: CRLF-terminated lines."""
    return text.rstrip().replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n") + "\r\n"


def _children(node: Any, name: str) -> list[Any]:
    return [child for child in node.children if child.name == name]


def _child(node: Any, name: str) -> Any:
    return _children(node, name)[0]


def _one_or_seq(items: tuple[Expr, ...]) -> Expr:
    return items[0] if len(items) == 1 else Seq(items)


def _letter_cases(char: str, *, sensitive: bool) -> CharSet:
    # RFC 5234 section 2.3: a quoted string matches ASCII letters in either
    # case; RFC 7405's %s makes it exact.
    codes = {ord(char)}
    if not sensitive and char.isascii():
        codes |= {ord(char.lower()), ord(char.upper())}
    return CharSet.of(codes)


class _Builder:
    """Rule-list tree (RFC 5234 section 4 node names) -> ``ir``."""

    def rule(self, node: Any) -> tuple[str, bool, Expr | None]:
        name = _child(node, "rulename").value
        incremental = "=/" in _child(node, "defined-as").value
        alternation = _child(_child(node, "elements"), "alternation")
        try:
            expr: Expr | None = self.alternation(alternation)
        except _Prose:
            if alternation.value.strip().startswith("<") and alternation.value.strip().endswith(
                ">"
            ):
                expr = None  # the whole rule is prose: a gap for imports
            else:
                msg = (
                    f"rule {name!r} mixes prose ({alternation.value.strip()!r}) with "
                    "ABNF; only a rule written wholly in prose can be filled by an import"
                )
                raise GrammarError(msg, rule=name) from None
        return name, incremental, expr

    def alternation(self, node: Any) -> Expr:
        items = tuple([self.concatenation(c) for c in _children(node, "concatenation")])
        return items[0] if len(items) == 1 else Alt(items)

    def concatenation(self, node: Any) -> Expr:
        return _one_or_seq(tuple([self.repetition(c) for c in _children(node, "repetition")]))

    def repetition(self, node: Any) -> Expr:
        element = _child(node, "element").children[0]
        repeats = _children(node, "repeat")
        if not repeats:
            return self.element(element)
        lo, hi = self.repeat(repeats[0].value)
        if hi == 0:
            # `0<pchar>` (RFC 3986's path-empty): zero repetitions of
            # anything, prose included, match the empty string.
            return Seq(())
        return Rep(lo, hi, self.element(element))

    @staticmethod
    def repeat(text: str) -> tuple[int, int | None]:
        lo, star, hi = text.partition("*")
        if not star:
            hi = lo
        # Leading zeros stripped before int(): Python refuses to convert
        # more than 4,300 digits, and zeros count.
        lo, hi = lo.lstrip("0") or ("0" if lo else ""), hi.lstrip("0") or ("0" if hi else "")
        for digits in (lo, hi):
            if len(digits) > _MAX_COUNT_DIGITS or int(digits or 0) > _MAX_COUNT:
                shown = text if len(text) <= 40 else text[:37] + "..."
                msg = f"repetition {shown!r} is too large (at most {_MAX_COUNT:,} a side)"
                raise GrammarError(msg)
        low, high = int(lo or 0), (int(hi) if hi else None)
        if high is not None and high < low:
            msg = f"repetition {text!r} can never match (its maximum is below its minimum)"
            raise GrammarError(msg)
        return low, high

    def element(self, node: Any) -> Expr:
        kind = node.name
        if kind == "rulename":
            return Ref(node.value)
        if kind == "group":
            return self.alternation(_child(node, "alternation"))
        if kind == "option":
            return Rep(0, 1, self.alternation(_child(node, "alternation")))
        if kind == "char-val":
            return self.char_val(node.children[0])
        if kind == "num-val":
            return self.num_val(node.value)
        if kind == "prose-val":
            raise _Prose
        msg = f"unknown ABNF element {kind} {node.value!r}"
        raise GrammarError(msg)

    @staticmethod
    def char_val(node: Any) -> Expr:
        sensitive = node.name == "case-sensitive-string"
        quoted = _child(node, "quoted-string").value[1:-1]
        return _one_or_seq(tuple(Chars(_letter_cases(c, sensitive=sensitive)) for c in quoted))

    @staticmethod
    def num_val(text: str) -> Expr:
        base = {"b": 2, "d": 10, "x": 16}[text[1].lower()]
        body = text[2:]

        # A code point has at most 21 bits; checking the length without the
        # leading zeros first, and converting without them, keeps int()
        # away from its digit limit (zeros count there).
        def value(part: str) -> int:
            return int(part.lstrip("0") or "0", base)

        for part in body.replace("-", ".").split("."):
            if len(part.lstrip("0")) > 21 or value(part) > _MAX_CODE:
                shown = text if len(text) <= 40 else text[:37] + "..."
                msg = f"{shown!r} is not a Unicode code point (at most %x{_MAX_CODE:X})"
                raise GrammarError(msg)
        if "-" in body:
            lo, hi = (value(part) for part in body.split("-"))
            if hi < lo:
                msg = f"empty range {text!r}"
                raise GrammarError(msg)
            return Chars(CharSet([(lo, hi)]))
        codes = tuple(value(part) for part in body.split("."))
        return _one_or_seq(tuple(Chars(CharSet.of((code,))) for code in codes))


class _Scan:
    """A recogniser of one line-started item of RFC 5234's ``rulelist`` (a
    rule, or a blank or comment line) in CRLF text, that keeps the furthest
    offset at which a character was not what the syntax allows there: the
    character a reader would call wrong.  ``abnf`` only says where the
    rule list stopped, the start of the item that failed.  Each method
    returns the offset after what it read, or ``None``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.far = 0

    def _at(self, at: int, allowed: Callable[[str], bool], *, record: bool = True) -> bool:
        if at < len(self.text) and allowed(self.text[at]):
            return True
        if record:
            self.far = max(self.far, at)
        return False

    def _lit(self, at: int, chars: str) -> int | None:
        for i, char in enumerate(chars):
            if not self._at(at + i, char.__eq__):
                return None
        return at + len(chars)

    def _run(self, at: int, allowed: Callable[[str], bool]) -> int:
        while self._at(at, allowed):
            at += 1
        return at

    def item(self, at: int) -> int | None:
        end = self.rule(at)
        if end is not None:
            return end
        return self.c_nl(self.wsps(at))

    def rule(self, at: int) -> int | None:
        end = self.rulename(at)
        if end is None:
            return None
        end = self.wsps(end)
        if self._lit(end, "=") is None:
            return None
        end += 2 if self.text.startswith("=/", end) else 1
        end = self.alternation(self.wsps(end))
        return None if end is None else self.c_nl(self.wsps(end))

    def rulename(self, at: int) -> int | None:
        if not self._at(at, _is_alpha):
            return None
        return self._run(at + 1, lambda c: _is_alpha(c) or _is_digit(c) or c == "-")

    def c_nl(self, at: int) -> int | None:
        if self._at(at, lambda c: c == ";"):
            at = self._run(at + 1, lambda c: c in " \t" or "!" <= c <= "~")
        return self._lit(at, "\r\n")

    def c_wsp(self, at: int) -> int | None:
        if self._at(at, lambda c: c in " \t"):
            return at + 1
        end = self.c_nl(at)
        # A line break is white space only before an indented line; that
        # the next line is not indented is no error of this line.
        if end is None or not self._at(end, lambda c: c in " \t", record=False):
            return None
        return end + 1

    def wsps(self, at: int) -> int:
        while (end := self.c_wsp(at)) is not None:
            at = end
        return at

    def alternation(self, at: int) -> int | None:
        end = self.concatenation(at)
        while end is not None:
            bar = self.wsps(end)
            if not self._at(bar, lambda c: c == "/"):
                break
            more = self.concatenation(self.wsps(bar + 1))
            if more is None:
                break
            end = more
        return end

    def concatenation(self, at: int) -> int | None:
        end = self.repetition(at)
        while end is not None:
            gap = self.c_wsp(end)
            if gap is None:
                break
            more = self.repetition(self.wsps(gap))
            if more is None:
                break
            end = more
        return end

    def repetition(self, at: int) -> int | None:
        at = self._run(at, _is_digit)
        if self._at(at, lambda c: c == "*"):
            at = self._run(at + 1, _is_digit)
        return self.element(at)

    def element(self, at: int) -> int | None:
        first = self.text[at] if at < len(self.text) else ""
        if first in "([":
            end = self.alternation(self.wsps(at + 1))
            if end is None:
                return None
            return self._lit(self.wsps(end), ")" if first == "(" else "]")
        if first == "<":
            end = self._run(at + 1, lambda c: " " <= c <= "~" and c != ">")
            return self._lit(end, ">")
        if first == '"' or self.text[at : at + 2].lower() in ('%s"', '%i"'):
            start = at + 1 if first == '"' else at + 3
            end = self._run(start, lambda c: " " <= c <= "~" and c != '"')
            return self._lit(end, '"')
        if first == "%":
            return self.num_val(at + 1)
        if not self._at(at, _is_alpha):
            return None
        return self.rulename(at)

    def num_val(self, at: int) -> int | None:
        base = self.text[at].lower() if at < len(self.text) else ""
        if not self._at(at, lambda c: c.lower() in "bdx"):
            return None
        digits = {"b": "01", "d": "0123456789", "x": "0123456789abcdef"}[base]

        def digit(c: str) -> bool:
            return c.lower() in digits

        if not self._at(at + 1, digit):
            return None
        end = self._run(at + 2, digit)
        if self._at(end, lambda c: c == "-"):
            return self._run(end + 1, digit) if self._at(end + 1, digit) else None
        while self._at(end, lambda c: c == "."):
            if not self._at(end + 1, digit):
                return None
            end = self._run(end + 2, digit)
        return end


def _is_alpha(char: str) -> bool:
    return "a" <= char.lower() <= "z"


def _is_digit(char: str) -> bool:
    return "0" <= char <= "9"


def _syntax_error(text: str, converted: str, stop: int) -> GrammarError:
    """The error for a text that is not a rule list: it points at the
    offending character (line, column, and offset into ``text`` itself,
    not into its CRLF form), or at the start of the failing line when the
    recogniser finds nothing wrong with it."""
    import re

    scan = _Scan(converted)
    scan.far = stop
    try:
        at = stop if scan.item(stop) is not None else scan.far
    except RecursionError:  # groups nested deeper than the stack
        at = stop
    line = converted.count("\r\n", 0, at)
    column = at - (converted.rfind("\n", 0, at) + 1)
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    offset = min(len(text), starts[min(line, len(starts) - 1)] + column)
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
    their rule (section 3.3), in the order of first definition."""
    from abnf.parser import ABNFGrammarRule, ParseError

    check_nesting(text)  # abnf's reader recurses once per level
    converted = crlf(text)
    try:
        tree = ABNFGrammarRule("rulelist").parse_all(converted)
    except ParseError as exc:
        if isinstance(exc.__cause__, RecursionError):
            raise stack_exhausted() from None
        raise _syntax_error(text, converted, exc.start) from None
    # abnf reads CRLF lines (RFC 5234 section 2.2); a rule's source keeps
    # the line end its file was written with.
    ending = "\r\n" if "\r\n" in text else "\r" if "\r" in text else "\n"
    builder = _Builder()
    names: dict[str, str] = {}
    exprs: dict[str, Expr | None] = {}
    sources: dict[str, list[str]] = {}
    nodes: dict[str, list[Any]] = {}
    for node in _children(tree, "rule"):
        name, incremental, expr = builder.rule(node)
        key = name.casefold()
        if key in exprs and incremental:
            old = exprs[key]
            if old is None or expr is None:
                msg = f"rule {name!r} adds alternatives (=/) to prose"
                raise GrammarError(msg, rule=name)
            exprs[key] = Alt((old, expr))
            sources[key].append(node.value.replace("\r\n", ending))
            nodes[key].append(node)
            continue
        if key in exprs:
            msg = f"rule {name!r} is defined twice with '=' (use '=/' to add alternatives)"
            raise GrammarError(msg, rule=name)
        if incremental:
            msg = f"rule {name!r} adds alternatives (=/) before it is defined"
            raise GrammarError(msg, rule=name)
        names[key] = name
        exprs[key] = expr
        sources[key] = [node.value.replace("\r\n", ending)]
        nodes[key] = [node]
    return [RuleText(names[k], exprs[k], tuple(sources[k]), tuple(nodes[k])) for k in names]


def _from_combinator(parser: Any) -> Expr:
    """One of ``abnf``'s combinator objects (the pure-Python ones its core
    rules are built from) in the IR."""
    from abnf import _parser_python as py

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
        sensitive = bool(parser.case_sensitive)
        return _one_or_seq(tuple([Chars(_letter_cases(c, sensitive=sensitive)) for c in value]))
    msg = f"cannot read abnf's definition {parser!r}"
    raise GrammarError(msg)


def core_rules() -> list[RuleText]:
    """RFC 5234 Appendix B, read off ``abnf``'s own core rule objects."""
    from abnf import _parser_python as py

    core: list[Any] = py.Rule.rules()  # type: ignore[no-untyped-call]
    return [RuleText.later(rule.name, False, partial(_read_core, rule)) for rule in core]


def _read_core(rule: Any) -> tuple[Expr | None, tuple[str, ...]]:
    return _from_combinator(rule.definition), ()
