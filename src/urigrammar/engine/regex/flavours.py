"""A rule as a regex for another engine: Python's ``re``, RE2, Rust's
``regex`` crate or Java's ``java.util.regex``.

The text is emitted from the inlined rule (``syntax.ir``) by the compiler's own
``Emitter``, told by a ``Flavour`` how to spell a class and name a group
and whether it has possessive quantifiers, so every flavour says the same
language the same way, and the analysis that makes the Python regex
linear (``syntax.analysis``) is the one that decides here too:

* **python** (the running interpreter's ``re``) and **java** backtrack.
  They get the possessive quantifiers ``syntax.analysis`` proves change no answer
  (Python 3.11 on; Java always has them); a rule whose regex could
  backtrack more than a bounded number of times per character (the test
  ``Program.serves`` applies before trusting a regex) is refused rather
  than exported.  On Python 3.10 the same regex without possessive
  quantifiers is what ``re`` runs for ``validate``, and is exported.
* **re2** and **rust** are automata: linear whatever the pattern, with no
  possessive quantifiers, atomic groups, backreferences or lookaround,
  and with limits of their own, checked here before a pattern is handed
  out (``RegexExportError`` names the rule, the flavour and the limit):
  RE2 refuses a repetition count over 1,000, counting nested counted
  repetitions as their product, and both bound their compiled size (Rust
  also bounds nesting, at 250 of its parser's levels, which the grammar's
  own ``MAX_DEPTH`` keeps every rule within).  They match UTF-8 text, which cannot hold a surrogate
  code point (U+D800 to U+DFFF): in these two flavours the language is the
  rule's language over Unicode scalar values, surrogates left out of
  every class.

Anchoring: ``Regex.pattern`` is the body between ``\\A`` and the end of the
text (``\\z``; Python's spelling is ``\\Z`` before 3.14, which, unlike ``$``,
does not match before a trailing newline), so it is right under search
semantics (``str.contains``, ``match_substring_regex``) and full-match
semantics alike.  ``Regex.body`` is the bare expression, for embedding in
a larger pattern: without possessive quantifiers, which are proved safe
only where the rule ends the text, so it means the rule wherever it
stands, and the linearity is the larger pattern's to prove.

Groups: with ``captures`` each occurrence of a captured rule is a named
group, its name the rule's made valid in the flavour (``path-abempty`` is
``path_abempty``, or ``pathAbempty`` in Java, whose names are letters and
digits), and a later occurrence of the same rule numbered
(``path_abempty_2``): every flavour refuses two groups of one name.
``Regex.groups`` pairs each group with its rule, in the order the groups
open.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from ..._errors import RegexExportError
from ..syntax.analysis import END, linear
from ..syntax.charset import CharSet
from ..syntax.ir import Alt, Cap, Chars, Expr, Rep, Seq
from .emit import Emitter
from .possessive import POSSESSIVE

__all__ = ["FLAVOURS", "Flavour", "Regex", "export"]


_SURROGATES = CharSet(((0xD800, 0xDFFF),))
_MAX_CODE = 0x10FFFF


@dataclass(frozen=True)
class Flavour:
    """What an engine's regex syntax has, for ``export``."""

    name: str
    #: ``*+``, ``++``, ``?+``, ``{m,n}+``.
    possessive: bool
    #: Whether it matches Unicode scalar values only (UTF-8 text).
    scalars_only: bool
    #: How a code point is escaped: Python's ``\\xNN``/``\\uNNNN``/``\\UNNNNNNNN``
    #: or the ``\\x{N}`` of RE2, Rust and Java.
    braced_escapes: bool
    #: What opens a named group (closed by ``>``).
    group_open: str
    #: Whether a group name keeps ``_`` (else letters and digits only).
    underscores: bool
    #: The end of the text.
    end: str
    #: The most a nest of counted repetitions may multiply to (RE2's
    #: ``kMaxRepeat``, applied to their product), ``None`` for no limit.
    max_repeat: int | None
    #: The most instructions, estimated (``_size``), the compiled pattern
    #: may take, ``None`` for no limit.  Measured on ``999(c c ... c)``
    #: with ``c`` all of Unicode above ASCII: RE2 (default memory budget,
    #: 8 MiB) compiled 240,000 and refused 480,000; Rust's ``regex``
    #: (default ``size_limit``, 10 MiB) compiled 60,000 and refused
    #: 120,000.  The bounds keep inside those; a pattern of another shape
    #: near them may still be refused by the engine itself.
    max_size: int | None
    #: Whether it backtracks (so needs the linearity proof).
    backtracks: bool


