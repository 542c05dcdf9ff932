"""The ``data`` profile (RFC 2397): every data URL of the RFC as a vector
(``tests/vectors/schemes/rfc2397.json``), the URI forms of RFC 2045's
tokens checked character by character against ``grammar/rfc2045.abnf``,
and the profile against independent readers: ``abnf``'s reading of the
same grammar, Python's ``base64`` and ``urllib.parse``, and
``urllib.request``'s own data URL handler."""

from __future__ import annotations

import base64
import binascii
import pickle
import urllib.request
from typing import Any
from urllib.parse import unquote_to_bytes

import pytest
from _vectors import ids, vectors
from hypothesis import assume, given
from hypothesis import strategies as st

from urigrammar import SCHEMES, URIError, URISyntaxError, parse_scheme, validate
from urigrammar.engine import BACKENDS, Backend, within
from urigrammar.schemes import DataValue
from urigrammar.shipped import RFC2045, RFC2397, RFC2397_PUBLISHED, RFC3986

VECTORS = vectors("rfc2397.json")
VALID = VECTORS["valid"]
INVALID = VECTORS["invalid"]
DATA = SCHEMES["data"]


# --- the RFC's examples -------------------------------------------------------


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_data_uri(row: dict[str, Any], backend: Backend) -> None:
    text = row["text"]
    assert DATA.validate(text, backend=backend)
    value = DATA.parse(text, backend=backend)
    assert isinstance(value, DataValue)
    assert str(value) == text
    fields = row["fields"]
    for name in ("mediatype", "charset", "base64", "fragment"):
        assert getattr(value, name) == fields[name], name
    assert value.parameters == tuple(tuple(pair) for pair in fields["parameters"])
    data = value.data
    if "data_text" in fields:
        assert data == fields["data_text"].encode("ascii")
    if "data_hex" in fields:
        assert data == bytes.fromhex(fields["data_hex"])
    if "data_prefix_hex" in fields:
        assert data.startswith(bytes.fromhex(fields["data_prefix_hex"]))
        assert data.endswith(bytes.fromhex(fields["data_suffix_hex"]))
        assert len(data) == fields["data_length"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_dataurl_of_section_3_as_corrected(row: dict[str, Any]) -> None:
    """The four rules of section 3 (with erratum 2045's uric) accept each
    example too: the profile's grammar narrows them only after ";base64"."""
    assert RFC2397_PUBLISHED.validate("dataurl", row["text"])


def test_the_rfc_misspells_one_example_and_erratum_2009_mends_only_that() -> None:
    published = next(r["text"] for r in INVALID if r["id"] == "4-greek-published")
    corrected = next(r["text"] for r in VALID if r["id"] == "4-greek-erratum-2009")
    assert published.replace("%fg", "%d3") == corrected


# --- section 2's defaults and section 3's parameters --------------------------


@pytest.mark.parametrize(
    ("text", "mediatype", "parameters", "charset"),
    [
        ("data:,x", "text/plain", (), "US-ASCII"),
        ("data:;base64,eA==", "text/plain", (), "US-ASCII"),
        ("data:;charset=utf-8,x", "text/plain", (("charset", "utf-8"),), "utf-8"),
        ("data:;foo=bar,x", "text/plain", (("foo", "bar"),), None),
        ("data:text/plain,x", "text/plain", (), None),
        ("data:Text/HTML;CharSet=UTF-8,x", "text/html", (("charset", "UTF-8"),), "UTF-8"),
        ("data:te%78t/pl%41in,x", "text/plain", (), None),
        ("data:a/b;n=%22q%20s%22;n=2,x", "a/b", (("n", '"q s"'), ("n", "2")), None),
        (
            "data:a/b;charset=one;CHARSET=two,x",
            "a/b",
            (("charset", "one"), ("charset", "two")),
            "one",
        ),
        ("data:a/b;v=%3B%2C%3D%00,x", "a/b", (("v", ";,=\x00"),), None),
    ],
)
def test_media_type_parameters_and_charset(
    text: str,
    mediatype: str,
    parameters: tuple[tuple[str, str], ...],
    charset: str | None,
    backend: Backend,
) -> None:
    value = DATA.parse(text, backend=backend)
    assert value.mediatype == mediatype
    assert value.parameters == parameters
    assert value.charset == charset


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("data:text,x", 9),  # a type needs its subtype (RFC 2045 section 5.1)
        ("data:text/plain;charset,x", 23),  # a parameter needs "=" (section 3)
        ("data:text/plain;a=,x", 18),  # a value is at least one character
        ("data:text/plain;a=b:c,x", 19),  # ":" is a tspecial: escaped or not at all
        ("data:te%2Ft/plain,x", 9),  # "%2F" would put a "/" in a token
        ("data:a/b;v=%C3%A9,x", 12),  # no US-ASCII octet, so in no RFC 2045 value
        ("data:;base64,QQ=", 16),  # padding is required (RFC 4648 section 3.2)
        ("data:;base64,QQ", 15),
        ("data:;base64,QQ==QQ==", 17),  # padding ends the data
        ("data:;base64,QU%20I=", 17),  # white space is outside the alphabet (3.3)
        ("data:;base64,QUJ-", 16),  # "-" is base64url's, not base64's
        ("data:text/plain", 15),  # no ","
    ],
)
def test_what_sections_2_and_3_refuse(text: str, offset: int, backend: Backend) -> None:
    assert validate("URI", text)  # each is a URI, but no data URI
    assert not DATA.validate(text, backend=backend)
    with pytest.raises(URISyntaxError) as raised:
        DATA.parse(text, backend=backend)
    assert raised.value.offset == offset


