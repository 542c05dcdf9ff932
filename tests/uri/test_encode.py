"""Percent-encoding (RFC 3986 sections 2.1 and 2.4): the sets each component
admits, read off the grammar, encoding, decoding and the error offsets."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import BIDI_FORMATTING, UnknownRuleError, URIError, validate
from urigrammar.uri._encode import (
    ENCODE_RULES,
    admitted,
    encode_except,
    percent_decode,
    percent_decode_bytes,
    percent_encode,
)

# Section 2.3 and 2.2, retyped here only as the expectation the grammar-
# derived sets are checked against.
UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
SUB_DELIMS = set("!$&'()*+,;=")

# Any Unicode text but lone surrogates, which have no UTF-8 form.
SCALARS = st.characters(max_codepoint=0xD7FF) | st.characters(min_codepoint=0xE000)
# ... with the delimiters and "%" drawn often enough to matter.
DELIMS = st.sampled_from(list(":/?#[]@!$&'()*+,;=% -._~"))
TEXT = st.text(DELIMS | SCALARS)


_DATA_COMPONENTS = {
    "path",
    "userinfo",
    "reg-name",
    "segment",
    "segment-nz",
    "segment-nz-nc",
    "query",
    "fragment",
}


def test_the_rules_with_an_encoding_are_the_data_components() -> None:
    # RFC 3986's, and RFC 3987's counterparts (section 2.2: an 'i' prefixed).
    assert set(ENCODE_RULES) == _DATA_COMPONENTS | {"i" + name for name in _DATA_COMPONENTS}


@pytest.mark.parametrize(
    ("rule", "extra"),
    [
        ("segment", ":@"),  # section 3.3: pchar
        ("segment-nz", ":@"),
        ("segment-nz-nc", "@"),  # no ":"
        ("userinfo", ":"),  # section 3.2.1
        ("reg-name", ""),  # section 3.2.2
        ("query", ":@/?"),  # section 3.4
        ("fragment", ":@/?"),  # section 3.5
    ],
)
def test_admitted_sets_are_those_of_the_rfc(rule: str, extra: str) -> None:
    assert admitted(rule) == UNRESERVED | SUB_DELIMS | set(extra)


@pytest.mark.parametrize("rule", [rule for rule in ENCODE_RULES if rule not in ("path", "ipath")])
def test_admitted_agrees_with_validate_on_every_octet(rule: str) -> None:
    # Two derivations from the grammar: the _ir walk and the matcher.
    for code in range(256):
        char = chr(code)
        assert (char in admitted(rule)) == validate(rule, char), char
    assert "%" not in admitted(rule)


@pytest.mark.parametrize("rule", [r for r in ENCODE_RULES if r.startswith("i") and r != "ipath"])
@given(st.characters(min_codepoint=0x80))
def test_iri_sets_agree_with_validate_beyond_ascii(rule: str, char: str) -> None:
    # RFC 3987 section 4.1: bidi formatting characters match the ABNF but
    # are never admitted unencoded.
    expected = validate(rule, char) and char not in BIDI_FORMATTING
    assert (char in admitted(rule)) == expected


def test_admitted_names_are_case_insensitive() -> None:
    assert admitted("SEGMENT") == admitted("segment")


@pytest.mark.parametrize("rule", ["pchar", "port", "host", "URI", "path-abempty"])
def test_rules_without_an_encoding_are_refused(rule: str) -> None:
    with pytest.raises(URIError, match="percent-encoding is defined for"):
        percent_encode("a", rule)


def test_unknown_rule() -> None:
    with pytest.raises(UnknownRuleError):
        percent_encode("a", "segmnet")


def test_unknown_rule_lists_the_rules_percent_encoding_takes() -> None:
    from urigrammar.uri._encode import ENCODE_RULES

    with pytest.raises(UnknownRuleError) as info:
        percent_encode("a b", "nonexistent")
    assert info.value.rule == "nonexistent"
    assert info.value.message.startswith("unknown rule 'nonexistent'")
    assert f"percent-encoding takes {', '.join(ENCODE_RULES)}" in info.value.message


@pytest.mark.parametrize(
    ("text", "rule", "want"),
    [
        ("a b", "segment", "a%20b"),
        ("€", "segment", "%E2%82%AC"),  # UTF-8 octets, uppercase hex (2.1)
        ("ü", "reg-name", "%C3%BC"),
        ("a/b", "segment", "a%2Fb"),
        ("a/b", "query", "a/b"),
        ("a?b", "segment", "a%3Fb"),
        ("a?b", "fragment", "a?b"),
        ("a#b", "query", "a%23b"),
        ("a#b", "fragment", "a%23b"),
        ("a:b", "segment", "a:b"),
        ("a:b", "segment-nz-nc", "a%3Ab"),
        ("u:p", "userinfo", "u:p"),
        ("u@h", "userinfo", "u%40h"),
        ("h:80", "reg-name", "h%3A80"),
        ("[::1]", "reg-name", "%5B%3A%3A1%5D"),
        ("100%", "segment", "100%25"),
        ("%41", "segment", "%2541"),
        ("a\x00\x7f", "segment", "a%00%7F"),
        ("\U0001f600", "query", "%F0%9F%98%80"),
        ("", "segment", ""),
    ],
)
def test_percent_encode(text: str, rule: str, want: str) -> None:
    assert percent_encode(text, rule) == want


def test_segment_is_the_default_rule() -> None:
    assert percent_encode("a/b:c") == "a%2Fb:c"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("%41%zz", "%41%25zz"),
        ("%e2%82%ac", "%e2%82%ac"),  # kept as written, not uppercased
        ("%4", "%254"),
        ("%", "%25"),
        ("a b%20", "a%20b%20"),
        ("%%41", "%25%41"),
    ],
)
def test_keep_escapes_leaves_only_valid_triplets(text: str, want: str) -> None:
    assert percent_encode(text, keep_escapes=True) == want


def test_lone_surrogates_follow_the_errors_handler() -> None:
    with pytest.raises(URIError) as info:
        percent_encode("ab\ud800")
    assert info.value.offset == 2
    assert percent_encode("\ud800", errors="surrogatepass") == "%ED%A0%80"
    assert percent_encode("\udcff", errors="surrogateescape") == "%FF"


@pytest.mark.parametrize("rule", ["userinfo", "iuserinfo", "query", "iquery"])
def test_an_unencodable_character_names_the_rule_and_hides_a_password(rule: str) -> None:
    with pytest.raises(URIError) as info:
        percent_encode("alice:s3cretpw\ud800", rule)
    assert info.value.rule == rule
    assert info.value.offset == 14
    if "userinfo" in rule:
        assert "s3cretpw" not in str(info.value)


def test_non_str_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        percent_encode(b"a")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        percent_decode(b"a")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("%E2%82%AC", "€"),
        ("%e2%82%ac", "€"),
        ("a%20b", "a b"),
        ("%2541", "%41"),  # decoded once only
        ("ü%C3%BC", "üü"),  # characters outside triplets are kept
        ("a+b", "a+b"),  # "+" is only a space in query_pairs(form=True)
        ("no escapes", "no escapes"),
        ("%F0%9F%98%80", "\U0001f600"),
        ("", ""),
    ],
)
def test_percent_decode(text: str, want: str) -> None:
    assert percent_decode(text) == want


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("ab%G0", 2),  # malformed triplet
        ("%G0", 0),
        ("abc%", 3),
        ("a%4", 1),
        ("%41%4g", 3),
        ("%E2%82", 0),  # truncated UTF-8 sequence: its first "%"
        ("%41%E2%82", 3),
        ("a%E2%82%ACb%FF", 11),  # invalid start byte
        ("%C3%28", 0),  # bad continuation
        ("%ED%A0%80", 0),  # an encoded surrogate is not UTF-8
        ("%E2%82x%AC", 0),  # a sequence cannot span a literal character
    ],
)
def test_percent_decode_error_offsets(text: str, offset: int) -> None:
    with pytest.raises(URIError) as info:
        percent_decode(text)
    assert info.value.offset == offset
    assert info.value.text == text
    assert text[offset] == "%"


def test_percent_decode_errors_handlers_are_those_of_bytes_decode() -> None:
    assert percent_decode("a%FFb", errors="replace") == "a\ufffdb"
    assert percent_decode("%E2%82", errors="replace") == b"\xe2\x82".decode("utf-8", "replace")
    assert percent_decode("%FF%FE", errors="surrogateescape") == "\udcff\udcfe"
    assert percent_decode("%ED%A0%80", errors="surrogatepass") == "\ud800"
    assert percent_decode("a%FF", errors="ignore") == "a"


def test_malformed_triplets_raise_whatever_the_handler() -> None:
    with pytest.raises(URIError) as info:
        percent_decode("%FF%G0", errors="replace")
    assert info.value.offset == 3


def test_percent_decode_bytes() -> None:
    assert percent_decode_bytes("%FF%00a%e9") == b"\xff\x00a\xe9"
    assert percent_decode_bytes("ü") == "ü".encode()
    assert percent_decode_bytes("") == b""
    with pytest.raises(URIError) as info:
        percent_decode_bytes("ab%G0")
    assert info.value.offset == 2
    with pytest.raises(URIError) as info:
        percent_decode_bytes("a\udcff")
    assert info.value.offset == 1


@pytest.mark.parametrize("rule", ENCODE_RULES)
@given(text=TEXT)
def test_encoded_text_matches_its_rule(rule: str, text: str) -> None:
    encoded = percent_encode(text, rule)
    # segment-nz and segment-nz-nc are `1*`: the empty text stays empty.
    assert validate(rule, encoded) or text == ""
    # RFC 3986's rules admit ASCII only; RFC 3987's keep ucschar (and, in
    # iquery, iprivate) but never a bidi formatting character.
    assert encoded.isascii() or rule.startswith("i")
    assert not BIDI_FORMATTING & set(encoded)


@pytest.mark.parametrize("rule", ENCODE_RULES)
@given(text=TEXT)
def test_decode_inverts_encode(rule: str, text: str) -> None:
    assert percent_decode(percent_encode(text, rule)) == text


@given(text=TEXT)
def test_keep_escapes_output_is_valid_and_idempotent(text: str) -> None:
    once = percent_encode(text, "query", keep_escapes=True)
    assert validate("query", once)
    assert percent_encode(once, "query", keep_escapes=True) == once
    encoded = percent_encode(text, "query")
    assert percent_encode(encoded, "query", keep_escapes=True) == encoded


@given(text=st.text())
def test_surrogatepass_round_trips_any_str(text: str) -> None:
    encoded = percent_encode(text, "fragment", errors="surrogatepass")
    assert percent_decode(encoded, errors="surrogatepass") == text


TRIPLETS = st.integers(0, 255).map("%{:02X}".format)


@pytest.mark.parametrize("errors", ["strict", "replace", "surrogateescape", "backslashreplace"])
@given(pieces=st.lists(TRIPLETS | st.sampled_from(["a", "é", "€", "/"]), max_size=12))
def test_percent_decode_is_bytes_decode_of_the_octets(pieces: list[str], errors: str) -> None:
    text = "".join(pieces)
    octets = percent_decode_bytes(text)
    # Where in `text` each octet comes from.
    starts: list[int] = []
    for index, piece in enumerate(pieces):
        start = len("".join(pieces[:index]))
        starts += [start] * (1 if piece.startswith("%") else len(piece.encode()))
    try:
        want: str | int = octets.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        want = starts[exc.start]  # the offset the URIError must carry
    if isinstance(want, str):
        assert percent_decode(text, errors=errors) == want
    else:
        with pytest.raises(URIError) as info:
            percent_decode(text, errors=errors)
        assert info.value.offset == want


# --- errors= is checked up front ----------------------------------------


@pytest.mark.parametrize("text", ["ok", "%ff", "", "a%41"])
@pytest.mark.parametrize("errors", ["bogus", "", "\x00", "strict\x00"])
def test_unknown_errors_handler_fails_whatever_the_text(text: str, errors: str) -> None:
    """An unknown ``errors=`` is a URIError whatever the text, whether or
    not the text has anything to decode (``"ok"`` as well as ``"%ff"``)."""
    with pytest.raises(URIError, match="surrogateescape"):
        percent_decode(text, errors=errors)
    with pytest.raises(URIError, match="namereplace"):
        percent_encode(text, errors=errors)
    with pytest.raises(URIError):
        encode_except(text, "a", errors=errors)


@given(st.text(), st.text())
def test_any_errors_str_gives_a_uri_error_or_works(text: str, errors: str) -> None:
    for call in (percent_decode, percent_encode):
        with contextlib.suppress(URIError):
            call(text, errors=errors)


def test_encoding_only_handler_cannot_decode() -> None:
    # bytes.decode would raise TypeError from inside the codec for these.
    for handler in ("xmlcharrefreplace", "namereplace"):
        with pytest.raises(URIError, match="decoding"):
            percent_decode("ok", errors=handler)
        assert percent_encode("\udcff", errors=handler)  # fine for encoding


def test_errors_of_the_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        percent_decode("ok", errors=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        percent_encode("ok", errors=1)  # type: ignore[arg-type]


def test_registered_handler_is_accepted() -> None:
    import codecs

    def dashes(exc: UnicodeError) -> tuple[str, int]:
        assert isinstance(exc, UnicodeDecodeError)
        return ("-", exc.end)

    codecs.register_error("urigrammar-test-dashes", dashes)
    assert percent_decode("a%FFb", errors="urigrammar-test-dashes") == "a-b"


@given(st.text(max_size=20), st.sampled_from(["strict", "replace", "surrogateescape", "ignore"]))
def test_every_decoding_handler_python_has_works(text: str, errors: str) -> None:
    encoded = percent_encode(text, errors="surrogatepass")
    try:
        percent_decode(encoded, errors=errors)
    except URIError:
        assert errors == "strict"
