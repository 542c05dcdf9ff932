"""``urigrammar.attrs``: cattrs hooks and the attrs validator, with the real
attrs and cattrs.  Needs both (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

attrs = pytest.importorskip("attrs")
cattrs = pytest.importorskip("cattrs")

import urigrammar as u  # noqa: E402
from urigrammar.attrs import make_converter, register_hooks, validator  # noqa: E402
from urigrammar.strategies import from_rule  # noqa: E402


@attrs.frozen
class Link:
    href: u.URIReference
    rel: str = attrs.field(default="self", validator=validator("segment-nz"))
    anchor: u.URIReference | None = None


CONVERTER = make_converter()


def test_structure_and_unstructure_exactly() -> None:
    data = {"href": "HTTP://Example.COM:80/a/../b?q#f", "rel": "next", "anchor": "#x"}
    link = CONVERTER.structure(data, Link)
    assert link.href == u.parse(data["href"])
    assert isinstance(link.anchor, u.URIReference)
    assert CONVERTER.unstructure(link) == data


@settings(max_examples=50)
@given(from_rule("URI-reference"))
def test_round_trip(text: str) -> None:
    link = CONVERTER.structure({"href": text}, Link)
    assert CONVERTER.unstructure(link)["href"] == text
    assert CONVERTER.structure(CONVERTER.unstructure(link), Link) == link


def test_values_of_the_class_are_kept() -> None:
    ref = u.parse("/a")
    assert CONVERTER.structure(ref, u.URIReference) is ref
    assert CONVERTER.structure({"href": ref}, Link).href is ref


def test_invalid_text_raises_the_syntax_error() -> None:
    with pytest.raises(u.URISyntaxError) as caught:
        CONVERTER.structure("http://a b/", u.URIReference)
    assert (caught.value.rule, caught.value.offset) == ("URI-reference", 8)
    with pytest.raises(cattrs.ClassValidationError) as grouped:
        CONVERTER.structure({"href": "a b"}, Link)
    (inner,) = grouped.value.exceptions
    assert isinstance(inner, u.URISyntaxError)
    assert inner.offset == 1


def test_other_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="from a str"):
        CONVERTER.structure(5, u.URIReference)


def test_register_hooks_on_a_converter_of_yours() -> None:
    converter = cattrs.Converter(forbid_extra_keys=True)
    assert register_hooks(converter) is converter
    assert converter.unstructure(u.parse("a:b")) == "a:b"
    assert converter.structure("a:b", u.URIReference) == u.parse("a:b")


def test_validator() -> None:
    assert Link(u.parse("/"), rel="a;b").rel == "a;b"
    with pytest.raises(u.URISyntaxError) as caught:
        Link(u.parse("/"), rel="a/b")
    assert (caught.value.rule, caught.value.offset) == ("segment-nz", 1)
    with pytest.raises(TypeError):
        Link(u.parse("/"), rel=None)  # type: ignore[arg-type]
    with pytest.raises(u.UnknownRuleError):
        validator("no-such-rule")

    @attrs.frozen
    class Absolute:
        uri: u.URIReference = attrs.field(validator=validator("absolute-URI"))

    assert str(Absolute(u.parse("x:y")).uri) == "x:y"
    with pytest.raises(u.URISyntaxError):
        Absolute(u.parse("x:y#f"))


def test_iri_references() -> None:
    value = CONVERTER.structure("http://\u00e4/\u00fc", u.IRIReference)
    assert value == u.parse_iri("http://\u00e4/\u00fc")
    assert CONVERTER.unstructure(value) == "http://\u00e4/\u00fc"
