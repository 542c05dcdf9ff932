"""A compiled rule as a value: ``Program``, built once by ``build``.

A program is plain data, everything a back end needs to run one rule for
one set of captures, and nothing it made:

* whether the rule is regular (else the ``abnf`` engine matches it);
* the inlined body (``syntax.ir``), from which the lazy DFA and the Pike
  VM are built where no table serves;
* the regex (with possessive quantifiers, and without them for Python
  3.10), its groups, and what the analysis says of it (``linear``,
  ``deterministic``): whether it may be trusted on any input;
* whether a capture lies in a repetition (``repeated``), where a
  regex's groups read otherwise than the tagged DFA;
* the minimal DFA (``automata.tables.Tables``) of a program without
  captures, the tagged DFA of one with them, each ``None`` over its caps.

What runs a program on each back end is decided from this data in one
place, ``backend.choose``.  ``to_data`` and ``from_data`` turn a program
into JSON values and back, checking every field's shape on the way in
(``base.wire``), so that a damaged file is refused (``ValueError``)
rather than run.
"""

from __future__ import annotations

from typing import Any

from ..automata.tables import Tables, TaggedTables
from ..base import wire
from ..regex.emit import POSSESSIVE
from ..syntax.ir import Expr, expr_from_data, expr_to_data

__all__ = ["Key", "Program"]

#: A program's key: rule, captures and leaves (``Program.key``).
Key = tuple[str, tuple[str, ...], tuple[str, ...]]

_FIELDS = (
    "rule",
    "captures",
    "leaves",
    "regular",
    "vetted",
    "ir",
    "regex",
    "regex_plain",
    "groups",
    "linear",
    "deterministic",
    "repeated",
    "dfa",
    "tagged",
)


class Program:
    """One rule compiled for one set of captures.  ``captures`` are the
    rules kept as groups; nothing inside a rule of ``leaves`` is.

    Immutable; equal only to itself (programs are compared by what they
    run, in the tests, not by their tables)."""

    __slots__ = (*_FIELDS, "__weakref__")
    rule: str
    captures: tuple[str, ...]
    leaves: tuple[str, ...]
    #: Whether the rule never reaches itself (else: the ``abnf`` engine).
    regular: bool
    #: Whether the grammar's backtracking was vetted: its regexes may
    #: backtrack a bounded number of times and still be trusted as linear.
    vetted: bool
    #: The inlined rule (``syntax.ir``), or its JSON values (``to_data``),
    #: read when ``body`` is asked for; ``None`` when not regular.
    ir: Expr | list[Any] | None
    #: The regex, with possessive quantifiers (Python 3.11 on).
    regex: str
    #: The same language without them, for Python 3.10.
    regex_plain: str
    #: Each group's rule name and enclosing group (0: none), 1-based.
    groups: tuple[tuple[str, int], ...]
    linear: bool
    deterministic: bool
    #: Whether a capture lies inside a repetition.
    repeated: bool
    #: The minimal DFA (validate programs), ``None`` over its caps.
    dfa: Tables | None
    #: The tagged DFA (parse programs), ``None`` over its caps.
    tagged: TaggedTables | None

    def __init__(
        self,
        rule: str,
        captures: tuple[str, ...],
        leaves: tuple[str, ...],
        *,
        regular: bool,
        vetted: bool,
        ir: Expr | list[Any] | None = None,
        regex: str = "",
        regex_plain: str = "",
        groups: tuple[tuple[str, int], ...] = (),
        linear: bool = True,
        deterministic: bool = True,
        repeated: bool = False,
        dfa: Tables | None = None,
        tagged: TaggedTables | None = None,
    ) -> None:
        values = (
            rule,
            captures,
            leaves,
            regular,
            vetted,
            ir,
            regex,
            regex_plain,
            groups,
            linear,
            deterministic,
            repeated,
            dfa,
            tagged,
        )
        for name, value in zip(_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        msg = "Program is immutable"
        raise AttributeError(msg)

    def __repr__(self) -> str:
        return f"<Program {self.rule!r} captures={self.captures!r}>"

    @property
    def key(self) -> Key:
        return (self.rule, self.captures, self.leaves)

    @property
    def body(self) -> Expr | None:
        """The inlined rule (``syntax.ir``), decoded from its data when the
        program was read from a file: only the lazy DFA, the Pike VM and
        another flavour's regex need it, so a program that runs from its
        tables or its regex never pays for it.  Not kept: who builds from
        it keeps what it built."""
        if isinstance(self.ir, list):
            return expr_from_data(self.ir)
        return self.ir

    @property
    def source(self) -> str:
        """The regex source this Python's ``re`` takes."""
        return self.regex if POSSESSIVE else self.regex_plain

    @property
    def trusted(self) -> bool:
        """Whether the regex is linear on any input: it never backtracks
        past one character (LL(1)), or it backtracks only at bounded
        choices and the grammar's shapes of long input were vetted."""
        return self.deterministic or (self.vetted and self.linear)

    @property
    def names(self) -> tuple[str, ...]:
        """The captures in the order their slots are numbered: the regex's
        groups (the automata's numbering too) for a regular rule, the
        captured names for a rule that reaches itself."""
        if not self.regular:
            return self.captures
        return tuple(name for name, _ in self.groups)

    # --- data ---------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The program as JSON values (``from_data`` reads them back)."""
        ir = self.ir
        return {
            "rule": self.rule,
            "captures": list(self.captures),
            "leaves": list(self.leaves),
            "regular": self.regular,
            "vetted": self.vetted,
            "body": ir if ir is None or isinstance(ir, list) else expr_to_data(ir),
            "regex": self.regex,
            "regex_plain": self.regex_plain,
            "groups": [list(g) for g in self.groups],
            "linear": self.linear,
            "deterministic": self.deterministic,
            "repeated": self.repeated,
            "dfa": None if self.dfa is None else self.dfa.to_data(),
            "tagged": None if self.tagged is None else self.tagged.to_data(),
        }

    @classmethod
    def from_data(cls, data: object) -> Program:
        """A program from ``to_data``'s values; ``ValueError`` for anything
        that is not exactly that shape."""
        d = wire.record(data, (set(_FIELDS) - {"ir"}) | {"body"})
        groups = tuple(
            (wire.text(name), wire.integer(parent)) for name, parent in wire.pairs(d["groups"])
        )
        body = d["body"]
        return cls(
            rule=wire.text(d["rule"]),
            captures=wire.texts(d["captures"]),
            leaves=wire.texts(d["leaves"]),
            regular=wire.boolean(d["regular"]),
            vetted=wire.boolean(d["vetted"]),
            ir=None if body is None else wire.listed(body),
            regex=wire.text(d["regex"]),
            regex_plain=wire.text(d["regex_plain"]),
            groups=groups,
            linear=wire.boolean(d["linear"]),
            deterministic=wire.boolean(d["deterministic"]),
            repeated=wire.boolean(d["repeated"]),
            dfa=None if d["dfa"] is None else Tables.from_data(d["dfa"]),
            tagged=None if d["tagged"] is None else TaggedTables.from_data(d["tagged"]),
        )
