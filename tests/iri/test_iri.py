"""IRIs (RFC 3987): parsing through the same visitor, the bidi rule of
section 4.1, the two mappings of sections 3.1 and 3.2, resolution and
comparison, and building with the i-rules' sets."""

from __future__ import annotations

import json
import pickle
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from abnf.grammars import rfc3987 as abnf_rfc3987
from abnf.parser import ParseError
from hypothesis import assume, given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from _edits import edited
from urigrammar.shipped import shipped_rule
from urigrammar.strategies import from_rule

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "rfc3987.json").read_text(encoding="utf-8")
)


def _ids(table: list[dict[str, Any]]) -> list[str]:
    return [row["id"] for row in table]


# --- RFC 3987's own examples -------------------------------------------------


@pytest.mark.parametrize("row", VECTORS["to_uri"], ids=_ids(VECTORS["to_uri"]))
def test_section_3_1_examples(row: dict[str, Any]) -> None:
    uri = u.to_uri(row["iri"], idna=row["idna"])
    assert isinstance(uri, u.URIReference)
    assert str(uri) == row["uri"]


@pytest.mark.parametrize("row", VECTORS["to_iri"], ids=_ids(VECTORS["to_iri"]))
def test_section_3_2_examples(row: dict[str, Any]) -> None:
    iri = u.to_iri(row["uri"])
    assert isinstance(iri, u.IRIReference)
    assert str(iri) == row["iri"]


@pytest.mark.parametrize("row", VECTORS["equivalent"], ids=_ids(VECTORS["equivalent"]))
def test_section_5_3_examples(row: dict[str, Any]) -> None:
    nfc = row.get("nfc", False)
    assert u.equivalent(row["a"], row["b"], nfc=nfc) is row["equivalent"]
    assert u.equivalent(row["b"], row["a"], nfc=nfc) is row["equivalent"]
    a, b = u.parse_iri(row["a"]), u.parse_iri(row["b"])
    assert a.equivalent(b, nfc=nfc) is row["equivalent"]


@pytest.mark.parametrize("row", VECTORS["normal_form"], ids=_ids(VECTORS["normal_form"]))
def test_section_5_3_normal_forms(row: dict[str, Any]) -> None:
    normal = u.normalize(u.parse_iri(row["iri"]))
    assert isinstance(normal, u.IRIReference)
    assert str(normal) == row["normal"]


def test_to_iri_and_equivalent_by_hand() -> None:
    assert str(u.to_iri("http://a/%C3%A9%FF%C3%A9")) == "http://a/\u00e9%FF\u00e9"
    assert str(u.to_iri("http://a/%C3%A9%E2%80%AE")) == "http://a/\u00e9%E2%80%AE"
    assert str(u.to_iri("http://a/%41")) == "http://a/A"  # section 3.2 step 2
    assert u.equivalent("http://ex.com/\u00e4", "http://ex.com/%C3%A4")


# --- parse_iri ---------------------------------------------------------------


def test_fields_follow_uri_reference_conventions(on: On) -> None:
    iri = on.parse_iri("http://us\u00e9r@\u4f8b\u3048.jp:08/\u00e4/?\ue000#\u00df")
    assert iri.scheme == "http"
    assert iri.userinfo == "us\u00e9r"
    assert iri.host == "\u4f8b\u3048.jp"
    assert iri.host_kind == "ireg-name"
    assert iri.port_text == "08"
    assert iri.port == 8
    assert iri.path == "/\u00e4/"
    assert iri.query == "\ue000"
    assert iri.fragment == "\u00df"
    empty = on.parse_iri("\u00e4")
    assert (empty.scheme, empty.host, empty.query, empty.fragment) == (None, None, None, None)
    present = on.parse_iri("//\u00e4?#")
    assert (present.host, present.path, present.query, present.fragment) == ("\u00e4", "", "", "")


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("1.2.3.4", "IPv4address"),  # first-match-wins (section 2.2)
        ("1.2.3.4.5", "ireg-name"),
        ("[::1]", "IPv6address"),
        ("[V1.fe]", "IPvFuture"),
        ("\u00e4", "ireg-name"),
        ("", "ireg-name"),
    ],
)
def test_host_kind_first_match_wins(on: On, host: str, kind: str) -> None:
    assert on.parse_iri(f"http://{host}/").host_kind == kind
    assert on.parse_iri(f"http://{host}/", method="abnf").host_kind == kind