def test_base64_is_marked_in_any_case_and_escapes_are_decoded_first(backend: Backend) -> None:
    upper = DATA.parse("DATA:;BASE64,QUJD", backend=backend)
    assert upper.base64
    assert upper.data == b"ABC"
    escaped = DATA.parse("data:;base64,%51%55I%3d", backend=backend)
    assert escaped.data == b"AB"
    # RFC 4648 section 3.5 lets a decoder refuse non-zero pad bits; not here.
    assert DATA.parse("data:;base64,QR==", backend=backend).data == b"A"


def test_a_fragment_is_no_part_of_the_data(backend: Backend) -> None:
    value = DATA.parse("data:,a?b#c%20d", backend=backend)
    assert value.data == b"a?b"
    assert value.fragment == "c%20d"
    assert DATA.parse("data:;base64,QQ==#x", backend=backend).data == b"A"
    assert not RFC2397_PUBLISHED.validate("dataurl", "data:,a#c")  # section 3 has none


def test_values_pickle_and_stay_immutable() -> None:
    value = parse_scheme("data:text/plain;charset=utf-8;base64,QUJD#f")
    again = pickle.loads(pickle.dumps(value))
    assert again == value
    assert again.data == b"ABC"
    assert value != parse_scheme("data:text/plain;charset=utf-8;base64,QUJD")
    with pytest.raises(AttributeError):
        value.mediatype = "x/y"  # type: ignore[misc]


# --- RFC 2045's tokens as URI text, character by character --------------------

ASCII = [chr(code) for code in range(128)]


def _escapes(octet: int) -> list[str]:
    return [f"%{octet:02X}", f"%{octet:02x}"]


@pytest.mark.parametrize("rule", ["type", "subtype", "attribute", "value"])
def test_a_token_character_stands_as_itself_where_a_uri_may_hold_it(rule: str) -> None:
    for char in ASCII:
        expected = RFC2045.validate("token", char) and RFC3986.validate("pchar", char)
        assert RFC2397.validate(rule, char) is expected, repr(char)


@pytest.mark.parametrize("rule", ["type", "subtype", "attribute"])
def test_a_token_takes_the_escape_of_a_token_character_and_no_other(rule: str) -> None:
    for octet in range(256):
        expected = octet < 128 and RFC2045.validate("token", chr(octet))
        for escape in _escapes(octet):
            assert RFC2397.validate(rule, escape) is expected, escape


def test_a_value_takes_the_escape_of_what_a_quoted_string_may_quote() -> None:
    # RFC 822's quoted-pair is "\" CHAR: what a quoted-string can hold.
    for octet in range(256):
        expected = RFC2045.validate("quoted-pair", "\\" + chr(octet))
        for escape in _escapes(octet):
            assert RFC2397.validate("value", escape) is expected, escape


def test_the_fifteen_tspecials_are_what_token_leaves_out() -> None:
    printable = [chr(code) for code in range(0x21, 0x7F)]
    specials = [c for c in printable if RFC2045.validate("tspecials", c)]
    assert "".join(specials) == '"(),/:;<=>?@[\\]'
    assert all(RFC2045.validate("token", c) != (c in specials) for c in printable)
    assert not any(RFC2045.validate("token", c) for c in ASCII if RFC2045.validate("CTL", c))


