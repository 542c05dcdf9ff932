"""RFC 6570's grammar as shipped: section 2's rules in order, erratum 6937
as an overlay, every rule by name at the top level, templates validated
and checked, and the operators the grammar reserves refused by
``URITemplate``."""

from __future__ import annotations

import pytest

import urigrammar as u
from urigrammar.engine import inline_rule
from urigrammar.engine.syntax.charset import CharSet
from urigrammar.engine.syntax.ir import Alt, Chars
from urigrammar.shipped import grammar_text, shipped_rule
from urigrammar.template._sets import OPERATORS, chars_of

# Section 2's rules, in the RFC's order (2, 2.1, 2.2, 2.3, 2.4, 2.4.1, 2.4.2).
SECTION_2 = [
    "URI-Template", "literals", "expression", "operator", "op-level2", "op-level3",
    "op-reserve", "variable-list", "varspec", "varname", "varchar", "modifier-level4",
    "prefix", "max-length", "explode",
]  # fmt: skip


def test_the_file_has_section_2s_rules_in_order_and_restates_none() -> None:
    text = grammar_text("rfc6570.abnf")
    defined = [
        line.split("=")[0].strip()
        for line in text.splitlines()
        if line and not line[0].isspace() and not line.startswith(";")
    ]
    assert defined == SECTION_2
    # Section 1.5's restatements come from RFC 3986 and RFC 3987.
    assert shipped_rule("pct-encoded")[0] is u.RFC3986
    assert shipped_rule("ucschar")[0] is u.RFC3987
    assert u.RFC6570_PUBLISHED.source("literals") is not None
    assert "ucschar" in u.RFC6570_PUBLISHED.references("literals")


def test_the_overlay_defines_only_literals() -> None:
    text = grammar_text("rfc6570-errata.abnf")
    defined = [line.split("=")[0].strip() for line in text.splitlines() if line[:1].isalpha()]
    assert defined == ["literals"]
    assert "eid6937" in text
    assert u.RFC6570.imports == (u.RFC6570_PUBLISHED,)


def test_erratum_6937_the_apostrophe() -> None:
    assert not u.RFC6570_PUBLISHED.validate("URI-Template", "a'b")
    assert u.RFC6570.validate("URI-Template", "a'b")
    assert u.validate("URI-Template", "'{var}'")
    assert u.URITemplate("'{var}'").expand(var="x") == "'x'"
    with pytest.raises(u.URISyntaxError) as caught:
        u.RFC6570_PUBLISHED.check("URI-Template", "a'b")
    assert caught.value.offset == 1
    # The overlay's literals differ from the published one by %x27 alone.
    ours, published = (_single_characters(g, "literals") for g in (u.RFC6570, u.RFC6570_PUBLISHED))
    assert ours.spans == (published | CharSet.of([0x27])).spans
    assert 0x27 not in published


def _single_characters(grammar: u.Grammar, rule: str) -> CharSet:
    inlined = inline_rule(grammar.rules, rule)
    assert isinstance(inlined, Alt)
    found = CharSet()
    for item in inlined.items:
        if isinstance(item, Chars):
            found |= item.chars
    return found


@pytest.mark.parametrize("name", SECTION_2)
def test_every_rule_by_name_at_the_top_level(name: str) -> None:
    grammar, found = shipped_rule(name)
    assert (grammar, found) == (u.RFC6570, name)
    assert name in u.RULE_NAMES
    assert u.rule_source(name) is not None
    # LL(1): the reason RFC6570 may be vetted (its regexes never backtrack).
    assert u.RFC6570.program(name).deterministic


@pytest.mark.parametrize(
    ("rule", "text", "valid"),
    [
        ("URI-Template", "{v:1000}", True),  # max-length is 1 to 9999
        ("URI-Template", "{v:9999}", True),
        ("URI-Template", "{v:10000}", False),
        ("URI-Template", "{v:0}", False),
        ("URI-Template", "{%2F}", True),  # a varchar may be pct-encoded
        ("URI-Template", "a b", False),
        ("URI-Template", "{a.b}", True),
        ("URI-Template", "{a..b}", False),
        ("URI-Template", "{.a}", True),
        ("URI-Template", "{}", False),
        ("URI-Template", "{a", False),
        ("URI-Template", "a}", False),
        ("URI-Template", "{=a}", True),  # reserved operators are syntax
        ("URI-Template", "{$a}", False),  # section 2.2 keeps $ ( ) out
        ("URI-Template", "/\u00e9t\u00e9/{x}", True),  # ucschar
        ("URI-Template", "\ue000", True),  # iprivate
        ("URI-Template", "%zz", False),
        ("URI-Template", "", True),
        ("varname", "a.b_c%2F", True),
        ("varspec", "list*", True),
        ("max-length", "10", True),
        ("op-reserve", "|", True),
    ],
)
def test_validate_and_check(rule: str, text: str, valid: bool) -> None:
    assert u.validate(rule, text) is valid
    if valid:
        u.check(rule, text)
    else:
        with pytest.raises(u.URISyntaxError):
            u.check(rule, text)


def test_a_bad_template_raises_with_offset_and_caret() -> None:
    with pytest.raises(u.URISyntaxError) as caught:
        u.URITemplate("/a{b c}")
    error = caught.value
    assert (error.rule, error.offset) == ("URI-Template", 4)
    assert str(error).splitlines()[1:] == ["  /a{b c}", "      ^"]


def test_the_operator_table_has_the_grammars_operators() -> None:
    grammar = {chr(c) for rule in ("op-level2", "op-level3") for c in chars_of(u.RFC6570, rule)}
    assert set(OPERATORS) == grammar | {""}
    for char, operator in OPERATORS.items():
        assert operator.char == char


@pytest.mark.parametrize("template", ["{=a}", "x{,a}", "{!a}", "{@a,b}", "{|a:3}"])
def test_reserved_operators_validate_but_are_refused(template: str) -> None:
    assert u.validate("URI-Template", template)
    with pytest.raises(u.ReservedOperatorError) as caught:
        u.URITemplate(template)
    error = caught.value
    assert isinstance(error, u.TemplateError)
    assert isinstance(error, u.URIError)
    assert error.offset == template.index("{") + 1
    assert "reserved" in error.message
    assert "2.2" in error.message
    assert str(error).splitlines()[-1].endswith("^")
