"""Reading ABNF text: urigrammar's one-pass reader (``syntax.rulelist``)
against ``abnf``'s reading of the same text, and the bounds that keep a
load linear in the text (``syntax.limits``)."""

from __future__ import annotations

import functools
import sys
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from abnf.parser import ABNFGrammarRule, ParseError
from hypothesis import given, settings
from hypothesis import strategies as st

import urigrammar as u
from _budget import examples
from urigrammar.engine import Backend
from urigrammar.engine.syntax.charset import CharSet
from urigrammar.engine.syntax.ir import Alt, Chars, Expr, Ref, Rep, Seq
from urigrammar.engine.syntax.limits import (
    MAX_DEPTH,
    MAX_GRAMMAR_LENGTH,
    MAX_RULE_LENGTH,
)
from urigrammar.engine.syntax.reader import RuleText, crlf, read_rules

GRAMMARS = sorted((Path(__file__).parents[2] / "grammar").glob("*.abnf"))


# --- abnf's reading, as the oracle -------------------------------------------------


def _kids(node: Any, name: str) -> list[Any]:
    return [child for child in node.children if child.name == name]


class _Prose(Exception):
    pass


def _alternation(node: Any) -> Expr:
    items = [_concatenation(c) for c in _kids(node, "concatenation")]
    return items[0] if len(items) == 1 else Alt(tuple(items))


def _concatenation(node: Any) -> Expr:
    items = [_repetition(c) for c in _kids(node, "repetition")]
    return items[0] if len(items) == 1 else Seq(tuple(items))


def _repetition(node: Any) -> Expr:
    element = _kids(node, "element")[0].children[0]
    repeats = _kids(node, "repeat")
    if not repeats:
        return _element(element)
    lo, star, hi = repeats[0].value.partition("*")
    low, high = int(lo or 0), (int(hi) if hi else None) if star else int(lo)
    return Seq(()) if high == 0 else Rep(low, high, _element(element))


def _chars(text: str, *, sensitive: bool) -> Expr:
    items = []
    for char in text:
        codes = {ord(char)}
        if not sensitive:
            codes |= {ord(char.lower()), ord(char.upper())}
        items.append(Chars(CharSet.of(codes)))
    return items[0] if len(items) == 1 else Seq(tuple(items))


def _element(node: Any) -> Expr:
    if node.name == "rulename":
        return Ref(node.value)
    if node.name in ("group", "option"):
        inner = _alternation(_kids(node, "alternation")[0])
        return inner if node.name == "group" else Rep(0, 1, inner)
    if node.name == "char-val":
        kind = node.children[0]
        quoted = _kids(kind, "quoted-string")[0].value[1:-1]
        return _chars(quoted, sensitive=kind.name == "case-sensitive-string")
    if node.name == "num-val":
        base = {"b": 2, "d": 10, "x": 16}[node.value[1].lower()]
        body = node.value[2:]
        if "-" in body:
            lo, hi = (int(part, base) for part in body.split("-"))
            return Chars(CharSet([(lo, hi)]))
        codes = [Chars(CharSet.of([int(part, base)])) for part in body.split(".")]
        return codes[0] if len(codes) == 1 else Seq(tuple(codes))
    raise _Prose


def abnf_reading(text: str) -> list[tuple[str, bool, Expr | None, str]] | None:
    """Each rule line of ``text`` as ``abnf`` reads it: name, whether it
    is ``=/``, its expression (``None`` when wholly prose) and its text;
    ``None`` when ``abnf`` does not read the text as a rule list."""
    try:
        tree = ABNFGrammarRule("rulelist").parse_all(crlf(text))
    except ParseError:
        return None
    found = []
    for rule in _kids(tree, "rule"):
        alternation = _kids(_kids(rule, "elements")[0], "alternation")[0]
        try:
            expr: Expr | None = _alternation(alternation)
        except _Prose:
            expr = None
        name = _kids(rule, "rulename")[0].value
        found.append((name, "=/" in _kids(rule, "defined-as")[0].value, expr, rule.value))
    return found


