"""An inlined rule body as one regex, linear on any input.

A backtracking regex engine accepts exactly the rule's language under
``fullmatch``; the work is in keeping it linear:

* a repetition is emitted possessive (``*+``, Python 3.11 on) when it is
  deterministic in its context (``syntax.analysis``): its element cannot
  match the empty string, the element's first characters are disjoint
  from what may follow the repetition, and the element is itself
  deterministic.  Then giving back an iteration can never let the rest
  match, so forbidding it changes no answer and removes the backtracking
  that makes regexes super-linear;
* such a repetition over ``[class] | other`` is emitted as
  ``(?:[class]++|other)*+``, which lets ``re`` consume whole runs of the
  class in C instead of one iteration per character.

Ambiguous places (RFC 3986's ``host = IP-literal / IPv4address / reg-name``,
the ``IPv6address`` forms, ``dec-octet``) stay ordinary backtracking: each of
their alternatives is bounded or deterministic, so retries cost a constant
number of linear scans (``syntax.analysis.linear`` says when that holds).
Character classes are interval sets (``CharSet``), so the emitted classes
cost the number of ranges, not of code points.  ``bench/bench_length.py``
measures the scaling.

Each ``Cap`` of the body becomes a capturing group; ``Emitter.groups``
names each, with its enclosing group.  Group numbers follow the pattern's
opening parentheses, which is pre-order: the numbering of the automata's
captures too (``automata.nfa``).
"""

from __future__ import annotations

from typing import NamedTuple

from ..syntax.analysis import END, Analysis, linear, not_inlined
from ..syntax.charset import CharSet
from ..syntax.inline import has_capture
from ..syntax.ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq
from .possessive import POSSESSIVE

__all__ = ["Emitted", "Emitter", "compile_body"]


class Emitter:
    """Regex emission of one body; ``analysis`` is what it asks."""

    def __init__(self, *, possessive: bool = POSSESSIVE) -> None:
        self.possessive = possessive
        self.analysis = Analysis()
        self.groups: list[tuple[str, int]] = []  # (rule name, parent group)
        self._open: list[int] = [0]

    def char_class(self, chars: CharSet) -> str:
        """The regex of one character of ``chars`` (a flavour's emitter
        spells it its own way: ``flavour``)."""
        return chars.regex()

    def group_opening(self, rule: str) -> str:
        """What opens the capturing group of rule ``rule``, called in the
        order the groups open (a flavour's emitter names it)."""
        return "("

    def emit(self, node: Expr, follow: CharSet = END) -> str:
        if isinstance(node, Chars):
            return self.char_class(node.chars)
        if isinstance(node, Cap):
            self.groups.append((node.name, self._open[-1]))
            opening = self.group_opening(node.name)
            self._open.append(len(self.groups))
            body = self.emit(node.expr, follow)
            self._open.pop()
            return f"{opening}{body})"
        if isinstance(node, Seq):
            follows = self.analysis.follows(node.items, follow)
            return "".join(
                self._atom(item, f) if isinstance(item, Alt) else self.emit(item, f)
                for item, f in zip(node.items, follows, strict=True)
            )
        if isinstance(node, Alt):
            return "|".join(self.emit(item, follow) for item in node.items)
        if isinstance(node, Ref):
            raise not_inlined(node)
        return self._repetition(node, follow)

    def _atom(self, node: Expr, follow: CharSet) -> str:
        body = self.emit(node, follow)
        if isinstance(node, (Chars, Cap)):
            return body
        return f"(?:{body})"

    def _repetition(self, node: Rep, follow: CharSet) -> str:
        lo, hi = node.lo, node.hi
        quantifier = (
            "*"
            if (lo, hi) == (0, None)
            else "+"
            if (lo, hi) == (1, None)
            else "?"
            if (lo, hi) == (0, 1)
            else f"{{{lo}}}"
            if lo == hi
            else f"{{{lo},}}"
            if hi is None
            else f"{{{lo},{hi}}}"
        )
        analysis = self.analysis
        inner_follow = analysis.first(node.item) | follow if hi != 1 else follow
        possessive = self.possessive and lo != hi and analysis.deterministic(node, follow)
        item = node.item
        runs = [b for b in item.items if isinstance(b, Chars)] if isinstance(item, Alt) else []
        if possessive and hi is None and lo <= 1 and runs and (lo == 0 or not has_capture(item)):
            # (c|o)* is c*(oc*)*: the class c is taken a run at a time, in C,
            # and the loop turns once per other element (a `%XX`), not once
            # per character.  (c|o)+ is one (c+|o) and then the same, which
            # writes o twice: not when o holds a group, whose copies would
            # be groups that ``groups`` does not list.
            assert isinstance(item, Alt)
            run = self.char_class(runs[0].chars)
            others = "|".join(self.emit(b, inner_follow) for b in item.items if b is not runs[0])
            star = f"{run}*+(?:(?:{others}){run}*+)*+"
            return star if lo == 0 else f"(?:{run}++|{others}){star}"
        body = self._atom(item, inner_follow)
        if isinstance(item, (Seq, Rep)):
            body = f"(?:{body})"
        return body + quantifier + ("+" if possessive else "")


class Emitted(NamedTuple):
    """A rule body's regex source and what the analysis says of it."""

    source: str
    #: Each capturing group's rule name and enclosing group (0: none).
    groups: tuple[tuple[str, int], ...]
    #: Whether the regex backtracks only at bounded choices outside every
    #: repetition (``syntax.analysis.linear``): linear, by a constant that
    #: depends on the grammar.
    linear: bool
    #: Whether the regex never backtracks past one character: every choice
    #: is decided by the next character (LL(1)), linear whatever the grammar.
    deterministic: bool


def compile_body(body: Expr, *, possessive: bool = POSSESSIVE) -> Emitted:
    """The regex of an inlined rule body, with possessive quantifiers where
    they change no answer, or without any."""
    emitter = Emitter(possessive=possessive)
    source = emitter.emit(body, END)
    analysis = emitter.analysis
    return Emitted(
        source,
        tuple(emitter.groups),
        linear(analysis, body),
        analysis.deterministic(body, END),
    )