def test_an_iri_is_no_uri_reference(on: On) -> None:
    text = "http://a/b"
    iri, uri = on.parse_iri(text), on.parse(text)
    assert iri != uri
    assert not isinstance(iri, u.URIReference)
    assert not isinstance(uri, u.IRIReference)
    assert isinstance(iri, u.Reference)
    assert isinstance(uri, u.Reference)
    assert iri.host_kind == "ireg-name"
    assert uri.host_kind == "reg-name"


def test_parse_iri_takes_the_iri_rules_only(on: On) -> None:
    assert u.IRI_PARSE_RULES == ("IRI-reference", "IRI", "absolute-IRI", "irelative-ref")
    assert on.parse_iri("a:\u00e4", "absolute-IRI").path == "\u00e4"
    with pytest.raises(u.URISyntaxError) as caught:
        on.parse_iri("\u00e4", "IRI")
    assert caught.value.rule == "IRI"
    with pytest.raises(u.URIError, match="parse\\(\\) takes a rule among"):
        on.parse_iri("a", "ipath")
    with pytest.raises(u.UnknownRuleError, match="'IRI'"):
        on.parse_iri("a:b", "URI")


def test_immutable_hashable_and_pickled(on: On) -> None:
    iri = on.parse_iri("http://\u00e4:1/\u00f6?\ue000#x")
    with pytest.raises(AttributeError):
        iri.path = "x"  # type: ignore[misc]
    assert hash(iri) == hash(on.parse_iri(str(iri)))
    again = pickle.loads(pickle.dumps(iri))
    assert again == iri
    assert type(again) is u.IRIReference


# Non-ASCII drawn from what section 2.2 and 4.1 care about, and beyond.
SPECIAL = st.sampled_from(
    [
        *sorted(u.BIDI_FORMATTING),
        "\ufdd0",  # noncharacters: not in ucschar
        "\ufffe",
        "\U0001fffe",
        "\ud800",  # lone surrogates
        "\udfff",
        "\ue000",  # iprivate
        "\U000f0000",
        "\u00a0",  # the edges of ucschar
        "\U000e1000",
        "\U000efffd",
        "\u009f",
    ]
)
EDITS = st.one_of(
    SPECIAL, from_rule("ucschar"), from_rule("iprivate"), st.sampled_from(list("%:/?#[]@ "))
)


def mutated(rule: str) -> st.SearchStrategy[str]:
    return edited(rule, EDITS)


@backend_settings(max_examples=examples(50))
@given(mutated("IRI-reference"))
def test_str_round_trips_and_engines_agree(on: On, text: str) -> None:
    bidi = any(c in u.BIDI_FORMATTING for c in text)
    if not on.validate("IRI-reference", text):
        with pytest.raises(u.URISyntaxError):
            on.parse_iri(text)
        return
    if bidi:
        with pytest.raises(u.URISyntaxError, match=r"section 4\.1"):
            on.parse_iri(text)
        return
    iri = on.parse_iri(text)
    assert str(iri) == text
    assert on.parse_iri(text, method="abnf") == iri


# --- every i-rule against abnf's own transcription of RFC 3987 ---------------

# RFC 3987's own rules; the ones it restates from RFC 3986 are held to
# RFC 3986's in test_iri_grammar.py.
I_RULES = [name for name in u.RFC3987.rule_names if shipped_rule(name)[0] is u.RFC3987]


def _abnf_says(rule: str, text: str) -> bool:
    try:
        abnf_rfc3987.Rule(rule).parse_all(text)
    except ParseError:
        return False
    return True


