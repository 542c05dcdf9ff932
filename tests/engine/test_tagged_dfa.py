"""The native parse: the tagged DFA (``engine.automata.tagged``) and the
C tagger that runs it (``engine._native.Tagger``) against the regex, whose
groups come from the same rules by another route (``engine.regex.emit``) and
are read by Python's backtracking ``re``.

* every string of up to 4 characters over one character of each class
  (plus non-ASCII and a lone surrogate) for ``URI-reference``, of up to 3
  for the other parse rules: the same groups, or no match, as the regex;
* generated and mutated strings for every parse rule of both dialects:
  the Python reference, the C tagger and the regex agree on every group,
  and ``parse`` gives equal references on both back ends;
* texts that cross the tagger's read buffer and its stack of records, as
  1-, 2- and 4-byte ``str``;
* tables and plans that would index out of bounds are refused.
"""

from __future__ import annotations

import itertools
import json
import pickle
import re
import struct
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urigrammar as u
from _backends import C_RECORDS, On
from _budget import examples
from _edits import edited
from _tables import parse_table
from urigrammar.engine import NATIVE, PURE, Backend, inline_rule, runs
from urigrammar.engine.automata.tables import TaggedTables
from urigrammar.engine.automata.tagged import build_tagged
from urigrammar.engine.backend.pure import tagged_tags
from urigrammar.engine.program.program import Program
from urigrammar.engine.result.record import Record
from urigrammar.shipped import shipped_rule
from urigrammar.strategies import from_rule
from urigrammar.uri._api import api
from urigrammar.uri._columns import PARSED_FIELDS, _captures
from urigrammar.uri._dialect import IRI, URI
from urigrammar.uri._visitor import CAPTURES, LEAVES, plan

native = pytest.mark.skipif(NATIVE is None, reason="the extension is not built")
c_records = pytest.mark.skipif(not C_RECORDS, reason="references are Python records")

PARSE_RULES = [*URI.parse_rules, *IRI.parse_rules]
VECTORS = Path(__file__).resolve().parents[1] / "vectors"


@cache
def rule_parts(rule: str) -> tuple[TaggedTables, Program]:
    grammar, name = shipped_rule(rule)
    program = grammar.program(name, CAPTURES, LEAVES)
    assert program.tagged is not None, rule
    return program.tagged, program


@cache
def tagger(rule: str) -> object:
    from urigrammar.engine.backend._native import Tagger

    tables, compiled = rule_parts(rule)
    return Tagger(tables.to_bytes(), plan(compiled.names))  # type: ignore[arg-type]


def regex_groups(rule: str, text: str) -> tuple[str | None, ...] | None:
    match = re.fullmatch(rule_parts(rule)[1].source, text)
    return None if match is None else match.groups()


def groups_of(rule: str, values: list[int] | None, text: str) -> tuple[str | None, ...] | None:
    if values is None:
        return None
    names = rule_parts(rule)[0].names
    return tuple(
        text[values[2 * i] : values[2 * i + 1]]
        if values[2 * i] >= 0 and values[2 * i + 1] >= 0
        else None
        for i in range(len(names))
    )


def spans_of(tables: TaggedTables, text: str) -> tuple[str | None, ...] | None:
    """What ``re.Match.groups()`` gives, read off the tagged DFA run in Python."""
    values = tagged_tags(tables, text)
    if values is None:
        return None
    return tuple(
        text[values[2 * i] : values[2 * i + 1]]
        if values[2 * i] >= 0 and values[2 * i + 1] >= 0
        else None
        for i in range(len(tables.names))
    )


def c_groups(rule: str, text: str) -> tuple[str | None, ...] | None:
    return groups_of(rule, tagger(rule).tags(text), text)  # type: ignore[attr-defined]


def all_agree(rule: str, text: str) -> None:
    """The regex, the Python tagged DFA and (when built) the C tagger give
    the same groups, or all no match."""
    expected = regex_groups(rule, text)
    assert groups_of(rule, tagged_tags(rule_parts(rule)[0], text), text) == expected, (rule, text)
    if NATIVE is not None:
        assert c_groups(rule, text) == expected, (rule, text)


