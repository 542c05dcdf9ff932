"""The ``http`` and ``https`` profiles (RFC 9110 section 4.2): every example
http(s) URI of RFC 9110 as a vector (``tests/vectors/schemes/rfc9110.json``),
the section 4.3.1 origins and section 4.2.3 equivalences, the profile
against ``abnf``'s reading of the same grammar, and the fields against
RFC 3986's parse."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from _languages import agree, damaged
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

import urigrammar
from urigrammar import SCHEMES, Profile, URISyntaxError, parse_scheme, validate
from urigrammar.engine import Backend, Grammar
from urigrammar.schemes import HttpValue
from urigrammar.schemes._http import http_profile
from urigrammar.shipped import RFC3986, grammar_text
from urigrammar.strategies import from_rule

VECTORS = vectors("rfc9110.json")
VALID = VECTORS["valid"]
HTTP = SCHEMES["http"]
HTTPS = SCHEMES["https"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_an_http_uri(row: dict[str, Any], backend: Backend) -> None:
    profile = SCHEMES[row["text"].partition(":")[0]]
    assert profile.validate(row["text"], backend=backend)
    value = profile.parse(row["text"], backend=backend)
    assert isinstance(value, HttpValue)
    assert str(value) == row["text"]
    for name, expected in row.get("fields", {}).items():
        assert getattr(value, name) == expected, name
    if "origin" in row:
        assert value.origin == tuple(row["origin"])


def test_section_4_2_3_equivalent_uris_normalize_alike() -> None:
    groups: dict[str, list[str]] = {}
    for row in VALID:
        if "same_as" in row:
            groups.setdefault(row["same_as"], []).append(row["text"])
    assert len(groups) == 1
    for first, texts in groups.items():
        assert len(texts) == 3
        forms = {str(urigrammar.normalize(text)) for text in texts}
        assert forms == {"http://example.com/~smith/home.html"}, first
        origins = {parse_scheme(text).origin for text in texts}  # type: ignore[attr-defined]
        assert origins == {("http", "example.com", 80)}


def test_section_4_3_3_another_port_is_another_origin() -> None:
    one = parse_scheme("https://example.com/foo")
    other = parse_scheme("https://example.com:8000/foo")
    assert isinstance(one, HttpValue)
    assert isinstance(other, HttpValue)
    assert one.origin != other.origin
    assert str(one.origin) == "https://example.com"
    assert parse_scheme("http://example.com/").origin != one.origin  # section 4.2.2


def test_default_ports_sections_4_2_1_and_4_2_2() -> None:
    # "If the port subcomponent is empty or not given, TCP port 80 ... is
    # the default" (443 for https).
    for text, port in [
        ("http://h", 80),
        ("http://h:", 80),
        ("http://h:8080", 8080),
        ("https://h", 443),
        ("HTTPS://h:/", 443),
        ("https://h:0080", 80),
    ]:
        value = parse_scheme(text)
        assert isinstance(value, HttpValue)
        assert value.port == port, text


def test_userinfo_is_refused_by_default_and_read_where_allowed() -> None:
    text = "https://user:secret@example.com/"
    assert not HTTPS.validate(text)
    with pytest.raises(URISyntaxError) as raised:
        HTTPS.check(text)
    assert "secret" not in str(raised.value)  # the password stays hidden
    trusted = http_profile("https", userinfo=True)
    value = trusted.parse(text)
    assert value.userinfo == "user:secret"
    assert value.host == "example.com"
    assert "secret" not in repr(value)


def test_an_empty_host_only_where_the_caller_asks() -> None:
    assert not HTTP.validate("http:///a")
    lenient = http_profile("http", host_required=False)
    assert lenient.validate("http:///a")
    assert lenient.parse("http:///a").host == ""
    assert not lenient.validate("http:/a")  # still an http-URI: "//" authority
    with pytest.raises(ValueError, match="http and https"):
        http_profile("ftp")


def test_values_pickle_and_stay_immutable() -> None:
    value = parse_scheme("http://example.com/a?b#c")
    again = pickle.loads(pickle.dumps(value))
    assert again == value
    assert again.fragment == "c"
    with pytest.raises(AttributeError):
        value.host = "other"  # type: ignore[misc]


def test_no_str_is_refused_with_a_type_error() -> None:
    for profile in (HTTP, HTTPS):
        with pytest.raises(TypeError):
            profile.validate(b"http://x")  # type: ignore[arg-type]


def test_a_giant_port_is_refused_where_it_starts() -> None:
    # Compared by its digits: 5,000 of them never become an int.
    with pytest.raises(urigrammar.URISyntaxError) as caught:
        parse_scheme("http://h:" + "9" * 5000 + "/")
    assert (caught.value.rule, caught.value.offset) == ("port", 9)


@pytest.mark.parametrize("scheme", ["http", "https", "ws", "wss"])
@pytest.mark.parametrize(
    ("port", "valid"),
    [
        ("65535", True),
        ("065535", True),
        ("0", True),
        ("", True),
        ("00000000000080", True),
        ("65536", False),
        ("65540", False),
        ("65600", False),
        ("66000", False),
        ("70000", False),
        ("99999", False),
        ("100000", False),
        ("0065536", False),
    ],
)
def test_the_port_is_a_tcp_port(backend: Backend, scheme: str, port: str, valid: bool) -> None:
    # RFC 9110 section 4.2.1 and RFC 6455 section 3 name a TCP port, of 16
    # bits (RFC 9293 section 3.1): the DFA (with its language of ports
    # past 65535) and the parse (the requirement's own reading) agree.
    profile = urigrammar.SCHEMES[scheme]
    for host in ("h.example", "[::1]", "192.0.2.1"):
        text = f"{scheme}://{host}:{port}/p?q"
        assert profile.validate(text) is valid, text
        if valid:
            assert profile.parse(text).port == int(
                port or urigrammar.SCHEME_RULES[scheme].default_port
            )
        else:
            with pytest.raises(urigrammar.URISyntaxError) as caught:
                profile.check(text)
            assert caught.value.offset == len(f"{scheme}://{host}:")


# --- against independent readings -------------------------------------------


def _abnf_oracle() -> Grammar:
    """RFC 9110's rules read by ``abnf``, with its prose rules left out so
    that they come from RFC 3986 (``abnf`` cannot read prose)."""
    lines = [
        line
        for line in grammar_text("rfc9110.abnf").splitlines()
        if "<" not in line and not line.startswith(";")
    ]
    return urigrammar.load_grammar("\n".join(lines) + "\n", imports=[RFC3986])


ORACLE = _abnf_oracle()

PIECES = st.sampled_from(
    ["http", "https", "HTTP", "ftp", ":", "//", "/", "@", "user", ":pw", "?", "#", "%41", "%4",
     "example.com", "[::1]", "[v1.x]", "127.0.0.1", ":80", ":", "a", "-", "~", " ", "[", "é"]
)  # fmt: skip
TEXTS = st.lists(PIECES, max_size=10).map("".join)
LIKELY = st.builds(
    lambda s, a, p, q, f: f"{s}://{a}{p}{q}{f}",
    st.sampled_from(["http", "https", "HTTP", "hTtPs"]),
    st.sampled_from(["", "example.com", "u@h", "h:", "h:80", ":80", "[::1]:1", "%7E"]),
    st.sampled_from(["", "/", "/a/b", "//x", "/%7e"]),
    st.sampled_from(["", "?", "?q=1", "?/?"]),
    st.sampled_from(["", "#", "#f", "#f#g"]),
)


def _expected(scheme: str, text: str) -> bool:
    """Section 4.2's verdict, by RFC 3986's URI (the stdlib-free abnf
    reading of http-URI on the text before the fragment, section 4.2.5),
    a host that is not empty (4.2.1, 4.2.2) and no userinfo (4.2.4)."""
    if not validate("URI", text):
        return False
    head = text.partition("#")[0]
    rule = "http-URI" if scheme == "http" else "https-URI"
    if ORACLE.abnf_parse(rule, head) is None:
        return False
    reference = urigrammar.parse(text)
    return bool(reference.host) and reference.userinfo is None


@given(st.one_of(TEXTS, LIKELY))
def test_the_verdict_is_rfc_3986_the_rule_and_the_requirements(text: str) -> None:
    for scheme, profile in (("http", HTTP), ("https", HTTPS)):
        expected = _expected(scheme, text)
        assert profile.validate(text) is expected, scheme
        # The fast verdict agrees with the profile's parse-based one.
        assert Profile.validate(profile, text) is expected, scheme


@given(st.one_of(TEXTS, LIKELY))
def test_the_fields_are_rfc_3986s(text: str) -> None:
    scheme = text.partition(":")[0].lower()
    if scheme not in ("http", "https") or not SCHEMES[scheme].validate(text):
        return
    value = SCHEMES[scheme].parse(text)
    assert isinstance(value, HttpValue)
    reference = urigrammar.parse(text)
    assert value.host == reference.host
    assert value.port == (
        HttpValue.DEFAULT_PORTS[scheme] if reference.port is None else reference.port
    )
    assert value.path == reference.path
    assert value.query == reference.query
    assert value.fragment == reference.fragment
    assert value.origin == reference.origin


def _abnf_ships(rule: str, text: str) -> bool:
    """``abnf``'s own transcription of RFC 9110 (``abnf.grammars.rfc9110``)."""
    from abnf.grammars import rfc9110
    from abnf.parser import ParseError

    try:
        rfc9110.Rule(rule).parse_all(text)
    except ParseError:
        return False
    return True


@given(st.one_of(TEXTS, LIKELY), st.sampled_from(["http-URI", "https-URI"]))
def test_the_grammar_file_reads_as_abnfs_own_transcription(text: str, rule: str) -> None:
    from urigrammar.shipped import RFC9110

    assert RFC9110.validate(rule, text) is _abnf_ships(rule, text)


@given(damaged(st.one_of(LIKELY, from_rule("URI", RFC3986)), ":/@?#[]%.h1"))
def test_the_requirement_languages_are_the_requirements(text: str) -> None:
    # grammar/rfc9110-requirements.abnf says what each predicate says, for
    # every URI; the native one-DFA verdict is the pure one, for every
    # variant of profile.
    for profile in (
        HTTP,
        HTTPS,
        http_profile("http", userinfo=True),
        http_profile("https", host_required=False),
    ):
        agree(profile, text)
