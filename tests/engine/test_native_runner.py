"""The native engine (validate): the minimal DFA built from the
grammar (``engine.automata.dfa``) and the C runner of its tables (``engine._native``)
against the regex engine, which is compiled from the same rules by a
different route (``engine.regex.emit``).

* every string of up to 4 characters over one character of each DFA class
  (plus non-ASCII and a lone surrogate): zero disagreements;
* generated and mutated strings for every shipped regular rule, with
  characters from every Unicode plane and lone surrogates;
* the same text held as a 1-, 2- and 4-byte ``str``, and texts longer than
  the runner's read buffer;
* tables that would index out of bounds are refused at construction;
* the default back end: ``URIGRAMMAR_PURE`` and a missing extension give
  "pure", decided once.
"""

from __future__ import annotations

import itertools
import os
import re
import struct
import subprocess
import sys
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import examples
from _edits import edited
from urigrammar.engine import BACKENDS, NATIVE, PURE, Backend, default_backend, inline_rule
from urigrammar.engine.automata.dfa import Tables, build_tables
from urigrammar.engine.automata.lazy import LazyDfa
from urigrammar.engine.backend.native import AVAILABLE as NATIVE_AVAILABLE
from urigrammar.engine.backend.pure import tables_run
from urigrammar.shipped import shipped_rule

native = pytest.mark.skipif(NATIVE is None, reason="the extension is not built")

TOP_RULES = [
    "URI-reference",
    "URI",
    "absolute-URI",
    "relative-ref",
    "IRI-reference",
    "IRI",
    "absolute-IRI",
    "irelative-ref",
]
RULES = list(u.RULE_NAMES)


def _tables(rule: str, grammar: u.Grammar | None = None) -> Tables:
    """The rule's DFA, as its program (what the back ends run) holds it."""
    if grammar is None:
        grammar, rule = shipped_rule(rule)
    tables = grammar.program(rule).dfa
    assert tables is not None
    return tables


_TABLES: dict[str, Tables] = {}
_RUNNERS: dict[str, Callable[[str], tuple[bool, int]]] = {}
_AUTOMATA: dict[str, LazyDfa] = {}


def tables(rule: str) -> Tables:
    if rule not in _TABLES:
        _TABLES[rule] = _tables(rule)
    return _TABLES[rule]


def regex(rule: str, text: str) -> bool:
    """The pure engine's regex (not the automaton: the DFA is built from it)."""
    grammar, name = shipped_rule(rule)
    return re.compile(grammar.program(name).source).fullmatch(text) is not None


def run_native(rule: str, text: str) -> tuple[bool, int]:
    """The C runner's verdict and viable prefix (the Python loop's when the
    extension is missing)."""
    if rule not in _RUNNERS:
        t = tables(rule)
        if NATIVE_AVAILABLE:
            from urigrammar.engine.backend import _native

            runner = _native.Runner(t.to_bytes())
            _RUNNERS[rule] = lambda s: (runner.accepts(s), runner.viable(s))
        else:
            _RUNNERS[rule] = lambda s: tables_run(t, s)[::-1]
    return _RUNNERS[rule](text)


def automaton(rule: str) -> LazyDfa:
    """The rule's lazy automaton, built from the same inlined body."""
    if rule not in _AUTOMATA:
        grammar, name = shipped_rule(rule)
        body = grammar.program(name).body
        assert body is not None
        _AUTOMATA[rule] = LazyDfa(body)
    return _AUTOMATA[rule]


def representatives(t: Tables) -> list[str]:
    """One character per class (the first of its first interval), plus
    non-ASCII, a character of a high plane and a lone surrogate."""
    first: dict[int, int] = {}
    for start, cls in zip(t.starts, t.classes, strict=True):
        first.setdefault(cls, start)
    return sorted({chr(code) for code in first.values()} | {"\u00e9", "\U000e0001", "\ud800"})


def test_uri_reference_dfa_is_small() -> None:
    # 183 states x 21 classes: the minimal DFA is unique, so any other
    # count would be a bug.
    t = tables("URI-reference")
    assert (t.nstates, t.nclasses) == (183, 21)


