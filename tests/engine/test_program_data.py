"""Programs as data (``engine.program.program``, ``engine.program.artifact``): a program
read back from its JSON is the program that was written, and a file that is
truncated, damaged, or from another format, version or grammar text is
refused with a reason, never run and never a traceback."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urigrammar import RFC3986, RFC3987, load_grammar
from urigrammar.engine import BACKENDS, Grammar, PackageStore, runs
from urigrammar.engine.program.artifact import FORMAT, decode, encode, program_from
from urigrammar.engine.program.program import Program
from urigrammar.engine.syntax.table import core
from urigrammar.uri._visitor import CAPTURES, LEAVES

RULES = ("URI-reference", "IPv6address", "authority", "query", "ALPHA")


def _fields(program: Program) -> dict[str, Any]:
    return {
        "key": program.key,
        "regular": program.regular,
        "vetted": program.vetted,
        "body": program.body,
        "regex": program.regex,
        "regex_plain": program.regex_plain,
        "groups": program.groups,
        "linear": program.linear,
        "deterministic": program.deterministic,
        "repeated": program.repeated,
        "dfa": program.dfa,
        "tagged": program.tagged,
    }


@functools.cache
def _fresh(grammar: Grammar, rule: str, captures: frozenset[str] = frozenset()) -> Program:
    from urigrammar.engine.program.build import build_program

    leaves = LEAVES if captures else frozenset()
    return build_program(
        grammar.rules, grammar.canonical(rule), captures, leaves, vetted=grammar.vetted
    )


@pytest.mark.parametrize("rule", RULES)
def test_a_program_reads_back_as_written(rule: str) -> None:
    program = _fresh(RFC3986, rule)
    again = Program.from_bytes(program.to_bytes())
    assert _fields(again) == _fields(program)


def test_a_parse_program_reads_back_with_its_tagged_tables() -> None:
    program = _fresh(RFC3987, "IRI-reference", CAPTURES)
    assert program.tagged is not None
    again = Program.from_bytes(program.to_bytes())
    assert _fields(again) == _fields(program)


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.name)
@given(st.text(alphabet="ab:/?#[]@%1.-", max_size=30))
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_program_read_back_answers_as_the_one_compiled(backend: Any, text: str) -> None:
    program = _fresh(RFC3986, "URI-reference")
    again = Program.from_bytes(program.to_bytes())
    built = runs(program, backend).fullmatch()(text) is not None
    loaded = runs(again, backend).fullmatch()(text) is not None
    assert built == loaded == RFC3986.validate("URI-reference", text)


# --- the file ------------------------------------------------------------------


@functools.cache
def _file(grammar: Grammar) -> bytes:
    programs = {p.key: p.to_bytes() for p in (_fresh(grammar, "URI"), _fresh(grammar, "host"))}
    rules = list(grammar.rules.own.values())
    return encode(grammar.lineage, rules, list(core().values()), programs)


def test_a_good_file_gives_its_rules_and_programs() -> None:
    found = decode(_file(RFC3986), RFC3986.lineage)
    assert not isinstance(found, str), found
    rules, core, pieces = found
    assert [r.name for r in rules] == [r.name for r in RFC3986.rules.own.values()]
    assert [r.expr for r in rules] == [r.expr for r in RFC3986.rules.own.values()]
    assert {r.name for r in core} >= {"ALPHA", "DIGIT", "HEXDIG"}
    assert {key[0] for key in pieces} == {"URI", "host"}


@given(st.data())
@settings(max_examples=80)
def test_a_truncated_file_is_refused(data: st.DataObject) -> None:
    whole = _file(RFC3986)
    cut = data.draw(st.integers(0, len(whole) - 1))
    assert isinstance(decode(whole[:cut], RFC3986.lineage), str)


@given(st.data())
@settings(max_examples=80)
def test_a_file_with_a_changed_byte_is_refused(data: st.DataObject) -> None:
    whole = bytearray(_file(RFC3986))
    at = data.draw(st.integers(0, len(whole) - 1))
    value = data.draw(st.integers(0, 255).filter(lambda v: v != whole[at]))
    whole[at] = value
    found = decode(bytes(whole), RFC3986.lineage)
    if isinstance(found, str):
        return
    # A changed byte in the header may leave it JSON that names the same
    # things; a changed byte in the body is in the sealed rules (refused
    # above) or in a program, refused when that program is read.
    if at > bytes(whole).index(b"\n"):
        _, _, places = found
        refused = []
        for place in places.values():
            try:
                program_from(place)
            except ValueError as exc:
                refused.append(str(exc))
        assert any("digest" in reason for reason in refused)


def _with_header(data: bytes, **changes: object) -> bytes:
    head, _, body = data.partition(b"\n")
    header = json.loads(head)
    header.update(changes)
    return json.dumps(header).encode() + b"\n" + body


@pytest.mark.parametrize(
    "changes",
    [
        {"format": FORMAT + 1},
        {"urigrammar": "0.0.0-other"},
        {"grammars": [["RFC 3986", "0" * 64]]},
        {"sealed": [0, 1, "0" * 64]},
    ],
    ids=["format", "version", "grammar-text", "sealed"],
)
def test_a_foreign_or_stale_header_is_refused(changes: dict[str, object]) -> None:
    found = decode(_with_header(_file(RFC3986), **changes), RFC3986.lineage)
    assert isinstance(found, str)


def test_a_file_for_other_grammar_texts_is_refused() -> None:
    other = load_grammar(RFC3986.text() + "extra = ALPHA\n", name="RFC 3986")
    assert isinstance(decode(_file(RFC3986), other.lineage), str)


def _mutations(value: Any) -> st.SearchStrategy[Any]:
    """``value`` (JSON) with one part replaced by something else."""
    leaf = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.text(max_size=3), st.just([])
    )
    if isinstance(value, dict) and value:
        return st.sampled_from(sorted(value)).flatmap(
            lambda key: st.one_of(
                st.just({k: v for k, v in value.items() if k != key}),
                _mutations(value[key]).map(lambda new: {**value, key: new}),
            )
        )
    if isinstance(value, list) and value:
        return st.integers(0, len(value) - 1).flatmap(
            lambda i: _mutations(value[i]).map(lambda new: [*value[:i], new, *value[i + 1 :]])
        )
    return leaf


#: A program's bytes: its head (JSON), then its body and tables.
PROGRAM_HEAD, _, PROGRAM_REST = _fresh(RFC3986, "authority").to_bytes().partition(b"\n")


def _read(data: bytes) -> None:
    """Past the checksum a program still checks its own shape: anything
    but a well-formed program is a ValueError, never another exception.
    The body of a program that runs from tables is read on first use only."""
    try:
        program = Program.from_bytes(data)
        program.body  # noqa: B018
    except ValueError:
        return


@given(_mutations(json.loads(PROGRAM_HEAD)))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_a_program_with_a_damaged_head_raises_value_error_or_reads(mutated: Any) -> None:
    _read(json.dumps(mutated).encode() + b"\n" + PROGRAM_REST)


@given(st.data())
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_a_program_with_damaged_tables_raises_value_error_or_reads(data: st.DataObject) -> None:
    rest = bytearray(PROGRAM_REST)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(rest) - 1))
        rest[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(rest)))
    _read(PROGRAM_HEAD + b"\n" + bytes(rest[:cut]))
    _read(PROGRAM_HEAD + b"\n" + bytes(rest))


def test_a_program_of_another_rule_in_a_store_is_compiled_afresh(tmp_path: Path) -> None:
    # A file whose index names the program of "host" as the one of "URI".
    original = _fresh(RFC3986, "host")
    key = (RFC3986.canonical("URI"), (), ())
    rules = list(RFC3986.rules.own.values())
    store = PackageStore(tmp_path / "rfc3986.json")
    store.path.write_bytes(
        encode(RFC3986.lineage, rules, list(core().values()), {key: original.to_bytes()})
    )
    grammar = Grammar(RFC3986.text(), name=RFC3986.name, lazy=True, vetted=True, store=store)
    assert grammar.program("URI").rule == "URI"
    assert grammar.validate("URI", "http://a/b")


def _stored(tmp_path: Path, rules: tuple[str, ...]) -> tuple[PackageStore, bytes]:
    """A package store of RFC 3986's rules and the programs of ``rules``."""
    fresh = [_fresh(RFC3986, rule) for rule in rules]
    programs = {program.key: program.to_bytes() for program in fresh}
    data = encode(
        RFC3986.lineage, list(RFC3986.rules.own.values()), list(core().values()), programs
    )
    store = PackageStore(tmp_path / "rfc3986.json")
    store.path.write_bytes(data)
    return store, data


