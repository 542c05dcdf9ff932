"""Every regular rule of the shipped grammars, exported in each flavour
(``Grammar.regex``), run in that flavour's real engine, agrees with
``validate``: Python's ``re``; RE2 through google-re2, pyarrow and DuckDB;
Rust's ``regex`` through polars; Java's ``java.util.regex`` through the
JDK.  The texts are the URL corpus sample, strings generated from each
rule (``strategies.from_rule``), each with one character inserted,
deleted or replaced, and long repetitions of them (a backtracking engine
that is not linear, or recurses per character, shows there).  The field
form (``field_regex``) gives the components ``parse`` gives.

Each engine's package is skipped when missing (tox's ``columns`` env has
them all); texts are batched, one array or process per rule.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urigrammar as u
from _budget import examples, stride
from _edits import damaged, drawn
from urigrammar.shipped import shipped_rule
from urigrammar.strategies import from_rule

HERE = Path(__file__).resolve().parent
CORPUS = (HERE.parent / "data" / "real-urls.txt").read_text("utf-8").splitlines()[:: stride()]
RULES = u.RULE_NAMES
PARSE_RULES = (*u.PARSE_RULES, *u.IRI_PARSE_RULES)

# What damage puts in: delimiters of every component, percent signs and
# hex digits, letters, a space and controls, non-ASCII letters, a non-BMP
# character, a private-use one, a bidi control, a noncharacter.
DAMAGE = (
    ":/?#[]@!$&'()*+,;=%-._~aZ09fF \t\n\x00\x7f\u00e9\u4e00\U0001f600\ue000\u202e\ufffe{}|^`<>\"\\"
)
# Only Python's re takes these (RE2, Rust: UTF-8 text; Java: a pair of
# them is one code point there).
SURROGATES = "\ud800\udfff"


def _long(texts: list[str]) -> list[str]:
    """Long texts: the longest generated text repeated to some 20,000
    characters, alone and with a character that breaks it at the end."""
    seed = max(texts, key=len, default="")
    if not seed:
        return []
    long = seed * (20_000 // len(seed) + 1)
    return [long, long + "\x00", "/" + long]


@cache
def texts(rule: str) -> tuple[str, ...]:
    generated = drawn(rule, examples(30))
    damage = damaged(generated, rule, DAMAGE + SURROGATES)
    return (*CORPUS, *generated, *damage, *_long(generated), "")


@cache
def expected(rule: str) -> tuple[bool, ...]:
    return tuple(u.validate(rule, text) for text in texts(rule))


def utf8(rule: str) -> tuple[list[str], list[bool]]:
    """The texts UTF-8 can carry (no surrogate), with ``validate``'s answers."""
    pairs = [
        (t, e)
        for t, e in zip(texts(rule), expected(rule), strict=True)
        if t.isascii() or _scalars(t)
    ]
    return [t for t, _ in pairs], [e for _, e in pairs]


def _scalars(text: str) -> bool:
    return not any("\ud800" <= c <= "\udfff" for c in text)


def disagreements(rule: str, got: list[bool], want: list[bool], kept: list[str]) -> list[str]:
    return [text for text, g, w in zip(kept, got, want, strict=True) if g != w][:5]


def pattern(rule: str, flavour: str) -> str:
    return u.regex(rule, flavour).pattern


# --- Python's re ------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_python_re_agrees_with_validate(rule: str) -> None:
    import re

    compiled = re.compile(pattern(rule, "python"))
    all_texts = list(texts(rule))
    got = [compiled.search(t) is not None for t in all_texts]
    assert disagreements(rule, got, list(expected(rule)), all_texts) == []


# --- RE2 ----------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_google_re2_agrees_with_validate(rule: str) -> None:
    re2 = pytest.importorskip("re2")
    compiled = re2.compile(pattern(rule, "re2"))
    kept, want = utf8(rule)
    got = [compiled.search(t) is not None for t in kept]
    assert disagreements(rule, got, want, kept) == []


@pytest.mark.parametrize("rule", RULES)
def test_pyarrow_agrees_with_validate(rule: str) -> None:
    pa = pytest.importorskip("pyarrow")
    pc = pytest.importorskip("pyarrow.compute")
    kept, want = utf8(rule)
    got = pc.match_substring_regex(pa.array(kept, pa.string()), pattern(rule, "re2")).to_pylist()
    assert disagreements(rule, got, want, kept) == []


@pytest.mark.parametrize("rule", RULES)
def test_duckdb_agrees_with_validate(rule: str) -> None:
    duckdb = pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    kept, want = utf8(rule)
    texts_table = pa.table({"s": pa.array(kept, pa.string())})  # noqa: F841 (read by the query)
    # A constant pattern, so DuckDB compiles it once; the exported text
    # has no quote (every punctuation character is escaped).
    found = pattern(rule, "re2")
    assert "'" not in found
    rows = duckdb.sql(
        f"select regexp_full_match(s, '{found}'), regexp_matches(s, '{found}') from texts_table"
    ).fetchall()
    assert disagreements(rule, [r[0] for r in rows], want, kept) == []
    assert disagreements(rule, [r[1] for r in rows], want, kept) == []


# --- Rust's regex, through polars --------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_polars_agrees_with_validate(rule: str) -> None:
    pl = pytest.importorskip("polars")
    kept, want = utf8(rule)
    got = pl.Series(kept, dtype=pl.String).str.contains(pattern(rule, "rust")).to_list()
    assert disagreements(rule, got, want, kept) == []


