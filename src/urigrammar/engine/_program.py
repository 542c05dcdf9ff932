"""A compiled rule as a value: ``Program``, built once by ``build_program``.

Which back end serves a rule is decided here and nowhere else::

    the rule                       validate (no captures)        parse (captures)
    -----------------------------  ----------------------------  -------------------------
    reaches itself (not regular)   abnf, at most ABNF_MAX_LENGTH  abnf's tree
    regular, DFA within its caps   native: the DFA, in C          native: the tagged DFA, in C
                                   pure: the regex (*)            pure: the regex's groups
    regular, DFA over its caps     the regex (*), both            the regex's groups, both

    (*) where the regex cannot backtrack more than a constant number of
        times: it is deterministic (LL(1)), or linear in a vetted grammar
        (``_compile.linear``).  Otherwise the lazy automaton (``_prefix``).

Error offsets (the longest viable prefix) come from the DFA, run in Python,
where there is one, else from the lazy automaton.

A program is plain data: the rule's inlined body in ``_ir`` form, the regex
source (with possessive quantifiers, and without them for Python 3.10), the
regex's groups, the minimal DFA's tables (``_dfa``) and the tagged DFA's
(``_tagged``).  ``to_data`` and ``from_data`` turn it into JSON values and
back, checking every field's shape on the way in, so that a damaged file is
refused (``ValueError``) rather than run.  The back ends (``_backend``)
make their matchers from a program and keep them in ``Program.made``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Literal

from ._charset import CharSet
from ._ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq
from ._tables import Tables, TaggedTables

if TYPE_CHECKING:
    from ._grammar import Grammar

__all__ = [
    "Program",
    "Serves",
    "build_program",
    "expr_from_data",
    "expr_to_data",
    "tables_from_data",
    "tables_to_data",
]

#: What serves a rule on a back end (the table above).
Serves = Literal["dfa", "tagged", "regex", "automaton", "abnf"]

_POSSESSIVE = sys.version_info >= (3, 11)


class Program:
    """One rule compiled for one set of captures.  ``captures`` are the
    rules kept as groups; nothing inside a rule of ``leaves`` is.

    Immutable; equal only to itself (programs are compared by what they
    run, in the tests, not by identity of their tables)."""

    __slots__ = (
        "captures",
        "deterministic",
        "dfa",
        "groups",
        "ir",
        "leaves",
        "linear",
        "made",
        "regex",
        "regex_plain",
        "regular",
        "rule",
        "tagged",
        "vetted",
    )
    rule: str
    captures: tuple[str, ...]
    leaves: tuple[str, ...]
    #: Whether the rule never reaches itself (else: the ``abnf`` engine).
    regular: bool
    #: Whether the grammar's backtracking was vetted (``Grammar``).
    vetted: bool
    #: The inlined rule (``_ir``), or its JSON values (``expr_to_data``),
    #: read on first use of ``body``; ``None`` when not regular.
    ir: Expr | list[Any] | None
    #: The regex, with possessive quantifiers (Python 3.11 on).
    regex: str
    #: The same language without them, for Python 3.10.
    regex_plain: str
    #: Each group's rule name and enclosing group (0: none), 1-based.
    groups: tuple[tuple[str, int], ...]
    linear: bool
    deterministic: bool
    #: The minimal DFA (validate programs), ``None`` over its caps.
    dfa: Tables | None
    #: The tagged DFA (parse programs), ``None`` over its caps.
    tagged: TaggedTables | None
    #: What the back ends made of it (matchers, compiled patterns), by
    #: back end and purpose: a memo, not part of the value.
    made: dict[Hashable, Any]

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
        dfa: Tables | None = None,
        tagged: TaggedTables | None = None,
    ) -> None:
        values = {
            "rule": rule,
            "captures": captures,
            "leaves": leaves,
            "regular": regular,
            "vetted": vetted,
            "ir": ir,
            "regex": regex,
            "regex_plain": regex_plain,
            "groups": groups,
            "linear": linear,
            "deterministic": deterministic,
            "dfa": dfa,
            "tagged": tagged,
            "made": {},
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        msg = "Program is immutable"
        raise AttributeError(msg)

    def __repr__(self) -> str:
        return f"<Program {self.rule!r} captures={self.captures!r}>"

    @property
    def body(self) -> Expr | None:
        """The inlined rule (``_ir``), decoded on first use: only the lazy
        automaton and the analyses need it, so a loaded program that runs
        from its DFA or regex never pays for it."""
        if not isinstance(self.ir, list):
            return self.ir
        found = self.made.get("body")
        if found is None:
            found = self.made.setdefault("body", expr_from_data(self.ir))
        return found  # type: ignore[no-any-return]

    @property
    def key(self) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        return (self.rule, self.captures, self.leaves)

    @property
    def source(self) -> str:
        """The regex source this Python's ``re`` takes."""
        return self.regex if _POSSESSIVE else self.regex_plain

    def pattern(self) -> re.Pattern[str]:
        """The compiled regex (compiled once)."""
        found = self.made.get("pattern")
        if found is None:
            found = self.made.setdefault("pattern", re.compile(self.source))
        return found  # type: ignore[no-any-return]

    def serves(self, native: bool) -> Serves:
        """What runs this program on the native (or the pure) back end."""
        if not self.regular:
            return "abnf"
        if native and self.captures and self.tagged is not None:
            return "tagged"
        if native and not self.captures and self.dfa is not None:
            return "dfa"
        if self.captures or self.deterministic or (self.vetted and self.linear):
            return "regex"
        return "automaton"

    # --- data ---------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The program as JSON values (``from_data`` reads them back)."""
        return {
            "rule": self.rule,
            "captures": list(self.captures),
            "leaves": list(self.leaves),
            "regular": self.regular,
            "vetted": self.vetted,
            "body": self.ir
            if not isinstance(self.ir, (Chars, Seq, Alt, Rep, Ref, Cap))
            else expr_to_data(self.ir),
            "regex": self.regex,
            "regex_plain": self.regex_plain,
            "groups": [list(g) for g in self.groups],
            "linear": self.linear,
            "deterministic": self.deterministic,
            "dfa": None if self.dfa is None else tables_to_data(self.dfa),
            "tagged": None if self.tagged is None else _tagged_to_data(self.tagged),
        }

    @classmethod
    def from_data(cls, data: object) -> Program:
        """A program from ``to_data``'s values; ``ValueError`` for anything
        that is not exactly that shape."""
        d = _dict(data, (set(cls.__slots__) - {"made", "ir"}) | {"body"})
        groups = tuple((_str(name), _int(parent)) for name, parent in _pairs(d["groups"]))
        return cls(
            rule=_str(d["rule"]),
            captures=tuple(_str(c) for c in _list(d["captures"])),
            leaves=tuple(_str(c) for c in _list(d["leaves"])),
            regular=_bool(d["regular"]),
            vetted=_bool(d["vetted"]),
            ir=_ir(d["body"], eager=d["dfa"] is None and not d["captures"]),
            regex=_str(d["regex"]),
            regex_plain=_str(d["regex_plain"]),
            groups=groups,
            linear=_bool(d["linear"]),
            deterministic=_bool(d["deterministic"]),
            dfa=None if d["dfa"] is None else tables_from_data(d["dfa"]),
            tagged=None if d["tagged"] is None else _tagged_from_data(d["tagged"]),
        )