@pytest.mark.parametrize(("rule", "length"), [("URI-reference", 4), ("IRI-reference", 4)])
def test_every_short_string_over_the_classes(rule: str, length: int) -> None:
    t = tables(rule)
    chars = representatives(t)
    grammar, name = shipped_rule(rule)
    fullmatch = re.compile(grammar.program(name).source).fullmatch
    wrong = []
    for n in range(length + 1):
        for combo in itertools.product(chars, repeat=n):
            text = "".join(combo)
            if run_native(rule, text)[0] != (fullmatch(text) is not None):
                wrong.append(text)
    assert wrong == []


@pytest.mark.parametrize(
    "rule", [r for r in TOP_RULES if r not in ("URI-reference", "IRI-reference")]
)
def test_every_string_of_three_over_the_classes(rule: str) -> None:
    chars = representatives(tables(rule))
    wrong = [
        text
        for n in range(4)
        for text in map("".join, itertools.product(chars, repeat=n))
        if run_native(rule, text)[0] != regex(rule, text)
    ]
    assert wrong == []


# Characters from every plane, surrogates, the ends of the ranges, ASCII.
ANY_CHAR = st.one_of(
    st.characters(codec=None, categories=None),
    st.integers(0xD800, 0xDFFF).map(chr),
    st.sampled_from(["\x00", "\x7f", "\x80", "\uffff", "\U0010ffff", "%", "[", ":", "/"]),
    st.integers(0, 0x10FFFF).map(chr),
)


def mutated(rule: str) -> st.SearchStrategy[str]:
    return edited(rule, ANY_CHAR)


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(10))
@given(data=st.data())
def test_native_agrees_with_the_regex_on_every_rule(rule: str, data: st.DataObject) -> None:
    text = data.draw(st.one_of(mutated(rule), st.text(ANY_CHAR, max_size=6)))
    accepted, viable = run_native(rule, text)
    assert accepted == regex(rule, text)
    # The DFA's dead state is where the text stops being viable: the same
    # offset the error locator reports, and the lazy automaton's.
    grammar, name = shipped_rule(rule)
    assert viable == grammar.viable_prefix(name, text)
    assert viable == automaton(rule).viable(text)
    assert tables_run(tables(rule), text) == (viable, accepted)


@native
@pytest.mark.parametrize("rule", TOP_RULES)
@settings(max_examples=examples(25))
@given(data=st.data())
def test_validate_and_check_agree_across_back_ends(rule: str, data: st.DataObject) -> None:
    text = data.draw(mutated(rule))
    verdicts = {}
    errors: dict[str, tuple[int | None, str] | None] = {}
    assert NATIVE is not None
    for backend in (NATIVE, PURE):
        on = On(backend)
        verdicts[backend.name] = on.validate(rule, text)
        try:
            on.check(rule, text)
            errors[backend.name] = None
        except u.URISyntaxError as exc:
            errors[backend.name] = (exc.offset, str(exc))
    assert len(set(verdicts.values())) == 1
    assert len(set(errors.values())) == 1


# --- str kinds and long texts ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ("http://a/\u00e9", True),  # 1-byte kind (Latin-1)
        ("http://a/\u0100\u20ac", True),  # 2-byte kind
        ("http://a/\U00010000", True),  # 4-byte kind
        ("http://a/\ud800", False),  # a lone surrogate
        ("http://a/\udfff\U00010000", False),
        ("http://a/\ufffe", False),  # a noncharacter, not ucschar
        ("http://a/\U000e0001", False),  # plane 14, below ucschar's range there
        ("http://a/?\U000f0000", True),  # iprivate, in a query
        ("http://a/\U000f0000", False),  # not in a path
    ],
)
def test_every_str_kind(text: str, accepted: bool) -> None:
    assert run_native("IRI-reference", text)[0] is accepted
    assert regex("IRI-reference", text) is accepted


@native
@pytest.mark.parametrize("width", [1, 2, 4])
@pytest.mark.parametrize("bad_at", [0, 2047, 2048, 2049, 4095, 4096, 9999])
def test_long_texts_cross_the_read_buffer(width: int, bad_at: int) -> None:
    # The runner reads 2048 characters at a time: the offset of the first
    # bad character must come out right on either side of each seam.
    wide = {1: "\u00e9", 2: "\u20ac", 4: "\U00010000"}[width]
    body = ("a" + wide) * 5000
    text = "http://h/" + body[: 10_000 - 9]
    assert run_native("IRI-reference", text) == (True, len(text))
    broken = text[:bad_at] + " " + text[bad_at + 1 :]
    assert run_native("IRI-reference", broken) == (False, bad_at)