def representatives(tables: TaggedTables) -> list[str]:
    first: dict[int, int] = {}
    for start, cls in zip(tables.starts, tables.classes, strict=True):
        first.setdefault(cls, start)
    return sorted({chr(code) for code in first.values()} | {"\u00e9", "\U000e0001", "\ud800"})


@pytest.mark.parametrize("rule", PARSE_RULES)
def test_captures_are_the_regex_groups(rule: str) -> None:
    tables, compiled = rule_parts(rule)
    assert tables.names == tuple(name for name, _ in compiled.groups)
    assert tables.names
    assert set(tables.names) <= CAPTURES


@native
def test_every_string_of_four_over_the_classes() -> None:
    rule = "URI-reference"
    chars = representatives(rule_parts(rule)[0])
    wrong = [
        text
        for n in range(5)
        for text in map("".join, itertools.product(chars, repeat=n))
        if c_groups(rule, text) != regex_groups(rule, text)
    ]
    assert wrong == []


@pytest.mark.parametrize("rule", [r for r in PARSE_RULES if r != "URI-reference"])
def test_every_string_of_three_over_the_classes(rule: str) -> None:
    chars = representatives(rule_parts(rule)[0])
    for n in range(4):
        for text in map("".join, itertools.product(chars, repeat=n)):
            all_agree(rule, text)


# Characters from every plane, surrogates, delimiters.
ANY_CHAR = st.one_of(
    st.characters(codec=None, categories=None),
    st.integers(0xD800, 0xDFFF).map(chr),
    st.sampled_from(list(":/?#[]@!$&'()*+,;=%.-_~0123456789abcdefABCDEFvV")),
)


def mutated(rule: str) -> st.SearchStrategy[str]:
    return edited(rule, ANY_CHAR, most=3)


@pytest.mark.parametrize("rule", PARSE_RULES)
@settings(max_examples=examples(60))
@given(data=st.data())
def test_groups_agree_on_generated_and_mutated_text(rule: str, data: st.DataObject) -> None:
    all_agree(rule, data.draw(from_rule(rule)))
    all_agree(rule, data.draw(mutated(rule)))


@native
@pytest.mark.parametrize("rule", ["URI-reference", "IRI-reference", "absolute-URI"])
@pytest.mark.parametrize("field", PARSED_FIELDS)
@settings(max_examples=examples(40))
@given(data=st.data())
def test_a_tagger_of_one_component_reads_as_the_python_walk(
    rule: str, field: str, data: st.DataObject
) -> None:
    # A program that captures one component (the columns' host, port...)
    # sets no tag past it: the C tagger then runs the rest of the text as a
    # plain DFA, and must still give every tag the Python walk gives.
    grammar, name = shipped_rule(rule)
    program = grammar.program(name, *_captures((field,)))
    tables = program.tagged
    assert tables is not None
    from urigrammar.engine.backend._native import Tagger

    text = data.draw(st.one_of(from_rule(rule), mutated(rule)))
    native_tags = Tagger(tables.to_bytes(), plan(program.names)).tags(text)
    assert native_tags == tagged_tags(tables, text), text


def parsed_on(backend: Backend | None, text: str, rule: str, iri: bool) -> object:
    assert backend is not None
    on = On(backend)
    try:
        return (on.parse_iri if iri else on.parse)(text, rule)
    except u.URIError as error:
        return (type(error), str(error), error.offset)


@native
@pytest.mark.parametrize("rule", PARSE_RULES)
@settings(max_examples=examples(30))
@given(data=st.data())
def test_parse_is_the_same_on_both_back_ends(rule: str, data: st.DataObject) -> None:
    iri = rule in IRI.parse_rules
    text = data.draw(st.one_of(from_rule(rule), mutated(rule)))
    results = [parsed_on(backend, text, rule, iri) for backend in (NATIVE, PURE)]
    assert results[0] == results[1], (text, results)
    assert type(results[0]) is type(results[1])


