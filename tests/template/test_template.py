"""RFC 6570 URI Templates: every example of the RFC as a vector, and
``URITemplate``'s parse, expansion and matching.  The grammar as shipped:
test_template_grammar.py."""

from __future__ import annotations

import json
import pickle
import re
from collections import OrderedDict
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

import urigrammar as u

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "rfc6570.json").read_text(encoding="utf-8")
)
CASES = VECTORS["vectors"]


def _variables(case: dict[str, Any]) -> dict[str, Any]:
    return dict(VECTORS["variables"][case["variables"]])


# --- the RFC's examples ----------------------------------------------------------


def test_the_vectors_are_every_example() -> None:
    sections = {case["section"] for case in CASES}
    assert sections == {
        "1.1", "1.2-level1", "1.2-level2", "1.2-level3", "1.2-level4", "2.4.1", "2.4.2",
        "3.2.1", "3.2.2", "3.2.3", "3.2.4", "3.2.5", "3.2.6", "3.2.7", "3.2.8", "3.2.9",
    }  # fmt: skip
    counts = {s: sum(1 for c in CASES if c["section"] == s) for s in sections}
    # Rows per table, counted in the RFC.
    assert counts["1.2-level4"] == 42
    assert counts["3.2.3"] == 17
    assert counts["3.2.9"] == 10
    assert len(CASES) == 191
    assert len({case["id"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("text", VECTORS["templates"])
def test_the_overviews_templates(text: str) -> None:
    # Section 1.1's examples that come without values.
    template = u.URITemplate(text)
    assert str(template) == text
    # With every variable undefined only the literals remain (3.2.1).
    assert template.expand() == re.sub(r"\{[^}]*\}", "", text)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_expansion(case: dict[str, Any]) -> None:
    template = u.URITemplate(case["template"])
    assert template.expand(_variables(case)) == case["expansion"]
    assert u.validate("URI-reference", case["expansion"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_match_reads_the_expansion_back(case: dict[str, Any]) -> None:
    template = u.URITemplate(case["template"])
    found = template.match(case["expansion"])
    assert found is not None
    assert template.expand(found) == case["expansion"]


# Appendix A: an exploded associative array under an operator that does not
# name its variables writes "name=value" for every pair, "=" even when the
# value is empty; only the named operators (;, ?, &) write their ifemp.
_EXPLODED_EMPTY = [
    ("{keys*}", "a=,b=x"),
    ("{+keys*}", "a=,b=x"),
    ("{#keys*}", "#a=,b=x"),
    ("{.keys*}", ".a=.b=x"),
    ("{/keys*}", "/a=/b=x"),
    ("{;keys*}", ";a;b=x"),
    ("{?keys*}", "?a=&b=x"),
    ("{&keys*}", "&a=&b=x"),
]


@pytest.mark.parametrize(
    ("template", "expected"),
    _EXPLODED_EMPTY,
    ids=[f"RFC6570-3.2.1-appendix-A:{t}" for t, _ in _EXPLODED_EMPTY],
)
def test_an_exploded_empty_value_keeps_its_equals(template: str, expected: str) -> None:
    found = u.URITemplate(template)
    assert found.expand(keys={"a": "", "b": "x"}) == expected
    reading = found.match(expected)
    assert reading is not None
    assert found.expand(reading) == expected


@pytest.mark.parametrize("template", ["{keys*}", "{/keys*}"])
def test_a_bare_name_in_an_exploded_unnamed_map_is_no_expansion(template: str) -> None:
    # "/a/b=x": "a" is no pair ("a=" is the empty value's) and no list
    # member either (a list has no "="), so no expansion wrote it.
    uri = u.URITemplate(template).expand(keys={"a": "", "b": "x"}).replace("a=", "a")
    assert u.URITemplate(template).match(uri) is None


@pytest.mark.parametrize(
    ("template", "uri", "expected"),
    [
        ("{var}", "value", {"var": "value"}),
        ("{hello}", "Hello%20World%21", {"hello": "Hello World!"}),
        ("{half}", "50%25", {"half": "50%"}),
        ("{+half}", "50%25", {"half": "50%25"}),  # (U+R): ASCII triplets stay as written
        ("{#x}", "#caf%C3%A9%2F", {"x": "caf\u00e9%2F"}),  # ... non-ASCII ones are read
        ("{+x:1}", "%C2%80", {"x": "\x80"}),  # one character, as the prefix counts it
        ("{list}", "red,green,blue", {"list": ["red", "green", "blue"]}),
        ("{keys*}", "semi=%3B,dot=.,comma=%2C", {"keys": {"semi": ";", "dot": ".", "comma": ","}}),
        ("{/count*}", "/one/two/three", {"count": ["one", "two", "three"]}),
        ("{.keys*}", ".a.b=x", {"keys": {"a.b": "x"}}),  # a "." before any "=": a name's
        ("{;x,y,empty}", ";x=1024;y=768;empty", {"x": "1024", "y": "768", "empty": ""}),
        ("{;v,bar,who}", ";v=6;who=fred", {"v": "6", "who": "fred"}),
        ("{?x,y,empty}", "?x=1024&y=768&empty=", {"x": "1024", "y": "768", "empty": ""}),
        ("{?list*}", "?list=red&list=green", {"list": ["red", "green"]}),
        ("{?keys*}", "?semi=%3B&dot=.", {"keys": {"semi": ";", "dot": "."}}),
        (
            "{;keys*}",
            ";semi=%3B;dot=.;comma=%2C",
            {"keys": {"semi": ";", "dot": ".", "comma": ","}},
        ),
        ("{?who}", "", {}),
        ("foo{#undef}", "foo", {}),
        ("foo{#empty}", "foo#", {"empty": ""}),
        ("/users/{id}{?page,size}", "/users/42?size=10", {"id": "42", "size": "10"}),
        ("{/who}/x/{who}", "/fred/x/fred", {"who": "fred"}),
        ("{/var:1}/{var}", "/v/value", {"var": "value"}),
        ("/{x}", "/\u00e9", None),  # a URI: an IRI's characters are not in the sets
        ("{x}", "%FF", None),  # no expansion writes octets that are not UTF-8
        ("{var:3}", "valu", None),  # longer than the prefix
        ("{/x}", "/a/b", None),  # a value's "/" is encoded
        ("{?x}", "?y=1", None),
        ("{?x,y}", "?y=1&x=2", None),  # expansion keeps the template's order
        ("{;x}", ";x=", None),  # an empty value is ";x"
        ("{?x}", "?x", None),  # ... but "?x=" for form-style
        ("{/who}/x/{who}", "/fred/x/bob", None),  # one variable, one value
        ("a{x}b", "ab", {"x": ""}),
        ("a{x}b", "a", None),
        # Texts no expansion writes, whose reading would expand to another
        # URI: a named value's "=" is encoded (section 3.2.1, (U)), and
        # so is no unreserved character, and triplets are uppercase.
        ("{?x}", "?x=a=b", None),
        ("{;x}", ";x=a,b=c", None),
        ("{x}", "%41", None),
        ("{x}", "%7E", None),
        ("{x}", "%2f", None),
        ("{x}", "%c3%a9", None),
        ("{+x}", "%c3%a9", None),
    ],
)
def test_match(template: str, uri: str, expected: dict[str, Any] | None) -> None:
    assert u.URITemplate(template).match(uri) == expected


@pytest.mark.parametrize(
    ("template", "ambiguous"),
    [
        ("/users/{id}{?page,size}", False),
        ("/b{/a}{?x}{&y}{#f}", False),
        ("{/a}/b", True),  # conservative (LL(1)): "/" may start a or the literal
        ("{?keys*}", False),
        ("{x}", False),
        ("{+path}", False),
        ("{;x,y,z}", False),
        ("{a}{b}", True),  # adjacent, overlapping sets, no literal between
        ("{+path}/here", True),  # the path may hold "/"
        ("{a}b", True),  # "b" may end the value
        ("{x,y}", True),  # "1": x or y?
        ("{/a,b}", True),  # "/1": a or b?
        ("{?x,y*}", True),  # y's keys may be "x"
        ("{.dom*}", True),  # "." is in a value too
        ("{/a*}{/b}", True),
        ("{/a}{/b}", True),
        ("{?a}{&b}", False),
        ("{?a,b}{&c}", True),  # conservative: "&" may be a's separator
    ],
)
def test_ambiguous(template: str, ambiguous: bool) -> None:
    assert u.URITemplate(template).ambiguous is ambiguous


def test_an_ambiguous_template_still_matches_one_way() -> None:
    template = u.URITemplate("{+path}/here")
    assert template.match("/foo/bar/here") == {"path": "/foo/bar"}
    assert template.match("/here") == {"path": ""}
    assert template.match("/foo/bar/there") is None
    assert u.URITemplate("{a}{b}").match("xy") == {"a": "xy", "b": ""}
    # Long inputs take linear time (no timing here: bench/bench_template.py).
    long = "/a" * 20_000 + "/here"
    assert template.match(long) == {"path": "/a" * 20_000}
    assert template.match("/a" * 20_000 + "!") is None


@pytest.mark.parametrize(
    ("template", "values"),
    [
        # The first reading gives a "v", which {.a} says is undefined.
        ("{.a}{/a,b}", {"b": "v"}),
        # ... gives y "" (soft), which {x,y} would write as "1,".
        ("{x,y}-{y}", {"x": "1"}),
        ("{x,y}{y}", {"x": "1"}),
        ("{/a,b}/x{/b}", {"b": "2"}),
    ],
)
def test_an_ambiguous_match_finds_a_reading_that_expands_back(
    template: str, values: dict[str, Any]
) -> None:
    # match's contract: a reading it returns writes the URI again, and the
    # search behind the first reading finds one where it exists.
    found = u.URITemplate(template)
    uri = found.expand(values)
    reading = found.match(uri)
    assert reading is not None
    assert found.expand(reading) == uri


def test_an_ambiguous_match_with_no_reading_is_none() -> None:
    # "1," splits, and reads as x "1", y "": which writes "1," again but
    # then "{y}" must be "" too, so "1,-" has a reading and "1,-x" has not.
    template = u.URITemplate("{x,y}-{y}")
    assert template.match("1,-") == {"x": "1", "y": ""}
    assert template.match("1,-x") is None
    assert template.match("1,x-x") == {"x": "1", "y": "x"}


def test_an_ambiguous_search_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Variables that repeat make the search exponential in general: it
    # stops after MAX_SEARCH_STEPS and answers None.
    from urigrammar.template import _search

    spent: list[int] = []

    class Counting(_search._Budget):
        def spend(self, steps: int) -> None:
            spent.append(steps)
            super().spend(steps)

    monkeypatch.setattr(_search, "_Budget", Counting)
    template = u.URITemplate("{a}{b}{c}{a}{b}{c}")  # "w w", with w cut in three
    assert template.match("abcabd" * 2) == {"a": "abcabd"}
    spent.clear()
    assert template.match("abcdefghijklmnopqrstuvwxyz" * 3) is None  # no square
    assert 0 < sum(spent) <= _search.MAX_SEARCH_STEPS + max(spent)


def test_a_megabyte_exploded_dot_map_is_read_in_one_pass() -> None:
    # {.x*}: an item without "=" continues the value before it; read
    # quadratically, a megabyte of them would take half a minute.  No
    # timing here: a quadratic reading shows as a test that does not finish.
    items = "b" * 500_000
    found = u.URITemplate("{.x*}").match(".a=1" + "." + ".".join(items))
    assert found == {"x": {"a": "1." + ".".join(items)}}


# --- URITemplate ----------------------------------------------------------------


def test_text_variables_and_value_semantics() -> None:
    text = "http://h{/a,b}{?c*,a}{#d:2}"
    template = u.URITemplate(text)
    assert str(template) == text
    assert template.variables == ("a", "b", "c", "d")
    assert repr(template) == f"URITemplate({text!r})"
    assert template == u.URITemplate(text)
    assert hash(template) == hash(u.URITemplate(text))
    assert template != u.URITemplate("x")
    assert pickle.loads(pickle.dumps(template)) == template
    with pytest.raises(AttributeError):
        template._text = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del template._text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("http://u:secret@h/{x}", "http://u:****@h/{x}"),
        ("{scheme}://u:s3cr3t@h{/p}", "{scheme}://u:****@h{/p}"),
        ("//u:pw@h{?q}", "//u:****@h{?q}"),
        ("http://u@h/{x}", "http://u@h/{x}"),  # no password
        ("http://h/{x}?a:b@c", "http://h/{x}?a:b@c"),  # no userinfo
    ],
)
def test_repr_hides_a_literal_password(text: str, shown: str) -> None:
    # As a URI's repr does (RFC 3986 section 3.2.1): a log line never shows it.
    template = u.URITemplate(text)
    assert repr(template) == f"URITemplate({shown!r})"
    assert str(template) == text
    # ... and hides what the URI it expands to hides.
    expanded = u.parse(template.expand(x="1", p="1", q="1", scheme="http"))
    assert ("****" in repr(expanded)) == ("****" in shown)


@pytest.mark.parametrize("bad", [None, b"{x}", 3])
def test_a_template_is_a_str(bad: object) -> None:
    with pytest.raises(TypeError):
        u.URITemplate(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        u.URITemplate("{x}").match(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a b", "a%20b"),
        (1024, "1024"),
        (-1, "-1"),
        (0.5, "0.5"),
        (1e100, "1e%2B100"),  # json.dumps writes 1e+100
        (True, "true"),  # JSON's spelling, not Python's
        (False, "false"),
        (None, ""),
        ([], ""),
        ({}, ""),
        ({"a": None}, ""),  # every value undefined: the array is (2.3)
        (["a", None, 2], "a,2"),
        (("x", "y"), "x,y"),
        (OrderedDict([("b", "1"), ("a", "2")]), "b,1,a,2"),
        (MappingProxyType({"k": "v"}), "k,v"),
        ("\u00e9\U0001f600", "%C3%A9%F0%9F%98%80"),
    ],
)
def test_values(value: object, expected: str) -> None:
    assert u.URITemplate("{x}").expand(x=value) == expected


@pytest.mark.parametrize(
    "value", [b"x", {1, 2}, object(), [["nested"]], {1: "a"}, {"a": ["b"]}, 1j]
)
def test_other_values_are_type_errors(value: object) -> None:
    with pytest.raises(TypeError):
        u.URITemplate("{x}").expand(x=value)


def test_expand_takes_a_mapping_and_keywords() -> None:
    template = u.URITemplate("{mapping}{/a}")
    assert template.expand({"a": "1"}, a="2") == "/2"
    assert template.expand(mapping="m") == "m"
    assert template.expand() == ""
    with pytest.raises(TypeError):
        template.expand(["a"])  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [["a"], {"k": "v"}])
def test_a_prefix_on_a_composite_value_is_an_expansion_error(value: object) -> None:
    template = u.URITemplate("x/{?a,list:3}")
    with pytest.raises(u.ExpansionError) as caught:
        template.expand(list=value)
    error = caught.value
    assert isinstance(error, u.TemplateError)
    assert (error.rule, error.offset) == ("prefix", template.__str__().index(":"))
    assert "2.4.1" in error.message
    assert template.expand(list="abcdef") == "x/?list=abc"


def test_prefixes_count_characters_not_octets_or_triplets() -> None:
    assert u.URITemplate("{x:2}").expand(x="\u00e9\u00e9\u00e9") == "%C3%A9%C3%A9"
    # (U+R) passes triplets through: one counts as one character (3.2.1).
    assert u.URITemplate("{+x:2}").expand(x="%2Fab") == "%2Fa"
    assert u.URITemplate("{x:2}").expand(x="%2Fab") == "%252"  # (U): "%" is one


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("%C3%A9b", "%C3%A9"),  # one character of the decoded value: its two triplets
        ("%F0%9F%98%80x", "%F0%9F%98%80"),
        ("%41%42", "%41"),  # ASCII: one triplet a character
        ("%FF%C3%A9", "%FF"),  # an octet that is no UTF-8: a character of its own
        ("%E2%80", "%E2"),  # an incomplete sequence too
        ("%ED%A0%80", "%ED"),  # ... and a surrogate's
    ],
)
def test_a_prefix_under_reserved_does_not_split_a_character(value: str, expected: str) -> None:
    # Section 3.2.1: "the first max-length characters of the decoded value
    # ... count each Unicode code point as one character".
    template = u.URITemplate("{+x:1}")
    assert template.expand(x=value) == expected
    found = template.match(expected)
    assert found is not None
    assert template.expand(found) == expected