def folded(lines: list[tuple[str, bool, Expr | None, str]]) -> dict[str, Expr | None]:
    """Rule lines folded as RFC 5234 section 3.3 says (``=/`` adds)."""
    rules: dict[str, Expr | None] = {}
    for name, incremental, expr, _ in lines:
        key = name.casefold()
        old = rules.get(key)
        if incremental and old and expr:
            # One alternation: =/ adds alternatives (RFC 5234 section 3.3).
            parts = [x.items if isinstance(x, Alt) else (x,) for x in (old, expr)]
            rules[key] = Alt((*parts[0], *parts[1]))
        else:
            rules[key] = expr
    return rules


# --- texts to read ----------------------------------------------------------------

_GAPS = st.sampled_from([" ", "  ", "\t", "\n ", " ; note\n  ", "\n\t", " ;\n "])
_NAMES = st.sampled_from(["a", "B", "r-1", "x2", "DIGIT", "ALPHA"])
_QUOTED = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters='"'))
_ATOMS = st.one_of(
    _NAMES,
    _QUOTED.map(lambda s: f'"{s[:5]}"'),
    st.tuples(st.sampled_from(["%s", "%i", "%S", "%I"]), _QUOTED).map(
        lambda p: f'{p[0]}"{p[1][:4]}"'
    ),
    st.integers(0x20, 0x2FF).map(lambda n: f"%x{n:X}"),
    st.tuples(st.integers(0, 200), st.integers(0, 200)).map(lambda p: f"%d{min(p)}-{max(p)}"),
    st.lists(st.integers(0, 255), min_size=1, max_size=3).map(
        lambda ns: "%b" + ".".join(f"{n:b}" for n in ns)
    ),
    st.lists(st.integers(0x41, 0x7A), min_size=2, max_size=3).map(
        lambda ns: "%X" + ".".join(f"{n:x}" for n in ns)
    ),
)
_REPEATS = st.sampled_from(["", "", "*", "1*", "*3", "2", "0", "1*2", "0*0"])


def _alternation_text(leaves: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    repetition = st.tuples(_REPEATS, leaves).map("".join)
    concatenation = st.lists(st.tuples(_GAPS, repetition), min_size=1, max_size=3).map(
        lambda parts: parts[0][1] + "".join(gap + item for gap, item in parts[1:])
    )
    return st.lists(st.tuples(_GAPS, concatenation), min_size=1, max_size=3).map(
        lambda parts: parts[0][1] + "".join(f"{gap}/{gap}{item}" for gap, item in parts[1:])
    )


_ELEMENTS = st.recursive(
    _ATOMS,
    lambda inner: _alternation_text(inner).flatmap(
        lambda body: st.sampled_from([f"({body})", f"[ {body} ]", f"( {body}\n )"])
    ),
    max_leaves=6,
)
_RULES = st.one_of(
    st.tuples(
        _NAMES,
        st.sampled_from([" = ", "=", " =/ ", "\t=\t", " =\n  "]),
        _alternation_text(_ELEMENTS),
        st.sampled_from(["", " ", " ; why", "\n  ; more", "\t;\t"]),
    ).map(lambda p: "".join(p) + "\n"),
    _NAMES.map(lambda name: f"{name} = <some prose, in words>\n"),
    st.sampled_from(["\n", "; a comment line\n", "   \n", "  ; indented comment\n"]),
)
_TEXTS = st.lists(_RULES, min_size=1, max_size=5).map("".join)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    """A text, and sometimes one character of it inserted, deleted or
    changed: most are then not rule lists, some still are."""
    text = draw(_TEXTS)
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text)))
        char = draw(st.sampled_from(list('()[]<>"%;/=*-. \t\nx1é')))
        how = draw(st.sampled_from(["insert", "delete", "replace"]))
        if how == "insert":
            text = text[:at] + char + text[at:]
        else:
            text = text[:at] + (char if how == "replace" else "") + text[at + 1 :]
    return text


