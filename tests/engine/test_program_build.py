"""``build_program`` within ``sharing()``: rules whose inlined bodies are
equal (two grammars importing the same rule, as the shipped grammars do)
are compiled once and share their automata, with the programs they give
the same as compiled alone; outside the block nothing is kept."""

from __future__ import annotations

import pytest

from urigrammar import load_grammar
from urigrammar.engine import sharing
from urigrammar.engine.program.program import Program

# One rule under two names, in two grammars; and a rule that differs.
TEXTS = (
    'version = 1*DIGIT "." 1*DIGIT\n',
    'release = 1*DIGIT "." 1*DIGIT\n',
)
OTHER = 'version = 1*DIGIT "-" 1*DIGIT\n'


def _same_program(one: Program, other: Program) -> None:
    for field in ("regular", "body", "regex", "regex_plain", "groups", "linear"):
        assert getattr(one, field) == getattr(other, field), field
    assert one.dfa == other.dfa
    assert one.tagged == other.tagged


@pytest.mark.parametrize("captures", [frozenset(), frozenset({"DIGIT"})], ids=["dfa", "tagged"])
def test_equal_bodies_compile_once_within_sharing(captures: frozenset[str]) -> None:
    first, second = (load_grammar(text) for text in TEXTS)
    alone = load_grammar(TEXTS[0]).program("version", captures)
    with sharing():
        shared = first.program("version", captures)
        again = second.program("release", captures)
        other = load_grammar(OTHER).program("version", captures)
    automaton = "tagged" if captures else "dfa"
    assert getattr(shared, automaton) is not None
    assert getattr(shared, automaton) is getattr(again, automaton)
    assert getattr(other, automaton) is not getattr(shared, automaton)
    assert other.regex != shared.regex
    assert again.key[0] == "release"
    _same_program(shared, alone)
    _same_program(again, alone)


def test_outside_sharing_nothing_is_kept() -> None:
    with sharing():
        load_grammar(TEXTS[0]).program("version")
    first, second = (load_grammar(text) for text in TEXTS)
    assert first.program("version").dfa is not second.program("release").dfa