@native
@pytest.mark.parametrize("rule", PARSE_RULES)
@settings(max_examples=examples(40))
@given(data=st.data())
def test_both_ways_of_choosing_slots_agree(rule: str, data: st.DataObject) -> None:
    # A plan whose slots list their captures in increasing order (every
    # shipped one) has each slot chosen from the bits of the tags set; the
    # same plan with each slot's first candidate repeated last, which
    # changes no answer, is chosen candidate by candidate.  Two slots more
    # per capture: its text or a constant default, and a constant or None.
    from urigrammar.engine.backend._native import Record as CRecord
    from urigrammar.engine.backend._native import Tagger

    tables, compiled = rule_parts(rule)
    captures = range(len(compiled.groups))
    slots = (
        *plan(compiled.names),
        *(("absent", ((c, None),)) for c in captures),
        *((None, ((c, "present"),)) for c in captures),
    )
    repeated = tuple((default, (*cands, *cands[:1])) for default, cands in slots)
    assert any(len(cands) > 1 for _, cands in slots)
    # Records of the C base class, whatever the default back end's are.
    by_bits = Tagger(tables.to_bytes(), slots, CRecord)  # type: ignore[arg-type]
    by_loop = Tagger(tables.to_bytes(), repeated, CRecord)  # type: ignore[arg-type]
    text = data.draw(st.one_of(from_rule(rule), mutated(rule)))
    assert by_bits.spans(text) == by_loop.spans(text), text
    assert by_bits.consts == by_loop.consts


@native
def test_parse_vectors_on_both_back_ends() -> None:
    cases = json.loads((VECTORS / "parse.json").read_text(encoding="utf-8"))["cases"]
    for case_id, text, _fields in cases:
        results = [parsed_on(backend, text, "URI-reference", False) for backend in (NATIVE, PURE)]
        assert results[0] == results[1], case_id


@native
def test_the_native_back_end_parses_with_the_tagger() -> None:
    # Guards the wiring: a fallback to the regex would pass the tests above.
    assert NATIVE is not None
    for cls, rule in ((u.URIReference, "URI-reference"), (u.IRIReference, "IRI-reference")):
        assert api(NATIVE)._matcher(rule, cls, False) is _tagger_parse(rule, cls)
        made = api(NATIVE)._matcher(rule, cls, True)("http://[::1]:8080/p?q#f")
        assert type(made) is cls
        assert made.host_kind == "IPv6address"
    assert api(PURE)._matcher("URI-reference", u.URIReference, True) is not _tagger_parse(
        "URI-reference", u.URIReference
    )


def _tagger_parse(rule: str, cls: type[u.Reference]) -> object:
    """The native tagger's parse of ``rule`` into ``cls`` (the engine
    keeps one per program and plan)."""
    assert NATIVE is not None
    runs = cls.dialect.grammar.runs(rule, CAPTURES, LEAVES, backend=NATIVE)
    assert runs.reads == "tagged"
    return runs.reader(plan(runs.program.names), cls)


@c_records
def test_the_record_the_tagger_makes_holds_the_slots_of_its_plan() -> None:
    from urigrammar.engine.backend._native import Tagger

    tables, compiled = rule_parts("URI-reference")
    slots = plan(compiled.names)
    plain = Tagger(tables.to_bytes(), slots)  # type: ignore[arg-type]
    into = Tagger(tables.to_bytes(), slots, u.URIReference)  # type: ignore[arg-type]
    text = "https://user@1.2.3.4:443/a/b?c=d#e"
    fields = plain.parse(text)
    made = into.parse(text)
    assert type(fields) is tuple
    assert type(made) is u.URIReference
    assert made._values() == fields
    assert str(made) is text
    assert made == u.parse(text, method="abnf")
    assert hash(made) == hash(u.parse(text, method="abnf"))
    assert pickle.loads(pickle.dumps(made)) == made
    assert into.parse("http://a b") is None


