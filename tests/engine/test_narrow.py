"""Narrowing a body's alphabet (``syntax.narrow``): every class is a union
of the blocks, so a narrowed text matches the narrowed body's regex
exactly where the text matches the body's own regex, at the same
offsets."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _budget import examples
from urigrammar.engine import PURE
from urigrammar.engine.backend import pure
from urigrammar.engine.program.program import Program
from urigrammar.engine.syntax.charset import CharSet
from urigrammar.engine.syntax.ir import Alt, Chars, Rep, Seq
from urigrammar.engine.syntax.narrow import Narrowing, narrowed, narrowing
from urigrammar.shipped import RFC3987
from urigrammar.strategies import from_rule
from urigrammar.uri._visitor import CAPTURES, LEAVES

_SPANS = st.lists(
    st.tuples(st.integers(0, 0x10FFFF), st.integers(0, 0x3000)).map(
        lambda p: (p[0], min(p[0] + p[1], 0x10FFFF))
    ),
    min_size=1,
    max_size=4,
)
_CLASSES = st.lists(_SPANS.map(CharSet), min_size=1, max_size=5)


def _points(classes: list[CharSet]) -> st.SearchStrategy[int]:
    # Code points near every bound, where a block begins or ends, and any.
    near = sorted(
        {c + d for chars in classes for lo, hi in chars.spans for c in (lo, hi) for d in (-1, 0, 1)}
    )
    return st.one_of(
        st.sampled_from([c for c in near if 0 <= c <= 0x10FFFF]), st.integers(0, 0x10FFFF)
    )


@given(st.data(), _CLASSES)
@settings(max_examples=examples(200), deadline=None)
def test_each_class_holds_a_character_as_it_holds_its_representative(
    data: st.DataObject, classes: list[CharSet]
) -> None:
    body = Alt(tuple(Chars(chars | CharSet([(0x80, 0x480)])) for chars in classes))
    found = narrowing(body)
    assert found is not None  # each class holds more than 256 non-ASCII code points
    for code in data.draw(st.lists(_points(classes), min_size=1, max_size=20)):
        char = chr(code)
        rep = found.narrow_text(char)
        assert len(rep) == 1
        assert rep == char if code < 0x80 else ord(rep) >= 0x80
        for item in body.items:
            assert isinstance(item, Chars)
            assert (code in item.chars) == (ord(rep) in found.narrow_chars(item.chars))


def test_a_body_of_narrow_classes_is_not_narrowed() -> None:
    assert narrowing(Seq((Chars(CharSet([(0x41, 0x5A)])), Chars(CharSet.of([0xE9]))))) is None
    assert narrowing(Rep(0, None, Chars(CharSet([(0x80, 0x10FFFF)])))) is not None


@pytest.mark.parametrize(
    ("rule", "blocks"),
    # ucschar, iprivate and neither; iquery's one class holds the first
    # two, ihost has no iprivate.
    [("IRI-reference", 3), ("irelative-ref", 3), ("ihost", 2), ("iquery", 2)],
)
def test_the_shipped_iri_rules_narrow_to_two_or_three_blocks(rule: str, blocks: int) -> None:
    program = RFC3987.program(rule, frozenset(CAPTURES), frozenset(LEAVES))
    assert program.narrowing is not None
    assert len(set(program.narrowing.reps)) == blocks
    assert len(program.narrow_source) < len(program.source)


_IRI = RFC3987.program("IRI-reference", frozenset(CAPTURES), frozenset(LEAVES))
_WHOLE = re.compile(_IRI.source)
_THIN = re.compile(_IRI.narrow_source)


@given(st.one_of(from_rule("IRI-reference"), st.text(max_size=40)))
@settings(max_examples=examples(200), deadline=None)
def test_the_narrowed_regex_matches_where_the_rules_does(text: str) -> None:
    assert _IRI.narrowing is not None
    whole = _WHOLE.fullmatch(text)
    thin = _THIN.fullmatch(_IRI.narrowing.narrow_text(text))
    assert (whole is None) == (thin is None)
    if whole is not None and thin is not None:
        assert whole.regs == thin.regs


def test_a_program_keeps_its_narrowing_through_bytes() -> None:
    again = Program.from_bytes(_IRI.to_bytes())
    assert again.narrowing == _IRI.narrowing
    assert again.narrow_source == _IRI.narrow_source


@pytest.mark.parametrize(
    ("cuts", "reps"),
    [
        ([0x80], []),
        ([0x81, 0x110000], [0x81]),
        ([0x80, 0x110000], [0x110000]),
        ([0x80, 0x90, 0x90, 0x110000], [0x80, 0x90, 0x90]),
    ],
)
def test_a_damaged_narrowing_is_refused(cuts: list[int], reps: list[int]) -> None:
    with pytest.raises(ValueError, match="not a narrowing"):
        Narrowing(cuts, reps)


def test_the_pure_back_end_reads_a_narrowed_text_by_its_own_characters() -> None:
    runs = RFC3987.runs("IRI-reference", CAPTURES, LEAVES, backend=PURE)
    assert runs.reads == "regex"
    assert runs.program.narrowing is not None
    body = runs.program.body
    assert body is not None
    assert narrowed(body, runs.program.narrowing) != body


def test_a_long_text_is_matched_by_the_whole_regex_compiled_then_and_agrees() -> None:
    assert _IRI.narrowing is not None
    match = pure.narrowed_match(_THIN.fullmatch, _IRI.narrowing, _IRI.source)
    small, large = "http://\u00e4/\U00010000", "http://a/" + "\u00e9\u65e5" * 30_000
    for text in (small, "http://a/\ufffd", large, small, "http://a/\ufffd", "http://a/b"):
        found, expected = match(text), _WHOLE.fullmatch(text)
        assert (found is None) == (expected is None)
        if found is not None and expected is not None:
            assert found.regs == expected.regs  # type: ignore[attr-defined]


def test_a_verdict_on_a_narrowed_text_shows_none_of_its_characters() -> None:
    assert _IRI.narrowing is not None
    verdict = pure.narrowed_fullmatch(_THIN.fullmatch, _IRI.narrowing, _IRI.source)
    assert verdict("http://\u00e4/") is True  # not a match of "http://\xa0/"
    assert verdict("http://\ufffd/") is None
    found = verdict("http://a/")
    assert found is not None
    assert found is not True  # an ASCII text's own match