def test_literals_are_written_for_a_uri() -> None:
    # Section 3.1: a literal outside unreserved / reserved / pct-encoded is
    # written as the triplets of its UTF-8 octets; triplets stay as written.
    template = u.URITemplate("/caf\u00e9/{x}/%2f\ue000")
    assert template.expand(x="\u00e9") == "/caf%C3%A9/%C3%A9/%2f%EE%80%80"
    assert template.match("/caf%C3%A9/%C3%A9/%2f%EE%80%80") == {"x": "\u00e9"}


def test_reserved_expansion_keeps_triplets_and_encodes_stray_percents() -> None:
    template = u.URITemplate("{+x}")
    assert template.expand(x="%41%zz/?#[]") == "%41%25zz/?#[]"


def test_errors_from_values_are_uri_errors() -> None:
    with pytest.raises(u.URIError):
        u.URITemplate("{x}").expand(x="\ud800")  # a lone surrogate has no UTF-8
    with pytest.raises(u.ExpansionError):
        u.URITemplate("{x}").expand(x=10**5000)  # past CPython's int-to-str limit


def test_import_reads_no_grammar() -> None:
    import subprocess
    import sys

    # No shipped grammar is read at import: not RFC 6570's, and not RFC
    # 3987's, not even to name the IRI parse rules.
    code = (
        "import urigrammar, sys\n"
        "from urigrammar.shipped import SHIPPED\n"
        "assert all(g._rules is None for g in SHIPPED)\n"
        "t = urigrammar.URITemplate\n"
        "rules = urigrammar.IRI_PARSE_RULES\n"
        "assert all(g._rules is None for g in SHIPPED)\n"
        "assert 'hypothesis' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_ambiguous_split_too_big_is_undecided() -> None:
    # The split of an ambiguous template keeps a row of the URI per part:
    # past the bound it says so rather than run for minutes (300 parts on
    # 30,000 characters is 9 million cells).
    from urigrammar.template._match import MAX_SPLIT_CELLS

    template = u.URITemplate("".join(f"{{a{i}}}" for i in range(300)))
    assert template.ambiguous
    with pytest.raises(u.InputTooLongError, match="MAX_SPLIT_CELLS") as caught:
        template.match("x" * (MAX_SPLIT_CELLS // 300 + 1))
    assert caught.value.rule == "URI-Template"
    # Under the bound the same template still matches.
    assert template.match("x" * 1000) is not None
    # An unambiguous template takes any length (one regex).
    assert u.URITemplate("/{a}").match("/" + "x" * (MAX_SPLIT_CELLS + 1)) is not None
