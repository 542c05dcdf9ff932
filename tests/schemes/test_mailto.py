"""The ``mailto`` profile (RFC 6068): every example mailto URI of the RFC as
a vector (``tests/vectors/schemes/rfc6068.json``), decoding (sections 2 and
5), a megabyte URI in linear time, and the profile against independent
readings: ``abnf``'s of the published grammar, the stdlib's of addresses,
and ``abnf``'s own transcription of RFC 5322."""

from __future__ import annotations

import pickle
from email.utils import getaddresses
from typing import Any
from urllib.parse import quote

import pytest
from _languages import agree, damaged
from _vectors import ids, vectors
from abnf.grammars import rfc5322 as abnf_rfc5322
from abnf.parser import ParseError
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, URIError, parse_scheme, validate
from urigrammar.engine import Backend, alphabet
from urigrammar.schemes import MailtoValue
from urigrammar.shipped import RFC3986, RFC5322, RFC6068, RFC6068_URI
from urigrammar.strategies import from_rule

VECTORS = vectors("rfc6068.json")
VALID = VECTORS["valid"]
MAILTO = SCHEMES["mailto"]


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_mailto_uri(row: dict[str, Any], backend: Backend) -> None:
    assert MAILTO.validate(row["text"], backend=backend)
    value = MAILTO.parse(row["text"], backend=backend)
    assert isinstance(value, MailtoValue)
    assert str(value) == row["text"]
    for name, expected in row.get("fields", {}).items():
        assert getattr(value, name) == _tuples(expected), name


def test_the_published_rule_is_not_regular_and_the_profile_s_is() -> None:
    assert not RFC6068.is_regular("mailtoURI")
    assert RFC6068_URI.is_regular("mailtoURI")
    assert MAILTO.grammar is RFC6068_URI
    assert RFC6068_URI.find("quoted-string") is None  # no string over URI's characters


def test_plus_is_not_a_space_and_names_are_without_case() -> None:
    value = parse_scheme("mailto:bill+ietf@example.org?SUBJECT=a+b&Body=x%20y")
    assert isinstance(value, MailtoValue)
    assert value.to == ("bill+ietf@example.org",)  # section 5's own example address
    assert value.subject == "a+b"
    assert value.body == "x y"
    assert value.headers == (("SUBJECT", "a+b"),)


def test_the_first_of_a_repeated_field_and_empty_fields() -> None:
    value = parse_scheme("mailto:?subject=one&subject=two&=&to=")
    assert isinstance(value, MailtoValue)
    assert value.subject == "one"
    assert value.to == ()
    assert value.headers == (("subject", "one"), ("subject", "two"), ("", ""), ("to", ""))


def test_a_to_field_that_is_no_address_list_is_one_entry() -> None:
    value = parse_scheme("mailto:?to=Joe%20%3Cjoe@an.example%3E")
    assert isinstance(value, MailtoValue)
    assert value.to == ("Joe <joe@an.example>",)


@pytest.mark.parametrize(
    "text",
    ["mailto:a%FF@example.org", "mailto:a@example.org?subject=%C3", "mailto:?body=%ED%A0%80"],
)
def test_octets_that_are_not_utf_8_raise_uri_error_when_read(text: str) -> None:
    value = parse_scheme(text)  # the syntax is fine
    with pytest.raises(URIError):
        value.as_dict()


def test_values_pickle_and_stay_immutable() -> None:
    value = parse_scheme("mailto:joe@example.com?cc=bob@example.com&body=hello")
    again = pickle.loads(pickle.dumps(value))
    assert again == value
    assert again.body == "hello"
    with pytest.raises(AttributeError):
        value.body = "other"  # type: ignore[misc]