@pytest.mark.parametrize("rule", I_RULES)
@backend_settings(max_examples=examples(15))
@given(data=st.data())
def test_every_rule_agrees_with_abnfs_rfc3987(on: On, rule: str, data: st.DataObject) -> None:
    text = data.draw(st.one_of(mutated(rule), st.text(EDITS, max_size=4)))
    assert on.validate(rule, text) == _abnf_says(rule, text)


# --- section 4.1: bidi formatting characters ------------------------------------


@pytest.mark.parametrize("char", sorted(u.BIDI_FORMATTING))
def test_bidi_characters_are_refused_where_the_abnf_admits_them(on: On, char: str) -> None:
    text = f"http://a/b{char}c"
    # RFC 3987's original list plus Unicode's later Bidi_Control characters.
    assert unicodedata.bidirectional(char) in {
        "L",
        "R",
        "AL",
        "LRE",
        "RLE",
        "PDF",
        "LRO",
        "RLO",
    } | {
        "LRI",
        "RLI",
        "FSI",
        "PDI",
    }
    assert on.validate("IRI", text)  # the pure ABNF
    with pytest.raises(u.URISyntaxError) as caught:
        on.parse_iri(text)
    assert caught.value.offset == 10
    assert f"U+{ord(char):04X}" in str(caught.value)
    assert unicodedata.name(char) in str(caught.value)
    with pytest.raises(u.URISyntaxError):
        on.parse_iri(text, method="abnf")
    with pytest.raises(u.URISyntaxError):
        u.to_uri(text)
    assert on.parse_iri(text, allow_bidi=True).path == f"/b{char}c"
    encoded = "".join(f"%{b:02X}" for b in char.encode())
    assert str(u.to_uri(text, allow_bidi=True)) == f"http://a/b{encoded}c"
    # Never decoded from a URI, and never written by build.
    assert str(u.to_iri(f"http://a/b{encoded}c")) == f"http://a/b{encoded}c"
    assert u.IRIReference.build(scheme="http", host="a", path=f"/b{char}c").path == (
        f"/b{encoded}c"
    )


def test_resolution_screens_bidi_in_string_references() -> None:
    base = u.parse_iri("http://a/b")
    with pytest.raises(u.URISyntaxError, match=r"section 4\.1"):
        base.resolve("x\u202ey")


# --- sections 3.1 and 3.2: the mappings ------------------------------------------

NO_BIDI_IRI = from_rule("IRI-reference").filter(
    lambda t: not any(c in u.BIDI_FORMATTING for c in t)
)


@given(NO_BIDI_IRI, st.booleans())
def test_to_uri_always_gives_a_uri(text: str, idna: bool) -> None:
    try:
        uri = u.to_uri(text, idna=idna)
    except u.URIError:
        # idna=True refuses hosts that are no IDN (UTS 46); nothing else may fail.
        assert idna
        return
    assert str(uri).isascii()
    assert u.validate("URI-reference", str(uri))


@given(NO_BIDI_IRI)
def test_to_iri_undoes_to_uri(text: str) -> None:
    # RFC 3987 section 3.2: for IRIs in NFC without percent-encodings.
    assume("%" not in text and unicodedata.is_normalized("NFC", text))
    iri = u.parse_iri(text)
    assert u.to_iri(u.to_uri(iri)) == iri


UTF8_ESCAPED = st.text(st.characters(min_codepoint=0x41, max_codepoint=0x10FFFF), max_size=3).map(
    lambda s: "".join(f"%{b:02x}" for b in s.encode("utf-8", "surrogatepass"))
)


