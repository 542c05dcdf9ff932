"""``Grammar.regex``: a rule as a regex of Python's ``re``, RE2, Rust's
``regex`` or Java, for any grammar.  Group names, anchoring, surrogates,
and the refusals (``RegexExportError``) where a flavour's engine has a
limit or would backtrack; the agreement of every shipped rule with
``validate`` in the real engines is ``tests/columns/test_regex_engines.py``."""

from __future__ import annotations

import pickle
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urigrammar as u
from _budget import examples
from urigrammar.engine import FLAVOURS
from urigrammar.engine.regex.flavours import group_name
from urigrammar.strategies import from_rule

# What each flavour takes as a group name: Python an identifier (ASCII
# here), RE2 and Rust word characters not starting with a digit, Java a
# letter then letters and digits.
VALID_NAME = {
    "python": re.compile("[A-Za-z_][A-Za-z0-9_]*"),
    "re2": re.compile("[A-Za-z_][A-Za-z0-9_]*"),
    "rust": re.compile("[A-Za-z_][A-Za-z0-9_]*"),
    "java": re.compile("[A-Za-z][A-Za-z0-9]*"),
}
# RFC 5234 section 2.1: a letter, then letters, digits and hyphens.
RULE_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,12}", fullmatch=True)


@pytest.mark.parametrize("flavour", list(FLAVOURS))
@settings(max_examples=examples(100))
@given(names=st.lists(RULE_NAMES, max_size=12))
def test_group_names_are_valid_and_never_repeat(flavour: str, names: list[str]) -> None:
    taken: set[str] = set()
    for name in names:
        found = group_name(name, FLAVOURS[flavour], taken)
        assert VALID_NAME[flavour].fullmatch(found), found
        assert found not in taken
        taken.add(found)


@pytest.mark.parametrize("flavour", list(FLAVOURS))
@pytest.mark.parametrize("rule", ["URI-reference", "IRI-reference", "path"])
def test_every_occurrence_of_a_captured_rule_is_one_named_group(rule: str, flavour: str) -> None:
    grammar = u.grammar_of(rule)
    captures = grammar.default_captures(rule)
    found = grammar.regex(rule, flavour, captures=captures)
    names = [g for g, _ in found.groups]
    assert len(set(names)) == len(names)
    assert all(VALID_NAME[flavour].fullmatch(n) for n in names)
    assert {r for _, r in found.groups} <= set(captures)
    # The pattern opens exactly these groups, in this order.
    opening = "(?P<" if flavour != "java" else "(?<"
    assert re.findall(re.escape(opening) + "([A-Za-z0-9_]+)>", found.pattern) == names
    if flavour == "python":
        assert list(re.compile(found.pattern).groupindex) == names


@settings(max_examples=examples(50), deadline=None)
@given(
    st.sampled_from(["URI", "host", "IPv6address", "segment-nz"]).flatmap(
        lambda r: st.tuples(st.just(r), from_rule(r))
    )
)
def test_a_group_in_a_repetition_is_numbered_as_listed(drawn: tuple[str, str]) -> None:
    # (c|o)+ with a group in o: the group is written once, so the table of
    # groups and the pattern's numbers agree.
    rule, text = drawn
    grammar = u.grammar_of(rule)
    found = grammar.regex(rule, "python", captures=["pct-encoded", "h16", "dec-octet"])
    compiled = re.compile(found.pattern)
    assert compiled.groups == len(found.groups)
    assert compiled.search(text) is not None


@pytest.mark.parametrize("flavour", ["python", "re2"])
@pytest.mark.parametrize("rule", ["URI", "host", "path-abempty", "ALPHA"])
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data())
def test_the_pattern_is_anchored_at_both_ends(flavour: str, rule: str, data: st.DataObject) -> None:
    # Under search semantics nothing before or after a match may pass, a
    # trailing newline included (which Python's $ would let through).
    engine = re if flavour == "python" else pytest.importorskip("re2")
    text = data.draw(from_rule(rule))
    pattern = u.regex(rule, flavour).pattern
    assert engine.search(pattern, text) is not None
    for longer in (text + "\n", "\n" + text, text + " ", "\x00" + text):
        assert (engine.search(pattern, longer) is not None) == u.validate(rule, longer)