#: The flavours ``export`` writes, by name.
FLAVOURS: Mapping[str, Flavour] = MappingProxyType(
    {
        "python": Flavour(
            "python",
            possessive=POSSESSIVE,
            scalars_only=False,
            braced_escapes=False,
            group_open="(?P<",
            underscores=True,
            end="\\Z",
            max_repeat=None,
            max_size=None,
            backtracks=True,
        ),
        "re2": Flavour(
            "re2",
            possessive=False,
            scalars_only=True,
            braced_escapes=True,
            group_open="(?P<",
            underscores=True,
            end="\\z",
            max_repeat=1000,
            max_size=200_000,
            backtracks=False,
        ),
        "rust": Flavour(
            "rust",
            possessive=False,
            scalars_only=True,
            braced_escapes=True,
            group_open="(?P<",
            underscores=True,
            end="\\z",
            max_repeat=None,
            max_size=50_000,
            backtracks=False,
        ),
        "java": Flavour(
            "java",
            possessive=True,
            scalars_only=False,
            braced_escapes=True,
            group_open="(?<",
            underscores=False,
            end="\\z",
            max_repeat=None,
            max_size=None,
            backtracks=True,
        ),
    }
)


@dataclass(frozen=True)
class Regex:
    """A rule as a regex of one flavour.

    ``pattern`` matches exactly the rule's strings under search semantics
    and full-match semantics alike (``\\A`` ... end of text), in linear
    time; ``body`` is the bare expression for embedding (a group of its
    own when it is an alternation; no possessive quantifiers).
    ``groups`` names each capturing group, in the order they open, with
    the rule whose match it holds.

    >>> import re, urigrammar
    >>> port = urigrammar.regex("port")
    >>> port.flavour, port.body, bool(re.search(port.pattern, "8080"))
    ('python', '[0-9]*', True)
    """

    rule: str
    flavour: str
    pattern: str
    body: str
    groups: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return self.pattern

    def names(self, rule: str) -> tuple[str, ...]:
        """The groups holding an occurrence of ``rule``, in order."""
        return tuple(group for group, of in self.groups if of == rule)


def _escape(code: int, braced: bool) -> str:
    # ASCII letters and digits are special in no flavour, in a class or
    # out of one; every other code point is escaped, so none is.
    if code < 0x80 and chr(code).isalnum():
        return chr(code)
    if braced:
        return f"\\x{{{code:X}}}"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


class _FlavourEmitter(Emitter):
    """The compiler's emitter, spelling classes and groups for a flavour."""

    def __init__(self, flavour: Flavour) -> None:
        super().__init__(possessive=flavour.possessive)
        self.flavour = flavour
        self.names: list[str] = []

    def char_class(self, chars: CharSet) -> str:
        flavour = self.flavour
        if flavour.scalars_only:
            chars = chars - _SURROGATES
        spans = [(max(lo, 0), hi) for lo, hi in chars.spans if hi >= 0]
        braced = flavour.braced_escapes
        if not spans:
            # Nothing left (a class of surrogates only): a class that
            # matches no character, which RE2, Rust and Java accept.
            return f"[^{_escape(0, braced)}-{_escape(_MAX_CODE, braced)}]"
        if len(spans) == 1 and spans[0][0] == spans[0][1]:
            return _escape(spans[0][0], braced)
        parts = (
            _escape(lo, braced) if lo == hi else f"{_escape(lo, braced)}-{_escape(hi, braced)}"
            for lo, hi in spans
        )
        return "[" + "".join(parts) + "]"

    def group_opening(self, rule: str) -> str:
        name = group_name(rule, self.flavour, set(self.names))
        self.names.append(name)
        return f"{self.flavour.group_open}{name}>"


def group_name(rule: str, flavour: Flavour, taken: set[str]) -> str:
    """A group name for ``rule`` that the flavour accepts and ``taken``
    lacks: RFC 5234 section 2.1's names are a letter, then letters, digits
    and hyphens; a hyphen becomes ``_``, or, in Java, upper-cases the next
    letter; a name already taken gets the first free number."""
    if flavour.underscores:
        base = rule.replace("-", "_")
        sep = "_"
    else:
        head, *rest = rule.split("-")
        base = head + "".join(part[:1].upper() + part[1:] for part in rest)
        sep = ""
    if not re.fullmatch("[A-Za-z][A-Za-z0-9_]*", base):
        base = "r" + re.sub("[^A-Za-z0-9]", "", base)
    name, number = base, 1
    while name in taken:
        number += 1
        name = f"{base}{sep}{number}"
    return name


def _counted(node: Rep) -> int:
    """The count RE2 weighs a repetition by: ``*``, ``+`` and ``?`` none,
    ``{m,n}`` its upper bound (its lower, unbounded)."""
    if (node.lo, node.hi) in ((0, None), (1, None), (0, 1)):
        return 1
    return max(node.hi if node.hi is not None else node.lo, 1)