def _ir(data: object, *, eager: bool) -> Expr | list[Any] | None:
    """The body as ``from_data`` keeps it: decoded now when a back end may
    need it (a validate program without a DFA runs the lazy automaton
    from it), else kept as JSON values until first asked for."""
    if data is None:
        return None
    return expr_from_data(data) if eager else _list(data)


def build_program(
    grammar: Grammar,
    name: str,
    captures: frozenset[str] = frozenset(),
    leaves: frozenset[str] = frozenset(),
) -> Program:
    """The program of rule ``name`` (canonical) of ``grammar``: the one place
    that compiles a rule.  Raises ``GrammarError`` for a rule too large to
    compile."""
    # The builders, imported here: a process that loads its programs
    # never needs them.
    from ._compile import compile_body, inline_rule
    from ._dfa import build_tables
    from ._tagged import build_tagged

    vetted = grammar.vetted
    key = (name, tuple(sorted(captures)), tuple(sorted(leaves)))
    if not grammar.is_regular(name):
        return Program(*key, regular=False, vetted=vetted)
    body = inline_rule(grammar, name, captures - {name}, leaves)
    compiled = compile_body(name, body, possessive=True)
    plain = compile_body(name, body, possessive=False)
    dfa = tagged = None
    if captures:
        # Captures inside repetitions included: the tagged DFA's reading is
        # the one Grammar.parse gives on both back ends (``_match``).  The
        # URI parse rules have none, so there it is the regex's reading.
        tagged = build_tagged(body, repeated=True)
        if tagged is not None and list(tagged.names) != [n for n, _ in compiled.groups]:
            tagged = None  # never expected: the regex's groups are the oracle
    else:
        dfa = build_tables(body)
    return Program(
        *key,
        regular=True,
        vetted=vetted,
        ir=body,
        regex=compiled.source,
        regex_plain=plain.source,
        groups=compiled.groups,
        linear=compiled.linear,
        deterministic=compiled.deterministic,
        dfa=dfa,
        tagged=tagged,
    )


