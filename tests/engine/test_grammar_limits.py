"""Grammars at the edges of what Python's own limits allow: numbers longer
than ``int()`` converts, chains of rules longer than the interpreter's
stack, groups nested deeper than ``abnf``'s reader recurses.  Each loads
or is refused with ``GrammarError``, and validates without
``RecursionError``."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from urigrammar import Grammar, GrammarError, load_grammar
from urigrammar.engine import Backend, Chars, CharSet
from urigrammar.engine.syntax.limits import MAX_NESTING
from urigrammar.engine.syntax.rulelist import num_val, repeat_bounds

ZEROS = "0" * 4400  # past the 4,300 digits int() converts


def test_leading_zeros_read_as_the_number() -> None:
    zeros = "0" * 1900  # two of them fit MAX_RULE_LENGTH; ZEROS below do not
    grammar = load_grammar(f'a = {zeros}1*{zeros}2"x"')
    assert grammar.validate("a", "xx")
    assert not grammar.validate("a", "xxx")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"%d{ZEROS}65", Chars(CharSet.of([65]))),
        (f"%x{ZEROS}41-{ZEROS}43", Chars(CharSet([(0x41, 0x43)]))),
        (f"%b{ZEROS}1000001", Chars(CharSet.of([65]))),
    ],
    ids=["decimal", "hex-range", "binary"],
)
def test_code_points_with_leading_zeros(text: str, value: object) -> None:
    assert num_val(text) == value


def test_counts_with_leading_zeros() -> None:
    assert repeat_bounds(f"{ZEROS}2*{ZEROS}12") == (2, 12)
    with pytest.raises(GrammarError, match="too large"):
        repeat_bounds(f"1{ZEROS}")


@pytest.mark.parametrize("length", [250, 1100])
def test_a_chain_of_alternatives_longer_than_the_stack_validates(
    length: int, backend: Backend
) -> None:
    text = "".join(f'r{i} = "a" / r{i + 1}\n' for i in range(length)) + f'r{length} = "b"\n'
    grammar = load_grammar(text)
    assert grammar.validate("r0", "a", backend=backend)
    assert grammar.validate("r0", "b", backend=backend)
    assert not grammar.validate("r0", "c", backend=backend)
    assert grammar.is_regular("r0")


@pytest.mark.parametrize("length", [1100])
def test_a_chain_of_plain_references_validates(length: int, backend: Backend) -> None:
    text = "".join(f"r{i} = r{i + 1}\n" for i in range(length)) + f'r{length} = "b" 2DIGIT\n'
    grammar = load_grammar(text)
    assert grammar.validate("r0", "b12", backend=backend)
    assert not grammar.validate("r0", "b1", backend=backend)


def test_a_cycle_is_not_regular_and_its_neighbours_are() -> None:
    grammar = load_grammar(
        'a = b / "y"\nb = a\nc = "x" / d\nd = "(" c ")"\ne = "q" c\nf = "z"\ng = 2f\n'
    )
    regular = {rule: grammar.is_regular(rule) for rule in "abcdefg"}
    assert regular == dict.fromkeys("abcde", False) | {"f": True, "g": True}


@pytest.mark.parametrize(
    ("text", "barren"),
    [
        ("a = b\nb = a\n", "'a', 'b'"),
        ('a = 1*a\nok = "x"\n', "'a'"),
        ('top = "x" inner\ninner = "(" inner ")"\n', "'top', 'inner'"),
        ('a = b / "x" c\nb = a\nc = "(" c ")"\n', "'a', 'b', 'c'"),
    ],
    ids=["mutual", "self", "no-base-case", "every-alternative"],
)
def test_a_rule_that_can_never_match_is_refused_at_load(text: str, barren: str) -> None:
    with pytest.raises(GrammarError, match="can never match") as info:
        load_grammar(text)
    assert barren in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        'a = "x" / "(" a ")"\n',
        "a = *a\n",
        "a = 0a\n",
        "a = [a]\n",
        'a = "(" b ")"\nb = *a\n',
        "empty = 0<anything at all>\n",
    ],
    ids=["base-case", "star", "zero", "option", "through-star", "zero-prose"],
)
def test_a_rule_with_some_finite_derivation_loads(text: str) -> None:
    load_grammar(text)


def test_only_the_files_own_rules_are_judged() -> None:
    base = load_grammar('item = "x" / "(" list ")"\nlist = *item\n')
    # The overlay's own rule is fine; it makes none of the import's barren.
    overlay = load_grammar('list = 1*item\nextra = "e"\n', imports=[base])
    assert overlay.validate("list", "x(x)")
    # A barren rule of the overlay is named, not the imported rule it uses.
    with pytest.raises(GrammarError, match="can never match") as info:
        load_grammar("list = item list\n", imports=[base])
    assert "'list'" in str(info.value)
    assert "'item'" not in str(info.value)


# --- how deep groups and options nest ---------------------------------------------


def _nested(depth: int, inner: str = '"a"') -> str:
    # Groups and options in turn, each level one bracket deeper.
    opening = "".join("(["[i % 2] for i in range(depth))
    closing = "".join(")]"[i % 2] for i in reversed(range(depth)))
    return opening + inner + closing


def test_groups_and_options_nested_max_nesting_deep_load_and_match(backend: Backend) -> None:
    text = f'r = {_nested(MAX_NESTING, "x")}\nx = "a" / "(" {_nested(MAX_NESTING, "x")} ")"\n'
    grammar = load_grammar(text)
    assert grammar.validate("r", "a", backend=backend)
    assert grammar.validate("r", "", backend=backend)  # through the options
    assert grammar.validate("r", "((a))", backend=backend)  # x reaches itself
    assert not grammar.validate("r", "b", backend=backend)
    assert grammar.parse("r", "(a)", captures=["x"], backend=backend).spans("x") == ((0, 3), (1, 2))


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 70, 5000])
def test_nesting_past_max_nesting_is_refused_naming_the_limit_rule_and_place(
    depth: int,
) -> None:
    text = f'ok = "a"\nr = "b"\n  {_nested(depth)}\n'
    with pytest.raises(GrammarError) as info:
        load_grammar(text)
    error = info.value
    # The bracket that opens the first level too many.
    at = text.index("r = ") + len('r = "b"\n  ') + MAX_NESTING
    assert error.offset == at
    assert error.rule == "r"
    assert f"more than MAX_NESTING ({MAX_NESTING}) deep in rule 'r'" in error.message
    assert f"line 3, column {MAX_NESTING + 3} opens level {MAX_NESTING + 1}" in error.message
    assert "not an ABNF rule list" not in error.message


def test_brackets_in_strings_prose_and_comments_open_no_level() -> None:
    many = "(" * 40 + "[" * 40
    text = f'r = "{many}" ; {many}\n  / "x" ; {many}\ngap = <{many}>\ns = ("y")\n'
    grammar = load_grammar(text, imports=[load_grammar('gap = "g"\n')])
    assert grammar.validate("r", many)
    assert grammar.validate("s", "y")


def test_nesting_within_the_limit_loads_from_a_caller_deep_in_its_stack() -> None:
    # The reader takes a few frames a level, abnf's reader some fifteen:
    # from a caller that left 200 frames, the text loads and compiles, and
    # only abnf's reading of it (its engine) says the stack ran out.
    text = f"r = {_nested(MAX_NESTING)}\n"

    def frames() -> int:
        frame, count = sys._getframe(), 0
        while frame is not None:
            frame, count = frame.f_back, count + 1
        return count

    def deeper(left: int, call: Callable[[], object]) -> object:
        return call() if left <= 0 else deeper(left - 1, call)

    room = sys.getrecursionlimit() - frames() - 200
    grammar = deeper(room, lambda: load_grammar(text))
    assert isinstance(grammar, Grammar)
    assert deeper(room, lambda: grammar.validate("r", "a"))
    with pytest.raises(GrammarError, match="ran out of Python stack") as info:
        deeper(room, lambda: grammar.abnf_parse("r", "a"))
    assert "not an ABNF rule list" not in str(info.value)
