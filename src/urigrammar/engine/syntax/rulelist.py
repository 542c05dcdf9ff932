"""RFC 5234 section 4's ``rulelist``, with RFC 7405's ``%s`` and ``%i``
strings, read in one pass into the IR (``ir``).

``abnf`` reads ABNF with a general parser that keeps every partial match;
its time and memory grow with the square of a line's length (one comment
of 32,000 characters costs it a minute and gigabytes).  The grammar of
ABNF needs no such parser: read from the left, each step is decided by the
next character, and nothing is given back but the white space just read
(the space before a ``/`` or a line end belongs to the alternation or the
rule, not to the concatenation that tried to go on).  ``Reader`` is that
recursive descent: time and memory linear in the text, and recursion as
deep as the groups nest, which ``nesting`` bounds before it runs.  The
tests hold what it reads to ``abnf``'s reading of the same texts.

The text is in CRLF form (``reader.crlf``).  Where it is not a rule list,
``Reader.far`` is the furthest offset at which a character was not one
the syntax allows there: the character a person would call wrong.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Final

from ..._errors import GrammarError
from .charset import CharSet
from .ir import Alt, Chars, Expr, Ref, Rep, Seq
from .limits import MAX_COUNT, MAX_RULE_LENGTH
from .nesting import check_nesting, stack_exhausted

__all__ = [
    "Definition",
    "Misread",
    "Reader",
    "char_val",
    "check_nesting",
    "num_val",
    "repeat_bounds",
    "stack_exhausted",
    "too_long",
    "uncommented",
]

_MAX_COUNT_DIGITS = len(str(MAX_COUNT))
_MAX_CODE = 0x10FFFF


class _Runs:
    """The runs of RFC 5234's terminals, each the longest from a given
    offset, compiled when a text is first read (``runs``): a process that
    runs compiled grammars reads none."""

    __slots__ = (
        "comment_body",
        "comments",
        "digits",
        "number",
        "prose",
        "quoted",
        "rule_end",
        "rulename",
        "wsp",
    )

    def __init__(self) -> None:
        self.wsp = re.compile(r"[ \t]*")
        self.comment_body = re.compile(r"[ \t!-~]*")  # *(WSP / VCHAR)
        self.rulename = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
        self.digits = re.compile(r"[0-9]*")
        self.quoted = re.compile(r"[ !#-~]*")  # %x20-21 / %x23-7E
        self.prose = re.compile(r"[ -=?-~]*")  # %x20-3D / %x3F-7E
        self.number = {
            "b": re.compile(r"[01]*"),
            "d": re.compile(r"[0-9]*"),
            "x": re.compile(r"[0-9A-Fa-f]*"),
        }
        #: Where a rule ends: at a line end that no indented line follows.
        self.rule_end = re.compile(r"\r\n(?![ \t])")
        #: A comment, found past the quoted strings and prose values it
        #: cannot start in (neither spans a line end).  Their closing marks
        #: are optional, so that a line of unclosed "<" (not ABNF, but
        #: measured before it is read) costs one pass, not one per "<".
        self.comments = re.compile(r'"[^"\r\n]*"?|<[^>\r\n]*>?|;[^\r\n]*')


@functools.cache
def runs() -> _Runs:
    return _Runs()


class _ProseMark:
    """What a part written in prose reads as: no machine can read it."""


PROSE: Final = _ProseMark()
_Read = Expr | _ProseMark


class Definition:
    """One ``rule`` line of the text (with its continuation lines): its
    name as spelled, whether it adds alternatives (``=/``), its expression
    (``None`` for a rule written wholly in prose, RFC 5234 section 4's
    ``prose-val``), and where it lies in the CRLF text, its ``c-nl``
    included."""

    __slots__ = ("end", "expr", "incremental", "name", "start")

    def __init__(
        self, name: str, incremental: bool, expr: Expr | None, start: int, end: int
    ) -> None:
        self.name, self.incremental, self.expr = name, incremental, expr
        self.start, self.end = start, end


class Misread(Exception):
    """A rule that is ABNF but cannot be used: a count or a code point out
    of range, prose mixed with ABNF (raised once the whole text is known to
    be a rule list, so that a syntax error is reported first), or a rule
    past ``MAX_RULE_LENGTH`` (raised before the rule is read).  ``at`` is
    the offset in the CRLF text."""

    def __init__(self, message: str, rule: str, at: int) -> None:
        super().__init__(message)
        self.message, self.rule, self.at = message, rule, at


class Reader:
    """One CRLF text's rule list (``rules``).  Each method reads from an
    offset and returns the offset after what it read (with what it built),
    or ``None``, having moved ``far`` to where it failed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.far = 0
        self._runs = runs()
        self._rule = ""
        #: The first rule that cannot be used, raised after the text is read.
        self._misread: Misread | None = None

    def _unusable(self, message: str, at: int) -> Expr:
        if self._misread is None:
            self._misread = Misread(message, self._rule, at)
        return Seq(())  # stands in until the error is raised

    def _fail(self, at: int) -> None:
        self.far = max(self.far, at)

    def rules(self) -> list[Definition] | None:
        """Every rule of the text, or ``None`` when it is not a rule list
        (``far`` says where)."""
        text, found = self.text, []
        at = 0
        while at < len(text):
            self.far = at
            made = self.rule(at)
            if made is not None:
                found.append(made)
                at = made.end
                continue
            end = self.c_nl(self.wsps(at))  # a blank or comment line
            if end is None:
                return None
            at = end
        if self._misread is not None:
            raise self._misread
        return found

    def rule(self, at: int) -> Definition | None:
        text = self.text
        name = self._runs.rulename.match(text, at)
        if name is None:
            self._fail(at)
            return None
        self._rule = name.group()
        # Measured before it is read, so that no rule's reading grows past
        # the limit (the line ends where the rule does if it is a rule).
        extent = self._runs.rule_end.search(text, at)
        length = len(uncommented(text[at : len(text) if extent is None else extent.end()]))
        if length > MAX_RULE_LENGTH:
            raise Misread(too_long(self._rule, length), self._rule, at)
        self._fail(name.end())
        end = self.wsps(name.end())
        incremental = text.startswith("=/", end)
        if not incremental and not text.startswith("=", end):
            self._fail(end)
            return None
        begin = self.wsps(end + 1 + incremental)
        read = self.alternation(begin)
        if read is None:
            return None
        stop, expr = read
        close = self.c_nl(self.wsps(stop))
        if close is None:
            return None
        if isinstance(expr, _ProseMark):
            written = text[begin:stop].strip()
            if not (written.startswith("<") and written.endswith(">")):
                msg = (
                    f"rule {self._rule!r} mixes prose ({written!r}) with ABNF; only a "
                    "rule written wholly in prose can be filled by an import"
                )
                return Definition(self._rule, incremental, self._unusable(msg, begin), at, close)
            return Definition(self._rule, incremental, None, at, close)
        return Definition(self._rule, incremental, expr, at, close)

    def c_nl(self, at: int) -> int | None:
        text = self.text
        if text.startswith(";", at):
            at = _end(self._runs.comment_body, text, at + 1)
        if text.startswith("\r\n", at):
            return at + 2
        self._fail(at)
        return None

    def wsps(self, at: int) -> int:
        """After ``*c-wsp``: white space, and line ends (with any comment)
        that an indented line follows."""
        text = self.text
        while True:
            at = _end(self._runs.wsp, text, at)
            end = self.c_nl(at)
            if end is None or text[end : end + 1] not in (" ", "\t"):
                return at
            at = end + 1

    def alternation(self, at: int) -> tuple[int, _Read] | None:
        read = self.concatenation(at)
        if read is None:
            return None
        end, item = read
        items = [item]
        while True:
            bar = self.wsps(end)
            if not self.text.startswith("/", bar):
                self._fail(bar)
                break
            more = self.concatenation(self.wsps(bar + 1))
            if more is None:
                break
            end, item = more
            items.append(item)
        return end, _joined(items, Alt)

    def concatenation(self, at: int) -> tuple[int, _Read] | None:
        read = self.repetition(at)
        if read is None:
            return None
        end, item = read
        items = [item]
        while True:
            gap = self.wsps(end)  # 1*c-wsp: it must move
            if gap == end:
                break
            more = self.repetition(gap)
            if more is None:
                break
            end, item = more
            items.append(item)
        return end, _joined(items, Seq)

    def repetition(self, at: int) -> tuple[int, _Read] | None:
        text = self.text
        end = _end(self._runs.digits, text, at)
        if text.startswith("*", end):
            end = _end(self._runs.digits, text, end + 1)
        self._fail(end)
        read = self.element(end)
        if read is None or end == at:
            return read
        stop, element = read
        try:
            low, high = repeat_bounds(text[at:end])
        except GrammarError as exc:
            return stop, self._unusable(f"rule {self._rule!r}: {exc.message}", at)
        if high == 0:
            # `0<pchar>` (RFC 3986's path-empty): zero repetitions of
            # anything, prose included, match the empty string.
            return stop, Seq(())
        if isinstance(element, _ProseMark):
            return stop, PROSE
        return stop, Rep(low, high, element)

    def element(self, at: int) -> tuple[int, _Read] | None:
        text = self.text
        first = text[at : at + 1]
        if first in ("(", "["):
            read = self.alternation(self.wsps(at + 1))
            if read is None:
                return None
            end, inner = read
            end = self.wsps(end)
            if not text.startswith(")" if first == "(" else "]", end):
                self._fail(end)
                return None
            if first == "[" and not isinstance(inner, _ProseMark):
                inner = Rep(0, 1, inner)
            return end + 1, inner
        if first == "<":
            end = _end(self._runs.prose, text, at + 1)
            if not text.startswith(">", end):
                self._fail(end)
                return None
            return end + 1, PROSE
        marker = text[at : at + 3].lower()
        if first == '"' or marker in ('%s"', '%i"'):
            start = at + 1 if first == '"' else at + 3
            end = _end(self._runs.quoted, text, start)
            if not text.startswith('"', end):
                self._fail(end)
                return None
            return end + 1, char_val(text[start:end], sensitive=marker.startswith("%s"))
        if first == "%":
            return self.num_val(at)
        name = self._runs.rulename.match(text, at)
        if name is None:
            self._fail(at)
            return None
        self._fail(name.end())
        return name.end(), Ref(name.group())

    def num_val(self, at: int) -> tuple[int, _Read] | None:
        text = self.text
        digits = self._runs.number.get(text[at + 1 : at + 2].lower())
        if digits is None:
            self._fail(at + 1)
            return None
        end = _end(digits, text, at + 2)
        if end == at + 2:
            self._fail(end)
            return None
        if text.startswith("-", end):
            stop = _end(digits, text, end + 1)
            if stop > end + 1:
                end = stop
            else:
                self._fail(stop)  # `%x41-`: the value ends before the dash
        else:
            while text.startswith(".", end):
                stop = _end(digits, text, end + 1)
                if stop == end + 1:
                    self._fail(stop)
                    break
                end = stop
        self._fail(end)
        try:
            return end, num_val(text[at:end])
        except GrammarError as exc:
            return end, self._unusable(f"rule {self._rule!r}: {exc.message}", at)


