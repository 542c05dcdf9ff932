"""``restricted`` and ``alphabet`` (``engine.languages``, ``engine.syntax.restrict``): a
grammar read only over the strings of an alphabet, each rule matching
exactly what the original matches there, and regular where every way to
its cycle needs a character outside the alphabet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import load_grammar
from urigrammar.engine import CharSet, alphabet, restricted
from urigrammar.shipped import RFC3986, RFC5322, RFC6068, RFC6068_URI

NESTED = load_grammar(
    "top     = 1*( word / group ) [ tail ]\n"
    'group   = "(" *( word / group ) ")"\n'
    "word    = 1*ALPHA / DQUOTE *ALPHA DQUOTE\n"
    'tail    = "!" / 2*3DIGIT\n'
    'needs   = "<" group ">"\n',
    name="nested",
)

NO_PARENS = CharSet.of(map(ord, 'abcXYZ"!0123'))


def test_a_cycle_no_string_over_the_alphabet_reaches_is_gone() -> None:
    assert not NESTED.is_regular("top")
    cut = restricted(NESTED, NO_PARENS)
    assert cut.is_regular("top")
    assert cut.find("group") is None  # "(" is outside the alphabet
    assert cut.find("needs") is None  # uses only group: nothing is left
    assert cut.validate("top", 'abc"XY"!')
    assert not cut.validate("top", "ab(c)")


def test_a_core_rule_the_alphabet_cuts_is_written_in_place() -> None:
    cut = restricted(NESTED, CharSet.of(map(ord, "ab01")))
    assert cut.validate("top", "ab01")
    assert not cut.validate("top", "abc")
    assert "ALPHA" not in cut.text()  # cut: in place
    assert "DIGIT" not in cut.text()
    whole = restricted(NESTED, CharSet([(0, 0x7F)]))
    assert "ALPHA" in whole.text()  # left whole: still a reference


def test_a_repetition_of_nothing_matches_the_empty_string() -> None:
    grammar = load_grammar('r = "a" *( "(" ) [ "<" ] "b"\n', name="reps")
    cut = restricted(grammar, CharSet.of(map(ord, "ab")))
    assert cut.validate("r", "ab")
    assert not cut.validate("r", "a(b")


def test_alphabets() -> None:
    # RFC 3986 section 2: a URI holds unreserved and reserved characters
    # and "%", and nothing else.
    expected = (
        alphabet(RFC3986, "unreserved") | alphabet(RFC3986, "reserved") | CharSet.of([ord("%")])
    )
    assert alphabet(RFC3986, "URI") == expected
    assert ord('"') in alphabet(RFC5322, "quoted-string")
    assert alphabet(NESTED, "tail") == CharSet.of(map(ord, "!0123456789"))


def test_restricted_needs_a_rule_with_a_grammar() -> None:
    with pytest.raises(TypeError):
        restricted(NESTED, RFC3986)
    with pytest.raises(TypeError):
        restricted(NESTED, "abc")  # type: ignore[arg-type]


def test_rfc_6068_over_uri_characters() -> None:
    # quoted-string needs DQUOTE: over URI's characters it matches nothing,
    # and mailtoURI, which reaches RFC 5322's comment only through it, is
    # regular.
    assert not RFC6068.is_regular("mailtoURI")
    assert RFC6068.find("quoted-string") is not None
    assert RFC6068_URI.find("quoted-string") is None
    assert RFC6068_URI.find("comment") is not None  # "(" and ")" are URI characters
    assert not RFC6068_URI.is_regular("comment")
    assert RFC6068_URI.is_regular("mailtoURI")
    assert RFC6068_URI.program("mailtoURI").dfa is not None


@given(st.text(alphabet='abcXYZ"!0123()<>', max_size=14))
def test_over_the_alphabet_the_restricted_rule_is_the_original(text: str) -> None:
    cut = restricted(NESTED, NO_PARENS)
    if all(ord(char) in NO_PARENS for char in text):
        expected = NESTED.abnf_parse("top", text) is not None
        assert cut.validate("top", text) is expected
        assert (cut.abnf_parse("top", text) is not None) is expected
    else:
        assert not cut.validate("top", text)


def test_a_prefix_names_every_rule_but_the_core_ones() -> None:
    # The prefixed grammar and the original can be imported side by side:
    # no rule name of one is a rule name of the other.
    cut = restricted(NESTED, NO_PARENS, prefix="plain-")
    assert cut.find("top") is None
    assert cut.validate("plain-top", 'abc"XY"!')
    assert "DQUOTE" in cut.text()  # a core rule keeps its name
    both = load_grammar("either = top / plain-top\n", imports=[NESTED, cut])
    assert both.validate("either", "ab(c)")


def test_without_takes_characters_out_of_a_rule_s_alphabet() -> None:
    cut = restricted(NESTED, NESTED, "tail", without=CharSet.of(map(ord, "0")))
    assert cut.validate("tail", "!")
    assert cut.validate("tail", "123")
    assert not cut.validate("tail", "100")
    assert cut.find("top") is None  # a letter is needed: none is left