def test_uric_is_rfc_2396s_set_and_rfc_3986s_query() -> None:
    # RFC 2396 section 2: reserved, alphanum, mark (escaped: below).
    rfc2396 = set(";/?:@&=+$,-_.!~*'()")
    rfc2396 |= {c for c in ASCII if c.isascii() and c.isalnum()}
    for char in ASCII:
        assert RFC2397.validate("uric", char) is (char in rfc2396), repr(char)
        assert RFC2397.validate("uric", char) is RFC3986.validate("query", char), repr(char)
    for octet in range(256):
        assert all(RFC2397.validate("uric", e) for e in _escapes(octet))


def test_a_base64_escape_is_one_of_a_base64_character() -> None:
    for octet in range(256):
        try:
            binascii.a2b_base64(bytes([octet]) * 4, strict_mode=True)
            expected = True
        except binascii.Error:
            expected = False
        for escape in _escapes(octet):
            assert RFC2397.validate("base64-char", escape) is expected, escape


def test_every_rule_is_regular_and_within_rfc_3986s_uri() -> None:
    for name in RFC2397.rule_names:
        assert RFC2397.is_regular(name), name
    assert within(RFC2397, "data-URI", RFC3986, "URI")


# --- generated data URIs ------------------------------------------------------

_TOKEN_CHARS = "abcXYZ019-.!$&'*+_~"
_JUNK = '/;=,:@()%#? "^'


_TOKEN_OCTETS = [o for o in range(128) if RFC2045.validate("token", chr(o))]


def _escape(octets: list[int] | None = None) -> st.SearchStrategy[str]:
    octet = st.integers(0, 255) if octets is None else st.sampled_from(octets)
    return octet.flatmap(lambda o: st.sampled_from(_escapes(o)))


def _piece(chars: str, *, junk: bool, value: bool = False) -> st.SearchStrategy[str]:
    """A token (a value when ``value``): without ``junk``, one of those
    the grammar admits; with it, anything near one."""
    if junk:
        unit = st.one_of(st.sampled_from(chars), _escape(), st.sampled_from(_JUNK))
        return st.lists(unit, max_size=6).map("".join)
    escapes = _escape(list(range(128)) if value else _TOKEN_OCTETS)
    unit = st.one_of(st.sampled_from(chars), escapes)
    return st.lists(unit, min_size=1, max_size=6).map("".join)


@st.composite
def data_uris(draw: st.DrawFn, *, junk: bool = True) -> str:
    """Data URIs and near misses: tokens with and without escapes and
    characters no token has (unless not ``junk``), ";base64" in several
    cases and spellings, base64 payloads intact or damaged."""
    scheme = draw(st.sampled_from(["data", "DATA", "Data"]))
    mediatype = ""
    if draw(st.booleans()):
        mediatype = (
            draw(_piece(_TOKEN_CHARS, junk=junk)) + "/" + draw(_piece(_TOKEN_CHARS, junk=junk))
        )
    for _ in range(draw(st.integers(0, 2))):
        name = draw(_piece(_TOKEN_CHARS, junk=junk))
        mediatype += ";" + name + "=" + draw(_piece(_TOKEN_CHARS, junk=junk, value=True))
    marker = draw(st.sampled_from(["", "", ";base64", ";BASE64", ";base64=x", ";base64x"]))
    if marker.lower() == ";base64":
        octets = draw(st.binary(max_size=12))
        payload = base64.b64encode(octets).decode("ascii")
        if junk and draw(st.booleans()):  # damage it: drop, insert or escape a character
            payload = draw(_damaged(payload))
    else:
        units = [st.sampled_from("abz09-._~!$&'()*+,;=:@/?"), _escape()]
        if junk:
            units.append(st.sampled_from(_JUNK))
        payload = draw(st.lists(st.one_of(*units), max_size=8).map("".join))
    fragment = draw(st.sampled_from(["", "#", "#f", "#a%20b", "#x#y"])) if junk else ""
    return f"{scheme}:{mediatype}{marker},{payload}{fragment}"


@st.composite
def _damaged(draw: st.DrawFn, payload: str) -> str:
    if not payload:
        return draw(st.sampled_from(["=", "A", "%3D", "%41%41%3d%3D"]))
    at = draw(st.integers(0, len(payload) - 1))
    how = draw(st.sampled_from(["drop", "space", "escape", "pad", "junk"]))
    if how == "drop":
        return payload[:at] + payload[at + 1 :]
    if how == "space":
        return payload[:at] + draw(st.sampled_from(["%20", "%0A", " "])) + payload[at:]
    if how == "escape":
        return payload[:at] + "".join(_escapes(ord(payload[at]))[:1]) + payload[at + 1 :]
    if how == "pad":
        return payload[:at] + "=" + payload[at:]
    return payload[:at] + draw(st.sampled_from(["-", "_", "%", "%ZZ", "%80"])) + payload[at:]