def test_a_megabyte_uri_is_decided_and_read(backend: Backend) -> None:
    addresses = [f"user{n}@host{n}.example.org" for n in range(20_000)]
    body = "line%20of%20text%0D%0A" * 40_000
    text = "mailto:" + ",".join(addresses) + "?subject=big&body=" + body
    assert len(text) > 1_000_000
    assert MAILTO.validate(text, backend=backend)
    assert not MAILTO.validate(text + "%", backend=backend)
    assert not MAILTO.validate(text.replace(",", "?", 1), backend=backend)
    value = MAILTO.parse(text, backend=backend)
    assert isinstance(value, MailtoValue)
    assert value.to == tuple(addresses)
    assert value.body == "line of text\r\n" * 40_000


# --- against independent readings ------------------------------------------------

# Strings over RFC 3986's characters (section 2: unreserved, reserved, "%"),
# shaped like mailto URIs so that many match.
_URI_CHARS = "".join(sorted(chr(c) for c in alphabet(RFC3986, "URI")))
_PIECES = st.sampled_from(
    ["a", "b.c", "@", ",", "?", "&", "=", "%20", "%2", "[", "]", "#", "x@y.z", "to=", "(", "'"]
)
MAILTO_TEXTS = st.builds(
    lambda scheme, parts: scheme + "".join(parts),
    st.sampled_from(["mailto:", "MAILTO:", "mailto"]),
    st.lists(st.one_of(_PIECES, st.text(alphabet=_URI_CHARS, max_size=4)), max_size=12),
)


@given(MAILTO_TEXTS)
def test_over_uri_characters_the_restricted_rule_is_the_published_one(text: str) -> None:
    published = RFC6068.abnf_parse("mailtoURI", text) is not None
    assert RFC6068_URI.validate("mailtoURI", text) is published


@given(MAILTO_TEXTS)
def test_the_verdict_lies_within_uri_and_the_published_rule(text: str) -> None:
    if MAILTO.validate(text):
        assert validate("URI", text)
        assert RFC6068.abnf_parse("mailtoURI", text) is not None


_LOCAL = st.from_regex(r"\A[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,8}(\.[A-Za-z0-9_+-]{1,5}){0,2}\Z")
_DOMAIN = st.from_regex(r"\A[a-z0-9]{1,8}(\.[a-z0-9-]{1,6}){0,2}\.[a-z]{2,4}\Z")
ADDRESSES = st.lists(st.builds("{}@{}".format, _LOCAL, _DOMAIN), min_size=1, max_size=4)


def _encoded(address: str) -> str:
    # Section 2 item 1: all but unreserved characters and "@" encoded.
    return quote(address, safe="@")


@given(ADDRESSES, st.booleans())
def test_addresses_read_as_the_stdlib_reads_them(addresses: list[str], as_field: bool) -> None:
    listed = ",".join(_encoded(address) for address in addresses)
    text = f"mailto:?to={listed}" if as_field else f"mailto:{listed}"
    value = parse_scheme(text)
    assert isinstance(value, MailtoValue)
    expected = tuple(address for _, address in getaddresses([",".join(addresses)]))
    assert value.to == expected


_5322_TEXTS = st.text(alphabet='ab.!#"\\ \t\r\n()%~', max_size=12)


def _abnf_5322(rule: str, text: str) -> bool:
    try:
        abnf_rfc5322.Rule(rule).parse_all(text)
    except ParseError:
        return False
    return True


@given(_5322_TEXTS)
def test_dot_atom_text_as_abnf_transcribes_rfc_5322(text: str) -> None:
    assert RFC5322.validate("dot-atom-text", text) is _abnf_5322("dot-atom-text", text)


@given(st.one_of(_5322_TEXTS, _5322_TEXTS.map('"{}"'.format)))
def test_quoted_string_as_abnf_transcribes_rfc_5322(text: str) -> None:
    ours = RFC5322.abnf_parse("quoted-string", text) is not None
    assert ours is _abnf_5322("quoted-string", text)


@given(damaged(st.one_of(MAILTO_TEXTS, from_rule("mailtoURI", RFC6068_URI)), "?&=/#;[]%@,a"))
def test_the_delimiter_language_is_the_requirement(text: str) -> None:
    # grammar/rfc6068-delimited.abnf says what _delimited says, for every
    # mailtoURI; the native one-DFA verdict is the pure one.
    agree(MAILTO, text)