def _loaded(store: PackageStore) -> Grammar:
    grammar = Grammar(RFC3986.text(), name=RFC3986.name, lazy=True, vetted=True, store=store)
    grammar.rules  # noqa: B018 (the header is read with the rules)
    return grammar


def test_pieces_read_from_a_shipped_file_are_the_programs_written(tmp_path: Path) -> None:
    # A package store reads its file to the header, then each piece when it
    # is used (wire.FileBody); pieces zeroed under a good header are found
    # by their digests, and the grammar read from its text.
    store, data = _stored(tmp_path, ("URI", "host"))
    grammar = _loaded(store)
    expected = _fields(_fresh(RFC3986, "host"))
    assert _fields(grammar.program("host")) == expected
    assert grammar.validate("URI", "http://a/b")
    head = data.index(b"\n") + 1
    damaged = bytearray(data)
    damaged[head:] = bytes(len(damaged) - head)  # every piece zeroed, the header kept
    store.path.write_bytes(bytes(damaged))
    again = _loaded(store)  # the rules' piece is zeroed too: read from the text
    assert _fields(again.program("host")) == expected


@pytest.mark.parametrize("change", ["cut", "removed", "zeroed"])
def test_a_file_changed_after_its_header_was_read_costs_a_compile(
    tmp_path: Path, change: str
) -> None:
    # Between reading the header and a program's piece, the file is cut
    # short, removed, or overwritten: the program is compiled afresh, the
    # same as the one stored, never read wrong.
    store, data = _stored(tmp_path, ("URI", "host"))
    grammar = _loaded(store)
    if change == "cut":
        store.path.write_bytes(data[: data.index(b"\n") + 10])
    elif change == "removed":
        store.path.unlink()
    else:
        store.path.write_bytes(data[: data.index(b"\n") + 1] + bytes(len(data)))
    assert _fields(grammar.program("host")) == _fields(_fresh(RFC3986, "host"))
    assert grammar.validate("URI", "http://a/b")
    assert not grammar.validate("URI", "http://a b/")
