"""``Grammar.parse``: where each captured rule matched, on any grammar.

The oracles: the other back end (the C tagged DFA against the regex or
the tables run in Python), a Pike VM over the same automaton, and
``abnf``'s derivation trees, on strings generated from every regular rule
of the shipped grammars and of ``abnf``'s transcriptions of RFC 3339, RFC
5646, RFC 4647 and RFC 5322."""

from __future__ import annotations

import functools
import importlib
import pickle

import pytest
from hypothesis import HealthCheck, given, settings

import urigrammar as u
from _budget import examples
from urigrammar.engine import BACKENDS, NATIVE, PURE, Backend, Grammar
from urigrammar.engine.automata.pike import PikeVM
from urigrammar.engine.backend.pure import occurrences, table_events
from urigrammar.engine.reference import tree_spans
from urigrammar.strategies import from_rule

# The longest generated text the abnf engine is asked about: its time grows
# with the square of the length.
TREE_LENGTH = 120


@functools.cache
def abnf_grammar(module: str) -> Grammar:
    """One of ``abnf``'s own transcriptions of an RFC's ABNF, loaded here."""
    rules = importlib.import_module(f"abnf.grammars.{module}").Rule.grammar
    text = "\n".join(rules) + "\n" if isinstance(rules, list) else rules
    return u.load_grammar(text, name=module)


GRAMMARS = {
    "RFC3986": lambda: u.RFC3986,
    "RFC3987": lambda: u.RFC3987,
    "RFC6570": lambda: u.RFC6570,
    "rfc3339": lambda: abnf_grammar("rfc3339"),
    "rfc5646": lambda: abnf_grammar("rfc5646"),
    "rfc4647": lambda: abnf_grammar("rfc4647"),
    "rfc5322": lambda: abnf_grammar("rfc5322"),
}


def _rule_cases() -> list[tuple[str, str]]:
    """Every regular rule, once: RFC 6570's grammar holds RFC 3986's and
    RFC 3987's rules too."""
    cases = []
    seen: set[str] = set()
    for label, grammar in GRAMMARS.items():
        found = grammar()
        for rule in found.rule_names:
            if found.is_regular(rule) and (label.islower() or rule not in seen):
                cases.append((label, rule))
                seen.add(rule)
    return cases


def _every_span(match: u.RuleMatch) -> dict[str, object]:
    return {name.casefold(): (match.span(name), match.spans(name)) for name in match.captures}


def _history(match: u.RuleMatch) -> dict[str, tuple[tuple[int, int], ...]]:
    return {c.casefold(): match.spans(c) for c in match.captures if match.spans(c)}