@native
@pytest.mark.parametrize("unit", ["%41", "u:p%20", "a%2F/", "b/c"])
@pytest.mark.parametrize("bad_at", [0, 1, 2, 3, 4, 2047, 2048, 2049, 2050, 6000, 6001])
@pytest.mark.parametrize("bad", [" ", "G", "%", "\u00e9"])
def test_runs_and_cycles_stop_where_the_text_stops_being_viable(
    unit: str, bad_at: int, bad: str
) -> None:
    # The runner follows self-loops and two- and three-step cycles (a
    # "%41" run) in tight loops: each must stop exactly at a character
    # that breaks it, also across the read buffer's seams.
    grammar, name = shipped_rule("URI-reference")
    text = "http://" + unit * (7000 // len(unit)) + "@h/"
    at = 7 + bad_at
    broken = text[:at] + bad + text[at + 1 :]
    expected = (re.compile(grammar.program(name).source).fullmatch(broken) is not None,)
    expected += (grammar.viable_prefix(name, broken),)
    assert run_native("URI-reference", broken) == expected


@native
@pytest.mark.parametrize("rule", ["URI-reference", "IRI-reference"])
@pytest.mark.parametrize("run", range(10))
@pytest.mark.parametrize("stop", [" ", "\u00e9", "\u20ac\u00e9", "/", "?", "%41", "\x80"])
def test_a_loop_stops_at_its_first_other_character(rule: str, run: int, stop: str) -> None:
    # A state's loop is skipped four ASCII characters at a time: whatever
    # the length of the run, the first character that leaves it (or, past
    # 127, may stay in it: an IRI's "\u00e9") must be read as one.
    grammar, name = shipped_rule(rule)
    for text in (
        "http://h/" + "a" * run + stop + "b" * run,
        "x:" + "a" * run + stop,
        "http://h/?" + "q" * run + stop + "=" * run,
    ):
        expected = (re.compile(grammar.program(name).source).fullmatch(text) is not None,)
        expected += (grammar.viable_prefix(name, text),)
        assert run_native(rule, text) == expected
        assert tables_run(tables(rule), text) == expected[::-1]


def test_a_user_grammar_runs_natively_and_a_large_dfa_falls_back(backend: Backend) -> None:
    grammar = u.load_grammar(
        'small = *( "x" / "y" ) "z"\nwide = *( "a" / "b" ) "a" 11( "a" / "b" )\n'
    )
    small = _tables("small", grammar)
    assert small.nstates <= 4
    # An "a" twelve from the end: a DFA needs 2**12 states, past the cap.
    assert build_tables(inline_rule(grammar.rules, "wide"), cap=4000) is None
    assert grammar.program("wide").dfa is None
    assert grammar.runs("wide", backend=backend).validates in ("regex", "lazy")
    assert grammar.validate("wide", "ba" + "b" * 11, backend=backend) is True
    assert grammar.validate("wide", "bb" + "b" * 11, backend=backend) is False
    assert grammar.validate("small", "xyxz", backend=backend) is True
    if backend.native:
        assert grammar.runs("small", backend=backend).validates == "dfa"
        matcher = grammar.matcher("small", backend=backend)
        assert type(matcher).__name__ == "builtin_function_or_method"


# --- the runner refuses tables that could read out of bounds ---------------------


#: A DFA of two classes (every code point is of class 1) whose start
#: state loops on class 1 and accepts: as bytes (engine.automata.tables).
GOOD = (
    b"UGD1"
    + struct.pack("<4I", 1, 2, 2, 1)  # nintervals, nclasses, nstates, start
    + struct.pack("<I", 0)  # starts
    + b"\x01"  # classes
    + struct.pack("<4H", 0, 0, 1, 1)  # moves
    + b"\x00\x01"  # accepting
)


def _changed(at: int, value: bytes) -> bytes:
    return GOOD[:at] + value + GOOD[at + len(value) :]


@native
@pytest.mark.parametrize(
    "bad",
    [
        b"UGT1" + GOOD[4:],  # another kind of table
        _changed(4, struct.pack("<I", 0)),  # no interval
        _changed(8, struct.pack("<I", 0)),  # no class
        _changed(8, struct.pack("<I", 256)),  # too many classes
        _changed(16, struct.pack("<I", 2)),  # the start past the states
        _changed(20, struct.pack("<I", 1)),  # starts not at 0
        _changed(24, b"\x05"),  # a class past nclasses
        _changed(25, struct.pack("<4H", 0, 0, 9, 1)),  # a state past nstates
        _changed(25, struct.pack("<4H", 1, 0, 1, 1)),  # the dead state moves
        _changed(33, b"\x02"),  # an accepting flag but 0 or 1
        GOOD[:-1],  # truncated
        GOOD + b"\x00",  # past its end
    ],
)
def test_bad_tables_are_refused(bad: bytes) -> None:
    from urigrammar.engine.backend import _native

    assert _native.Runner(GOOD).accepts("abc")
    assert tables_run(Tables.from_bytes(GOOD), "abc") == (3, True)
    with pytest.raises(ValueError, match="table"):
        _native.Runner(bad)
    with pytest.raises(ValueError, match="table"):
        Tables.from_bytes(bad)


@native
def test_tables_must_be_bytes() -> None:
    from urigrammar.engine.backend import _native

    with pytest.raises(TypeError):
        _native.Runner(bytearray(GOOD))  # type: ignore[arg-type]


@native
def test_non_str_is_a_type_error() -> None:
    from urigrammar.engine.backend import _native

    runner = _native.Runner(tables("URI").to_bytes())
    for value in (b"http://a", None, 1):
        with pytest.raises(TypeError, match="must be str"):
            runner.accepts(value)  # type: ignore[arg-type]


@native
def test_otherwise_answers_only_for_texts_the_dfa_refuses() -> None:
    from urigrammar.engine.backend import _native

    asked: list[str] = []

    def otherwise(text: str) -> object:
        asked.append(text)
        return text.startswith("x") and 1  # truthy or falsy, not a bool

    runner = _native.Runner(tables("URI").to_bytes(), otherwise=otherwise)
    assert runner.accepts("http://a") is True
    assert asked == []
    assert runner.accepts("x y") is True
    assert runner.accepts("a b") is False
    assert asked == ["x y", "a b"]
    # fullmatch is the DFA's alone.
    assert runner.fullmatch("x y") is None
    assert asked == ["x y", "a b"]


@native
def test_otherwise_raises_through_and_must_be_callable() -> None:
    from urigrammar.engine.backend import _native

    def broken(text: str) -> bool:
        raise LookupError(text)

    runner = _native.Runner(tables("URI").to_bytes(), otherwise=broken)
    with pytest.raises(LookupError, match="a b"):
        runner.accepts("a b")
    with pytest.raises(TypeError, match="callable"):
        _native.Runner(tables("URI").to_bytes(), otherwise=1)  # type: ignore[arg-type]


@native
def test_a_runner_in_a_cycle_through_otherwise_is_collected() -> None:
    import gc
    import weakref

    from urigrammar.engine.backend import _native

    class Holder:
        runner: object = None

        def __call__(self, text: str) -> bool:
            return False

    holder = Holder()
    holder.runner = _native.Runner(tables("URI").to_bytes(), otherwise=holder)
    gone = weakref.ref(holder)
    del holder
    gc.collect()
    assert gone() is None


# --- the default back end ------------------------------------------------------


def _python(code: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "URIGRAMMAR_PURE"} | env
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, check=True
    )
    return done.stdout.strip()


