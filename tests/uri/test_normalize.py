"""Normalization and comparison (RFC 3986 section 6): the RFC's examples,
each step on its own, the scheme registry, RFC 5952 IPv6 text, properties
over references generated from the grammar.  The ``normalize`` command:
cli/test_cli_normalize.py."""

from __future__ import annotations

import dataclasses
import ipaddress
import itertools
import pickle
import re
import string
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar
from urigrammar import (
    BIDI_FORMATTING,
    Normalization,
    URIReference,
    URISyntaxError,
    parse,
    parse_iri,
    validate,
)
from urigrammar.strategies import from_rule
from urigrammar.uri._components import evolve
from urigrammar.uri._normalization import SCHEME_RULES, NormalizationFlags, SchemeRule
from urigrammar.uri._normalize import (
    canonical_ipv6,
    decode_unreserved,
    uppercase_percent_encodings,
)
from urigrammar.uri._reference import equivalent, normalize
from urigrammar.uri._resolve import has_dot_segments

# Section 2.3, as the RFC's prose lists it.
RFC_UNRESERVED = set(string.ascii_letters + string.digits + "-._~")


def norm(text: str, **options: bool) -> str:
    return str(normalize(text, **options))


# --- The RFC's own examples ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # Section 6.2.2: all three syntax-based steps at once.
        pytest.param("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D", id="6.2.2"),
        pytest.param("HTTP://www.EXAMPLE.com/", "http://www.example.com/", id="6.2.2.1"),
        pytest.param("example://a/%7euser", "example://a/~user", id="6.2.2.2"),
        pytest.param("example://a/b/./c/../d", "example://a/b/d", id="6.2.2.3"),
        # Section 6.2.3: four spellings of one http URI.
        pytest.param("http://example.com", "http://example.com/", id="6.2.3-no-path"),
        pytest.param("http://example.com/", "http://example.com/", id="6.2.3-slash"),
        pytest.param("http://example.com:/", "http://example.com/", id="6.2.3-empty-port"),
        pytest.param("http://example.com:80/", "http://example.com/", id="6.2.3-default-port"),
        # Section 6.2.3: an empty query is not licensed away.
        pytest.param("http://example.com/?", "http://example.com/?", id="6.2.3-empty-query"),
    ],
)
def test_rfc_examples(text: str, want: str) -> None:
    assert norm(text) == want


def test_rfc_6_2_3_spellings_are_equivalent() -> None:
    spellings = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ]
    for a in spellings:
        for b in spellings:
            assert equivalent(a, b)
    assert not equivalent("http://example.com/?", "http://example.com/")
    assert not equivalent("http://example.com/#", "http://example.com/")


def test_every_step_on_one_uri() -> None:
    text = "HTTP://www.Example.COM:80/a/./b/../c/%7efoo"
    assert norm(text) == "http://www.example.com/a/c/~foo"


# --- Section 6.2.2 step by step ----------------------------------------------


def test_unreserved_set_is_the_rfcs() -> None:
    # The set is asked of the grammar; check it against the RFC's prose.
    for octet in range(256):
        encoded = f"%{octet:02X}"
        decoded = decode_unreserved(encoded)
        if chr(octet) in RFC_UNRESERVED:
            assert decoded == chr(octet)
            assert validate("unreserved", chr(octet))
        else:
            assert decoded == encoded
        assert decode_unreserved(encoded.lower()) in (chr(octet), encoded.lower())


@pytest.mark.parametrize("char", sorted(":/?#[]@!$&'()*+,;="))
def test_reserved_characters_are_never_decoded(char: str) -> None:
    encoded = f"%{ord(char):02x}"
    text = f"http://u{encoded}@h{encoded}.x/p{encoded}?q{encoded}#f{encoded}"
    upper = encoded.upper()
    assert norm(text) == f"http://u{upper}@h{upper}.x/p{upper}?q{upper}#f{upper}"


def test_percent_encodings_in_every_component() -> None:
    text = "http://%7eUser%3a@%41%62%c3%a9.Example/%7e%2f%e2%82%ac?%7e%2f#%7e%2f"
    got = normalize(text)
    assert got.userinfo == "~User%3A"  # userinfo keeps its case
    assert got.host == "ab%C3%A9.example"  # decoded letters are lowercased too
    assert got.path == "/~%2F%E2%82%AC"
    assert got.query == "~%2F"
    assert got.fragment == "~%2F"


def test_uppercase_percent_encodings_only_touches_triplets() -> None:
    assert uppercase_percent_encodings("%3a%2fab%c3") == "%3A%2Fab%C3"
    assert uppercase_percent_encodings("abc%") == "abc%"


