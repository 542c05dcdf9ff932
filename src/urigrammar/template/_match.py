"""Matching a URI against a template: the variables an expansion had.

Two levels, each decided before any URI is seen:

1. **Where each expression is.**  The template becomes one expression of
   the engine's intermediate form (``engine._ir``): each literal as its
   characters, each expression as ``[ first *( char / pct-encoded ) ]``
   over the characters its expansion can contain (the operator's allowed
   set, plus the separators and ``=`` that its varspecs can write), kept
   as a group.  The engine's own analysis (``_compile``) says whether that
   expression is *deterministic* (LL(1): every step is decided by the next
   character, so a URI splits into literals and expressions one way at
   most), and emits it as a regex with possessive quantifiers, linear in
   the URI's length.  When it is not deterministic (``{a}{b}``, or
   ``{+path}/here``, where the path may hold ``/``), the split is found by
   ``_split``: one pass from the right marks, for each part, the positions
   from which the rest of the template can match; one pass from the left
   then gives each expression the longest text that leaves the rest a
   match.  Linear too (the number of parts times the length).
2. **Which variable is which.**  Each expression's text is read back into
   its variables (``_read``): named operators by their names, lists by
   their commas, associative arrays by their ``=``.  That is decided when
   the values cannot hold the separators (``{/a,b}`` cannot tell ``/x``
   as ``a`` from ``/x`` as ``b``, nor ``{x,y}`` ``1`` as ``x`` from ``1`` as
   ``y``): several variables under an unnamed operator, or an exploded
   one among others under a named operator, are ambiguous.

``ambiguous`` is true when either level is.  For a template that is not,
``expand(match(u)) == u`` for every ``u`` that ``match`` reads: a reading
that would expand to another text (``{x}`` on ``%41``, which no expansion
writes) is checked away at the end, and ``match`` returns ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from .._errors import InputTooLongError
from ..engine import END, Alt, Cap, Chars, CharSet, Emitter, Expr, Rep, Seq, inline_rule
from ..shipped import RFC6570, userinfo_secret
from ._errors import ExpansionError
from ._expand import expand_parts
from ._read import COMMA, EQUALS, Matched, Reading, agree, ambiguous_reading, read
from ._sets import Operator, allowed, hexdig
from ._syntax import Expression, Part

__all__ = ["Matched", "Matcher"]


@cache
def _pct() -> Expr:
    # pct-encoded, as the grammar has it, in the compiler's form.
    return inline_rule(RFC6570, RFC6570.canonical("pct-encoded"))


def _alphabet(expression: Expression) -> frozenset[str]:
    """Every character an expansion of ``expression`` can hold after its
    ``first`` string, ``pct-encoded`` triplets aside."""
    operator = expression.operator
    chars = set(allowed(operator))
    if not operator.reserved:
        specs = expression.varspecs
        chars.add(COMMA)  # a list, or an associative array, unexploded
        if operator.named or any(s.explode for s in specs):
            chars.add(EQUALS)
        if len(specs) > 1 or any(s.explode for s in specs):
            chars.add(operator.sep)
    return frozenset(chars)


def _char(text: str) -> Chars:
    return Chars(CharSet.of(map(ord, text)))


class _Slot(NamedTuple):
    expression: Expression
    alphabet: frozenset[str]


class Matcher:
    """The compiled form of one template for ``match``."""

    def __init__(self, parts: Sequence[Part]) -> None:
        items: list[Expr] = []
        self.template = tuple(parts)
        self.parts: tuple[str | _Slot, ...] = tuple(
            part if isinstance(part, str) else _Slot(part, _alphabet(part)) for part in parts
        )
        for index, part in enumerate(self.parts):
            if isinstance(part, str):
                items.extend(_char(c) for c in part)
                continue
            run = Rep(0, None, Alt((_char("".join(sorted(part.alphabet))), _pct())))
            first = part.expression.operator.first
            # [ first run ] as ( first run / "" ): the engine's analysis
            # treats an option's inside like a repetition's, which would
            # call {/a*} ambiguous for the "/" its run and first share.
            body: Expr = run if not first else Alt((Seq((_char(first), run)), Seq(())))
            items.append(Cap(str(index), body))
        tree = Seq(tuple(items))
        emitter = Emitter()
        self.pattern = re.compile(emitter.emit(tree, END))
        self.groups = tuple(int(name) for name, _parent in emitter.groups)
        #: Level 1: whether a URI splits into the parts one way at most.
        self.deterministic = emitter.deterministic(tree, END)
        self.ambiguous = not self.deterministic or any(
            ambiguous_reading(p.expression) for p in self.parts if isinstance(p, _Slot)
        )

    def match(self, uri: str) -> dict[str, Matched] | None:
        texts = self._texts(uri)
        if texts is None:
            return None
        found: dict[str, list[tuple[Reading, Operator]]] = {}
        for index, text in texts.items():
            slot = self.parts[index]
            assert isinstance(slot, _Slot)
            readings = read(slot.expression, text)
            if readings is None:
                return None
            for reading in readings:
                found.setdefault(reading.spec.name, []).append((reading, slot.expression.operator))
        values = agree(found)
        if values is None or self.ambiguous:
            # An ambiguous template's reading is one of several, as it was.
            return values
        # The readers accept some texts no expansion writes: a "=" inside a
        # named value ({?x} on "?x=a=b"; expansion encodes it), a triplet of
        # an unreserved character or in lowercase under (U) ({x} on "%41",
        # "%c3%a9").  Their reading would expand to another URI, and an
        # unambiguous template has no other reading, so the URI is no
        # expansion: keep the reading only when it writes ``uri`` back
        # (linear).
        try:
            written = expand_parts(self.template, values, "")
        except ExpansionError:
            return None
        return values if written == uri else None

    def _texts(self, uri: str) -> dict[int, str | None] | None:
        """Each expression's text (``None``: nothing, not even its first
        string), by its index in ``parts``."""
        if self.deterministic:
            match = self.pattern.fullmatch(uri)
            if match is None:
                return None
            return dict(zip(self.groups, match.groups(), strict=True))
        if len(self.parts) * (len(uri) + 1) > MAX_SPLIT_CELLS:
            msg = (
                f"too long to match against this ambiguous template: its {len(self.parts)} "
                f"parts over {len(uri)} characters are more than MAX_SPLIT_CELLS "
                f"({MAX_SPLIT_CELLS}) steps of the split; a template that is not ambiguous "
                "matches text of any length"
            )
            raise InputTooLongError(
                msg, rule="URI-Template", text=uri, offset=0, secrets=userinfo_secret
            )
        return _split(self.parts, uri)


#: The most (template parts x URI characters) the split of an ambiguous
#: template takes on: it keeps a row of the URI's length per part, so time
#: and memory grow with the product, and past this bound (about a second and
#: a few MB) ``match`` raises ``InputTooLongError`` rather than run for
#: minutes: undecided, never "no match".
MAX_SPLIT_CELLS = 4_000_000


def _run_end(text: str, i: int, alphabet: frozenset[str], digits: frozenset[str]) -> int:
    """Where the run of ``alphabet`` characters and triplets from ``i`` ends
    after one step, or ``-1`` when none starts at ``i``."""
    if text[i] in alphabet:
        return i + 1
    if text[i] == "%" and text[i + 1 : i + 2] in digits and text[i + 2 : i + 3] in digits:
        return i + 3
    return -1


def _viable(parts: Sequence[str | _Slot], text: str) -> list[bytearray]:
    """``rest[k][i]``: whether parts ``k`` onwards match ``text[i:]``,
    computed from the last part back, each in one pass over the text."""
    n = len(text)
    digits = hexdig()
    rest = [bytearray(n + 1) for _ in range(len(parts) + 1)]
    rest[-1][n] = 1
    for k in range(len(parts) - 1, -1, -1):
        after, here = rest[k + 1], rest[k]
        part = parts[k]
        if isinstance(part, str):
            size = len(part)
            for i in range(n - size + 1):
                if after[i + size] and text.startswith(part, i):
                    here[i] = 1
            continue
        # run[i]: a run of the expression's characters from i, then the rest.
        run = bytearray(n + 1)
        for i in range(n, -1, -1):
            ok = after[i]
            if not ok and i < n:
                step = _run_end(text, i, part.alphabet, digits)
                ok = run[step] if step >= 0 else 0
            run[i] = ok
        first = part.expression.operator.first
        for i in range(n + 1):
            here[i] = (
                run[i] if not first else after[i] or (i < n and text[i] == first and run[i + 1])
            )
    return rest


def _split(parts: Sequence[str | _Slot], text: str) -> dict[int, str | None] | None:
    """The split of ``text`` into ``parts`` that gives each expression, from
    the left, the longest text that the rest can follow."""
    rest = _viable(parts, text)
    if not rest[0][0]:
        return None
    n = len(text)
    digits = hexdig()
    texts: dict[int, str | None] = {}
    position = 0
    for k, part in enumerate(parts):
        if isinstance(part, str):
            position += len(part)
            continue
        after = rest[k + 1]
        first = part.expression.operator.first
        if first and not text.startswith(first, position):
            texts[k] = None
            continue
        i = position + len(first)
        best = i if after[i] else -1
        while i < n and (i := _run_end(text, i, part.alphabet, digits)) >= 0:
            if after[i]:
                best = i
        if best < 0:  # only the empty expansion leaves the rest a match
            texts[k] = None
            continue
        texts[k] = text[position:best]
        position = best
    return texts