@given(from_rule("URI-reference"), UTF8_ESCAPED, st.sampled_from(["path", "query", "fragment"]))
def test_to_uri_of_to_iri_is_equivalent(text: str, escaped: str, part: str) -> None:
    uri = u.parse(text)
    try:
        if part == "path":
            with_escapes = uri.replace(path=uri.path + "/" + escaped)
        else:
            with_escapes = uri.replace(**{part: (getattr(uri, part) or "") + escaped})
    except u.URIError:
        assume(False)  # "/" + "" after "/" without an authority reads as one
    iri = u.to_iri(with_escapes)
    assert not any(c in u.BIDI_FORMATTING for c in str(iri))
    back = u.to_uri(iri)
    assert u.normalize(back) == u.normalize(with_escapes)


def test_to_iri_decodes_per_component() -> None:
    # iprivate is allowed in iquery only (section 2.2).
    assert str(u.to_iri("http://a/%EE%80%80?%EE%80%80#%EE%80%80")) == (
        "http://a/%EE%80%80?\ue000#%EE%80%80"
    )
    # %, reserved and ASCII that URIs do not allow stay encoded (step 2).
    assert str(u.to_iri("http://a/%25%2F%3F%20%7E%c3%a4")) == "http://a/%25%2F%3F%20~\u00e4"
    # A noncharacter (not in ucschar) stays encoded (step 4).
    assert str(u.to_iri("http://a/%EF%B7%90")) == "http://a/%EF%B7%90"
    # A host's escapes too, when it is a reg-name.
    assert u.to_iri("http://%C3%A4.de/").host == "\u00e4.de"


def test_to_iri_with_idna_gives_u_labels() -> None:
    # Section 3.2, after the examples: ToUnicode may convert the host further.
    iri = u.to_iri("http://xn--99zt52a.example.org/%e2%80%ae", idna=True)
    assert str(iri) == "http://\u7d0d\u8c46.example.org/%E2%80%AE"


@given(from_rule("URI-reference"), st.booleans())
def test_every_uri_is_an_iri_that_maps_to_itself(text: str, idna: bool) -> None:
    # RFC 3987 section 2: a URI is an IRI; section 3.1 leaves its ASCII as is.
    uri = u.parse(text)
    assert u.to_uri(uri, idna=idna) == uri


def test_to_iri_refuses_an_iri_reference() -> None:
    with pytest.raises(TypeError):
        u.to_iri(u.parse_iri("http://a/"))  # type: ignore[arg-type]
    assert u.parse("http://a/").to_iri() == u.parse_iri("http://a/")
    assert u.parse_iri("http://\u00e4/").to_uri() == u.parse("http://%C3%A4/")


# --- resolution (section 6.5 applies RFC 3986 section 5.2) ---------------------

NO_BIDI_REL = from_rule("irelative-ref").filter(
    lambda t: not any(c in u.BIDI_FORMATTING for c in t)
)
NO_BIDI_ABS = from_rule("IRI").filter(lambda t: not any(c in u.BIDI_FORMATTING for c in t))


@given(NO_BIDI_ABS, NO_BIDI_REL)
def test_resolution_commutes_with_to_uri(base: str, ref: str) -> None:
    target = u.parse_iri(base).resolve(ref)
    assert isinstance(target, u.IRIReference)
    assert u.to_uri(target) == u.to_uri(base).resolve(u.to_uri(ref))


@given(NO_BIDI_ABS, NO_BIDI_IRI)
def test_relativize_inverts_resolve_on_iris(base: str, ref: str) -> None:
    b = u.parse_iri(base)
    target = b.resolve(ref)
    assume(target.normalize(scheme_based=False).path == target.path)  # no dot-segments
    relative = b.relativize(target)
    assert isinstance(relative, u.IRIReference)
    assert b.resolve(relative) == target


def test_a_uri_and_an_iri_resolve_as_iris() -> None:
    iri_base = u.parse_iri("http://\u00e4/b/c")
    target = u.resolve(iri_base, u.parse("g"))
    assert isinstance(target, u.IRIReference)
    assert str(target) == "http://\u00e4/b/g"
    target = u.resolve(u.parse("http://a/b/c"), u.parse_iri("\u00f6"))
    assert isinstance(target, u.IRIReference)
    assert str(target) == "http://a/b/\u00f6"
    assert str(u.resolve(iri_base, "\u00fc")) == "http://\u00e4/b/\u00fc"