@pytest.mark.parametrize(("label", "rule"), _rule_cases())
def test_spans_agree_with_the_other_engines(label: str, rule: str) -> None:
    grammar = GRAMMARS[label]()
    captures = frozenset(grammar.default_captures(rule)) - {rule}
    program = grammar.program(rule, captures)
    # The Pike VM's automaton, built once for the rule's examples.
    automaton = None if program.body is None or not captures else PikeVM(program.body)

    @settings(
        max_examples=examples(4),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(from_rule(rule, grammar=grammar))
    def check(text: str) -> None:
        found = [grammar.parse(rule, text, backend=b) for b in BACKENDS]
        # Every back end reads the text alike, first and every occurrence.
        assert all(_every_span(f) == _every_span(found[0]) for f in found), text
        match = found[0]
        # The last occurrence is the one that starts last.
        for name in match.captures:
            spans = match.spans(name)
            assert match.span(name) == (spans[-1] if spans else None)
            for start, end in spans:  # each is a text of its rule
                assert grammar.validate(name, text[start:end]), (name, text)
        if program.tagged is not None and automaton is not None:
            # The tables' run and a Pike VM over the same automaton.
            events = automaton.events(text)
            assert events is not None
            mine = occurrences(events, tuple(automaton.names))
            run = table_events(program.tagged, text)
            assert run is not None
            assert occurrences(run, program.tagged.names) == mine
        if len(text) > TREE_LENGTH:
            return
        # abnf's tree takes an alternation's longest alternative.  Where that
        # reading differs (an ambiguous text), abnf in first-match mode gives
        # the reading of RFC 3986's "first-match-wins", unless it fails for
        # want of backtracking (RFC 5322's FWS, obs-FWS and unstructured):
        # then only the check above, that each span is a text of its rule.
        keys = frozenset(c.casefold() for c in match.captures)
        longest = grammar.abnf_parse(rule, text)
        assert longest is not None, text
        if tree_spans(longest, keys) != _history(match):
            first = grammar.abnf_parse(rule, text, first_match=True)
            if first is not None:
                assert tree_spans(first, keys) == _history(match), text
            else:
                assert label == "rfc5322", text

    check()


# --- RFC examples -------------------------------------------------------------

# RFC 3339 section 5.8.
DATE_TIMES = [
    "1985-04-12T23:20:50.52Z",
    "1996-12-19T16:39:57-08:00",
    "1990-12-31T23:59:60Z",
    "1990-12-31T15:59:60-08:00",
    "1937-01-01T12:00:27.87+00:20",
]


@pytest.mark.parametrize("text", DATE_TIMES)
def test_rfc3339_date_time_fields(text: str, backend: Backend) -> None:
    found = abnf_grammar("rfc3339").parse("date-time", text, backend=backend)
    date, _, time = text.partition("T")
    assert found.group("full-date") == date
    assert found.group("full-time") == time
    assert found.groups("date-fullyear") == (date[:4],)
    assert found.group("date-month") == date[5:7]
    assert found.group("date-mday") == date[8:10]
    fraction = time[8:].rstrip("Z").split("+")[0].split("-")[0]
    assert found.group("time-secfrac") == (fraction or None)
    offset = time[8 + len(fraction) :]
    assert found.group("time-offset") == offset
    # time-hour is read twice where the offset is numeric: the last is the offset's.
    hours = found.groups("time-hour")
    assert hours == ((time[:2], offset[1:3]) if offset != "Z" else (time[:2],))


# RFC 5646 section 2.1.1 and Appendix A: (tag, the subtags by rule).
LANGUAGE_TAGS = [
    ("de", {"language": ("de",)}),
    ("zh-Hant", {"language": ("zh",), "script": ("Hant",)}),
    ("zh-Hans-CN", {"language": ("zh",), "script": ("Hans",), "region": ("CN",)}),
    ("sl-rozaj-biske", {"language": ("sl",), "variant": ("rozaj", "biske")}),
    ("de-CH-1901", {"language": ("de",), "region": ("CH",), "variant": ("1901",)}),
    ("es-419", {"language": ("es",), "region": ("419",)}),
    ("zh-yue-HK", {"language": ("zh-yue",), "extlang": ("yue",), "region": ("HK",)}),
    ("en-US-x-twain", {"region": ("US",), "privateuse": ("x-twain",)}),
    ("de-DE-u-co-phonebk", {"region": ("DE",), "extension": ("u-co-phonebk",)}),
    ("x-whatever", {"privateuse": ("x-whatever",), "langtag": ()}),
    ("i-klingon", {"grandfathered": ("i-klingon",), "irregular": ("i-klingon",)}),
]


@pytest.mark.parametrize(("text", "parts"), LANGUAGE_TAGS)
def test_rfc5646_subtags(text: str, parts: dict[str, tuple[str, ...]], backend: Backend) -> None:
    found = abnf_grammar("rfc5646").parse("Language-Tag", text, backend=backend)
    for rule, values in parts.items():
        assert found.groups(rule) == values, rule


# --- the value ------------------------------------------------------------------

NESTED = 'nested = "(" *( name / nested ) ")"\nname = 1*ALPHA\n'


def test_a_rule_that_reaches_itself_is_read_from_abnfs_tree(backend: Backend) -> None:
    grammar = u.load_grammar(NESTED)
    found = grammar.parse("nested", "(a(bc)(d(e)))", backend=backend)
    assert found.groups("nested") == ("(a(bc)(d(e)))", "(bc)", "(d(e))", "(e)")
    assert found.group("nested") == "(a(bc)(d(e)))"  # the last to close
    assert found.groups("name") == ("a", "bc", "d", "e")
    assert found.group("name") == "e"
    with pytest.raises(u.InputTooLongError):
        grammar.parse("nested", "(" * 3000 + ")" * 3000, backend=backend)


def test_default_captures_are_the_rules_the_grammar_names() -> None:
    captures = u.RFC3986.default_captures("URI")
    assert {"scheme", "host", "IPv4address", "dec-octet", "pct-encoded"} <= set(captures)
    # No core rule, and no rule of one character.
    assert not {"ALPHA", "DIGIT", "HEXDIG", "unreserved", "sub-delims"} & set(captures)
    assert "URI" not in captures
    dates = abnf_grammar("rfc3339")
    assert dates.parse("date-time", DATE_TIMES[0]).captures == dates.default_captures("date-time")


def test_captures_names_what_is_kept(backend: Backend) -> None:
    grammar = abnf_grammar("rfc3339")
    found = grammar.parse("date-time", DATE_TIMES[1], captures=["DATE-MONTH"], backend=backend)
    assert found.captures == ("date-month",)  # as the grammar spells it
    assert found.group("date-month") == "12"
    assert found.span("date-time") == (0, len(DATE_TIMES[1]))
    with pytest.raises(u.UnknownRuleError, match="not captured"):
        found.group("date-mday")
    with pytest.raises(u.UnknownRuleError, match="unknown rule"):
        grammar.parse("date-time", DATE_TIMES[1], captures=["date-moth"], backend=backend)
    with pytest.raises(TypeError):
        grammar.parse("date-time", DATE_TIMES[1], captures="date-month", backend=backend)
    bare = grammar.parse("date-time", DATE_TIMES[1], captures=[], backend=backend)
    assert bare.captures == ()
    assert bare.spans("date-time") == ((0, len(DATE_TIMES[1])),)


def test_a_text_the_rule_does_not_match_raises_with_the_offset(backend: Backend) -> None:
    grammar = abnf_grammar("rfc3339")
    with pytest.raises(u.RuleMatchError) as info:
        grammar.parse("date-time", "1985-04-12T2x", backend=backend)
    assert (info.value.rule, info.value.offset) == ("date-time", 12)
    with pytest.raises(TypeError):
        grammar.parse("date-time", b"1985", backend=backend)  # type: ignore[arg-type]


def test_a_match_is_an_immutable_value_that_pickles(backend: Backend) -> None:
    found = abnf_grammar("rfc5646").parse("Language-Tag", "sl-rozaj-biske", backend=backend)
    with pytest.raises(AttributeError):
        found.text = "x"  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(found))
    assert again == found
    assert hash(again) == hash(found)
    assert again.groups("variant") == found.groups("variant") == ("rozaj", "biske")
    assert "rozaj" not in repr(found)  # the text stays out of logs