# --- JSON values, checked on the way in ------------------------------------


def _fail(what: str) -> ValueError:
    return ValueError(f"not a program: {what}")


def _dict(data: object, keys: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != keys:
        raise _fail("a record with other fields")
    return data


def _list(data: object) -> list[Any]:
    if not isinstance(data, list):
        raise _fail("a list expected")
    return data


def _str(data: object) -> str:
    if not isinstance(data, str):
        raise _fail("a string expected")
    return data


def _bool(data: object) -> bool:
    if not isinstance(data, bool):
        raise _fail("a boolean expected")
    return data


def _int(data: object, lo: int = -1, hi: int = 0x10FFFF + 1) -> int:
    if not isinstance(data, int) or isinstance(data, bool) or not lo <= data <= hi:
        raise _fail("an integer in range expected")
    return data


def _ints(data: object, lo: int = -1, hi: int = 0x10FFFF + 1) -> tuple[int, ...]:
    values = _list(data)
    for value in values:
        _int(value, lo, hi)
    return tuple(values)


def _pairs(data: object) -> list[tuple[Any, Any]]:
    out = []
    for item in _list(data):
        pair = _list(item)
        if len(pair) != 2:
            raise _fail("a pair expected")
        out.append((pair[0], pair[1]))
    return out


def expr_to_data(expr: Expr) -> list[Any]:
    """An ``_ir`` expression as JSON values: ``["c", [[lo, hi], ...]]``,
    ``["s", [...]]``, ``["a", [...]]``, ``["r", lo, hi, item]``,
    ``["n", name]``, ``["k", name, expr]``."""
    if isinstance(expr, Chars):
        return ["c", [list(span) for span in expr.chars.spans]]
    if isinstance(expr, Seq):
        return ["s", [expr_to_data(item) for item in expr.items]]
    if isinstance(expr, Alt):
        return ["a", [expr_to_data(item) for item in expr.items]]
    if isinstance(expr, Rep):
        return ["r", expr.lo, expr.hi, expr_to_data(expr.item)]
    if isinstance(expr, Ref):
        return ["n", expr.name]
    return ["k", expr.name, expr_to_data(expr.expr)]


def expr_from_data(data: object) -> Expr:
    """``expr_to_data``'s values back; ``ValueError`` for any other shape."""
    node = _list(data)
    if not node:
        raise _fail("an empty expression")
    kind = node[0]
    if kind == "c" and len(node) == 2:
        return Chars(CharSet((_int(lo, 0), _int(hi, 0)) for lo, hi in _pairs(node[1])))
    if kind in ("s", "a") and len(node) == 2:
        items = tuple(expr_from_data(item) for item in _list(node[1]))
        return Seq(items) if kind == "s" else Alt(items)
    if kind == "r" and len(node) == 4:
        lo = _int(node[1], 0, 1 << 31)
        hi = None if node[2] is None else _int(node[2], 0, 1 << 31)
        return Rep(lo, hi, expr_from_data(node[3]))
    if kind == "n" and len(node) == 2:
        return Ref(_str(node[1]))
    if kind == "k" and len(node) == 3:
        return Cap(_str(node[1]), expr_from_data(node[2]))
    raise _fail(f"unknown expression {kind!r}")


def tables_to_data(tables: Tables) -> dict[str, Any]:
    """A minimal DFA's tables as JSON values (``tables_from_data``)."""
    return {
        "starts": list(tables.starts),
        "classes": list(tables.classes),
        "nclasses": tables.nclasses,
        "moves": list(tables.moves),
        "accepting": [int(a) for a in tables.accepting],
        "start": tables.start,
    }


def tables_from_data(data: object) -> Tables:
    """DFA tables from ``tables_to_data``'s values; ``ValueError`` for
    anything that is not exactly that shape."""
    d = _dict(data, {"starts", "classes", "nclasses", "moves", "accepting", "start"})
    nclasses = _int(d["nclasses"], 1, 255)
    accepting = tuple(bool(a) for a in _ints(d["accepting"], 0, 1))
    nstates = len(accepting)
    tables = Tables(
        starts=_ints(d["starts"], 0),
        classes=_ints(d["classes"], 0, nclasses - 1),
        nclasses=nclasses,
        moves=_ints(d["moves"], 0, nstates - 1),
        accepting=accepting,
        start=_int(d["start"], 0, nstates - 1),
    )
    if (
        len(tables.moves) != nstates * nclasses
        or len(tables.starts) != len(tables.classes)
        or not tables.starts
        or tables.starts[0] != 0
        or any(a >= b for a, b in zip(tables.starts, tables.starts[1:], strict=False))
    ):
        raise _fail("DFA tables of inconsistent sizes")
    return tables


def _tagged_to_data(tables: TaggedTables) -> dict[str, Any]:
    return {
        "starts": list(tables.starts),
        "classes": list(tables.classes),
        "nclasses": tables.nclasses,
        "moves": list(tables.moves),
        "recs": list(tables.recs),
        "records": [[list(pair) for pair in record] for record in tables.records],
        "keeps": [int(k) for k in tables.keeps],
        "tagsets": [list(tags) for tags in tables.tagsets],
        "finals": list(tables.finals),
        "start_tags": list(tables.start_tags),
        "names": list(tables.names),
    }


def _tagged_from_data(data: object) -> TaggedTables:
    d = _dict(
        data,
        {
            "starts",
            "classes",
            "nclasses",
            "moves",
            "recs",
            "records",
            "keeps",
            "tagsets",
            "finals",
            "start_tags",
            "names",
        },
    )
    nclasses = _int(d["nclasses"], 1, 255)
    finals = _ints(d["finals"], -1, 1 << 16)
    nstates = len(finals)
    names = tuple(_str(n) for n in _list(d["names"]))
    tagsets = tuple(_ints(tags, 0, 2 * len(names) - 1) for tags in _list(d["tagsets"]))
    records = tuple(
        tuple((_int(s, 0, 1 << 16), _int(t, 0, len(tagsets) - 1)) for s, t in _pairs(record))
        for record in _list(d["records"])
    )
    tables = TaggedTables(
        starts=_ints(d["starts"], 0),
        classes=_ints(d["classes"], 0, nclasses - 1),
        nclasses=nclasses,
        moves=_ints(d["moves"], 0, nstates - 1),
        recs=_ints(d["recs"], 0, len(records) - 1),
        records=records,
        keeps=tuple(bool(k) for k in _ints(d["keeps"], 0, 1)),
        tagsets=tagsets,
        finals=finals,
        start_tags=_ints(d["start_tags"], 0, len(tagsets) - 1),
        names=names,
    )
    if (
        len(tables.moves) != nstates * nclasses
        or len(tables.recs) != len(tables.moves)
        or len(tables.keeps) != len(records)
        or len(tables.starts) != len(tables.classes)
        or not tables.starts
        or tables.starts[0] != 0
    ):
        raise _fail("tagged DFA tables of inconsistent sizes")
    return tables
