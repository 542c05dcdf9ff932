"""Matching a URI against a template: the variables an expansion had.

Two levels, each decided before any URI is seen:

1. **Where each expression is.**  The template becomes one expression of
   the engine's intermediate form (``engine.syntax.ir``): each literal as its
   characters, each expression as ``[ first *( char / pct-encoded ) ]``
   over the characters its expansion can contain (the operator's allowed
   set, plus the separators and ``=`` that its varspecs can write), kept
   as a group.  The engine's own analysis (``engine.syntax.analysis``) says whether that
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

``ambiguous`` is true when either level is.  Every reading ``match``
returns is checked to expand back to the URI (a reading of a text no
expansion writes, ``{x}`` on ``%41``, is checked away).  For a template
that is not ambiguous the first reading is the only one, so a failed check
means no expansion gives the URI.  For an ambiguous one it is one of
several, and when it fails the check ``_search`` looks through the others,
within a bounded number of steps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import NamedTuple

from .._errors import InputTooLongError
from ..engine import END, Alt, Cap, Chars, CharSet, Emitter, Expr, Rep, Seq, inline_rule
from ..shipped import RFC6570, userinfo_secret
from ._errors import ExpansionError
from ._expand import expand_parts
from ._read import COMMA, EQUALS, Matched, Reading, agree, ambiguous_reading, read
from ._search import Ends, search
from ._sets import Operator, allowed, hexdig
from ._syntax import Expression, Part

__all__ = ["Matched", "Matcher"]

#: What ``search`` gives an ``Ends`` to report the characters it looks at.
Spend = Callable[[int], None]


@cache
def _pct() -> Expr:
    # pct-encoded, as the grammar has it, in the compiler's form.
    return inline_rule(RFC6570.rules, RFC6570.canonical("pct-encoded"))


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
        self.deterministic = emitter.analysis.deterministic(tree, END)
        self.ambiguous = not self.deterministic or any(
            ambiguous_reading(p.expression) for p in self.parts if isinstance(p, _Slot)
        )

    def match(self, uri: str) -> dict[str, Matched] | None:
        texts, rest = self._texts(uri)
        if texts is None:
            return None  # no split at all: level 1 over-approximates, so no expansion
        values = self._first_reading(texts)
        # The readers accept some texts no expansion writes: a "=" inside a
        # named value ({?x} on "?x=a=b"; expansion encodes it), a triplet of
        # an unreserved character or in lowercase under (U) ({x} on "%41",
        # "%c3%a9").  Their reading would expand to another URI: keep a
        # reading only when it writes ``uri`` back (linear).
        if values is not None and self._writes(values) == uri:
            return values
        if not self.ambiguous:
            return None  # the first reading was the only one
        # One reading of several, and not one that writes ``uri``: look
        # through the others (bounded; see _search).
        return search(self.template, uri, self._ends(uri, texts, rest))

    def _first_reading(self, texts: dict[int, str | None]) -> dict[str, Matched] | None:
        found: dict[str, list[tuple[Reading, Operator]]] = {}
        for index, text in texts.items():
            slot = self.parts[index]
            assert isinstance(slot, _Slot)
            readings = read(slot.expression, text)
            if readings is None:
                return None
            for reading in readings:
                found.setdefault(reading.spec.name, []).append((reading, slot.expression.operator))
        return agree(found)

    def _writes(self, values: dict[str, Matched]) -> str | None:
        try:
            return expand_parts(self.template, values, "")
        except ExpansionError:
            return None

    def _ends(self, uri: str, texts: dict[int, str | None], rest: list[bytearray] | None) -> Ends:
        """The texts each expression may have, for ``search``: the one
        split of a deterministic template (``rest`` is ``None``), every
        viable one otherwise."""
        if rest is None:

            def fixed(k: int, at: int, spend: Spend) -> list[int]:
                return [at + len(texts[k] or "")]

            return fixed
        table, digits = rest, hexdig()

        def viable(k: int, at: int, spend: Spend) -> list[int]:
            spend(len(uri) - at + 1)
            slot = self.parts[k]
            assert isinstance(slot, _Slot)
            after = table[k + 1]
            first = slot.expression.operator.first
            found = [at] if after[at] else []  # nothing written (or "" written)
            if first and not uri.startswith(first, at):
                return found
            i = at + len(first)
            if first and after[i]:
                found.append(i)
            while i < len(uri) and (i := _run_end(uri, i, slot.alphabet, digits)) >= 0:
                if after[i]:
                    found.append(i)
            return found[::-1]  # longest first, as _split picks

        return viable

    def _texts(self, uri: str) -> tuple[dict[int, str | None] | None, list[bytearray] | None]:
        """Each expression's text (``None``: nothing, not even its first
        string), by its index in ``parts``, and for a template that is not
        deterministic the table of ``_viable`` it was split by."""
        if self.deterministic:
            match = self.pattern.fullmatch(uri)
            if match is None:
                return None, None
            return dict(zip(self.groups, match.groups(), strict=True)), None
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
        rest = _viable(self.parts, uri)
        return _split(self.parts, uri, rest), rest


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


def _split(
    parts: Sequence[str | _Slot], text: str, rest: list[bytearray]
) -> dict[int, str | None] | None:
    """The split of ``text`` into ``parts`` that gives each expression, from
    the left, the longest text that the rest can follow (``rest``: the
    table of ``_viable``)."""
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
