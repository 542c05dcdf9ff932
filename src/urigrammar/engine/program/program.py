"""A compiled rule as a value: ``Program``, built once by ``build``.

A program is plain data, everything a back end needs to run one rule for
one set of captures, and nothing it made:

* whether the rule is regular (else the ``abnf`` engine matches it);
* the inlined body (``syntax.ir``), from which the lazy DFA and the Pike
  VM are built where no table serves;
* the regex (with possessive quantifiers, and without them for Python
  3.10), its groups, and what the analysis says of it (``linear``,
  ``deterministic``): whether it may be trusted on any input;
* for a rule whose classes hold wide non-ASCII ranges, its narrowing
  (``syntax.narrow``) and the regex of the narrowed body, which Python's
  ``re`` compiles many times faster;
* whether a capture lies in a repetition (``repeated``), where a
  regex's groups read otherwise than the tagged DFA;
* the minimal DFA (``automata.tables.Tables``) of a program without
  captures, the tagged DFA of one with them, each ``None`` over its caps.

What runs a program on each back end is decided from this data in one
place, ``backend.choose``.  ``to_bytes`` and ``from_bytes`` turn a
program into bytes and back, checking every field's shape on the way in
(``base.wire``, and the tables' own checks), so that a damaged file is
refused (``ValueError``) rather than run.
"""

from __future__ import annotations

from ..automata.tables import Tables, TaggedTables
from ..base import wire
from ..base.wire import compact_json
from ..syntax.ir import Expr, expr_from_data, expr_to_data
from ..syntax.narrow import Narrowing

__all__ = ["Key", "Program"]


def _possessive() -> bool:
    """Whether this Python's ``re`` takes possessive quantifiers."""
    # Imported on first use: only a program run as a regex asks (the pure
    # back end, the templates), once per matcher it makes, and a process
    # that runs the tables in C never imports it.
    from ..regex.possessive import POSSESSIVE

    return POSSESSIVE


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
    "narrowing",
    "narrow_regex",
    "narrow_regex_plain",
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
    #: The inlined rule (``syntax.ir``), or it as JSON (``to_bytes``),
    #: read when ``body`` is asked for; ``None`` when not regular.
    ir: Expr | bytes | None
    #: The regex, with possessive quantifiers (Python 3.11 on).
    regex: str
    #: The same language without them, for Python 3.10.
    regex_plain: str
    #: The blocks of non-ASCII code points no class tells apart, or
    #: ``None``; when set, ``narrow_regex`` and ``narrow_regex_plain`` are
    #: the regexes of the narrowed body, with the same groups.
    narrowing: Narrowing | None
    narrow_regex: str
    narrow_regex_plain: str
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
        ir: Expr | bytes | None = None,
        regex: str = "",
        regex_plain: str = "",
        narrowing: Narrowing | None = None,
        narrow_regex: str = "",
        narrow_regex_plain: str = "",
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
            narrowing,
            narrow_regex,
            narrow_regex_plain,
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
        if isinstance(self.ir, bytes):
            try:
                data = wire.loads(self.ir)
            except ValueError:
                data = None
            return expr_from_data(data)
        return self.ir

    @property
    def source(self) -> str:
        """The regex source this Python's ``re`` takes."""
        return self.regex if _possessive() else self.regex_plain

    @property
    def narrow_source(self) -> str:
        """The narrowed body's regex this Python's ``re`` takes ("" when the
        program has no narrowing)."""
        return self.narrow_regex if _possessive() else self.narrow_regex_plain

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

    def to_bytes(self) -> bytes:
        """The program as bytes: a line of JSON (its fields, and the sizes
        of what follows), then its body as JSON (``syntax.ir``), its minimal
        DFA and its tagged DFA (``automata.tables``), each absent one
        empty.  ``from_bytes`` reads them back."""
        ir = self.ir
        body = (
            ir if isinstance(ir, bytes) else b"" if ir is None else compact_json(expr_to_data(ir))
        )
        dfa = b"" if self.dfa is None else self.dfa.to_bytes()
        tagged = b"" if self.tagged is None else self.tagged.to_bytes()
        head = {
            "rule": self.rule,
            "captures": list(self.captures),
            "leaves": list(self.leaves),
            "regular": self.regular,
            "vetted": self.vetted,
            "regex": self.regex,
            "regex_plain": self.regex_plain,
            "narrowing": None if self.narrowing is None else self.narrowing.to_data(),
            "narrow_regex": self.narrow_regex,
            "narrow_regex_plain": self.narrow_regex_plain,
            "groups": [list(g) for g in self.groups],
            "linear": self.linear,
            "deterministic": self.deterministic,
            "repeated": self.repeated,
            "sizes": [len(body), len(dfa), len(tagged)],
        }
        return compact_json(head) + b"\n" + body + dfa + tagged

    @classmethod
    def from_bytes(cls, data: bytes) -> Program:
        """A program from ``to_bytes``'s bytes; ``ValueError`` for anything
        that is not exactly that shape.  The tables are checked here, the
        body when it is first asked for."""
        line, newline, rest = data.partition(b"\n")
        try:
            head = wire.loads(line)
        except ValueError:
            head = None
        d = wire.record(head, {*_FIELDS, "sizes"} - {"ir", "dfa", "tagged"})
        sizes = wire.integers(d["sizes"], 0, len(rest))
        if not newline or len(sizes) != 3 or sum(sizes) != len(rest):
            msg = "not a program: its parts do not add up"
            raise ValueError(msg)
        after_body, after_dfa = sizes[0], sizes[0] + sizes[1]
        body, dfa, tagged = rest[:after_body], rest[after_body:after_dfa], rest[after_dfa:]
        groups = tuple(
            (wire.text(name), wire.integer(parent)) for name, parent in wire.pairs(d["groups"])
        )
        return cls(
            rule=wire.text(d["rule"]),
            captures=wire.texts(d["captures"]),
            leaves=wire.texts(d["leaves"]),
            regular=wire.boolean(d["regular"]),
            vetted=wire.boolean(d["vetted"]),
            ir=_body(bytes(body), d, bool(dfa), bool(tagged)),
            regex=wire.text(d["regex"]),
            regex_plain=wire.text(d["regex_plain"]),
            narrowing=_narrowing(d["narrowing"]),
            narrow_regex=wire.text(d["narrow_regex"]),
            narrow_regex_plain=wire.text(d["narrow_regex_plain"]),
            groups=groups,
            linear=wire.boolean(d["linear"]),
            deterministic=wire.boolean(d["deterministic"]),
            repeated=wire.boolean(d["repeated"]),
            dfa=Tables.from_bytes(dfa) if dfa else None,
            tagged=TaggedTables.from_bytes(tagged, [n for n, _ in groups]) if tagged else None,
        )


def _body(data: bytes, head: dict[str, object], dfa: bool, tagged: bool) -> Expr | bytes | None:
    """The body as ``from_bytes`` keeps it: decoded now when the program
    may run from it (a verdict without a minimal DFA runs the lazy DFA,
    captures without a tagged DFA the Pike VM), so that damage is found
    here; else kept as JSON until first asked for."""
    if not data:
        return None
    if (not dfa and not head["captures"]) or (not tagged and head["captures"]):
        return expr_from_data(wire.loads(data))
    return data


def _narrowing(data: object) -> Narrowing | None:
    if data is None:
        return None
    parts = wire.listed(data)
    if len(parts) != 2:
        msg = "not a narrowing: cuts and representatives"
        raise ValueError(msg)
    return Narrowing(wire.integers(parts[0], 0, 0x110000), wire.integers(parts[1], 0, 0x10FFFF))