def _repeat_product(node: Expr) -> int:
    """The largest product of counted repetitions nested in ``node``."""
    if isinstance(node, (Seq, Alt)):
        return max((_repeat_product(item) for item in node.items), default=1)
    if isinstance(node, Rep):
        return _counted(node) * _repeat_product(node.item)
    if isinstance(node, Cap):
        return _repeat_product(node.expr)
    return 1


def _class_size(chars: CharSet) -> int:
    """An estimate of the automaton instructions one class of UTF-8 takes:
    each interval split where the encoded length changes, each piece a
    range per byte."""
    size = 0
    for lo, hi in chars.spans:
        for start, stop, length in ((0, 0x7F, 1), (0x80, 0x7FF, 2), (0x800, 0xFFFF, 3)):
            if lo <= stop and hi >= start:
                size += length
        if hi > 0xFFFF:
            size += 4
    return max(size, 1)


def _size(node: Expr) -> int:
    """An estimate of the instructions ``node`` compiles to in an automaton
    engine: every counted repetition written out, as RE2 and Rust do."""
    if isinstance(node, Chars):
        return _class_size(node.chars)
    if isinstance(node, (Seq, Alt)):
        return sum(_size(item) for item in node.items) + len(node.items)
    if isinstance(node, Rep):
        copies = node.lo if node.hi is None else node.hi
        return _size(node.item) * max(copies, 1) + 2
    if isinstance(node, Cap):
        return _size(node.expr) + 2
    raise TypeError(f"rule reference {node.name!r} was not inlined")


def _refuse(rule: str, flavour: str, why: str) -> RegexExportError:
    return RegexExportError(
        f"rule {rule!r} has no {flavour} regex: {why}", rule=rule, flavour=flavour
    )


def flavour_of(name: object) -> Flavour:
    """The flavour called ``name``; ``RegexExportError`` naming the
    flavours for another string (no rule has a regex in it), ``TypeError``
    for what is no string."""
    if not isinstance(name, str):
        msg = f"flavour must be a str, not {type(name).__name__}"
        raise TypeError(msg)
    found = FLAVOURS.get(name)
    if found is None:
        known = ", ".join(repr(d) for d in FLAVOURS)
        msg = f"flavour must be one of {known}, not {name!r}"
        raise RegexExportError(msg, flavour=name)
    return found


def _plain(body: Expr, flavour: Flavour) -> str:
    return _FlavourEmitter(replace(flavour, possessive=False)).emit(body, END)


def export(rule: str, body: Expr | None, flavour: Flavour, *, vetted: bool) -> Regex:
    """Rule ``rule`` (canonical), inlined as ``body`` (its captured rules
    ``Cap`` nodes; ``None`` for a rule that reaches itself), as a regex of
    ``flavour``; raises ``RegexExportError`` where the flavour's engine
    would refuse it or run it in more than linear time, or where the rule's
    language is not regular."""
    name = flavour.name
    if body is None:
        why = "it reaches itself through its references, so its language is not regular"
        raise _refuse(rule, name, why)
    if flavour.max_repeat is not None:
        product = _repeat_product(body)
        if product > flavour.max_repeat:
            why = (
                f"its nested repetition counts multiply to {product:,}, "
                f"and {name} takes at most {flavour.max_repeat:,}"
            )
            raise _refuse(rule, name, why)
    if flavour.max_size is not None:
        size = _size(body)
        if size > flavour.max_size:
            why = (
                f"it compiles to about {size:,} automaton instructions, "
                f"over the {flavour.max_size:,} that fit {name}'s default memory limit"
            )
            raise _refuse(rule, name, why)
    emitter = _FlavourEmitter(flavour)
    source = emitter.emit(body, END)
    if flavour.backtracks and not (
        emitter.analysis.deterministic(body, END) or (vetted and linear(emitter.analysis, body))
    ):
        why = (
            "its regex could backtrack more than a bounded number of times per "
            f"character, and {name}'s engine backtracks (re2 and rust do not)"
        )
        raise _refuse(rule, name, why)
    # A possessive quantifier is proved safe against what follows the
    # rule, the end of the text; embedded, something else follows, so the
    # body goes without them.
    bare = source if not flavour.possessive else _plain(body, flavour)
    wrapped = f"(?:{bare})" if isinstance(body, Alt) else bare
    pattern = f"\\A(?:{source}){flavour.end}"
    groups = tuple(zip(emitter.names, (r for r, _ in emitter.groups), strict=True))
    return Regex(rule, name, pattern, wrapped, groups)
