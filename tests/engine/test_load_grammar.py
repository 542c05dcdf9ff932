"""``load_grammar`` and ``Grammar``: namespaces, imports, core rules,
non-regular rules, Unicode-wide classes and the linear matcher."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from urigrammar.engine import PURE, Backend
from urigrammar.engine.automata.lazy import LazyDfa
from urigrammar.shipped import shipped_rule
from urigrammar.strategies import from_rule
from urigrammar.uri._api import api

# RFC 3987 section 2.2's ucschar, as a grammar nobody needs to trust us on.
UCS = """\
word     = 1*ucschar
ucschar  = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
         / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
         / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
         / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
         / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
         / %xD0000-DFFFD / %xE1000-EFFFD
"""


def test_core_rules_with_more_than_one_character_compile_with_right_offsets(on: On) -> None:
    # The offsets where CRLF and LWSP stop matching, from the one
    # automaton every rule uses.
    for rule, text, offset in (("CRLF", "\r", 1), ("LWSP", " \r\nx", 3), ("LWSP", "\r\n", 2)):
        with pytest.raises(u.URISyntaxError) as info:
            on.check(rule, text)
        assert info.value.offset == offset
    assert on.validate("LWSP", " " * 3000)
    assert on.validate("LWSP", " \r\n\t" * 1000)
    assert on.validate("CRLF", "\r\n")
    assert not on.validate("CRLF", "\n")


CORE_RULES = """
from urigrammar.engine.syntax.reader import core_rules
for rule in core_rules():
    print(rule.name, repr(rule.expr))