def test_decoding_can_make_dot_segments_which_are_then_removed() -> None:
    # Section 6.2.2: percent-encoding normalization comes before
    # path segment normalization, so "%2E%2E" is a ".." by then.
    assert norm("http://a/b/%2E%2E/c") == "http://a/c"
    assert norm("http://a/b/%2e/c") == "http://a/b/c"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("http://[2001:DB8::A]/", "http://[2001:db8::a]/"),
        ("http://[2001:0DB8:0:0:0:0:0:1]/", "http://[2001:0db8:0:0:0:0:0:1]/"),
        ("http://[V1.AbC:D]/", "http://[v1.abc:d]/"),
        ("http://192.0.2.1/", "http://192.0.2.1/"),
        ("HTTP://EXAMPLE.com/A/B", "http://example.com/A/B"),  # the path keeps its case
    ],
)
def test_hosts_are_lowercased(text: str, want: str) -> None:
    got = normalize(text)
    assert str(got) == want
    assert got.host_kind == parse(text).host_kind


@pytest.mark.parametrize(
    ("literal", "want"),
    [
        # RFC 5952 section 4.1: no leading zeros.
        ("2001:0db8::0001", "2001:db8::1"),
        # Section 4.2.1: "::" takes as many zero fields as it can.
        ("2001:db8:0:0:0:0:2:1", "2001:db8::2:1"),
        # Section 4.2.2: not for a single zero field.
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
        # Section 4.2.3: the longest run, and the first of equal runs.
        ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        # Section 4.3: lowercase.
        ("2001:DB8::ABCD", "2001:db8::abcd"),
        # Section 5: an IPv4-mapped address keeps its dotted quad.
        ("::FFFF:192.0.2.1", "::ffff:192.0.2.1"),
        ("0:0:0:0:0:ffff:c000:0201", "::ffff:192.0.2.1"),
    ],
)
def test_ipv6_canonical_is_rfc_5952(literal: str, want: str) -> None:
    assert canonical_ipv6(f"[{literal}]") == f"[{want}]"
    assert norm(f"http://[{literal}]/", ipv6_canonical=True) == f"http://[{want}]/"


def test_ipv6_canonical_leaves_other_hosts_alone() -> None:
    assert norm("http://[v1.AB]/", ipv6_canonical=True) == "http://[v1.ab]/"
    assert norm("http://Ab/", ipv6_canonical=True) == "http://ab/"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # Absolute paths, with or without a scheme, lose their dot-segments.
        ("/a/./b/../c", "/a/c"),
        ("//h/a/../b", "//h/b"),
        ("foo:a/./b/../c", "foo:a/c"),
        # A relative-path reference keeps them: what "../a" means depends
        # on the base it will be resolved against (section 5.2.1).
        ("../a/./b", "../a/./b"),
        ("./a:b", "./a:b"),
        ("%2E%2E/a", "../a"),
        # Section 5.2.2's hole: the path "//b" is written "/.//b".
        ("foo:/a/..//b", "foo:/.//b"),
        ("foo:/.//b", "foo:/.//b"),
        ("/a/..//b", "/.//b"),
    ],
)
def test_path_segment_normalization(text: str, want: str) -> None:
    got = normalize(text)
    assert str(got) == want
    assert parse(want) == got


# --- Section 6.2.3: the scheme registry -------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("https://a:443", "https://a/"),
        ("https://a:80", "https://a:80/"),
        ("ws://a:80/x", "ws://a/x"),
        ("wss://a:443/x", "wss://a/x"),
        ("ftp://a:21", "ftp://a/"),
        ("HTTP://a:0080/x", "http://a/x"),
        ("http://a:08080/x", "http://a:8080/x"),
        ("http://a:0/x", "http://a:0/x"),
        ("http://a:000/x", "http://a:0/x"),
        # Not in the registry: the port and the empty path stay, but an
        # empty port goes (section 3.2.3 says so for every scheme).
        ("foo://a:80", "foo://a:80"),
        ("foo://a", "foo://a"),
        ("foo://a:/x", "foo://a/x"),
        ("//a:80/x", "//a:80/x"),
        # Without an authority there is no empty-path rule to apply.
        ("http:", "http:"),
        ("http:?q", "http:?q"),
    ],
)
def test_scheme_based(text: str, want: str) -> None:
    assert norm(text) == want


@pytest.mark.parametrize(
    "text", ["http://a:80", "http://a:", "http://a", "http://a:0080/", "https://a:443"]
)
def test_syntax_only_keeps_ports_and_empty_paths(text: str) -> None:
    assert norm(text, scheme_based=False) == text