class _PythonRecord(Record):
    """A record class in Python, which the C tagger cannot make itself."""

    __slots__ = ()


@native
@given(text=from_rule("URI-reference"))
@settings(max_examples=examples(40))
def test_the_native_tagger_makes_python_records_with_the_same_slots(text: str) -> None:
    from urigrammar.engine.backend._native import Tagger

    assert NATIVE is not None
    program = shipped_rule("URI-reference")[0].program("URI-reference", CAPTURES, LEAVES)
    slots = plan(program.names)
    made = runs(program, NATIVE).reader(slots, _PythonRecord)
    plain = Tagger(program.tagged.to_bytes(), slots).parse  # type: ignore[arg-type]
    record = made(text)
    assert type(record) is _PythonRecord
    assert record._values() == plain(text)
    assert str(record) is text
    assert made(text + " ") is None


@native
def test_the_native_tagger_makes_records_of_the_base_class_itself() -> None:
    # The base has no collector (only a class statement's subclass does):
    # a record of it is made without touching one.
    from urigrammar.engine.backend._native import Record as CRecord

    assert NATIVE is not None
    program = shipped_rule("URI-reference")[0].program("URI-reference", CAPTURES, LEAVES)
    made = runs(program, NATIVE).reader(plan(program.names), CRecord)
    record = made("http://a/b")
    assert type(record) is CRecord
    assert record._values() == ("http", None, "a", "/b", None, None, "reg-name", None)


@native
def test_records_without_the_collector_take_only_str_constants() -> None:
    # A constant that is no str could refer back to its record, in a cycle
    # the collector would not see: the tagger refuses such a plan for a
    # class without the collector, and takes it for one with it.
    from urigrammar.engine.backend._native import Record as CRecord
    from urigrammar.engine.backend._native import Tagger

    tables, compiled = rule_parts("URI-reference")
    slots = plan(compiled.names)
    numbered = (*slots, (None, ((0, 1),)))
    with pytest.raises(TypeError, match="constants"):
        Tagger(tables.to_bytes(), numbered, CRecord)  # type: ignore[arg-type]
    tracked = type("Tracked", (CRecord,), {"__slots__": ()})
    made = Tagger(tables.to_bytes(), numbered, tracked)  # type: ignore[arg-type]
    assert made.parse("http://a/b")._values()[-1] == 1


# --- long texts: the read buffer (2048 characters) and the record stack ----


@native
@pytest.mark.parametrize("width", ["\u00e9", "\u0100", "\U00010000"])
@pytest.mark.parametrize(
    "shape",
    [
        ("http://h/", "a/", "?q"),
        ("http://h/", "%41", "#f"),
        ("s:", "b/c%2F", ""),
        ("//u", ":p%20", "@h:1/x"),
        ("", "a/b?", "#"),
    ],
)
@pytest.mark.parametrize("count", [1, 700, 2100])
def test_long_texts_cross_the_buffer_and_the_record_stack(
    width: str, shape: tuple[str, str, str], count: int
) -> None:
    head, unit, tail = shape
    ascii_text = head + unit * count + tail
    for rule in ("URI-reference", "IRI-reference"):
        tables = rule_parts(rule)[0]
        expected = tagged_tags(tables, ascii_text)
        assert tagger(rule).tags(ascii_text) == expected  # type: ignore[attr-defined]
        assert c_groups(rule, ascii_text) == regex_groups(rule, ascii_text)
    # The same text as a 2- or 4-byte str: a non-ASCII fragment widens it.
    wide = ascii_text + ("#" if "#" not in ascii_text else "") + width
    rule = "IRI-reference"
    assert c_groups(rule, wide) == regex_groups(rule, wide)