def test_the_environment_variable_forces_the_pure_engine() -> None:
    code = "import urigrammar as u; print(u.BACKEND, u.validate('IRI', 'http://\u00e9/'))"
    assert _python(code, URIGRAMMAR_PURE="1") == "pure True"


@pytest.mark.skipif(NATIVE is None, reason="needs the extension")
def test_the_native_back_end_leaves_python_records_to_python() -> None:
    # With URIGRAMMAR_PURE set beside the extension, references are Python
    # records.  C's normalizers read only the records C makes, so the native
    # back end, named by hand, answers through Python, and alike.
    pytest.importorskip("pyarrow")
    code = (
        "import pyarrow as pa, urigrammar.arrow as u\n"
        "from urigrammar.engine import NATIVE, PURE\n"
        "rows = pa.array(['HTTP://Ex%41mple.COM:080/a/./b/../%7e?b=1&a=2#f', 'x:/..//y', None])\n"
        "for f in (u.canonicalize_array, u.surt_array, u.registrable_domain_array):\n"
        "    print(pa.array(f(rows, backend=NATIVE)) == pa.array(f(rows, backend=PURE)))"
    )
    assert _python(code, URIGRAMMAR_PURE="1").split() == ["True"] * 3


def test_version_names_the_default_back_end(capsys: pytest.CaptureFixture[str]) -> None:
    from urigrammar.cli import main

    assert default_backend().name == u.BACKEND
    assert main(["--version"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse fills the line
    if default_backend() is PURE:
        assert f"(pure back end: {u.PURE_REASON})" in out
    else:
        assert "(native back end)" in out


def test_the_default_back_end_is_decided_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # No switch: the environment is read on the first call only, and the
    # functions at the top level are the default back end's.
    first = default_backend()
    assert first in BACKENDS
    monkeypatch.setenv("URIGRAMMAR_PURE", "0" if first is PURE else "1")
    assert default_backend() is first
    assert first.name == u.BACKEND
    assert On(first).validate is u.validate
    assert On(first).api.check == u.check.__globals__["_DEFAULT"].check
    if NATIVE is None:
        assert first is PURE


def test_the_installed_back_ends_are_the_expected_ones() -> None:
    # tox names the back ends each env must have (URIGRAMMAR_EXPECT_BACKENDS,
    # checked by conftest.py at start too): "native,pure" where the wheel
    # carries the extension, "pure" from the wheel built with CC=false
    # (nocompiler).  An env that silently lacked the extension would leave
    # the native back end untested.
    expected = os.environ.get("URIGRAMMAR_EXPECT_BACKENDS")
    if expected is None:
        pytest.skip("URIGRAMMAR_EXPECT_BACKENDS is not set (tox sets it)")
    assert ",".join(b.name for b in BACKENDS) == expected
    assert NATIVE_AVAILABLE is ("native" in expected.split(","))
    for backend in BACKENDS:
        on = On(backend)
        assert on.validate("IRI-reference", "http://\u00e9x.com/\u00e4?q#f")
        assert not on.validate("URI-reference", "http://\u00e9x.com/")


@cache
def costly() -> u.Grammar:
    """Rules whose DFA is too costly to build (each back end's test uses
    the one grammar: a build that gives up still takes a while)."""
    # Written as rules of 250 characters each, within MAX_RULE_LENGTH;
    # inlined, each is one sequence.
    links = [
        " ".join(f"%x{0x100 + 2 * i:X}" for i in range(start, start + 250))
        for start in range(0, 1000, 250)
    ]
    pieces = ["abcdefghij" * 50] * 3
    return u.load_grammar(
        "chain = c0 c1 c2 c3\nliteral = l0 l1 l2\n"
        + "".join(f"c{i} = {link}\n" for i, link in enumerate(links))
        + "".join(f'l{i} = "{piece}"\n' for i, piece in enumerate(pieces))
    )


def test_a_dfa_too_costly_to_build_falls_back_quickly(backend: Backend) -> None:
    # Minimizing a chain of 1,000 distinct characters takes a round of
    # Moore's algorithm per state; the build budget gives up early and the
    # rule keeps its pure matcher, with the same verdicts.
    grammar = costly()
    for name in ("chain", "literal"):
        assert grammar.program(name).dfa is None  # the build gave up
        assert grammar.runs(name, backend=backend).validates in ("regex", "lazy")
    text = "".join(chr(0x100 + 2 * i) for i in range(1000))
    assert grammar.validate("chain", text, backend=backend)
    assert not grammar.validate("chain", text[:-1], backend=backend)
    assert grammar.validate("literal", "abcdefghij" * 150, backend=backend)