def test_dropped_port_clears_both_port_fields() -> None:
    for text in ("http://a:80/", "http://a:/"):
        got = normalize(text)
        assert (got.port, got.port_text, got.authority) == (None, None, "a")
        assert got.host_kind == "reg-name"
    kept = normalize("http://a:0081/")
    assert (kept.port, kept.port_text) == (81, "81")


def test_registry_is_extensible(monkeypatch: pytest.MonkeyPatch) -> None:
    gopher = SchemeRule(default_port=70, empty_path_is_root=True)
    assert norm("gopher://a:70") == "gopher://a:70"
    mine = {**SCHEME_RULES, "gopher": gopher}
    assert str(normalize("GOPHER://a:70", schemes=mine)) == "gopher://a/"
    assert str(normalize("http://a:80", schemes={})) == "http://a:80"
    monkeypatch.setitem(SCHEME_RULES, "gopher", gopher)
    assert norm("gopher://a:70") == "gopher://a/"
    assert equivalent("gopher://a", "gopher://a:70/")


# --- Comparison ----------------------------------------------------------------


def test_equivalent_takes_strings_and_references() -> None:
    a, b = "HTTP://a:80/%7e", parse("http://a/~")
    assert a != str(b)
    assert parse(a) != b  # == compares components exactly
    assert equivalent(a, b)
    assert equivalent(b, a)
    assert parse(a).equivalent(b)
    assert b.equivalent(a)
    assert not equivalent("http://a/%2F", "http://a//")
    assert not equivalent("http://a/", "https://a/")
    assert equivalent("http://a:80", "http://a", scheme_based=True)
    assert not equivalent("http://a:80", "http://a", scheme_based=False)
    assert not equivalent("http://[::1]/", "http://[0::1]/")
    assert equivalent("http://[::1]/", "http://[0::1]/", ipv6_canonical=True)


def test_method_matches_function() -> None:
    ref = parse("HTTP://[::A]:80/./x")
    assert ref.normalize() == normalize(ref)
    assert ref.normalize(scheme_based=False) == normalize(ref, scheme_based=False)
    assert ref.normalize(ipv6_canonical=True) == normalize(ref, ipv6_canonical=True)


def test_invalid_text_is_a_syntax_error() -> None:
    with pytest.raises(URISyntaxError):
        normalize("http://a b/")
    with pytest.raises(URISyntaxError):
        equivalent("http://a/", "http://a b/")


# --- Properties over the grammar ---------------------------------------------

_refs = from_rule("URI-reference").map(parse)
_options = st.fixed_dictionaries({"scheme_based": st.booleans(), "ipv6_canonical": st.booleans()})
_TRIPLET = re.compile(r"%[0-9A-Fa-f]{2}")


@given(_refs, _options)
def test_normalize_is_idempotent(ref: URIReference, options: dict[str, bool]) -> None:
    once = normalize(ref, **options)
    assert normalize(once, **options) == once
    assert normalize(str(once), **options) == once


@given(_refs, _options)
def test_normal_form_reads_back_the_same(ref: URIReference, options: dict[str, bool]) -> None:
    once = normalize(ref, **options)
    assert parse(str(once)) == once
    assert equivalent(ref, once, **options)
    assert once.is_relative == ref.is_relative
    assert (once.host is None) == (ref.host is None)
    assert (once.query is None, once.fragment is None) == (ref.query is None, ref.fragment is None)


@given(_refs)
def test_normal_form_has_no_lowercase_hex_or_encoded_unreserved(ref: URIReference) -> None:
    for triplet in _TRIPLET.findall(str(normalize(ref))):
        assert triplet == triplet.upper()
        assert chr(int(triplet[1:], 16)) not in RFC_UNRESERVED


@given(_refs)
def test_normal_uri_paths_have_no_dot_segments(ref: URIReference) -> None:
    got = normalize(ref)
    if ref.scheme is None and ref.host is None and not ref.path.startswith("/"):
        return  # relative-path references keep theirs
    if got.host is None and got.path.startswith("/.//"):
        return  # the section 5.2.2 hole, written so it reads back the same
    assert not has_dot_segments(got.path)


@given(from_rule("IPv6address"))
def test_every_grammar_ipv6_has_a_canonical_form(literal: str) -> None:
    canonical = canonical_ipv6(f"[{literal}]")
    assert validate("IPv6address", canonical[1:-1])
    assert ipaddress.IPv6Address(canonical[1:-1]) == ipaddress.IPv6Address(literal)
    assert canonical_ipv6(canonical) == canonical