@given(data_uris())
def test_the_verdict_is_rfc_3986_and_abnfs_reading_of_the_grammar(text: str) -> None:
    expected = validate("URI", text) and RFC2397.abnf_parse("data-URI", text) is not None
    assert DATA.validate(text) is expected
    for backend in BACKENDS:
        assert DATA.validate(text, backend=backend) is expected


@given(data_uris())
def test_any_text_gives_a_value_or_a_uri_error(text: str) -> None:
    try:
        value = DATA.parse(text)
    except URISyntaxError:  # and no other error
        assert not DATA.validate(text)
        return
    assert value.as_dict()["data"] == value.data


@given(st.text(max_size=40).map(lambda tail: "data:" + tail))
def test_arbitrary_text_raises_nothing_but_uri_errors(text: str) -> None:
    try:
        value = DATA.parse(text)
    except URIError:
        return
    value.as_dict()


@given(st.lists(st.one_of(st.sampled_from("AQUJDZ+/="), _escape(), st.just("%20")), max_size=12))
def test_base64_payloads_decode_as_pythons_strict_base64(pieces: list[str]) -> None:
    payload = "".join(pieces)
    text = "data:;base64," + payload
    assume(validate("URI", text))
    try:
        expected: bytes | None = base64.b64decode(unquote_to_bytes(payload), validate=True)
    except binascii.Error:
        expected = None
    assert DATA.validate(text) is (expected is not None)
    if expected is not None:
        assert DATA.parse(text).data == expected


@given(st.binary(max_size=40))
def test_any_octets_go_there_and_back(octets: bytes) -> None:
    encoded = base64.b64encode(octets).decode("ascii")
    assert DATA.parse("data:;base64," + encoded).data == octets
    escaped = "".join(f"%{o:02X}" for o in octets)
    assert DATA.parse("data:application/octet-stream," + escaped).data == octets
    assert DATA.parse("data:," + escaped).data == unquote_to_bytes(escaped)


# --- against urllib.request's data URL handler ---------------------------------


def _urllib(text: str) -> tuple[bytes, str]:
    with urllib.request.urlopen(text) as response:  # DataHandler: no network
        return response.read(), response.headers.get_content_type()


@given(data_uris(junk=False))
def test_urllib_reads_the_same_octets_and_media_type(text: str) -> None:
    assume(DATA.validate(text))
    value = DATA.parse(text)
    # urllib keeps a fragment in its data (below): give it the URI without.
    bare = text if value.fragment is None else text[: text.index("#")]
    octets, content_type = _urllib(bare)
    comma = bare.index(",")
    head = bare[:comma]
    if value.base64 and not head.endswith(";base64"):
        # urllib looks for ";base64" in lower case only; section 3's string
        # matches without case (RFC 822 section 3.4.7): urllib leaves the
        # base64 text undecoded.
        assert octets == unquote_to_bytes(bare[comma + 1 :])
    else:
        assert octets == value.data
    kind = head[head.index(":") + 1 :].split(";")[0]
    if "%" in kind:
        # urllib hands the media type on as written; RFC 2397 section 3
        # writes the tokens "using URL escaped encoding", so their escapes
        # are read: the two differ by that decoding alone.
        assert content_type == kind.lower()
        assert unquote_to_bytes(kind).decode("ascii").lower() == value.mediatype
    else:
        assert content_type == value.mediatype


def test_what_urllib_does_with_a_fragment_and_bad_base64() -> None:
    # urllib keeps "#..." as part of the data; RFC 3986 section 3.5 ends the
    # data there, and so does the profile.
    assert _urllib("data:,a#b")[0] == b"a#b"
    assert DATA.parse("data:,a#b").data == b"a"
    # urllib's base64 is lax (binascii's default, RFC 2045 section 6.8's
    # "ignored"); the profile refuses what RFC 4648 section 3.3 refuses.
    assert _urllib("data:;base64,QU%20I=")[0] == b"AB"
    assert not DATA.validate("data:;base64,QU%20I=")


def test_no_counterexample_is_a_uri_at_all() -> None:
    # test_counterexamples.py checks where each goes wrong; here, that
    # each fails RFC 3986 itself, not only the data rule.
    assert INVALID
    assert not any(validate("URI", row["text"]) for row in INVALID)
