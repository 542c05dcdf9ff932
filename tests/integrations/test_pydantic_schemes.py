"""``urigrammar.pydantic``'s scheme types with the real pydantic: ``HttpURI``
and ``Http(...)`` (RFC 9110 section 4.2), and the generic ``Scheme(name)``
types (``URN``, ...), which find their profile in ``urigrammar.SCHEMES``
when a value comes.

Needs ``pydantic`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import pytest

pydantic = pytest.importorskip("pydantic")

import urigrammar as u  # noqa: E402
from urigrammar.pydantic import (  # noqa: E402
    URN,
    DataURI,
    FileURI,
    Http,
    HttpURI,
    MailtoURI,
    Scheme,
)
from urigrammar.schemes import HttpValue, URNValue  # noqa: E402

BaseModel = pydantic.BaseModel
ValidationError = pydantic.ValidationError
TypeAdapter = pydantic.TypeAdapter


class Page(BaseModel):
    url: HttpURI
    name: URN | None = None
    api: Annotated[u.SchemeURI, Http(allowed_schemes=["https"])] | None = None


def _error(adapter: Any, value: object) -> dict[str, Any]:
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python(value)
    (error,) = caught.value.errors()
    return dict(error)


def test_an_http_uri_is_its_typed_value_and_serializes_exactly() -> None:
    text = "HTTP://Example.COM:80/a/%7Eb?q#f"
    page = Page(url=text, name="urn:example:a123,z456")
    assert isinstance(page.url, HttpValue)
    assert page.url.port == 80
    assert page.url.origin == ("http", "example.com", 80)
    assert isinstance(page.name, URNValue)
    assert page.model_dump() == {"url": text, "name": "urn:example:a123,z456", "api": None}
    assert json.loads(page.model_dump_json())["url"] == text
    again = Page.model_validate_json(page.model_dump_json())
    assert again == page
    assert Page(url=page.url).url == page.url  # a value is taken again


@pytest.mark.parametrize(
    ("text", "kind", "rule", "offset"),
    [
        ("http:///a", "uri_syntax", "host", 7),  # RFC 9110 section 4.2.1
        ("https://user:pw@example.com/", "uri_syntax", "userinfo", 8),  # section 4.2.4
        ("http:/a", "uri_syntax", "http-URI", 6),
        ("ftp://example.com/", "uri_scheme", "scheme", 0),
        ("example.com", "uri_scheme", "scheme", 0),
        ("http://exa mple/", "uri_syntax", "URI", 10),
    ],
)
def test_http_uri_errors_name_the_rule_and_offset(
    text: str, kind: str, rule: str, offset: int
) -> None:
    error = _error(TypeAdapter(HttpURI), text)
    assert error["type"] == kind
    assert error["ctx"]["rule"] == rule
    assert error["ctx"]["offset"] == offset
    assert "pw@" not in error["msg"]


def test_http_constraints() -> None:
    only_api = TypeAdapter(
        Annotated[u.SchemeURI, Http(allowed_schemes=["https"], allowed_hosts=["API.example"])]
    )
    assert str(only_api.validate_python("https://api.EXAMPLE/x")) == "https://api.EXAMPLE/x"
    error = _error(only_api, "https://other.example/x")
    assert (error["type"], error["ctx"]["rule"], error["ctx"]["offset"]) == ("uri_host", "host", 8)
    assert _error(only_api, "http://api.example/x")["type"] == "uri_scheme"
    lenient = TypeAdapter(Annotated[u.SchemeURI, Http(host_required=False)])
    assert lenient.validate_python("http:///a").host == ""
    assert _error(TypeAdapter(HttpURI), 42)["type"] == "uri_type"
    with pytest.raises(ValueError, match="http and https"):
        Http(allowed_schemes=["ws"])
    with pytest.raises(TypeError):
        Http(allowed_hosts="example.com")  # type: ignore[arg-type]
    assert Http() == Http(allowed_schemes=("HTTP", "https"))
    assert Http() != Http(host_required=False)


def test_http_with_a_host_policy() -> None:
    pytest.importorskip("can_ada")
    from urigrammar.differential import HostPolicy

    policy = HostPolicy(["*.example.com"], ports=[443, 8443])
    adapter = TypeAdapter(Annotated[u.SchemeURI, Http(policy=policy)])
    assert adapter.validate_python("https://api.example.com:8443/").port == 8443
    for text, why, offset in [
        ("https://example.com/", "not listed", 8),  # a wildcard is no match for its own domain
        ("https://api.example.com:444/", "port 444", 8),
        ("http://[::ffff:10.0.0.1]/", "no public service", 7),
        ("http://api.example.com\\@evil.net/", "backslash", 22),
    ]:
        error = _error(adapter, text)
        assert error["type"] in ("uri_host", "uri_syntax"), text
        assert why in error["msg"] or error["type"] == "uri_syntax", (text, error["msg"])
        assert error["ctx"]["offset"] == offset, text
    assert Http(policy=policy) == Http(policy=HostPolicy(["*.example.com"], ports=[8443, 443]))
    assert Http(policy=policy) != Http()


def test_the_generic_types_use_the_scheme_profile_when_a_value_comes() -> None:
    urn = TypeAdapter(URN)
    value = urn.validate_python("URN:example:a123%2cz456")
    assert isinstance(value, URNValue)
    assert value == urn.validate_python("urn:EXAMPLE:a123%2Cz456")  # RFC 8141 section 3
    assert urn.dump_python(value) == "URN:example:a123%2cz456"
    error = _error(urn, "urn:x:")
    assert error["type"] == "uri_syntax"
    assert _error(urn, "http://example.com/")["type"] == "uri_scheme"
    both = TypeAdapter(Annotated[u.SchemeURI, Scheme("urn", "HTTPS")])
    assert isinstance(both.validate_python("https://example.com"), HttpValue)
    with pytest.raises(u.URISyntaxError):
        Scheme("not a scheme")
    with pytest.raises(TypeError):
        Scheme()


@pytest.mark.parametrize(
    ("kind", "scheme", "text"),
    [
        (DataURI, "data", "data:,A%20brief%20note"),
        (FileURI, "file", "file:///etc/hosts"),
        (MailtoURI, "mailto", "mailto:chris@example.com"),
    ],
)
def test_the_other_generic_types_wait_for_their_profile(kind: Any, scheme: str, text: str) -> None:
    adapter = TypeAdapter(kind)  # defining the field needs no profile yet
    if scheme in u.SCHEMES:
        assert str(adapter.validate_python(text)) == text
    else:
        error = _error(adapter, text)
        assert error["type"] == "uri_error"
        assert error["ctx"]["rule"] == "scheme"


def test_a_profile_registered_later_is_found() -> None:
    grammar = u.load_grammar('thing = "x-thing:" 1*ALPHA\n', imports=[u.RFC3986])
    profile = u.Profile("x-thing", grammar, "thing", value=u.SchemeURI)
    adapter = TypeAdapter(Annotated[u.SchemeURI, Scheme("x-thing")])
    if "x-thing" not in u.SCHEMES:  # not yet registered in this session
        assert _error(adapter, "x-thing:abc")["type"] == "uri_error"
    u.register_scheme(profile, replace=True)
    assert str(adapter.validate_python("x-thing:abc")) == "x-thing:abc"
    assert _error(adapter, "x-thing:1")["type"] == "uri_syntax"


def test_json_schema_is_a_uri_string() -> None:
    schema = Page.model_json_schema()
    url = schema["properties"]["url"]
    assert url == {"type": "string", "format": "uri", "title": "Url"}
    name = schema["properties"]["name"]
    assert {"type": "string", "format": "uri"} in name["anyOf"]
    for kind in (URN, DataURI, FileURI, MailtoURI):
        assert TypeAdapter(kind).json_schema() == {"type": "string", "format": "uri"}
