"""The C tagger's short cuts against the plain walk.

The C forward pass (``engine/_native_c/tagger.c``) skips loops that keep
every thread, four ASCII characters a test; follows 2- and 3-state cycles
whose records collapse (``follow_cycle``); compacts repeated blocks of
records; and reads its text in chunks of 2048 characters.
``TaggedTables.tags`` does none of that: the two must give the same tags
for every text.  The texts here are a unit repeated, broken by another
text at one offset, so that a run or a cycle is followed, stops where the
break is, and resumes; the long ones put the break at each offset around
the chunk seam.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tagged_dfa import USER_GRAMMARS, rule_parts, tagger

import urigrammar as u
from _budget import examples
from urigrammar.engine import NATIVE, inline_rule
from urigrammar.engine.automata.tables import TaggedTables
from urigrammar.engine.automata.tagged import build_tagged
from urigrammar.engine.backend.pure import tagged_tags

pytestmark = pytest.mark.skipif(NATIVE is None, reason="the extension is not built")

CHUNK = 2048  # the C pass's buffer (engine/backend/_native_c/classmap.h)

HEADS = ["", "s:", "s://", "//u@h", "http://h/", "http://h?", "#", "a/", "?", "//[", "s://u:"]
UNIT_CHARS = list("%4a1F/?#:@.[]v-~é\u0100\U00010000")
BREAKS = ["", "%", "#", "?", "/", "@", ":", "[", "]", " ", "%4", "\ud800"]


@pytest.mark.parametrize("rule", ["URI-reference", "IRI-reference"])
@settings(max_examples=examples(150), deadline=None)
@given(
    head=st.sampled_from(HEADS),
    unit=st.text(st.sampled_from(UNIT_CHARS), min_size=1, max_size=3),
    brk=st.sampled_from(BREAKS),
    data=st.data(),
)
def test_a_broken_run_across_the_chunk_seam_gives_the_plain_walks_tags(
    rule: str, head: str, unit: str, brk: str, data: st.DataObject
) -> None:
    base = head + unit * ((CHUNK + 16 - len(head)) // len(unit) + 1)
    offset = data.draw(
        st.one_of(st.integers(CHUNK - 8, CHUNK + 8), st.integers(0, len(base))), label="offset"
    )
    text = base[:offset] + brk + base[offset:]
    assert tagger(rule).tags(text) == tagged_tags(rule_parts(rule)[0], text)  # type: ignore[attr-defined]


@pytest.mark.parametrize("rule", ["URI-reference", "IRI-reference"])
def test_every_break_at_every_offset_of_a_short_run(rule: str) -> None:
    tables, tags = rule_parts(rule)[0], tagger(rule).tags  # type: ignore[attr-defined]
    for head, unit in itertools.product(
        ["", "s://", "http://h/", "//u@h", "?"], ["a%41", "%4", "a:", "abcde", "a\u00e9b"]
    ):
        base = head + unit * 4
        for brk in BREAKS:
            for offset in range(len(base) + 1):
                text = base[:offset] + brk + base[offset:]
                assert tags(text) == tagged_tags(tables, text), text


# Loops whose records do not always collapse (captures inside repetitions,
# built with ``repeated=True``), and 2- and 3-state cycles over them.
CYCLE_GRAMMARS = [
    *USER_GRAMMARS,
    ('r = *( x "b" y )\r\nx = "a"\r\ny = "c"\r\n', "abc"),
    ('r = *( "a" x / "a" y )\r\nx = "b"\r\ny = "b" / "c"\r\n', "abc"),
    ('r = *( x / y "b" )\r\nx = "a" "b"\r\ny = "a"\r\n', "ab"),
    ('r = *( x "b" / y "c" / "d" )\r\nx = "a"\r\ny = "a"\r\n', "abcd"),
]


@cache
def user_tables(source: str) -> TaggedTables:
    grammar = u.load_grammar(source)
    captures = frozenset({"x", "y"}) & frozenset(grammar.rule_names)
    tables = build_tagged(inline_rule(grammar.rules, "r", captures), repeated=True)
    assert tables is not None
    return tables


@pytest.mark.parametrize(("source", "alphabet"), CYCLE_GRAMMARS)
def test_user_grammar_runs_broken_anywhere_give_the_plain_walks_tags(
    source: str, alphabet: str
) -> None:
    from urigrammar.engine.backend._native import Tagger

    tables = user_tables(source)
    tags = Tagger(tables.to_bytes(), ()).tags  # type: ignore[arg-type]
    for unit in map("".join, itertools.product(alphabet, repeat=3)):
        base = unit * 3
        for brk in ["", *alphabet]:
            for offset in range(len(base) + 1):
                text = base[:offset] + brk + base[offset:]
                assert tags(text) == tagged_tags(tables, text), text
        long = unit * (CHUNK // 3 + 4)
        for offset in (0, CHUNK - 2, CHUNK - 1, CHUNK, CHUNK + 1, len(long)):
            text = long[:offset] + alphabet[0] + long[offset:]
            assert tags(text) == tagged_tags(tables, text), (unit, offset)