def test_a_string_that_is_only_an_iri_is_read_as_one_everywhere() -> None:
    # One rule for every function taking a str or a reference: a URI, or an
    # IRI when the text is an IRI-reference and no URI-reference.
    normal = u.normalize("HTTP://ex.com/\u00e4")
    assert isinstance(normal, u.IRIReference)
    assert str(normal) == "http://ex.com/\u00e4"
    target = u.resolve("http://ex.com/a/", "\u00e4")
    assert isinstance(target, u.IRIReference)
    assert str(target) == "http://ex.com/a/\u00e4"
    assert isinstance(u.resolve("http://ex.com/\u00e4/", "b"), u.IRIReference)
    relative = u.relativize("http://ex.com/a/", "http://ex.com/a/\u00e4")
    assert isinstance(relative, u.IRIReference)
    assert str(relative) == "\u00e4"
    assert u.equivalent("http://ex.com/\u00e4", "http://ex.com/%C3%A4")
    # A URI-reference is still read as a URI.
    assert type(u.normalize("http://a/%7e")) is u.URIReference
    assert type(u.resolve("http://a/b", "c")) is u.URIReference
    assert type(u.relativize("http://a/b", "http://a/c")) is u.URIReference


def test_a_string_neither_uri_nor_iri_says_where_iris_are_read() -> None:
    hint = "read an IRI with parse_iri, or percent-encode it with to_uri"
    for call in (
        lambda: u.normalize("http://ex.com/\u00e4 b"),
        lambda: u.parse("http://a/").resolve("\u00e4"),
        lambda: u.parse("http://a/").equivalent("\u00e4 "),
        lambda: u.to_iri("http://a/\u00e4"),
    ):
        with pytest.raises(u.URISyntaxError, match=hint) as caught:
            call()
        assert caught.value.rule == "URI-reference"
    # At an ASCII character the message is the plain one.
    with pytest.raises(u.URISyntaxError) as caught:
        u.normalize("http://a/ b")
    assert "parse_iri" not in caught.value.message
    # A bidi character makes the text no IRI (section 4.1): that error wins.
    with pytest.raises(u.URISyntaxError, match=r"section 4\.1"):
        u.normalize("http://a/\u202e")


# --- normalization -----------------------------------------------------------------


@given(NO_BIDI_IRI)
def test_normalize_is_idempotent_on_iris(text: str) -> None:
    once = u.normalize(u.parse_iri(text))
    assert isinstance(once, u.IRIReference)
    assert u.normalize(once) == once


def test_normalize_lowercases_only_ascii_in_hosts() -> None:
    # RFC 3987 section 5.3.2.1: only US-ASCII is case-insensitive here.
    assert u.normalize(u.parse_iri("HTTP://\u00c4B.DE/")).host == "\u00c4b.de"


def test_normalize_decodes_what_the_component_admits() -> None:
    normal = u.normalize(u.parse_iri("http://%C3%A4/%C3%B6%EE%80%80?%EE%80%80%2F#%C3%BC"))
    assert str(normal) == "http://\u00e4/\u00f6%EE%80%80?\ue000%2F#\u00fc"


@pytest.mark.parametrize(
    ("iri", "normal"),
    [
        # NFC maps U+1FEF GREEK VARIA to "`", which no IRI component admits:
        # it is written as its triplet, in every component.
        ("http://a/\u1fef", "http://a/%60"),
        ("http://\u1fefx/?\u1fef#\u1fef", "http://%60x/?%60#%60"),
        ("http://u\u1fef@a/", "http://u%60@a/"),
        ("http://a/e\u0301\u1fef", "http://a/\u00e9%60"),
        ("http://\u212a/", "http://k/"),  # KELVIN SIGN: "K", then lowercase
    ],
)
def test_nfc_writes_what_a_component_does_not_admit_as_triplets(iri: str, normal: str) -> None:
    once = u.normalize(u.parse_iri(iri), nfc=True)
    assert str(once) == normal
    assert u.normalize(once, nfc=True) == once
    assert u.equivalent(u.parse_iri(iri), normal, nfc=True)


