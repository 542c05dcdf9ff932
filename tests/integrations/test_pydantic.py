"""``urigrammar.pydantic`` and the reference classes as pydantic v2 field
types, with the real pydantic: validation, errors with rule and offset,
exact serialization, JSON Schema formats.

Needs ``pydantic`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pydantic = pytest.importorskip("pydantic")

import urigrammar as u  # noqa: E402
from urigrammar import Normalization, SchemeRule, parse_iri  # noqa: E402
from urigrammar.pydantic import (  # noqa: E402
    AbsoluteIRI,
    AbsoluteURI,
    HttpURI,
    Normalize,
    Rule,
    Schemes,
)
from urigrammar.strategies import from_rule  # noqa: E402
from urigrammar.uri._reference import normalize  # noqa: E402

BaseModel = pydantic.BaseModel
ValidationError = pydantic.ValidationError
TypeAdapter = pydantic.TypeAdapter

#: The rules whose values have a JSON Schema format, and that format.
FORMATS = {
    "URI": "uri",
    "URI-reference": "uri-reference",
    "IRI": "iri",
    "IRI-reference": "iri-reference",
    "URI-Template": "uri-template",
}


class Resource(BaseModel):
    """A model as an API would declare it."""

    href: u.URIReference
    base: Annotated[str, Rule("absolute-URI")]
    home: Annotated[u.URIReference, Rule("URI")] = u.parse("HTTP://Example.COM:80/a/./b")
    note: Annotated[str, Rule("relative-ref")] | None = None


def _error(model: type[Any], **data: Any) -> dict[str, Any]:
    with pytest.raises(ValidationError) as caught:
        model(**data)
    errors = caught.value.errors()
    assert len(errors) == 1, errors
    found: dict[str, Any] = errors[0]
    return found


def _syntax_error(rule: str, text: str) -> u.URISyntaxError:
    with pytest.raises(u.URISyntaxError) as caught:
        u.check(rule, text)
    return caught.value


# --- The model: a URIReference field and Annotated[str, rule] fields.


def test_model_validates() -> None:
    model = Resource(href="../g;x?y#s", base="http://a/b/c/d;p?q")
    assert model.href == u.parse("../g;x?y#s")
    assert isinstance(model.href, u.URIReference)
    assert model.base == "http://a/b/c/d;p?q"
    assert type(model.base) is str
    assert model.home == u.parse("HTTP://Example.COM:80/a/./b")


def test_model_takes_reference_values_as_they_are() -> None:
    ref = u.parse("http://a/b")
    model = Resource(href=ref, base="x:y", home=ref)
    assert model.href is ref
    assert model.home is ref


@pytest.mark.parametrize(
    ("field", "rule", "text"),
    [
        ("href", "URI-reference", "http://a b/"),
        ("href", "URI-reference", "http://[::ffff:192.168.0.01]/"),
        ("href", "URI-reference", "http://a/%zz"),
        ("base", "absolute-URI", "http://a/b#frag"),
        ("base", "absolute-URI", "/relative"),
        ("home", "URI", "/relative"),
        ("home", "URI", "http://\u00e4/"),
        ("note", "relative-ref", "http://a/"),
    ],
)
def test_errors_carry_rule_and_offset(field: str, rule: str, text: str) -> None:
    data: dict[str, Any] = {"href": "/", "base": "x:y", field: text}
    error = _error(Resource, **data)
    expected = _syntax_error(rule, text)
    assert error["type"] == "uri_syntax"
    assert error["loc"] == (field,)
    assert error["ctx"]["rule"] == expected.rule == rule
    assert error["ctx"]["offset"] == expected.offset
    assert error["msg"] == expected.message
    assert f"offset {expected.offset}" in error["msg"]


def test_errors_never_show_a_password() -> None:
    secret = "s3cr3t-pw"
    error = _error(Resource, href=f"http://user:{secret}@a b/", base="x:y")
    assert secret not in error["msg"]
    assert secret not in json.dumps(error["ctx"])
    assert error["ctx"]["offset"] == len(f"http://user:{secret}@a")


def test_model_errors_from_json_input() -> None:
    with pytest.raises(ValidationError) as caught:
        Resource.model_validate_json('{"href": "a b", "base": "/x"}')
    errors = {error["loc"][0]: error for error in caught.value.errors()}
    assert errors["href"]["ctx"] == {
        "rule": "URI-reference",
        "offset": 1,
        "message": _syntax_error("URI-reference", "a b").message,
    }
    assert errors["base"]["ctx"]["rule"] == "absolute-URI"
    assert errors["base"]["ctx"]["offset"] == 0


@pytest.mark.parametrize("value", [5, None, b"http://a/", ["http://a/"]])
def test_reference_field_refuses_other_types(value: object) -> None:
    error = _error(Resource, href=value, base="x:y")
    assert error["type"] == "uri_type"
    assert "URIReference" in error["msg"]


def test_model_serializes_exactly() -> None:
    texts = {"href": "HTTP://A/%7e/./x?q#f", "base": "Foo:%41", "note": "?"}
    model = Resource(**texts)
    dumped = json.loads(model.model_dump_json())
    assert dumped == {**texts, "home": "HTTP://Example.COM:80/a/./b"}
    # Python mode gives the same exact text (pydantic would make a tuple of
    # the value), and both read back to an equal model.
    assert model.model_dump() == dumped
    assert Resource.model_validate(dumped) == model
    assert Resource.model_validate_json(model.model_dump_json()) == model


def test_defaults_serialize() -> None:
    class Defaults(BaseModel):
        link: u.URIReference = u.parse("HTTP://A:080/%7e")
        maybe: u.URIReference | None = None

    assert Defaults().model_dump_json() == '{"link":"HTTP://A:080/%7e","maybe":null}'
    schema = Defaults.model_json_schema()
    assert schema["properties"]["link"]["default"] == "HTTP://A:080/%7e"


@settings(max_examples=50)
@given(from_rule("URI-reference"), from_rule("absolute-URI"))
def test_round_trip_is_exact(href: str, base: str) -> None:
    model = Resource(href=href, base=base)
    assert str(model.href) == href
    assert json.loads(model.model_dump_json())["href"] == href
    assert Resource.model_validate_json(model.model_dump_json()) == model


@settings(max_examples=50)
@given(
    st.sampled_from(["URI", "absolute-URI", "relative-ref", "IPv6address", "IRI"]),
    st.text() | st.sampled_from(["http://a/", "::1", "/a", "x:y", "http://\u00e4/", "?"]),
)
def test_rule_field_agrees_with_validate(rule: str, text: str) -> None:
    adapter = TypeAdapter(Annotated[str, Rule(rule)])
    if u.validate(rule, text):
        assert adapter.validate_python(text) == text
    else:
        with pytest.raises(ValidationError) as caught:
            adapter.validate_python(text)
        assert caught.value.errors()[0]["ctx"]["offset"] == _syntax_error(rule, text).offset


@settings(max_examples=50)
@given(st.text() | from_rule("URI-reference"), st.booleans())
def test_any_text_gives_a_value_or_a_validation_error(text: str, as_json: bool) -> None:
    # Nothing but pydantic's ValidationError escapes, on any str, from
    # Python or from JSON input.
    try:
        if as_json:
            model = Resource.model_validate_json(json.dumps({"href": text, "base": text}))
        else:
            model = Resource(href=text, base=text)
    except ValidationError as error:
        for detail in error.errors():
            assert detail["type"] == "uri_syntax"
            assert detail["ctx"]["offset"] <= len(text)
    else:
        assert str(model.href) == model.base == text


def test_models_pickle() -> None:
    import pickle

    model = Resource(href="//a/b?c", base="x:y")
    assert pickle.loads(pickle.dumps(model)) == model


# --- JSON Schema: a format exactly where the rule has one.


def test_model_json_schema() -> None:
    properties = Resource.model_json_schema()["properties"]
    assert properties["href"] == {"title": "Href", "type": "string", "format": "uri-reference"}
    assert properties["base"] == {"title": "Base", "type": "string"}
    assert properties["home"]["format"] == "uri"
    assert properties["home"]["default"] == "HTTP://Example.COM:80/a/./b"
    assert properties["note"]["anyOf"] == [{"type": "string"}, {"type": "null"}]


@pytest.mark.parametrize("rule", [*FORMATS, "uri", "iri-REFERENCE"])
def test_str_field_format_where_the_rule_has_one(rule: str) -> None:
    schema = TypeAdapter(Annotated[str, Rule(rule)]).json_schema()
    by_name = {name.lower(): fmt for name, fmt in FORMATS.items()}
    assert schema == {"type": "string", "format": by_name[rule.lower()]}


@pytest.mark.parametrize(
    "rule", ["absolute-URI", "relative-ref", "IPv6address", "host", "absolute-IRI", "ALPHA"]
)
def test_str_field_no_format_for_other_rules(rule: str) -> None:
    assert TypeAdapter(Annotated[str, Rule(rule)]).json_schema() == {"type": "string"}


@pytest.mark.parametrize(
    ("rule", "fmt"), [("URI", "uri"), ("absolute-URI", None), ("relative-ref", None)]
)
def test_reference_field_format_follows_the_rule(rule: str, fmt: str | None) -> None:
    schema = TypeAdapter(Annotated[u.URIReference, Rule(rule)]).json_schema()
    assert schema == ({"type": "string"} if fmt is None else {"type": "string", "format": fmt})


def test_uri_template_field() -> None:
    adapter = TypeAdapter(Annotated[str, Rule("URI-Template")])
    assert adapter.validate_python("{v:1000}") == "{v:1000}"
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python("{v:10000}")
    ctx = caught.value.errors()[0]["ctx"]
    assert (ctx["rule"], ctx["offset"]) == (
        "URI-Template",
        _syntax_error("URI-Template", "{v:10000}").offset,
    )
    assert adapter.json_schema() == {"type": "string", "format": "uri-template"}


# --- The markers.


def test_rule_names_are_checked_when_made() -> None:
    with pytest.raises(u.UnknownRuleError):
        Rule("URL")
    with pytest.raises(TypeError):
        Rule(3)  # type: ignore[arg-type]
    assert Rule("uri") == Rule("uri")


def test_rule_on_a_reference_checks_the_text_first() -> None:
    adapter = TypeAdapter(Annotated[u.URIReference, Rule("absolute-URI")])
    assert adapter.validate_python("http://a/b?c") == u.parse("http://a/b?c")
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python(u.parse("http://a/b#c"))
    ctx = caught.value.errors()[0]["ctx"]
    assert (ctx["rule"], ctx["offset"]) == ("absolute-URI", 10)


def test_schemes() -> None:
    adapter = TypeAdapter(Annotated[str, Rule("URI"), Schemes("https", "WSS")])
    assert adapter.validate_python("HTTPS://a/") == "HTTPS://a/"
    assert adapter.validate_python("wss://a/") == "wss://a/"
    for text, found in [("http://a/", "not 'http'"), ("ftp:x", "not 'ftp'")]:
        with pytest.raises(ValidationError) as caught:
            adapter.validate_python(text)
        error = caught.value.errors()[0]
        assert error["type"] == "uri_scheme"
        assert (error["ctx"]["rule"], error["ctx"]["offset"]) == ("scheme", 0)
        assert found in error["msg"]
    refs = TypeAdapter(Annotated[u.URIReference, Schemes("urn")])
    assert refs.validate_python("URN:isbn:1").scheme == "URN"
    for text in ["/a:b", "//h:1/", "?a:b", "#a:b", ""]:
        with pytest.raises(ValidationError, match="the text has no scheme"):
            refs.validate_python(text)
    # A str field reads the scheme the same way for relative references.
    relative = TypeAdapter(Annotated[str, Rule("URI-reference"), Schemes("a")])
    for text in ["/a:b", "//a:1/", "?a:b", "#a:b"]:
        with pytest.raises(ValidationError, match="the text has no scheme"):
            relative.validate_python(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("example.com/a", "the text has no scheme"),
        (" https://example.com/", "starts with white space"),
        ("\thttps://example.com/", "starts with white space"),
        ("ftp://example.com/", "not 'ftp'"),
    ],
)
def test_a_scheme_error_says_what_the_text_has(text: str, says: str) -> None:
    for adapter in (
        TypeAdapter(Annotated[str, Schemes("https")]),
        TypeAdapter(HttpURI),
    ):
        with pytest.raises(ValidationError) as caught:
            adapter.validate_python(text)
        message = caught.value.errors()[0]["msg"]
        assert says in message
        assert "not no scheme" not in message
    with pytest.raises(u.URISyntaxError):
        Schemes("1http")
    with pytest.raises(TypeError):
        Schemes()


def test_normalize() -> None:
    text = "HTTP://Example.COM:80/a/./b/../%7efoo"
    refs = TypeAdapter(Annotated[u.URIReference, Normalize()])
    assert refs.validate_python(text) == u.normalize(text)
    strings = TypeAdapter(Annotated[str, Rule("URI"), Normalize()])
    assert strings.validate_python(text) == "http://example.com/a/~foo"
    syntax_only = TypeAdapter(Annotated[str, Normalize(scheme_based=False)])
    assert syntax_only.validate_python(text) == "http://example.com:80/a/~foo"
    ipv6 = TypeAdapter(Annotated[str, Normalize(ipv6_canonical=True)])
    assert ipv6.validate_python("http://[0:0::1]/") == "http://[::1]/"
    # Normalize alone on a str still reads it as a reference.
    with pytest.raises(ValidationError) as caught:
        strings.validate_python("a b")
    assert caught.value.errors()[0]["ctx"]["rule"] == "URI"
    with pytest.raises(ValidationError) as caught:
        syntax_only.validate_python("a b")
    assert caught.value.errors()[0]["ctx"]["offset"] == 1
    assert strings.json_schema() == {"type": "string", "format": "uri"}


def test_pydantic_marker_passes_options_through() -> None:
    pydantic = pytest.importorskip("pydantic")
    from urigrammar.pydantic import Normalize

    options = Normalization(nfc=True, schemes={"foo": SchemeRule(7, empty_path_is_root=True)})
    assert Normalize(options).options is options
    assert Normalize(options) == Normalize(nfc=True, schemes=options.schemes)
    assert hash(Normalize(options)) == hash(Normalize(nfc=True, schemes=options.schemes))
    assert Normalize().options == Normalization()
    assert Normalize(options, nfc=False).options == dataclasses.replace(options, nfc=False)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        Normalize(bogus=True)  # type: ignore[call-arg]
    for marker in (Normalize(options), Normalize(**{"nfc": True, "schemes": options.schemes})):
        strings = pydantic.TypeAdapter(Annotated[str, marker])
        assert strings.validate_python("FOO://a:7") == "foo://a/"
        iri = "http://a/e\u0301"
        assert strings.validate_python(iri) == str(normalize(parse_iri(iri), options))
        assert strings.validate_python(iri) == "http://a/\u00e9"
        refs = pydantic.TypeAdapter(Annotated[u.IRIReference, marker])
        assert refs.validate_python(iri) == normalize(parse_iri(iri), options)
    syntax_only = pydantic.TypeAdapter(Annotated[str, Normalize(scheme_based=False)])
    assert syntax_only.validate_python("HTTP://a:80") == "http://a:80"


def test_markers_in_a_fastapi_style_model() -> None:
    class Webhook(BaseModel):
        model_config = pydantic.ConfigDict(hide_input_in_errors=True)

        callback: Annotated[u.URIReference, Rule("URI"), Schemes("https")]
        template: Annotated[str, Rule("absolute-URI"), Normalize()] = "x:y"

    hook = Webhook.model_validate_json('{"callback": "https://user:pw@h/cb", "template": "X:%7e"}')
    assert str(hook.callback) == "https://user:pw@h/cb"
    assert hook.template == "x:~"
    with pytest.raises(ValidationError) as caught:
        Webhook(callback="https://user:s3cr3t-pw@h /cb")
    assert "s3cr3t-pw" not in str(caught.value)


# --- IRIs (RFC 3987).


def test_iri_reference_field() -> None:
    adapter = TypeAdapter(u.IRIReference)
    text = "http://\u00e4.example/\u00fc?q#f"
    value = adapter.validate_python(text)
    assert value == u.parse_iri(text)
    assert json.loads(adapter.dump_json(value)) == text
    assert adapter.json_schema() == {"type": "string", "format": "iri-reference"}
    # A URIReference is an IRI reference too: read again from its text.
    assert str(adapter.validate_python(u.parse("http://a/b"))) == "http://a/b"
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python("http://a/ b")
    ctx = caught.value.errors()[0]["ctx"]
    assert (ctx["rule"], ctx["offset"]) == ("IRI-reference", 9)


def test_iri_model() -> None:
    class Page(BaseModel):
        url: u.IRIReference
        absolute: Annotated[u.IRIReference, Rule("IRI")] = u.parse_iri("http://\u00e4/")
        text: Annotated[str, Rule("IRI"), Normalize()] = "http://a/"

    page = Page(url="b\u00fccher/\u00e9", text="HTTP://\u00c4.example/%7e/./x")
    assert isinstance(page.url, u.IRIReference)
    assert page.text == str(u.parse_iri("HTTP://\u00c4.example/%7e/./x").normalize())
    assert json.loads(page.model_dump_json())["url"] == "b\u00fccher/\u00e9"
    properties = Page.model_json_schema()["properties"]
    assert properties["url"]["format"] == "iri-reference"
    assert properties["absolute"]["format"] == "iri"
    assert properties["text"]["format"] == "iri"
    error = _error(Page, url="/", absolute="b\u00fccher")
    assert (error["ctx"]["rule"], error["ctx"]["offset"]) == ("IRI", 1)  # "b" may be a scheme
    # A URIReference field is no place for an IRI: its value is read again.
    error = _error(Resource, href=u.parse_iri("/\u00e4"), base="x:y")
    assert (error["ctx"]["rule"], error["ctx"]["offset"]) == ("URI-reference", 1)


def test_iri_field_refuses_bidi_formatting_characters() -> None:
    # RFC 3987 section 4.1: parse_iri refuses them, so the field does; the
    # ABNF admits them, so Rule("IRI") on a str follows the grammar.
    text = "http://a/\u202eb"
    with pytest.raises(ValidationError) as caught:
        TypeAdapter(u.IRIReference).validate_python(text)
    error = caught.value.errors()[0]
    assert error["ctx"]["offset"] == 9
    assert "U+202E" in error["msg"]
    assert TypeAdapter(Annotated[str, Rule("IRI")]).validate_python(text) == text


# --- AbsoluteURI and AbsoluteIRI -------------------------------------------------


class _Absolute(pydantic.BaseModel):
    uri: AbsoluteURI
    iri: AbsoluteIRI


def test_absolute_types_take_only_uris_and_iris() -> None:
    # A URIReference field takes "" and "not-a-url": both are relative
    # references.  The absolute types take only RFC 3986 URI / RFC 3987 IRI.
    model = _Absolute(uri="https://example.com/a#b", iri="https://例え.jp/ä#b")
    assert type(model.uri) is u.URIReference
    assert model.uri.fragment == "b"  # a fragment is allowed (URI, not absolute-URI)
    assert type(model.iri) is u.IRIReference
    assert model.iri.host == "例え.jp"
    assert type(_Absolute(uri="mailto:a@b", iri="http://a/").iri) is u.IRIReference
    for uri, iri in [("", "x:y"), ("not-a-url", "x:y"), ("x:y", "ä/b"), ("x:y", "")]:
        with pytest.raises(pydantic.ValidationError) as caught:
            _Absolute(uri=uri, iri=iri)
        (error,) = caught.value.errors()
        assert error["type"] == "uri_syntax"
    with pytest.raises(pydantic.ValidationError, match=r"section 4\.1"):
        _Absolute(uri="x:y", iri="http://a/\u202e")
    with pytest.raises(pydantic.ValidationError):
        _Absolute(uri="http://a/ä", iri="x:y")


def test_absolute_types_have_their_json_schema_format() -> None:
    properties = _Absolute.model_json_schema()["properties"]
    assert properties["uri"] == {"format": "uri", "title": "Uri", "type": "string"}
    assert properties["iri"] == {"format": "iri", "title": "Iri", "type": "string"}
    dumped = _Absolute(uri="http://a/b", iri="http://a/ä").model_dump_json()
    assert json.loads(dumped) == {"uri": "http://a/b", "iri": "http://a/ä"}


def test_absolute_types_say_why_a_fragment_is_allowed() -> None:
    assert "absolute-URI" in (AbsoluteURI.__doc__ or "")
    assert "fragment" in (AbsoluteIRI.__doc__ or "")
