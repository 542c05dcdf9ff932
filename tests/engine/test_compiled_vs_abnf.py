"""The compiled engine against the abnf engine: same verdicts on every rule,
same components for URI-reference, on strings generated from the grammar and
on those strings damaged by one edit."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from _edits import edited as near
from urigrammar.shipped import shipped_rule
from urigrammar.strategies import from_rule

# The URI alphabet, "%", a space and some non-ASCII.
EDIT_CHARS = st.one_of(
    from_rule("reserved"),
    from_rule("unreserved"),
    st.sampled_from(["%", " ", "\u00e9", "\u20ac", "\x00", "\ud800", "[", "]"]),
)
# RFC 3986 and the core rules: RFC 3987's own rules are held to abnf's
# transcription of RFC 3987 (iri/test_iri.py) and RFC 6570's to the abnf
# engine (template/test_template_properties.py), each on strings drawn for
# that grammar.
COMPILABLE = list(u.RFC3986.all_names)


def edited(rule: str) -> st.SearchStrategy[str]:
    """A string of ``rule`` with at most one edit."""
    return near(rule, EDIT_CHARS, most=1)


def test_every_rule_is_regular_and_compiles() -> None:
    # RFC 3986 and RFC 3987 have no recursion; the multi-character core
    # rules (CRLF, LWSP) compile like the rest.
    for name in u.RULE_NAMES:
        grammar, found = shipped_rule(name)
        assert grammar.is_regular(found)
        assert re.compile(grammar.program(found).source) is not None


@pytest.mark.parametrize("rule", COMPILABLE)
@backend_settings(max_examples=examples(20))
@given(data=st.data())
def test_same_verdict(on: On, rule: str, data: st.DataObject) -> None:
    text = data.draw(edited(rule))
    assert on.validate(rule, text) == on.validate(rule, text, method="abnf")


@backend_settings(max_examples=examples(150))
@given(edited("URI-reference"))
def test_same_components_and_offset(on: On, text: str) -> None:
    if on.validate("URI-reference", text):
        assert on.parse(text, method="abnf") == on.parse(text)
        return
    errors = []
    for method in ("automata", "abnf"):
        with pytest.raises(u.URISyntaxError) as info:
            on.parse(text, method=method)
        errors.append(info.value.offset)
    assert errors[0] == errors[1]
    assert errors[0] is not None
    assert 0 <= errors[0] <= len(text)


@pytest.mark.parametrize(
    "text",
    [
        "http://1.2.3.4.5:80/",
        "http://1.2.3.4:80/",
        "//1.2.3.4",
        "//255.255.255.255",
        "//255.255.255.256",
        "//[::1.2.3.4]",
        "//[v1.x]:0",
        "//u:p@[::]:1?#",
        "a:",
        "a:/",
        "a://",
        "a:///",
        "a:?",
    ],
)
def test_same_tree_on_host_edge_cases(on: On, text: str) -> None:
    assert on.parse(text) == on.parse(text, method="abnf")


def test_abnf_engine_refuses_long_input(on: On) -> None:
    text = "http://a/" + "b" * u.ABNF_MAX_LENGTH
    with pytest.raises(u.InputTooLongError) as info:
        on.parse(text, method="abnf")
    assert isinstance(info.value, u.UrigrammarError)
    assert str(u.ABNF_MAX_LENGTH) in str(info.value)
    with pytest.raises(u.InputTooLongError):
        u.parse_tree("URI", text)
    assert on.parse(text).path == "/" + "b" * u.ABNF_MAX_LENGTH


def test_parse_tree_is_the_full_derivation() -> None:
    tree = u.parse_tree("URI", "http://a/b")
    assert tree.name == "URI"
    assert tree.value == "http://a/b"
    names: set[str] = set()

    def walk(node: u.TreeNode) -> None:
        names.add(node.name)
        for child in node.children:
            walk(child)

    walk(tree)
    assert {
        "scheme",
        "hier-part",
        "authority",
        "host",
        "reg-name",
        "path-abempty",
        "segment",
    } <= names
    with pytest.raises(u.URISyntaxError):
        u.parse_tree("URI", "a b")


@backend_settings(max_examples=examples(50))
@given(edited("URI-reference"))
def test_the_automata_read_as_the_visitor_walks_abnfs_tree(on: On, text: str) -> None:
    """parse() reads the captures by the visitor's plan (the regex's groups
    on the pure back end, the tagged DFA's slots on the native one);
    walking ``abnf``'s derivation tree with the visitor must give the same
    reference, or both no match."""
    from urigrammar.uri._components import Components
    from urigrammar.uri._visitor import to_reference

    found = on.api._matcher("URI-reference", Components, True)(text)
    if len(text) > u.ABNF_MAX_LENGTH:
        return
    tree = u.RFC3986.abnf_parse("URI-reference", text)
    if tree is None:
        assert found is None
        return
    assert found == to_reference(tree)