@native
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("recs", b"\xff\xff"),
        ("set_tags", b"\xfe"),
        ("rec_tagset", b"\xff\xff"),
        ("start_tags", b"\xff\xff"),
        ("rec_first", b"\x01\x00\x00\x00"),
        ("finals", b"\x00\x00\x00\x10"),
    ],
)
def test_bad_tables_are_refused(field: str, value: bytes) -> None:
    # Each section overwritten at its start, as engine.automata.tables lays
    # the bytes out: the C tagger refuses them, and so does the reader.
    from urigrammar.engine.backend._native import Tagger

    tables, compiled = rule_parts("URI-reference")
    blob = tables.to_bytes()
    at = _section(blob, field)
    bad = blob[:at] + value + blob[at + len(value) :]
    with pytest.raises(ValueError, match=field.split("_", maxsplit=1)[0]):
        Tagger(bad, plan(compiled.names))
    with pytest.raises(ValueError, match=field.split("_", maxsplit=1)[0]):
        TaggedTables.from_bytes(bad, tables.names)


def _section(blob: bytes, field: str) -> int:
    """Where a tagged DFA's section starts in its bytes."""
    nintervals, nclasses, nstates = struct.unpack_from("<3I", blob, 4)
    nrecords, nthreads, ntagsets, nsettags = struct.unpack_from(
        "<4I", blob, 20 + 5 * nintervals + 2 * nstates * nclasses
    )
    sizes = [
        ("starts", 4 * nintervals),
        ("classes", nintervals),
        ("moves", 2 * nstates * nclasses),
        ("counts", 24),
        ("recs", 2 * nstates * nclasses),
        ("rec_first", 4 * (nrecords + 1)),
        ("rec_source", 2 * nthreads),
        ("rec_tagset", 2 * nthreads),
        ("keeps", nrecords),
        ("set_first", 4 * (ntagsets + 1)),
        ("set_tags", nsettags),
        ("finals", 4 * nstates),
    ]
    at = 20
    for name, size in sizes:
        if name == field:
            return at
        at += size
    return at  # start_tags


@native
@pytest.mark.parametrize(
    ("bad_plan", "error"),
    [
        (((None, ((999, None),)),), ValueError),
        (((None, ((-1, None),)),), ValueError),
        # 2 * capture + 1 wraps past PY_SSIZE_T_MAX: accepted, it would read far off the stack.
        (((None, ((2**62 + 2**59, None),)),), ValueError),
        (((None, (("x", None),)),), TypeError),
        (((None,),), TypeError),
        ([], TypeError),
    ],
)
def test_bad_plans_are_refused(bad_plan: object, error: type[Exception]) -> None:
    from urigrammar.engine.backend._native import Tagger

    tables = rule_parts("URI-reference")[0]
    with pytest.raises(error):
        Tagger(tables.to_bytes(), bad_plan)  # type: ignore[arg-type]


@native
def test_non_str_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="str"):
        tagger("URI-reference").parse(b"http://a")  # type: ignore[attr-defined]


# --- user grammars: where the tagged DFA differs from the regex ------------


@pytest.mark.parametrize(
    ("source", "texts"),
    [
        # re keeps the capture of an iteration that matched empty.
        ('r = *( x )\r\nx = [ "a" ]\r\n', ["", "a", "aa"]),
        ('r = *( x / "b" )\r\nx = *"a"\r\n', ["a", "ab", "ba", "aab"]),
        # A possessive repetition misreports its captures (CPython gh-101955).
        ('r = *( x / y )\r\nx = "a"\r\ny = "b"\r\n', ["ab", "ba", "aab"]),
    ],
)
def test_tagged_tables_read_as_a_pike_vm_where_re_differs(source: str, texts: list[str]) -> None:
    # Captures inside repetitions: the tagged DFA reads as a Pike VM over
    # the same automaton, and that reading, not re's, is Grammar.parse's on
    # both back ends (engine.result.match), so the pure back end does not use the
    # regex's groups for such a rule.
    from urigrammar.engine.automata.pike import PikeVM
    from urigrammar.engine.backend.pure import occurrences, table_events

    grammar = u.load_grammar(source)
    captures = frozenset(name for name in ("x", "y") if f"\n{name} =" in source)
    tables = grammar.program("r", captures).tagged
    assert tables is not None
    automaton = PikeVM(grammar.program("r", captures).body)  # type: ignore[arg-type]
    for text in texts:
        events = automaton.events(text)
        run = table_events(tables, text)
        assert events is not None
        assert run is not None
        assert occurrences(run, tables.names) == occurrences(events, tuple(automaton.names))