# --- Java -----------------------------------------------------------------------


def _java_texts(rule: str) -> tuple[list[str], list[bool]]:
    # A high surrogate before a low one is one code point in a Java
    # String, two in Python's str: such texts are left out.
    pairs = [
        (t, e)
        for t, e in zip(texts(rule), expected(rule), strict=True)
        if not any("\ud800" <= a <= "\udbff" and "\udc00" <= b <= "\udfff" for a, b in pairwise(t))
    ]
    return [t for t, _ in pairs], [e for _, e in pairs]


def _units(text: str) -> str:
    """``text`` as RegexCheck.java reads it: UTF-16 code units in hex."""
    return text.encode("utf-16-be", "surrogatepass").hex()


def test_java_agrees_with_validate() -> None:
    java = shutil.which("java")
    if java is None:
        pytest.skip("no java on PATH")
    lines = []
    for rule in RULES:
        kept, _ = _java_texts(rule)
        lines.append("P " + _units(pattern(rule, "java")))
        lines.extend("T " + _units(text) for text in kept)
        lines.append("E")
    run = subprocess.run(
        [java, str(HERE / "RegexCheck.java")],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=120,
    )
    rows = run.stdout.splitlines()
    assert len(rows) == len(RULES)
    wrong = {}
    for rule, row in zip(RULES, rows, strict=True):
        kept, want = _java_texts(rule)
        if row.startswith("!"):
            wrong[rule] = row
            continue
        found = disagreements(rule, [c == "1" for c in row], want, kept)
        if found:
            wrong[rule] = found
    assert wrong == {}


# --- the field form -------------------------------------------------------------


def _components(rule: str, text: str) -> tuple[str | None, ...] | None:
    try:
        if rule in u.PARSE_RULES:
            ref: u.URIReference | u.IRIReference = u.parse(text, rule)
        else:
            ref = u.parse_iri(text, rule, allow_bidi=True)
    except u.URISyntaxError:
        return None
    return (ref.scheme, ref.userinfo, ref.host, ref.port_text, ref.path, ref.query, ref.fragment)


def _coalesced(found: u.FieldRegex, value: Callable[[str], str | None]) -> tuple[str | None, ...]:
    out = []
    for groups in found.fields.values():
        values = [value(g) for g in groups]
        out.append(next((v for v in values if v is not None), None))
    return tuple(out)


@pytest.mark.parametrize(("module", "flavour"), [("re", "python"), ("re2", "re2")])
@pytest.mark.parametrize("rule", PARSE_RULES)
def test_search_groups_give_the_components(module: str, flavour: str, rule: str) -> None:
    engine = pytest.importorskip(module)
    found = u.field_regex(rule, flavour)
    compiled = engine.compile(found.pattern)
    # Python's re takes every text; RE2 reads UTF-8, which holds no surrogate.
    for text in texts(rule) if module == "re" else utf8(rule)[0]:
        match = compiled.search(text)
        want = _components(rule, text)
        assert (match is None) == (want is None), text
        if match is not None:
            assert _coalesced(found, match.group) == want, text


@pytest.mark.parametrize("rule", PARSE_RULES)
def test_polars_extract_groups_give_the_components(rule: str) -> None:
    pl = pytest.importorskip("polars")
    found = u.field_regex(rule, "rust")
    kept, want = utf8(rule)
    parts = pl.col("s").str.extract_groups(found.pattern)
    frame = pl.DataFrame({"s": kept}, schema={"s": pl.String}).select(
        # A row the regex does not match gives a struct of nulls: the
        # match itself decides which rows to compare.
        pl.col("s").str.contains(found.pattern).alias("ok"),
        *(
            # A component no group gives (absolute-URI's fragment) is null.
            pl.coalesce(*(parts.struct.field(g) for g in groups), pl.lit(None, pl.String)).alias(
                field
            )
            for field, groups in found.fields.items()
        ),
    )
    assert frame["ok"].to_list() == want
    fields = list(found.fields)
    for text, row in zip(kept, frame.iter_rows(named=True), strict=True):
        components = _components(rule, text)
        if components is not None:
            assert tuple(row[f] for f in fields) == components, text


# Rules with captures in repetitions (``path``: every segment) and in
# alternatives met twice (``URI-reference``: authority, host, port, ...).
OCCURRENCES = ("URI-reference", "IRI", "authority", "path", "IPv6address", "segment-nz")


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(OCCURRENCES).flatmap(lambda r: st.tuples(st.just(r), from_rule(r))))
def test_the_groups_of_each_occurrence_hold_its_last_match(drawn: tuple[str, str]) -> None:
    import re

    rule, text = drawn
    grammar, name = shipped_rule(rule)
    captures = grammar.default_captures(name)
    found = grammar.regex(name, "python", captures=captures)
    match = re.search(found.pattern, text)
    assert match is not None
    parsed = grammar.parse(name, text, captures=captures)
    for capture in captures:
        # Each group holds the last match of its occurrence of the rule (a
        # regex's group in a repetition keeps its last iteration), so the
        # groups that took part are the last of parse's occurrences, in
        # order, or all of them where no repetition holds the rule.
        spans = [match.span(g) for g in found.names(capture) if match.span(g) != (-1, -1)]
        every = parsed.spans(capture)
        assert set(spans) <= set(every), capture
        if every:
            assert every[-1] in spans, capture