@given(_mutated())
@settings(max_examples=examples(150), deadline=None)  # abnf reads slowly
def test_the_reader_reads_what_abnf_reads(text: str) -> None:
    oracle = abnf_reading(text)
    ours: list[Any] | str
    try:
        ours = read_rules(text)
    except u.GrammarError as error:
        ours = error.message
    if oracle is None:
        assert isinstance(ours, str)
        assert "not an ABNF rule list" in ours
        return
    if isinstance(ours, str):
        # A rule list, but not one that can be used: =/ before =, a rule
        # defined twice, prose mixed with ABNF.
        assert "not an ABNF rule list" not in ours
        return
    assert {rule.name.casefold(): rule.expr for rule in ours} == folded(oracle)
    # Each rule's definition as written, its =/ lines in order.
    sources: dict[str, list[str]] = {}
    for name, _, _, value in oracle:
        sources.setdefault(name.casefold(), []).append(value.replace("\r\n", "\n"))
    assert {rule.name.casefold(): list(rule.source) for rule in ours} == sources


@pytest.mark.parametrize("path", GRAMMARS, ids=lambda path: path.name)
def test_every_shipped_grammar_reads_as_abnf_reads_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    oracle = abnf_reading(text)
    assert oracle is not None
    assert {rule.name.casefold(): rule.expr for rule in read_rules(text)} == folded(oracle)


def test_a_syntax_error_points_at_the_character_that_is_wrong() -> None:
    text = 'a = "x"\nb = ( "y" / "z" ]\nc = "w"\n'
    with pytest.raises(u.GrammarError) as info:
        u.load_grammar(text)
    assert info.value.offset == text.index("]")
    assert "line 2, column 17: unexpected ']'" in info.value.message


# --- limits: each refused before the work it bounds -----------------------------------


def _peak(call: Any) -> tuple[Any, int]:
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("length", [32_000, 1_000_000])
def test_a_long_comment_loads_in_memory_linear_in_it(length: int) -> None:
    # abnf's reader of the whole text took 53 s and 7.85 GB for 32,000
    # characters, and ran out of memory at a million.
    text = 'a = "x" ; ' + "c" * length + '\nb = a "y"\n'
    grammar, peak = _peak(lambda: u.load_grammar(text))
    assert grammar.validate("b", "xy")
    assert peak < 20 * len(text) + 20_000_000


@functools.cache
def _chain() -> u.Grammar:
    # Loaded once for both back ends' tests: a second load proves nothing.
    return u.load_grammar(
        "".join(f"r{i} = r{i + 1}\n" for i in range(20_000)) + 'r20000 = "x" DIGIT\n'
    )


def test_a_chain_of_twenty_thousand_rules_loads_and_validates(backend: Backend) -> None:
    grammar = _chain()
    assert grammar.validate("r0", "x1", backend=backend)
    assert not grammar.validate("r0", "x", backend=backend)