@pytest.mark.parametrize("rule", ["host", "IPv6address", "URI-reference", "dec-octet"])
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data())
def test_the_body_is_one_atom(rule: str, data: st.DataObject) -> None:
    # Embedded in a larger pattern, an alternation must not take what follows.
    text = data.draw(from_rule(rule))
    body = u.regex(rule, "python").body
    assert re.fullmatch(f"{body}!", text + "!") is not None
    assert re.fullmatch(f"{body}!", text + "x!") is None or u.validate(rule, text + "x")


def test_possessive_quantifiers_only_where_the_engine_has_them() -> None:
    for rule in ("URI", "IRI", "path-abempty"):
        for flavour in ("re2", "rust"):
            pattern = u.regex(rule, flavour).pattern
            assert not re.search(r"[*+?}]\+", pattern), (rule, flavour)
        assert re.search(r"[*+?}]\+", u.regex(rule, "java").pattern)
        has = bool(re.search(r"[*+?}]\+", u.regex(rule, "python").pattern))
        assert has == (sys.version_info >= (3, 11))


SURROGATE_GRAMMAR = "wide = %xD7FF-E000\nlone = %xD800-DFFF\n"


@pytest.mark.parametrize("flavour", ["re2", "rust"])
def test_utf8_dialects_leave_surrogates_out(flavour: str) -> None:
    g = u.load_grammar(SURROGATE_GRAMMAR)
    wide = g.regex("wide", flavour).pattern
    assert "D800" not in wide
    assert "DFFF" not in wide
    if flavour == "re2":
        re2 = pytest.importorskip("re2")
        assert re2.search(wide, "\ud7ff")
        assert re2.search(wide, "\ue000")
        assert not re2.search(g.regex("lone", flavour).pattern, "a")
    else:
        pl = pytest.importorskip("polars")
        matched = pl.Series(["\ud7ff", "\ue000", "a"]).str.contains(wide).to_list()
        assert matched == [True, True, False]
        assert not pl.Series(["a"]).str.contains(g.regex("lone", flavour).pattern).any()


def test_python_keeps_surrogates() -> None:
    g = u.load_grammar(SURROGATE_GRAMMAR)
    for text in ("\ud7ff", "\ud800", "\udfff", "\ue000"):
        assert (re.search(g.regex("wide", "python").pattern, text) is not None) == g.validate(
            "wide", text
        )


def test_non_bmp_code_points_are_spelled_per_dialect() -> None:
    g = u.load_grammar("emoji = %x1F600-1F64F\n")
    assert "\\U0001f600" in g.regex("emoji", "python").pattern
    for flavour in ("re2", "rust", "java"):
        assert "\\x{1F600}" in g.regex("emoji", flavour).pattern


# --- refusals -------------------------------------------------------------------


def refusal(grammar: u.Grammar, rule: str, flavour: str) -> u.RegexExportError:
    with pytest.raises(u.RegexExportError) as info:
        grammar.regex(rule, flavour)
    error = info.value
    assert isinstance(error, u.GrammarError)
    assert error.rule == rule
    assert error.flavour == flavour
    assert repr(rule) in str(error)
    assert flavour in str(error)
    return error


@pytest.mark.parametrize("flavour", list(FLAVOURS))
def test_a_rule_that_reaches_itself_has_no_regex(flavour: str) -> None:
    g = u.load_grammar('nested = "(" *( "a" / nested ) ")"\n')
    assert "not regular" in str(refusal(g, "nested", flavour))


def test_a_regex_that_could_backtrack_is_refused_where_the_engine_backtracks() -> None:
    # (x / xx)* then y: exponentially many splits of a run of x.
    g = u.load_grammar('a = *(b / "x") "y"\nb = "x" / "xx"\n')
    for flavour in ("python", "java"):
        assert "backtrack" in str(refusal(g, "a", flavour))
    # An automaton takes it, in linear time.
    re2 = pytest.importorskip("re2")
    pattern = g.regex("a", "re2").pattern
    assert not re2.search(pattern, "x" * 100_000)
    assert re2.search(pattern, "x" * 100_000 + "y")
    assert re2.search(pattern, "xxy")