def test_repeated_captures_take_no_empty_iteration(backend: Backend) -> None:
    # "(a?)*" on "a": Python's re gives "" (one more, empty, iteration);
    # the tagged DFA's reading, on both back ends, keeps the "a".
    grammar = u.load_grammar('r = *x\nx = ["a"]\n')
    found = grammar.parse("r", "aa", backend=backend)
    assert found.groups("x") == ("a", "a")
    assert found.group("x") == "a"
    assert found.span("x") == (1, 2)


def test_every_occurrence_survives_a_long_text(backend: Backend) -> None:
    # The C runner compacts the records of a loop for the last occurrence;
    # every occurrence comes from a run that keeps them all.
    grammar = u.load_grammar('r = *( x "," )\nx = 1*DIGIT\n')
    text = "12," * 20_000
    found = grammar.parse("r", text, backend=backend)
    assert found.span("x") == (len(text) - 3, len(text) - 1)
    spans = found.spans("x")
    assert len(spans) == 20_000
    assert spans[:2] == ((0, 2), (3, 5))


def test_a_rule_over_the_tagged_dfas_caps_runs_a_pike_vm(backend: Backend) -> None:
    grammar = abnf_grammar("rfc5322")
    program = grammar.program("body", frozenset(grammar.default_captures("body")))
    assert program.tagged is None
    text = "hello\r\n" + "x" * 998 + "\r\n" + "world"
    found = grammar.parse("body", text, backend=backend)
    assert found.captures == grammar.default_captures("body")
    assert grammar.validate("body", text)