def thue(length: int) -> str:
    """A square-free word over a, b, c (Thue): no block ever repeats at once,
    so the tagger's compaction never drops a record."""
    word = "a"
    while len(word) < length:
        word = "".join({"a": "abc", "b": "ac", "c": "b"}[char] for char in word)
    return word[:length]


@native
@pytest.mark.parametrize("length", [127, 128, 129, 300, 5000])
def test_records_past_the_stack_grow_on_the_heap(length: int) -> None:
    # One record a character, none dropped: the record stack (128) overflows,
    # which the URI rules' texts never make it do.
    from urigrammar.engine.backend._native import Tagger

    grammar = u.load_grammar(
        'r = *( "a" / "b" / "c" ) ( x / y / z )\r\nx = "a"\r\ny = "b"\r\nz = "c"\r\n'
    )
    captures = frozenset({"x", "y", "z"})
    tables = grammar.program("r", captures).tagged
    assert tables is not None
    text = thue(length)
    c_tagger = Tagger(tables.to_bytes(), ())  # type: ignore[arg-type]
    assert c_tagger.tags(text) == tagged_tags(tables, text)
    match = re.fullmatch(grammar.program("r", captures).source, text)
    assert match is not None
    assert spans_of(tables, text) == match.groups()


@native
@pytest.mark.parametrize("rule", PARSE_RULES)
def test_every_parse_rule_runs_on_the_tagger(rule: str) -> None:
    # The wiring test above covers the two reference rules; a tagged DFA
    # refused for any other rule (over a cap, names not the groups', tables
    # the extension refuses) would fall back to the regex unseen.
    assert NATIVE is not None
    cls = u.IRIReference if rule in IRI.parse_rules else u.URIReference
    assert api(NATIVE)._matcher(rule, cls, False) is _tagger_parse(rule, cls)
    for screen in (True, False):
        parse = api(NATIVE)._matcher(rule, cls, screen)
        assert parse("") is None or type(parse("")) is cls


@native
@pytest.mark.parametrize("rule", ["URI-reference", "IRI-reference"])
@settings(max_examples=examples(200))
@given(
    head=st.sampled_from(["", "s:", "s://", "//u@h", "http://h/", "http://h?", "#", "a/", "?"]),
    unit=st.text(
        st.sampled_from(list("%4a1F/?#:@.[]v-~é\u0100\U00010000")), min_size=1, max_size=4
    ),
    count=st.integers(0, 600),
    tail=st.text(st.sampled_from(list("%41/?#:@.[]")), max_size=3),
)
def test_runs_cycles_and_compaction_give_the_tags_of_the_plain_walk(
    rule: str, head: str, unit: str, count: int, tail: str
) -> None:
    # The C runner skips loops and 2- and 3-state cycles and compacts its
    # records; the Python walk keeps every record: the tags must agree.
    text = head + unit * count + tail
    tables = rule_parts(rule)[0]
    assert tagger(rule).tags(text) == tagged_tags(tables, text)  # type: ignore[attr-defined]


# Captures inside repetitions: none in RFC 3986's parse rules, but user
# grammars have them (``build_tagged`` builds them with ``repeated=True``,
# as ``Grammar.tagged`` does), and they give loops whose records do not always collapse, which the
# compaction must see.  Without an iteration that matches empty, the Pike
# VM reads them as a backtracking regex does.
USER_GRAMMARS = [
    ('r = *( x / y ) z\r\nx = "a"\r\ny = "b"\r\nz = "c"\r\n', "abc"),
    ('r = *( x / "b" )\r\nx = "a" *"c"\r\n', "abc"),
    ('r = *( x ) *( y )\r\nx = "a" / "b"\r\ny = "b" / "c"\r\n', "abc"),
    ('r = *( x "-" / y )\r\nx = 1*"a"\r\ny = "a" / "-"\r\n', "a-"),
]