@pytest.mark.parametrize(
    "definition",
    [
        '"' + "c" * 50_000 + '"',  # a long literal: a MemoryError in abnf
        " / ".join(f'"{i}"' for i in range(8_000)),  # many alternatives
        " ".join(["%x41"] * (MAX_RULE_LENGTH // 5 + 1)),
        '"a"\n  / "b" ; ' + "c" * MAX_RULE_LENGTH + "\n  / " + '"d" ' * 1000,
    ],
    ids=["literal", "alternatives", "just-past", "continued"],
)
def test_a_rule_past_max_rule_length_is_refused_naming_it_and_where(definition: str) -> None:
    text = f'ok = "a" ; {"c" * 100}\nlong = {definition}\n'
    with pytest.raises(u.GrammarError, match="MAX_RULE_LENGTH") as info:
        u.load_grammar(text)
    assert info.value.rule == "long"
    assert info.value.offset == text.index("long =")
    assert "comments not counted" in info.value.message


def test_a_rule_at_max_rule_length_loads_its_comments_not_counted() -> None:
    body = '"' + "c" * (MAX_RULE_LENGTH - 16) + '"'
    text = f"long = {body} ; {'x' * MAX_RULE_LENGTH}\n"
    assert len(f"long = {body}\r\n") <= MAX_RULE_LENGTH
    assert u.load_grammar(text).validate("long", "c" * (MAX_RULE_LENGTH - 16))


def test_incremental_lines_count_together() -> None:
    line = '"' + "c" * (MAX_RULE_LENGTH // 3) + '"'  # two fit, three do not
    text = f"r = {line}\nr =/ {line}\nr =/ {line}\nr =/ {line}\n"
    with pytest.raises(u.GrammarError, match="MAX_RULE_LENGTH") as info:
        u.load_grammar(text)
    assert info.value.offset == text.index("r =/", text.index("r =/") + 1)


def test_a_text_past_max_grammar_length_is_refused_before_it_is_read(tmp_path: Path) -> None:
    text = "; " + "c" * MAX_GRAMMAR_LENGTH + "\n"
    with pytest.raises(u.GrammarError, match="MAX_GRAMMAR_LENGTH"):
        u.load_grammar(text)
    path = tmp_path / "large.abnf"
    path.write_text(text, encoding="utf-8")

    def load() -> str:
        with pytest.raises(u.GrammarError) as info:
            u.load_grammar(path)
        return info.value.message

    message, peak = _peak(load)
    assert "MAX_GRAMMAR_LENGTH" in message
    # The file is read up to one character past the limit, and no further.
    assert peak < 6 * MAX_GRAMMAR_LENGTH


def test_a_chain_nesting_past_max_depth_is_refused_at_its_rule() -> None:
    links = MAX_DEPTH // 2 + 5
    text = "".join(f'r{i} = "a" r{i + 1} / "b"\n' for i in range(links)) + f'r{links} = "c"\n'
    grammar = u.load_grammar(text)
    with pytest.raises(u.GrammarError, match="MAX_DEPTH") as info:
        grammar.validate("r0", "ab")
    assert info.value.rule == "r0"
    assert grammar.validate(f"r{links - 40}", "a" * 40 + "c")  # within


def test_the_abnf_engine_reads_rules_one_at_a_time() -> None:
    # A recursive rule runs on abnf's engine, which reads the rule's text
    # (its comments left out) when first asked.
    text = 'list = "(" *( "a" / list ) ")" ; ' + "c" * 50_000 + "\n"
    grammar = u.load_grammar(text)
    assert grammar.validate("list", "(a(a)())")
    assert not grammar.validate("list", "(a")


def test_many_incremental_lines_fold_into_one_alternation(backend: Backend) -> None:
    # Each =/ line nested one level deeper would be past the stack here.
    grammar = u.load_grammar("a=b\n" + "a=/b\n" * 600 + 'b = "x"\n')  # within MAX_RULE_LENGTH
    assert grammar.validate("a", "x", backend=backend)
    assert not grammar.validate("a", "xx", backend=backend)


def test_a_line_of_unclosed_brackets_is_measured_in_one_pass() -> None:
    with pytest.raises(u.GrammarError, match="MAX_RULE_LENGTH"):
        u.load_grammar("a = " + "<" * 200_000 + "\n")


def test_a_chain_of_captured_rules_past_the_stack_is_refused_at_its_rule() -> None:
    text = "".join(f'r{i} = r{i + 1} / "a"\n' for i in range(300)) + 'r300 = "x"\n'
    grammar = u.load_grammar(text)
    assert grammar.parse("r0", "x") is not None
    with pytest.raises(u.GrammarError, match="MAX_DEPTH") as info:
        grammar.parse("r0", "x", captures=[f"r{i}" for i in range(300)])
    assert info.value.rule == "r0"


@pytest.mark.thread_unsafe  # it starts its own threads and sets the switch interval
def test_a_rule_read_later_gives_its_expression_to_threads_that_ask_at_once() -> None:
    # Threads switch every microsecond, so some ask while another has
    # decoded the rule and not yet returned; every one gets the expression.
    expr = Chars(CharSet.of([0x61]))
    rules = [RuleText.later(f"r{n}", False, lambda: (expr, ("r = %x61",))) for n in range(3000)]
    seen: list[object] = []
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            seen.extend(rule.expr for rule in rules)
        except BaseException as exc:  # the test reports whatever a thread raises
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert len(seen) == 8 * len(rules)
    assert all(got is expr for got in seen)