def _end(run: re.Pattern[str], text: str, at: int) -> int:
    found = run.match(text, at)
    assert found is not None  # every run may be empty
    return found.end()


def _joined(items: list[_Read], join: Callable[[tuple[Expr, ...]], Expr]) -> _Read:
    """Items read in a row as one expression (``join``, unless there is only
    one); prose if any of them is."""
    exprs = [item for item in items if not isinstance(item, _ProseMark)]
    if len(exprs) < len(items):
        return PROSE
    return exprs[0] if len(exprs) == 1 else join(tuple(exprs))


def _one_or_seq(items: list[Expr] | tuple[Expr, ...]) -> Expr:
    return items[0] if len(items) == 1 else Seq(tuple(items))


def too_long(rule: str, length: int) -> str:
    """The message for a rule past ``MAX_RULE_LENGTH``."""
    return (
        f"rule {rule!r} is {length:,} characters long, comments not counted; "
        f"at most MAX_RULE_LENGTH ({MAX_RULE_LENGTH:,})"
    )


def uncommented(text: str) -> str:
    """A rule's CRLF text without its comments (``;`` to the line end):
    what ``abnf`` is given to read, and what ``MAX_RULE_LENGTH`` counts."""
    return runs().comments.sub(lambda found: "" if found.group()[0] == ";" else found.group(), text)