@pytest.mark.parametrize(("source", "alphabet"), USER_GRAMMARS)
def test_captures_inside_repetitions_on_a_user_grammar(source: str, alphabet: str) -> None:
    grammar = u.load_grammar(source)
    captures = frozenset({"x", "y"}) & frozenset(grammar.rule_names)
    body = inline_rule(grammar.rules, "r", captures)
    tables = build_tagged(body, repeated=True)
    assert tables is not None
    assert build_tagged(body) is None
    # The oracle: the same pattern, backtracking.  Its possessive form is not
    # one: CPython 3.11's re reports wrong spans for groups inside a
    # possessive repetition (or raises SystemError).
    pattern = grammar.program("r", captures).source
    oracle = re.compile(pattern.replace("*+", "*").replace("++", "+").replace("?+", "?"))
    c_tags = None
    if NATIVE is not None:
        from urigrammar.engine.backend._native import Tagger

        c_tags = Tagger(tables.to_bytes(), ()).tags  # type: ignore[arg-type]
    for n in range(8):
        for text in map("".join, itertools.product(alphabet, repeat=n)):
            match = oracle.fullmatch(text)
            assert spans_of(tables, text) == (None if match is None else match.groups()), text
            if c_tags is not None:
                assert c_tags(text) == tagged_tags(tables, text), text


# --- parse's C entry (engine._native.Entry in parse form) --------------------


def _outcome(call: object, *args: object, **kwargs: object) -> object:
    try:
        return ("ok", call(*args, **kwargs))  # type: ignore[operator]
    except (u.UrigrammarError, TypeError) as error:
        return (type(error), str(error))


PARSE_CALLS: list[tuple[tuple[object, ...], dict[str, object]]] = [
    (("http://a/b?c#d",), {}),
    (("//h:80",), {}),
    (("http://a b",), {}),
    ((b"http://a",), {}),
    ((None,), {}),
    (("a:b", "URI"), {}),
    (("a:b", "relative-ref"), {}),
    (("//a", "uri-REFERENCE"), {}),
    (("//a", "no-such-rule"), {}),
    (("//a",), {"rule": "relative-ref"}),
    (("//a",), {"method": "abnf"}),
    (("//a",), {"method": "other"}),
    (("//a", 5), {}),
    (("http://[::1]",), {}),
    ((), {}),
    (("a", "URI", "x"), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), PARSE_CALLS)
def test_the_parse_entry_answers_as_the_function(
    on: On, args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    for parse in (on.parse, on.api.parser_for(u.IRIReference)):
        function = getattr(parse, "__wrapped__", parse)
        first = _outcome(parse, *args, **kwargs)
        # Twice: the first call fills the table the entry reads.
        assert _outcome(parse, *args, **kwargs) == first == _outcome(function, *args, **kwargs)
        if first[0] == "ok":
            assert type(first[1]) is type(_outcome(function, *args, **kwargs)[1])  # type: ignore[index]


@c_records
def test_parse_runs_through_the_entry_on_the_native_back_end_only() -> None:
    from urigrammar.engine.backend._native import Entry, Tagger

    assert NATIVE is not None
    parse = api(NATIVE).parser_for(u.URIReference)
    assert type(parse) is Entry
    parse("http://a")
    table = parse_table(parse).fast
    assert getattr(table["URI-reference"], "__self__", None).__class__ is Tagger
    # The pure back end's parse is the function itself, and its table holds
    # the regex's fullmatch and walk of its groups, a Python function.
    pure = api(PURE).parser_for(u.URIReference)
    assert type(pure) is not Entry
    assert pure("http://a") == parse("http://a", method="abnf")
    assert not hasattr(parse_table(pure).fast["URI-reference"], "__self__")


def test_parse_functions_pickle_by_reference() -> None:
    assert pickle.loads(pickle.dumps(u.parse)) is u.parse
    assert pickle.loads(pickle.dumps(u.parse_iri)) is u.parse_iri
