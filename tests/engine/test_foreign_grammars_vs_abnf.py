"""Grammars nobody on this project wrote, through ``load_grammar``, against
``abnf``'s own parsers for them.

The ``abnf`` package ships transcriptions of other RFCs' ABNF as rule text
(``abnf.grammars``), each loaded into a rule class of its own.  The text goes
through ``load_grammar``; for every regular rule, ``Grammar.validate`` must
give exactly what ``abnf``'s ``parse_all`` gives, on strings generated from
the grammar and on those strings damaged by one edit.
"""

from __future__ import annotations

import importlib
import itertools
from typing import Any

import pytest
from abnf.parser import ParseError
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from urigrammar.engine import Backend
from urigrammar.strategies import from_rule

# Each module, and the modules whose rules it uses without defining them.
MODULES: dict[str, tuple[str, ...]] = {
    "rfc3339": (),
    "rfc4647": (),
    "rfc5646": (),
    "rfc5322": (),
    "rfc3986": (),
    "rfc3629": (),
}


def _module_rules(name: str) -> Any:
    return importlib.import_module(f"abnf.grammars.{name}").Rule


def _text(rule_cls: Any) -> str:
    grammar = rule_cls.grammar
    return grammar if isinstance(grammar, str) else "\n".join(grammar)


GRAMMARS: dict[str, u.Grammar] = {}
for _name, _imports in MODULES.items():
    GRAMMARS[_name] = u.load_grammar(
        _text(_module_rules(_name)), name=_name, imports=[GRAMMARS[i] for i in _imports]
    )

CASES = [
    (module, rule)
    for module, grammar in GRAMMARS.items()
    for rule in grammar.rule_names
    if grammar.is_regular(rule)
]

# Junk for the edits: characters ABNF grammars love to delimit with, a
# space, a control character, non-ASCII and a lone surrogate.
JUNK = st.sampled_from(list("-.:;/@%()[]<>\"'\\,=+ \t\r\n0aZ\x00\u00e9\u20ac\ud800"))


def _abnf_says(module: str, rule: str, text: str) -> bool:
    try:
        _module_rules(module).get(rule).parse_all(text)
    except ParseError:
        return False
    return True


@st.composite
def damaged(draw: st.DrawFn, module: str, rule: str) -> str:
    text = draw(from_rule(rule, GRAMMARS[module]))
    how = draw(st.sampled_from(["keep", "insert", "delete", "replace"]))
    if how == "keep" or (how != "insert" and not text):
        return text
    i = draw(st.integers(0, max(len(text) - (how != "insert"), 0)))
    if how == "insert":
        return text[:i] + draw(JUNK) + text[i:]
    if how == "delete":
        return text[:i] + text[i + 1 :]
    return text[:i] + draw(JUNK) + text[i + 1 :]


def test_several_foreign_grammars_and_many_rules_are_compared() -> None:
    assert len({module for module, _ in CASES}) >= 4
    assert len(CASES) > 100


@pytest.mark.parametrize(("module", "rule"), CASES, ids=[f"{m}-{r}" for m, r in CASES])
@backend_settings(max_examples=examples(13), deadline=None)
@given(data=st.data())
def test_validate_agrees_with_abnf(
    backend: Backend, module: str, rule: str, data: st.DataObject
) -> None:
    text = data.draw(damaged(module, rule))
    found = GRAMMARS[module].validate(rule, text, backend=backend)
    assert found == _abnf_says(module, rule, text)


def test_recursive_rules_are_found_and_left_to_abnf() -> None:
    rfc5322 = GRAMMARS["rfc5322"]
    assert not rfc5322.is_regular("comment")
    assert not rfc5322.is_regular("CFWS")  # reaches comment
    assert rfc5322.is_regular("atext")
    assert rfc5322.validate("comment", "(a (nested) comment)")
    assert not rfc5322.validate("comment", "(unbalanced")
    with pytest.raises(u.InputTooLongError, match="too long"):
        rfc5322.validate("comment", "(" * (u.ABNF_MAX_LENGTH + 1))


def test_abnf_transcription_of_rfc3986_is_ours(on: On) -> None:
    # A second transcription of RFC 3986 Appendix A, made by abnf's authors,
    # loaded by our engine: same verdict as our own grammar on URIs.
    theirs = GRAMMARS["rfc3986"]
    for text in ("http://[v1.x]/", "//a:b@[::1]:80/p?q#f", "a:", "1.2.3.4.5", "%zz", ""):
        theirs_says = theirs.validate("URI-reference", text, backend=on.backend)
        assert theirs_says == on.validate("URI-reference", text)


# An empty alternative before a non-empty one, inside a repetition: the
# regex tries the empty way first, so a possessive repetition around it would
# never come back for the other: "ccb" must still match the first.
EMPTY_FIRST = [
    'r = 2*( "c" ( "" / "b" ) )\n',
    'r = *( "c" ( "" / "b" ) )\n',
    'r = 1*( "c" ( "ab" / ( "" / "b" ) ) )\n',
    'r = *( "c" [ "b" ] )\n',
]


@pytest.mark.parametrize("source", EMPTY_FIRST)
def test_an_empty_alternative_first_keeps_the_others(source: str, backend: Backend) -> None:
    grammar = u.load_grammar(source)
    for length in range(5):
        for text in map("".join, itertools.product("abc", repeat=length)):
            expected = grammar.abnf_parse("r", text) is not None
            assert grammar.validate("r", text, backend=backend) == expected, text