@pytest.mark.skipif(NATIVE is None, reason="the native back end is not built")
def test_the_native_back_end_runs_the_c_tagger() -> None:
    program = abnf_grammar("rfc3339").program("date-time", frozenset({"full-date"}))
    assert NATIVE is not None
    grammar = abnf_grammar("rfc3339")
    assert grammar.runs("date-time", frozenset({"full-date"}), backend=NATIVE).reads == "tagged"
    assert grammar.runs("date-time", frozenset({"full-date"}), backend=PURE).reads != "tagged"
    assert program.tagged is not None


# Occurrences that touch, empty ones among them: a position's tags are
# read in the order the run set them.
TOUCHING = [
    ('r = 3x\nx = ["a"]\n', "aa", ((0, 1), (1, 2), (2, 2))),
    ("r = 3x\nx = *DIGIT\n", "12", ((0, 2), (2, 2), (2, 2))),
    ('r = x x\nx = *"a"\n', "", ((0, 0), (0, 0))),
    ('r = 1*( x ";" )\nx = *DIGIT\n', "1;;2;", ((0, 1), (2, 2), (3, 4))),
]


@pytest.mark.parametrize(("source", "text", "spans"), TOUCHING)
def test_touching_occurrences_are_each_kept(
    source: str, text: str, spans: tuple[tuple[int, int], ...], backend: Backend
) -> None:
    grammar = u.load_grammar(source)
    found = grammar.parse("r", text, captures=["x"], backend=backend)
    assert found.spans("x") == spans
    assert found.span("x") == spans[-1]
    tree = grammar.abnf_parse("r", text)
    assert tree_spans(tree, frozenset({"x"})).get("x", ()) == spans


def test_merged_characters_keep_the_order_of_alternatives(backend: Backend) -> None:
    # "b" and "c" may not become one class ahead of "cc": "cc" comes first.
    grammar = u.load_grammar('r = x *"c"\nx = "b" / "cc" / "c"\n')
    assert grammar.parse("r", "cc", captures=["x"], backend=backend).group("x") == "cc"
    assert grammar.parse("r", "ccc", captures=["x"], backend=backend).group("x") == "cc"


def test_captures_may_be_any_iterable_read_once(backend: Backend) -> None:
    grammar = u.load_grammar('r = x "-" y\nx = 1*ALPHA\ny = 1*DIGIT\n')
    found = grammar.parse("r", "ab-12", captures=iter(["x"]), backend=backend)
    assert found.captures == ("x",)
    assert grammar.parse("r", "ab-12", captures=["x"], backend=backend).span("x") == (0, 2)
    with pytest.raises(TypeError, match="Backend"):
        grammar.parse("r", "ab-12", backend="pure")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Backend"):
        grammar.validate("r", "ab-12", backend="pure")  # type: ignore[arg-type]


def test_matches_of_two_readings_are_not_equal(backend: Backend) -> None:
    one = u.load_grammar('r = *(x / y)\nx = "a"\ny = "b" / "aa"\n')
    other = u.load_grammar('r = *(y / x)\nx = "a"\ny = "b" / "aa"\n')
    a = one.parse("r", "aa", captures=["x", "y"], backend=backend)
    b = other.parse("r", "aa", captures=["x", "y"], backend=backend)
    assert a.spans("x") == ((0, 1), (1, 2))
    assert b.spans("y") == ((0, 2),)
    assert a != b
    assert a == one.parse("r", "aa", captures=["x", "y"], backend=backend)