"""


def test_the_core_rules_read_the_same_with_abnfs_rust_backend() -> None:
    # abnf[rust] swaps abnf's combinators for Rust ones that hide their
    # parts; the core rules must still be read, and read as in Python.
    pytest.importorskip("abnf_rust")

    def read(**env: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", CORE_RULES],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, **env},
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    with_rust = read()
    assert "LWSP" in with_rust
    assert with_rust == read(ABNF_NO_RUST="1")


def test_two_grammars_defining_one_name_keep_their_own(backend: Backend) -> None:
    first = u.load_grammar('thing = "a"\n')
    second = u.load_grammar('thing = "b"\n')
    assert first.validate("thing", "a", backend=backend)
    assert not first.validate("thing", "b", backend=backend)
    assert second.validate("thing", "b", backend=backend)
    assert not second.validate("thing", "a", backend=backend)
    # Neither touches RFC 3986's namespace, nor abnf's shared one.
    with pytest.raises(u.UnknownRuleError):
        api(backend).validate("thing", "a")
    assert first.abnf_rule("thing").parse_all("a").value == "a"
    assert second.abnf_parse("thing", "a") is None


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_a_rules_source_keeps_its_files_line_ends(ending: str, tmp_path: Path) -> None:
    # abnf reads CRLF lines (RFC 5234 section 2.2); the source is the file's.
    lines = ['pair = item "," item', "item = 1*DIGIT", '     / "-"', 'pair =/ "()"']
    path = tmp_path / "pair.abnf"
    path.write_bytes(ending.join(lines).encode() + ending.encode())
    for g in (u.load_grammar(path), u.load_grammar(path.read_bytes().decode())):
        assert g.source("item") == f'item = 1*DIGIT{ending}     / "-"{ending}'
        assert g.source("pair") == f'pair = item "," item{ending}pair =/ "()"{ending}'


def test_imports_fill_gaps_in_order_and_the_file_wins(backend: Backend) -> None:
    base = u.load_grammar('x = "1"\ny = "2"\n')
    other = u.load_grammar('Y = %x32 ; base\'s y, written otherwise\nz = "4"\n')
    g = u.load_grammar('top = x y z\nx = "9"\n', imports=[base, other])
    assert g.validate("top", "924", backend=backend)  # x from the file, y from base, z from other
    assert not g.validate("top", "124", backend=backend)
    assert not g.validate("top", "934", backend=backend)
    assert g.rule_names == ("top", "x", "y", "z")
    assert g.source("y") == 'y = "2"\n'


def test_a_rule_written_in_prose_is_filled_by_an_import(backend: Backend) -> None:
    numbers = u.load_grammar("num = 1*DIGIT\n")
    g = u.load_grammar('pair = num "," num\nnum = <see the numbers grammar>\n', imports=[numbers])
    assert g.validate("pair", "12,3", backend=backend)
    with pytest.raises(u.GrammarError, match="prose"):
        u.load_grammar("pair = num\nnum = <nobody defines this>\n")


def test_an_overlay_corrects_an_imported_rule(backend: Backend) -> None:
    # The errata mechanism: the published grammar stays verbatim, and a
    # small file that redefines one rule imports it.
    published = u.load_grammar('greeting = word "!"\nword = "hi"\n')
    overlay = u.load_grammar('word = "hi" / "yo"\n', imports=[published])
    assert overlay.validate("greeting", "yo!", backend=backend)
    assert not published.validate("greeting", "yo!", backend=backend)
    assert overlay.abnf_parse("greeting", "yo!") is not None


def test_a_missing_rule_is_reported_at_load_with_where_it_is_used() -> None:
    with pytest.raises(u.GrammarError) as info:
        u.load_grammar('top = "a" middle\nmiddle = "b" nowhere\n')
    assert info.value.rule == "nowhere"
    assert "'middle'" in str(info.value)


def test_grammar_errors() -> None:
    with pytest.raises(u.GrammarError, match="core rule"):
        u.load_grammar('DIGIT = "x"\n')
    with pytest.raises(u.GrammarError, match="twice"):
        u.load_grammar('a = "x"\na = "y"\n')
    with pytest.raises(u.GrammarError) as info:
        u.load_grammar("a = = b\n")
    assert info.value.offset is not None
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "line", "column", "offset", "what"),
    [
        ('a = "x"\nb = "y" / ]\nc = "z"\n', 2, 11, 18, "unexpected ']'"),
        ('a = "x"\r\nb = "y" / ]\r\n', 2, 11, 19, "unexpected ']'"),
        ('a = "x"\rb = %x4G\r', 2, 8, 15, "unexpected 'G'"),
        ('a = "x"\nb = ( "y"\nc = "z"\n', 2, 10, 17, "unexpected end of line"),
        ('a "x"\n', 1, 3, 2, "unexpected '\"'"),
        ('a = "x" ; caf\u00e9\n', 1, 14, 13, "unexpected '\u00e9'"),
    ],
    ids=["bad-element", "crlf", "cr", "unclosed-group", "no-equals", "non-ascii-comment"],
)
def test_a_syntax_error_points_at_the_offending_character(
    text: str, line: int, column: int, offset: int, what: str
) -> None:
    with pytest.raises(u.GrammarError) as info:
        u.load_grammar(text)
    error = info.value
    assert f"line {line}, column {column}: {what}" in error.message
    assert error.text == text
    assert error.offset == offset
    assert "column 0" not in error.message
    # str() shows the text with a caret under the character.
    excerpt, caret = str(error).splitlines()[-2:]
    char = text[offset]
    shown = char if char.isprintable() else ascii(char)[1:-1]  # controls are escaped
    assert excerpt.startswith(shown, caret.index("^"))


# An indented rule reads as more of the rule above until its "=", which
# is where the text stops being ABNF.
@pytest.mark.parametrize(("text", "offset"), [('a = "x"\n b = "y"\n', 11), ('\ta = "x"\n', 1)])
def test_an_indented_rule_gets_a_hint_that_rules_start_in_column_0(text: str, offset: int) -> None:
    with pytest.raises(u.GrammarError, match="rules start in column 0") as info:
        u.load_grammar(text)
    assert info.value.offset == offset


def test_incremental_alternatives_and_case(backend: Backend) -> None:
    g = u.load_grammar('Colour = "red"\ncolour =/ "blue"\nexact = %s"Ab"\n')
    assert g.validate("COLOUR", "BLUE", backend=backend)
    assert g.validate("colour", "Red", backend=backend)
    assert g.validate("exact", "Ab", backend=backend)
    assert not g.validate("exact", "ab", backend=backend)
    assert g.canonical("EXACT") == "exact"
    with pytest.raises(u.UnknownRuleError, match="'Colour'"):
        g.validate("colours", "red", backend=backend)


def test_load_from_a_path(backend: Backend, tmp_path: Path) -> None:
    path = tmp_path / "tiny.abnf"
    path.write_text('tiny = 1*"t"\n', encoding="utf-8")
    for source in (path, str(path)):
        g = u.load_grammar(source)
        assert g.validate("tiny", "ttt", backend=backend)
        assert g.name == str(path)


def test_references_and_regularity() -> None:
    g = u.load_grammar('list = "(" *(atom / list) ")"\natom = 1*ALPHA\nflat = atom *("," atom)\n')
    assert g.references("flat") == ("atom", "ALPHA")
    assert g.is_regular("flat")
    assert not g.is_regular("list")
    assert g.validate("list", "(a(b c)(d))".replace(" ", ""))
    assert not g.validate("list", "(a(b)")
    with pytest.raises(u.RuleMatchError) as info:
        g.check("list", "(a(b)")
    # No automaton for a recursive rule: the offset is abnf's own stop,
    # a lower bound of the viable prefix.
    assert info.value.offset is not None
    assert 0 <= info.value.offset <= 5
    with pytest.raises(u.InputTooLongError):
        g.validate("list", "(" * (u.ABNF_MAX_LENGTH + 1))


def test_unicode_wide_classes(backend: Backend) -> None:
    g = u.load_grammar(UCS)
    assert g.validate("word", "\u00e9\U0001f600\U000e1000", backend=backend)
    assert not g.validate("word", "a", backend=backend)
    assert not g.validate("word", "\ud800", backend=backend)  # a lone surrogate is no ucschar
    assert not g.validate("word", "\U000e0fff", backend=backend)
    with pytest.raises(u.RuleMatchError) as info:
        g.check("word", "\u00e9\u00e9\ufffe\u00e9", backend=backend)
    assert info.value.offset == 2
    assert g.validate("word", "\u4e00" * 100_000, backend=backend)


def test_a_rule_whose_regex_could_backtrack_is_matched_by_the_automaton(backend: Backend) -> None:
    # (x / xx)* followed by y: a regex would try exponentially many splits
    # of a long run of x before failing.
    g = u.load_grammar('a = *(b / "x") "y"\nb = "x" / "xx"\nc = *"a" *"a" "b"\n')
    assert not g.program("a").linear
    assert not g.program("c").linear
    assert g.validate("a", "x" * 10 + "y", backend=backend)
    assert not g.validate("a", "x" * 100_000, backend=backend)
    assert not g.validate("c", "a" * 100_000, backend=backend)
    assert g.validate("c", "a" * 100_000 + "b", backend=backend)


def test_every_shipped_regex_is_linear() -> None:
    # The shipped grammars are vetted: their regexes are trusted when linear.
    for name in u.RULE_NAMES:
        grammar, found = shipped_rule(name)
        assert grammar.program(found).linear, name


def automaton(grammar: u.Grammar, rule: str) -> LazyDfa:
    """The lazy automaton of ``rule`` (what serves a rule without a DFA
    whose regex is not trusted, and what locates errors without a DFA)."""
    body = grammar.program(rule).body
    assert body is not None
    return LazyDfa(body)


@pytest.mark.parametrize("rule", ["URI-reference", "IPv6address", "authority", "LWSP"])
@backend_settings(max_examples=examples(30))
@given(data=st.data())
def test_automaton_and_regex_agree(on: On, rule: str, data: st.DataObject) -> None:
    text = data.draw(st.one_of(from_rule(rule), st.text(max_size=12)))
    found = automaton(u.RFC3986, rule)
    assert found.accepts(text) == on.validate(rule, text)
    assert found.viable(text) == u.RFC3986.viable_prefix(rule, text)


# --- grammars that attack the engine ------------------------------------------


def test_a_chain_of_bounded_choices_runs_on_the_automaton(backend: Backend) -> None:
    # Forty optional elements in a row: each is bounded and outside every
    # repetition, yet a backtracking regex tries 2**40 combinations.  Only
    # a vetted grammar trusts such a regex; this one is matched by the DFA.
    g = u.load_grammar("r = " + '["a"] ' * 40 + '"b"\n')
    compiled = g.program("r")
    assert compiled.linear
    assert not compiled.deterministic
    assert g.runs("r", backend=backend).validates == ("dfa" if backend.native else "lazy")
    assert not g.validate("r", "a" * 1000, backend=backend)
    assert g.validate("r", "a" * 40 + "b", backend=backend)


def test_a_choice_among_many_counts_is_not_bounded() -> None:
    # The same on both back ends (a property of the program): 999 counts to
    # choose from is a loop for a backtracking regex.
    many = u.load_grammar('r = 0*998"a" 0*998"a" "b"\n')
    assert not many.program("r").linear


def test_rfc3986_regexes_are_trusted_because_the_grammar_is_vetted() -> None:
    # On the pure back end (the native one runs their DFAs).
    for name in ("URI-reference", "host", "IPv6address"):
        compiled = u.RFC3986.program(name)
        assert not compiled.deterministic
        assert u.RFC3986.runs(name, backend=PURE).validates == "regex"
        # re's fullmatch of the program's regex.  Patterns compare by their
        # text and flags; a bound method by its pattern's identity, which
        # re's cache of compiled patterns does not keep.
        fullmatch = u.RFC3986.matcher(name, backend=PURE)
        assert fullmatch.__name__ == "fullmatch"
        assert fullmatch.__self__ == re.compile(compiled.source)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        'r = 1000(1000"a")\n',
        'r = 1000s\ns = 1000"a"\n',
        'ok = "x"\nr = 25s\ns = 25t\nt = 25u\nu = 25"a"\n',
        'r = "(" nest ")" / s\nnest = r\ns = 1000(1000"a")\n',
    ],
    ids=["one-rule", "through-a-rule", "through-a-chain", "inside-a-recursive-rule"],
)
def test_rules_too_large_for_the_automaton_are_refused_at_load(text: str) -> None:
    with pytest.raises(u.GrammarError, match="too large") as info:
        u.load_grammar(text)
    assert info.value.rule in {"r", "s"}


@cache
def _near_the_limit() -> u.Grammar:
    # 600 * 301 + 1 states: under the limit, though a cheap estimate would
    # put it close.  Compiled once for both back ends: seconds of DFA.
    return u.load_grammar('r = 600s\ns = 300"a"\n')


def test_rules_near_the_automaton_limit_load_and_run(backend: Backend) -> None:
    g = _near_the_limit()
    assert g.validate("r", "a" * 180_000, backend=backend)
    assert not g.validate("r", "a" * 179_999, backend=backend)


@pytest.mark.parametrize(
    "text",
    [
        'r = 5000000000"a"\n',
        "r = 1*" + "9" * 500 + '"a"\n',
        "r = %x110000\n",
        "r = %x" + "F" * 30 + "\n",
        "r = %d97." + "9" * 30 + "\n",
    ],
)
def test_numbers_past_what_abnf_can_mean_are_grammar_errors(text: str) -> None:
    with pytest.raises(u.GrammarError):
        u.load_grammar(text)


def test_unreadable_grammar_files_are_grammar_errors(tmp_path: Path) -> None:
    latin = tmp_path / "latin.abnf"
    latin.write_bytes(b'r = "\xe9"\n')
    for source in (latin, tmp_path / "missing.abnf", tmp_path, "a\x00b"):
        with pytest.raises(u.GrammarError, match="cannot read"):
            u.load_grammar(source)


def test_nesting_deeper_than_the_stack_is_undecided_not_invalid() -> None:
    g = u.load_grammar('comment = "(" *(ctext / comment) ")"\nctext = %x61-7A\n')
    deep = "(" * 1000 + ")" * 1000
    with pytest.raises(u.InputTooLongError, match="nested"):
        g.validate("comment", deep)
    with pytest.raises(u.InputTooLongError, match="nested"):
        g.check("comment", deep)
    assert g.validate("comment", "(" * 20 + ")" * 20)


def test_the_automaton_cache_is_bounded_by_what_it_holds(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    from urigrammar.engine.automata import lazy as _prefix

    monkeypatch.setattr(_prefix, "_MAX_CACHED", 5_000)
    g = u.load_grammar('r = *("a" / "b") "a" 60("a" / "b")\n')
    text = "".join("ab"[(i * 7919) % 13 % 2] for i in range(5_000))
    assert g.validate("r", text, backend=backend) == (len(text) > 60 and text[-61] == "a")
    runs = g.runs("r", backend=backend)
    assert runs.validates == "lazy"  # no DFA within its caps
    assert runs._lazy()._cached <= 5_000 + 2 * 200


@given(
    st.lists(st.tuples(st.integers(0, 300), st.integers(0, 40)), max_size=6),
    st.lists(st.tuples(st.integers(0, 300), st.integers(0, 40)), max_size=6),
)
def test_charset_difference_is_set_difference(
    a: list[tuple[int, int]], b: list[tuple[int, int]]
) -> None:
    from urigrammar.engine.syntax.charset import CharSet

    left = CharSet((lo, lo + n) for lo, n in a)
    right = CharSet((lo, lo + n) for lo, n in b)
    assert set(left - right) == set(left) - set(right)


# --- one name, two imports ------------------------------------------------------


def test_two_imports_defining_a_rule_differently_are_a_grammar_error() -> None:
    dates = u.load_grammar('day = 2DIGIT\nsep = "-"\n', name="dates.abnf")
    times = u.load_grammar('hour = 2DIGIT\nsep = ":"\n', name="times.abnf")
    for imports in ([dates, times], [times, dates]):
        with pytest.raises(u.GrammarError) as info:
            u.load_grammar("stamp = day sep hour\n", imports=imports, name="stamp.abnf")
        error = info.value
        assert isinstance(error, u.UrigrammarError)
        assert not isinstance(error, u.URIError)
        assert error.rule == "sep"
        message = str(error)
        assert "'sep'" in message
        assert "dates.abnf" in message
        assert "times.abnf" in message
        assert "stamp.abnf" in message


def test_the_file_settles_a_rule_its_imports_disagree_on(backend: Backend) -> None:
    dates = u.load_grammar('day = 2DIGIT\nsep = "-"\n', name="dates.abnf")
    times = u.load_grammar('hour = 2DIGIT\nsep = ":"\n', name="times.abnf")
    g = u.load_grammar('stamp = day sep hour\nsep = "T"\n', imports=[dates, times])
    assert g.validate("stamp", "01T02", backend=backend)
    assert not g.validate("stamp", "01-02", backend=backend)
    assert g.defined_in("sep") is g
    assert g.defined_in("day") is dates
    assert g.defined_in("HOUR") is times
    assert g.defined_in("DIGIT") is None


def test_a_conflict_deeper_in_the_imports_names_where_each_rule_is_written() -> None:
    left = u.load_grammar('sep = "-"\n', name="left.abnf")
    right = u.load_grammar('sep = ":"\n', name="right.abnf")
    middle = u.load_grammar("pair = sep sep\n", imports=[left], name="middle.abnf")
    with pytest.raises(u.GrammarError, match=r"'sep'.*left\.abnf and right\.abnf"):
        u.load_grammar("top = pair\n", imports=[middle, right])


def test_imports_that_define_a_rule_alike_share_it() -> None:
    # The same expression, spaced, commented and cased otherwise; or one
    # grammar reached through two imports.
    first = u.load_grammar('sep = "-" / "."\n', name="first.abnf")
    second = u.load_grammar('SEP   =   "-"   /   %x2E   ; dot\n', name="second.abnf")
    g = u.load_grammar("pair = sep sep\n", imports=[first, second])
    assert g.defined_in("sep") is first
    assert g.source("sep") == 'sep = "-" / "."\n'
    through = u.load_grammar("one = sep\n", imports=[first])
    diamond = u.load_grammar("two = one sep\n", imports=[through, first])
    assert diamond.validate("two", "-.")


def test_the_shipped_grammars_import_restated_rules_without_conflict() -> None:
    # RFC 6570 imports RFC 3986 and RFC 3987, which both define
    # pct-encoded, unreserved, reserved...: the same rules, restated.
    published = u.RFC6570_PUBLISHED
    for name in ("pct-encoded", "unreserved", "reserved", "IPv6address"):
        assert published.defined_in(name) is u.RFC3986
        assert u.RFC6570.defined_in(name) is u.RFC3986
    assert published.defined_in("ucschar") is u.RFC3987
    assert u.RFC6570.defined_in("literals") is u.RFC6570
    assert published.defined_in("literals") is published
    assert u.RFC6570.defined_in("URI-Template") is published


# --- the lazy automaton's cache: bounded, and answers unchanged -----------------

# A window over the last 61 characters: the lazy DFA meets a new state set
# at nearly every character of a random text, as no DFA within caps can.
WINDOW = 'r = *(%x100-D7FF / "a") "a" 60(%x100-D7FF / "a")\n'


def _window_text(seed: int, length: int) -> str:
    import random

    draw = random.Random(seed)
    return "".join(
        "a" if draw.random() < 0.5 else chr(0x100 + draw.randrange(0xD700)) for _ in range(length)
    )


def test_the_automaton_cache_is_bounded_in_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    from urigrammar.engine.automata import lazy as _prefix

    monkeypatch.setattr(_prefix, "_MAX_ENTRIES", 500)
    monkeypatch.setattr(_prefix, "_MAX_CACHED", 10**9)
    grammar = u.load_grammar(WINDOW)
    bounded = automaton(grammar, "r")
    for seed in range(3):
        text = _window_text(seed, 3_000)
        assert bounded.accepts(text) == (text[-61] == "a")
        assert len(bounded._step) <= 500
        assert len(bounded._sets) <= 501
        assert bounded._cached == sum(len(s) + 1 for s in bounded._sets)


def test_the_automaton_cache_is_bounded_in_the_states_it_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from urigrammar.engine.automata import lazy as _prefix

    monkeypatch.setattr(_prefix, "_MAX_CACHED", 2_000)
    grammar = u.load_grammar(WINDOW)
    bounded = automaton(grammar, "r")
    largest = 0
    for seed in range(3):
        bounded.viable(_window_text(seed, 3_000) + "!")
        largest = max(largest, bounded._cached)
        assert bounded._cached <= 2_000 + 2 * (len(bounded.edges) + 1)
        assert len(bounded._step) <= len(bounded._sets) * (len(bounded._bounds) + 1)
    assert largest > 0


def test_the_automaton_cache_is_keyed_by_class_not_by_character() -> None:
    # Two characters of a wide class, then "a", many times: three state
    # sets in a cycle (no run to skip), and thousands of distinct characters.
    grammar = u.load_grammar('r = *(wide wide "a")\nwide = %x100-D7FF / %xE000-10FFFF\n')
    found = automaton(grammar, "r")
    text = "".join(chr(0x100 + 2 * i) + chr(0x4E00 + 3 * i) + "a" for i in range(3_000))
    assert found.accepts(text)
    assert not found.accepts(text + "\u0100")
    assert len(found._step) <= 3 * 4
    assert len(found._sets) <= 4


@settings(max_examples=examples(60), deadline=None)
@given(
    st.text(st.sampled_from("a\u0100\u4e00!"), max_size=200),
    st.integers(1, 8),
    st.integers(1, 300),
)
def test_a_small_cache_gives_the_same_answers(text: str, entries: int, held: int) -> None:
    from urigrammar.engine.automata import lazy as _prefix

    grammar = u.load_grammar(WINDOW.replace("60(", "6("))
    expected = (automaton(grammar, "r").viable(text), automaton(grammar, "r").accepts(text))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_prefix, "_MAX_ENTRIES", entries)
        patch.setattr(_prefix, "_MAX_CACHED", held)
        small = automaton(grammar, "r")
        assert (small.viable(text), small.accepts(text)) == expected
        assert len(small._step) <= entries