def repeat_bounds(text: str) -> tuple[int, int | None]:
    """The bounds of a ``repeat`` (``2``, ``*``, ``1*3``); ``GrammarError``
    for a count past ``MAX_COUNT`` or a maximum below the minimum."""
    lo, star, hi = text.partition("*")
    if not star:
        hi = lo
    # Leading zeros stripped before int(): Python refuses to convert more
    # than 4,300 digits, and zeros count.
    lo, hi = lo.lstrip("0") or ("0" if lo else ""), hi.lstrip("0") or ("0" if hi else "")
    for digits in (lo, hi):
        if len(digits) > _MAX_COUNT_DIGITS or int(digits or 0) > MAX_COUNT:
            shown = text if len(text) <= 40 else text[:37] + "..."
            msg = f"repetition {shown!r} is too large (at most {MAX_COUNT:,} a side)"
            raise GrammarError(msg)
    low, high = int(lo or 0), (int(hi) if hi else None)
    if high is not None and high < low:
        msg = f"repetition {text!r} can never match (its maximum is below its minimum)"
        raise GrammarError(msg)
    return low, high


def char_val(quoted: str, *, sensitive: bool) -> Expr:
    """A quoted string's characters: RFC 5234 section 2.3 matches ASCII
    letters in either case, RFC 7405's ``%s`` exactly."""
    return _one_or_seq(tuple(Chars(_letter_cases(c, sensitive=sensitive)) for c in quoted))


def _letter_cases(char: str, *, sensitive: bool) -> CharSet:
    codes = {ord(char)}
    if not sensitive and char.isascii():
        codes |= {ord(char.lower()), ord(char.upper())}
    return CharSet.of(codes)


def num_val(text: str) -> Expr:
    """A ``num-val`` (``%x41``, ``%d65.66``, ``%b1-11``) as characters;
    ``GrammarError`` past U+10FFFF or for an empty range."""
    base = {"b": 2, "d": 10, "x": 16}[text[1].lower()]
    body = text[2:]

    # A code point has at most 21 bits; checking the length without the
    # leading zeros first, and converting without them, keeps int() away
    # from its digit limit (zeros count there).
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
