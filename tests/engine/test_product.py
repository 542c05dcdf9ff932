"""``intersection`` and ``difference`` (``engine.automata.product``): the minimal
DFAs of the strings two minimal DFAs both accept, and of those the first
accepts and the second does not, checked against the two run separately
(``Tables.run``, the runner's loop in Python), and on the native runner
(``engine.tables_predicate``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import RFC3986, RFC3987, load_grammar
from urigrammar.engine import NATIVE, PURE, Tables, difference, intersection, tables_predicate
from urigrammar.engine.backend.pure import tables_run
from urigrammar.strategies import from_rule

#: Pairs of rules whose languages overlap in part: each accepts strings
#: the other does not.
PAIRS = (
    ((RFC3986, "URI"), (RFC3986, "absolute-URI")),
    ((RFC3986, "reg-name"), (RFC3986, "IPv4address")),
    ((RFC3986, "segment"), (RFC3986, "port")),
    ((RFC3986, "URI"), (RFC3987, "IRI")),
    ((RFC3987, "ipath-abempty"), (RFC3986, "path-abempty")),
)


def _tables(grammar: object, name: str) -> Tables:
    found = grammar.program(name).dfa  # type: ignore[attr-defined]
    assert found is not None
    return found  # type: ignore[no-any-return]


def _accepts(tables: Tables, text: str) -> bool:
    return tables_run(tables, text)[1]


def _texts(pair: tuple[tuple[object, str], ...]) -> st.SearchStrategy[str]:
    (one, first), (two, second) = pair
    drawn = st.one_of(from_rule(first, one), from_rule(second, two))  # type: ignore[arg-type]
    noise = st.text(alphabet="aZ09:/?#[]@%.-é\u00a0\U00010000", max_size=12)
    return st.one_of(drawn, noise, st.tuples(drawn, noise).map("".join))


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0][1]}&{p[1][1]}")
def test_accepts_exactly_what_both_accept(pair: tuple[tuple[object, str], ...]) -> None:
    (one, first), (two, second) = pair
    left, right = _tables(one, first), _tables(two, second)
    both = intersection(left, right)
    assert both is not None
    matcher = tables_predicate(both, NATIVE) if NATIVE is not None else None

    @given(_texts(pair))
    def agree(text: str) -> None:
        expected = _accepts(left, text) and _accepts(right, text)
        assert _accepts(both, text) == expected
        if matcher is not None:
            assert matcher(text) == expected

    agree()


def test_intersection_is_minimal_and_commutes() -> None:
    left, right = _tables(RFC3986, "URI"), _tables(RFC3986, "absolute-URI")
    one, other = intersection(left, right), intersection(right, left)
    assert one is not None
    assert other is not None
    # absolute-URI lies inside URI: the intersection is absolute-URI's
    # minimal DFA, state for state.
    assert one.nstates == other.nstates == right.nstates
    assert one.nclasses == right.nclasses


def test_empty_intersection() -> None:
    grammar = load_grammar("digits = 1*DIGIT\nletters = 1*ALPHA\nany = *( DIGIT / ALPHA )\n")
    both = intersection(_tables(grammar, "digits"), _tables(grammar, "letters"))
    assert both is not None
    assert not any(both.accepting)
    for text in ("", "1", "a", "1a"):
        assert not _accepts(both, text)
    if NATIVE is not None:
        matcher = tables_predicate(both, NATIVE)
        assert matcher is not None
        assert not matcher("1")
        assert not matcher("")


def test_classes_merge_across_non_ascii() -> None:
    # Two partitions that cut the code points at different places beyond
    # ASCII: the joint classes that the product cannot tell apart merge
    # back, so the result has no more classes than it needs.
    grammar = load_grammar(
        "wide = 1*( %x41-5A / %xE9-FFFF / %x10000-10FFFF )\n"
        "narrow = 1*( %x41-5A / %x100-2FF / %x10000-1FFFF )\n"
    )
    wide, narrow = _tables(grammar, "wide"), _tables(grammar, "narrow")
    both = intersection(wide, narrow)
    assert both is not None
    # The code points both take (A to Z, U+0100 to U+02FF, U+10000 to
    # U+1FFFF) and the rest: two classes, whatever the joint partition cut.
    assert both.nclasses == 2
    for text, expected in (
        ("A", True),
        ("\u0100", True),
        ("\u00e9", False),
        ("\u0300", False),
        ("\U00010000A", True),
        ("\U00020000", False),
        ("", False),
    ):
        assert _accepts(both, text) == expected, text
    if NATIVE is not None:
        matcher = tables_predicate(both, NATIVE)
        assert matcher is not None
        assert matcher("A\u0100\U0001ffff") is True
        assert matcher("A\u00e9") is False


def test_pure_back_end_runs_no_raw_tables() -> None:
    assert tables_predicate(_tables(RFC3986, "port"), PURE) is None


# --- the difference -----------------------------------------------------------------


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0][1]}-{p[1][1]}")
def test_difference_accepts_what_the_first_accepts_and_the_second_does_not(
    pair: tuple[tuple[object, str], ...],
) -> None:
    (one, first), (two, second) = pair
    left, right = _tables(one, first), _tables(two, second)
    rest = difference(left, right)
    assert rest is not None
    matcher = tables_predicate(rest, NATIVE) if NATIVE is not None else None

    @given(_texts(pair))
    def agree(text: str) -> None:
        expected = _accepts(left, text) and not _accepts(right, text)
        assert _accepts(rest, text) == expected
        if matcher is not None:
            assert matcher(text) == expected

    agree()


def test_difference_past_the_second_dfa_dying() -> None:
    # Where the second DFA dies, the first goes on alone: "ab" and every
    # longer run of letters is left once "a" alone is taken out.
    grammar = load_grammar('letters = 1*ALPHA\none = %s"a"\n')
    rest = difference(_tables(grammar, "letters"), _tables(grammar, "one"))
    assert rest is not None
    for text, expected in (("a", False), ("ab", True), ("b", True), ("", False), ("1", False)):
        assert _accepts(rest, text) == expected, text


def test_difference_of_a_language_from_itself_or_a_superset_is_empty() -> None:
    left, right = _tables(RFC3986, "absolute-URI"), _tables(RFC3986, "URI")
    for rest in (difference(left, left), difference(left, right)):
        assert rest is not None
        assert not any(rest.accepting)
    # And from a disjoint language, the first is left whole, state for state.
    grammar = load_grammar("digits = 1*DIGIT\nletters = 1*ALPHA\n")
    digits = _tables(grammar, "digits")
    rest = difference(digits, _tables(grammar, "letters"))
    assert rest is not None
    assert rest.nstates == digits.nstates