@given(from_rule("IPv6address"))
def test_ipv6_case_never_matters(literal: str) -> None:
    mixed = "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(literal))
    assert equivalent(f"http://[{literal}]/", f"http://[{mixed}]/")
    assert equivalent(f"http://[{literal}]/", f"http://[{mixed}]/", ipv6_canonical=True)


def _lower_hex(text: str | None) -> str | None:
    return None if text is None else _TRIPLET.sub(lambda m: m.group().lower(), text)


@given(_refs)
def test_hex_case_never_matters(ref: URIReference) -> None:
    lowered = evolve(
        ref,
        userinfo=_lower_hex(ref.userinfo),
        host=_lower_hex(ref.host),
        path=_lower_hex(ref.path) or "",
        query=_lower_hex(ref.query),
        fragment=_lower_hex(ref.fragment),
    )
    assert normalize(lowered) == normalize(ref)


def test_decoding_can_change_the_host_kind() -> None:
    # Section 6.2.2.2 decodes "%31" to "1"; section 3.2.2 then reads the
    # host as an IPv4address, first match winning.
    from urigrammar import equivalent, normalize, parse

    ref = normalize("http://%31.2.3.4/")
    assert ref.host_kind == "IPv4address"
    assert parse(str(ref)) == ref
    assert equivalent("http://%31.2.3.4/", "http://1.2.3.4/")


# --- The methods take every option the functions take -----------------------


def test_normalize_method_takes_schemes() -> None:
    ref = parse("foo://a:21")
    rules = {"foo": SchemeRule(21, empty_path_is_root=True)}
    assert str(ref.normalize(schemes=rules)) == "foo://a/"
    assert ref.normalize(schemes=rules) == normalize(ref, schemes=rules)


def test_equivalent_method_takes_every_option() -> None:
    ref = parse("http://a:80/")
    assert ref.equivalent("http://a/")
    assert not ref.equivalent("http://a/", scheme_based=False)
    assert parse("http://[::0:1]/").equivalent("http://[::1]/", ipv6_canonical=True)
    assert not parse("http://[::0:1]/").equivalent("http://[::1]/")
    assert parse("foo://a:7").equivalent("foo://a", schemes={"foo": SchemeRule(7)})


@given(from_rule("URI-reference"), st.booleans(), st.booleans())
def test_methods_agree_with_functions(text: str, scheme_based: bool, ipv6: bool) -> None:
    ref = parse(text)
    options = {"scheme_based": scheme_based, "ipv6_canonical": ipv6}
    assert ref.normalize(**options) == normalize(ref, **options)
    assert ref.equivalent(text, **options)


# --- One options value: Normalization ---------------------------------------------

_RULES = {"foo": SchemeRule(7, empty_path_is_root=True), "http": SchemeRule(8080)}
_FLAGS = {
    "scheme_based": st.booleans(),
    "ipv6_canonical": st.booleans(),
    "nfc": st.booleans(),
    "schemes": st.sampled_from([None, {}, _RULES]),
}
# Any subset of the keywords, each with any value: every combination of flags.
_flags = st.fixed_dictionaries({}, optional=_FLAGS)
# URIs, and IRIs (which nfc changes); bidi characters make no IRIReference.
_any_refs = st.one_of(
    _refs,
    from_rule("IRI-reference")
    .filter(lambda t: not any(c in BIDI_FORMATTING for c in t))
    .map(parse_iri),
)
_SAMPLES = [
    "HTTP://[::0:A]:80/./a/%7e",
    "foo://a:7",
    "http://a:8080",
    "http://a:/b/../c?%3f#x",
    "../a/./b",
]
_IRI_SAMPLES = ["http://A\u0301.de:80/e\u0301/\u1fef?\u212a#o\u0308", "foo://\u00e4:7"]


def test_normalization_defaults_are_documented() -> None:
    options = Normalization()
    assert options.scheme_based is True
    assert options.ipv6_canonical is False
    assert options.nfc is False
    assert options.schemes is None  # SCHEME_RULES, read at each call
    assert options == Normalization(
        scheme_based=True, ipv6_canonical=False, nfc=False, schemes=None
    )
    # The keyword spelling names exactly the fields, and the default form is
    # the one normalize gives with no options.
    names = [field.name for field in dataclasses.fields(Normalization)]
    assert sorted(NormalizationFlags.__annotations__) == sorted(names)
    for text in _SAMPLES:
        assert normalize(text, options) == normalize(text)