def test_a_chain_of_bounded_choices_is_refused_outside_vetted_grammars() -> None:
    g = u.load_grammar("r = " + '["a"] ' * 40 + '"b"\n')
    refusal(g, "r", "python")
    refusal(g, "r", "java")
    re2 = pytest.importorskip("re2")
    assert not re2.search(g.regex("r", "re2").pattern, "a" * 41 + "b")
    assert re2.search(g.regex("r", "re2").pattern, "a" * 40 + "b")


def test_re2_takes_nested_counts_up_to_their_product_of_1000() -> None:
    re2 = pytest.importorskip("re2")
    g = u.load_grammar('fits = 10(100"a")\nover = 11(100"a")\nflat = 1001"a"\n')
    assert re2.search(g.regex("fits", "re2").pattern, "a" * 1000)
    refusal(g, "over", "re2")
    refusal(g, "flat", "re2")
    # RE2 itself refuses what is refused here.
    import dataclasses

    from urigrammar.engine.regex.flavours import export

    lax = dataclasses.replace(FLAVOURS["re2"], max_repeat=None)
    for rule in ("over", "flat"):
        body = g.program(rule).body
        assert body is not None
        with pytest.raises(re2.error):
            re2.compile(export(rule, body, lax, vetted=g.vetted).pattern)
    for flavour in ("python", "rust", "java"):
        assert g.regex("over", flavour).pattern


@pytest.mark.parametrize("flavour", ["re2", "rust"])
def test_a_pattern_past_the_engines_size_is_refused(flavour: str) -> None:
    big = " ".join(["%x80-10FFFF"] * 48)
    g = u.load_grammar(f"big = 999({big})\nsmall = 999(%x80-10FFFF %x80-10FFFF)\n")
    assert "instructions" in str(refusal(g, "big", flavour))
    pattern = g.regex("small", flavour).pattern
    if flavour == "re2":
        re2 = pytest.importorskip("re2")
        assert not re2.search(pattern, "a")
    else:
        pl = pytest.importorskip("polars")
        assert not pl.Series(["a"]).str.contains(pattern).any()


def test_a_chain_nested_past_max_depth_is_refused_and_one_within_runs_in_rust() -> None:
    # Each link wraps the next in a sequence inside an alternation: two
    # levels a link once the references are written in.
    chain = "".join(f'r{i} = "a" r{i + 1} / "b"\n' for i in range(70)) + 'r70 = "c"\n'
    g = u.load_grammar(chain)
    for flavour in ("python", "re2", "rust"):
        with pytest.raises(u.GrammarError, match="MAX_DEPTH") as info:
            g.regex("r0", flavour)
        assert info.value.rule == "r0"
    assert g.validate("r25", "a" * 45 + "c")  # forty-five links: within
    pl = pytest.importorskip("polars")
    assert pl.Series(["a" * 45 + "c"]).str.contains(g.regex("r25", "rust").pattern).all()


def test_an_unknown_flavour_is_an_export_error_naming_the_flavours() -> None:
    for call in (lambda: u.RFC3986.regex("URI", "pcre"), lambda: u.regex("URI", "pcre")):
        with pytest.raises(u.RegexExportError, match="'re2'") as info:
            call()
        assert info.value.flavour == "pcre"
    with pytest.raises(TypeError):
        u.regex("URI", None)  # type: ignore[arg-type]


def test_the_error_pickles() -> None:
    g = u.load_grammar('nested = "(" *( "a" / nested ) ")"\n')
    error = refusal(g, "nested", "rust")
    back = pickle.loads(pickle.dumps(error))
    assert back == error
    assert back.flavour == "rust"


def test_regexes_are_kept() -> None:
    assert u.RFC3986.regex("URI", "re2") is u.RFC3986.regex("URI", "re2")
    assert u.regex("URI", "rust") == u.RFC3986.regex("URI", "rust")