@pytest.mark.parametrize(
    "text", ["http://a/%3A\u0301", "http://a/?%2f\u0301", "http://a/#%3D\u0308"]
)
def test_nfc_composes_no_hex_digit_of_a_percent_encoding(text: str) -> None:
    # "%3A" + U+0301 would compose into "%3" and "\u00c1": another text.
    normal = u.normalize(u.parse_iri(text), nfc=True)
    assert str(normal) == text.replace("%2f", "%2F")
    assert not u.equivalent(text, "http://a/%253%C3%81", nfc=True)


# --- building and encoding with the i-rules -----------------------------------------


@given(st.text(), st.text(), st.text())
def test_build_gives_a_valid_iri(path: str, query: str, fragment: str) -> None:
    assume(not any("\ud800" <= c <= "\udfff" for c in path + query + fragment))
    iri = u.IRIReference.build(
        scheme="s", host="h", path="/" + path, query=query, fragment=fragment
    )
    assert u.validate("IRI", str(iri))
    assert not u.BIDI_FORMATTING & set(str(iri))
    assert u.percent_decode(iri.path) == "/" + path
    assert u.percent_decode(iri.query or "") == query
    assert u.percent_decode(iri.fragment or "") == fragment


def test_build_keeps_ucschar_and_encodes_the_rest() -> None:
    iri = u.IRIReference.build(
        scheme="http", host="b\u00fccher.de", path="/\u00fc ber", query="\ue000"
    )
    assert str(iri) == "http://b\u00fccher.de/\u00fc%20ber?\ue000"
    assert iri.host_kind == "ireg-name"


def test_percent_encode_takes_i_rules() -> None:
    assert u.percent_encode("\u00e4/\ue000 b", "isegment") == "\u00e4%2F%EE%80%80%20b"
    assert u.percent_encode("\u00e4/\ue000", "iquery") == "\u00e4/\ue000"
    assert u.percent_encode("\u00e4/\u00f6", "ipath") == "\u00e4/\u00f6"
    assert "iquery" in u.ENCODE_RULES


def test_the_constructor_checks_with_the_i_rules() -> None:
    iri = u.IRIReference(scheme="http", host="\u00e4", path="/\u00f6")
    assert str(iri) == "http://\u00e4/\u00f6"
    with pytest.raises(u.URIError):
        u.IRIReference(scheme="http", host="a", path="/\ue000")  # iprivate outside iquery
    with pytest.raises(u.URIError):
        u.URIReference(scheme="http", host="\u00e4", path="/")
    with pytest.raises(TypeError, match="parse_iri"):
        u.IRIReference("http://a/")  # type: ignore[call-arg]


SCALARS = st.text(st.characters(blacklist_categories=["Cs"]))


@given(st.lists(st.tuples(SCALARS, SCALARS), max_size=4), st.lists(SCALARS, max_size=3))
def test_conveniences_encode_with_the_i_rules(
    pairs: list[tuple[str, str]], segments: list[str]
) -> None:
    iri = u.parse_iri("http://\u00e4/p")
    with_pairs = iri.with_query_pairs(pairs)
    assert isinstance(with_pairs, u.IRIReference)
    assert with_pairs.query_pairs() == [(n, v) for n, v in pairs]
    joined = iri.joinpath(*segments)
    assert joined.decoded_segments[2:] == tuple(segments)
    for ref in (with_pairs, joined):
        assert u.validate("IRI-reference", str(ref))
        assert not u.BIDI_FORMATTING & set(str(ref))
    # ucschar stays unencoded; the URI model would have encoded it.
    assert str(iri.add_param("k\u00fc", "\u00f6")) == "http://\u00e4/p?k\u00fc=\u00f6"