def test_normalization_is_exported() -> None:
    assert urigrammar.Normalization is Normalization
    assert "Normalization" in urigrammar.__all__


def test_normalization_is_immutable() -> None:
    options = Normalization(nfc=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.nfc = False  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        options.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        Normalization(True)  # type: ignore[misc]  # keywords only
    # A schemes dict is copied: changing it afterwards changes nothing, and
    # the copy is read-only.
    rules = {"foo": SchemeRule(7)}
    options = Normalization(schemes=rules)
    rules["foo"] = SchemeRule(8)
    rules["bar"] = SchemeRule(9)
    assert options.schemes == {"foo": SchemeRule(7)}
    assert str(normalize("foo://a:7", options)) == "foo://a"
    with pytest.raises(TypeError):
        options.schemes["foo"] = SchemeRule(8)  # type: ignore[index]
    # A variant is a new value.
    assert dataclasses.replace(options, nfc=True).nfc is True
    assert options.nfc is False


def test_normalization_is_hashable_by_value() -> None:
    a = Normalization(schemes={"foo": SchemeRule(7)}, ipv6_canonical=True)
    b = Normalization(ipv6_canonical=True, schemes={"foo": SchemeRule(7)})
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, Normalization(), Normalization()}) == 2
    assert {a: 1}[b] == 1
    assert Normalization(schemes={}) != Normalization()  # no rules, not the registry's
    assert Normalization(schemes=SCHEME_RULES).schemes == SCHEME_RULES
    for options in (a, Normalization(), Normalization(nfc=True, scheme_based=False)):
        copy = pickle.loads(pickle.dumps(options))
        assert copy == options
        assert hash(copy) == hash(options)


@given(_any_refs, _flags)
def test_options_value_means_what_the_flags_mean(ref: URIReference, flags: dict[str, Any]) -> None:
    options = Normalization(**flags)
    want = normalize(ref, **flags)
    assert normalize(ref, options) == want
    assert normalize(ref, options=options) == want
    assert ref.normalize(options) == want
    assert ref.normalize(**flags) == want
    assert equivalent(ref, want, options)
    assert ref.equivalent(want, options)
    assert equivalent(ref, want, **flags)


@given(_any_refs, _flags, _flags)
def test_flags_replace_the_fields_of_options(
    ref: URIReference, base: dict[str, Any], flags: dict[str, Any]
) -> None:
    options = Normalization(**base)
    want = normalize(ref, dataclasses.replace(options, **flags))
    assert normalize(ref, options, **flags) == want
    assert ref.normalize(options, **flags) == want


@pytest.mark.parametrize(
    ("scheme_based", "ipv6_canonical", "nfc", "schemes"),
    list(itertools.product([True, False], [True, False], [True, False], [None, {}, _RULES])),
)
def test_every_combination_of_flags(
    scheme_based: bool, ipv6_canonical: bool, nfc: bool, schemes: dict[str, SchemeRule] | None
) -> None:
    flags: dict[str, Any] = {
        "scheme_based": scheme_based,
        "ipv6_canonical": ipv6_canonical,
        "nfc": nfc,
        "schemes": schemes,
    }
    options = Normalization(**flags)
    refs = [parse(t) for t in _SAMPLES] + [parse_iri(t) for t in _IRI_SAMPLES]
    for ref in refs:
        assert normalize(ref, options) == normalize(ref, **flags)
        assert ref.normalize(options) == ref.normalize(**flags)
        for other in refs:
            assert equivalent(ref, other, options) is equivalent(ref, other, **flags)


def test_bad_options_raise_as_before() -> None:
    # An unknown keyword is the TypeError Python gives for one.
    message = "normalize() got an unexpected keyword argument 'bogus'"
    with pytest.raises(TypeError, match=re.escape(message)):
        normalize("http://a/", bogus=True)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="unexpected keyword argument 'cls'"):
        equivalent("http://a/", "http://a/", cls=URIReference)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"Reference\.normalize\(\) got an unexpected"):
        parse("http://a/").normalize(nfd=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"Reference\.equivalent\(\) got an unexpected"):
        parse("http://a/").equivalent("http://a/", strict=True)  # type: ignore[call-arg]
    # The options are no flag given by position.
    with pytest.raises(TypeError, match="takes a Normalization"):
        normalize("http://a/", False)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="takes a Normalization"):
        equivalent("http://a/", "http://a/", {"nfc": True})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Normalization(bogus=True)  # type: ignore[call-arg]
    with pytest.raises(URISyntaxError):
        normalize("http://a b/", Normalization(scheme_based=False))
