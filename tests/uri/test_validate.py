"""validate() and check(): every rule by its RFC name, IPv6/IPv4 tables and
an independent oracle (Python's ipaddress)."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from urigrammar.strategies import from_rule

APPENDIX_A = [
    "URI", "hier-part", "URI-reference", "absolute-URI", "relative-ref", "relative-part",
    "scheme", "authority", "userinfo", "host", "port", "IP-literal", "IPvFuture",
    "IPv6address", "h16", "ls32", "IPv4address", "dec-octet", "reg-name", "path",
    "path-abempty", "path-absolute", "path-noscheme", "path-rootless", "path-empty",
    "segment", "segment-nz", "segment-nz-nc", "pchar", "query", "fragment", "pct-encoded",
    "unreserved", "reserved", "gen-delims", "sub-delims",
]  # fmt: skip


def test_rule_names_are_appendix_a_in_order() -> None:
    assert list(u.RULE_NAMES[: len(APPENDIX_A)]) == APPENDIX_A
    assert {"ALPHA", "DIGIT", "HEXDIG"} <= set(u.RULE_NAMES)


@pytest.mark.parametrize("rule", APPENDIX_A)
@pytest.mark.parametrize("method", ["automata", "abnf"])
@backend_settings(max_examples=examples(5))
@given(data=st.data())
def test_every_rule_validates_by_name(
    on: On, rule: str, method: u.Method, data: st.DataObject
) -> None:
    sample = data.draw(from_rule(rule))
    assert on.validate(rule, sample, method=method)
    assert on.validate(rule.upper(), sample, method=method)  # RFC 5234 2.1
    assert not on.validate(rule, sample + "\x00", method=method)


@pytest.mark.parametrize(
    ("rule", "good", "bad"),
    [
        ("dec-octet", ["0", "9", "10", "99", "100", "199", "200", "249", "250", "255"],
         ["256", "01", "00", "1000", "", "-1"]),
        ("pct-encoded", ["%00", "%ff", "%Aa"], ["%", "%0", "%0g", "%%00"]),
        ("scheme", ["a", "a+b-c.d", "H2"], ["", "1a", "+a", "a_b"]),
        ("port", ["", "0", "65536", "0080"], ["a", "-1", " 80"]),
        ("path-empty", [""], ["a", "/"]),
        ("path-abempty", ["", "/", "//", "/a/b/"], ["a", "a/"]),
        ("path-absolute", ["/", "/a", "/a//b"], ["//", "//a", "a", ""]),
        ("path-noscheme", ["a", "a/b:c", "@"], ["a:b", "/a", ""]),
        ("path-rootless", ["a:b", "a/", ":"], ["/a", ""]),
        ("IPvFuture", ["v1.a", "V1F.:!", "vff.~"], ["v.a", "v1.", "v1a", "vg.a", "v1.%20"]),
        ("IP-literal", ["[::]", "[v1.x]"], ["::", "[1.2.3.4]", "[]"]),
        ("ALPHA", ["a", "Z"], ["1", "", "ab", "\u00e9"]),
        ("DIGIT", ["0", "9"], ["a", "00"]),
        ("HEXDIG", ["0", "a", "F"], ["g", "ff"]),
        ("CRLF", ["\r\n"], ["\n", "\r"]),
        ("unreserved", ["a", "-", ".", "_", "~"], ["!", "%", " "]),
        ("reserved", [":", "[", "=", "!"], ["a", "~", "%"]),
    ],
)  # fmt: skip
def test_rule_table(on: On, rule: str, good: list[str], bad: list[str]) -> None:
    for text in good:
        assert on.validate(rule, text), text
        assert on.validate(rule, text, method="abnf"), text
    for text in bad:
        assert not on.validate(rule, text), text
        assert not on.validate(rule, text, method="abnf"), text


# RFC 3986 section 3.2.2, IPv6address: the nine forms and their edges.
IPV6_VALID = [
    "1:2:3:4:5:6:7:8",  # 6( h16 ":" ) ls32
    "1:2:3:4:5:6:1.2.3.4",  # ... with ls32 an IPv4address
    "::2:3:4:5:6:7:8",  # "::" 5( h16 ":" ) ls32
    "1::3:4:5:6:7:8",  # [ h16 ] "::" 4( h16 ":" ) ls32
    "::3:4:5:6:7:8",
    "1:2::4:5:6:7:8",  # [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
    "1:2:3::5:6:7:8",  # [ *2 ... ] "::" 2( h16 ":" ) ls32
    "1:2:3:4::6:7:8",  # [ *3 ... ] "::" h16 ":" ls32
    "1:2:3:4:5::7:8",  # [ *4 ... ] "::" ls32
    "1:2:3:4:5::1.2.3.4",
    "1:2:3:4:5:6::8",  # [ *5 ... ] "::" h16
    "1:2:3:4:5:6:7::",  # [ *6 ... ] "::"  (seven groups plus ::)
    "::",  # :: alone
    "::1",
    "1::",
    "::ffff:1.2.3.4",
    "fe80::1",
    "FFFF:ffff::AbCd",
    "0000:0000:0000:0000:0000:0000:0000:0000",
]
IPV6_INVALID = [
    "1:2:3:4:5:6:7",  # seven groups, no ::
    "1:2:3:4:5:6:7:8:9",  # nine groups
    "1:2:3:4:5:6:7:8::",  # eight groups plus ::
    "::1:2:3:4:5:6:7:8",
    ":::",  # a triple colon
    "1:::2",
    "1::2::3",  # two ::
    "12345::",  # five hex digits
    "::12345",
    "1:2:3:4:5:6:7:1.2.3.4",  # ls32 too long
    "::1.2.3",
    "::1.2.3.4.5",
    ":1::",
    "1:",
    "",
    "fe80::1%25en0",  # a zone: not RFC 3986 (RFC 6874 adds it)
    "g::",
]


@pytest.mark.parametrize("text", IPV6_VALID)
def test_ipv6_valid(on: On, text: str) -> None:
    assert on.validate("IPv6address", text)
    assert on.validate("IPv6address", text, method="abnf")
    ipaddress.IPv6Address(text)  # the oracle agrees


@pytest.mark.parametrize("text", IPV6_INVALID)
def test_ipv6_invalid(on: On, text: str) -> None:
    assert not on.validate("IPv6address", text)
    assert not on.validate("IPv6address", text, method="abnf")


OCTET_EDGES = ["0", "9", "10", "99", "100", "199", "200", "249", "250", "255", "256", "01"]


@pytest.mark.parametrize("octet", OCTET_EDGES)
@pytest.mark.parametrize("where", [0, 3])
def test_ipv6_embedded_ipv4_octets(on: On, octet: str, where: int) -> None:
    parts = ["1", "2", "3", "4"]
    parts[where] = octet
    text = "::ffff:" + ".".join(parts)
    valid = octet not in ("256", "01")
    assert on.validate("IPv6address", text) is valid
    assert on.validate("IPv4address", ".".join(parts)) is valid


def _ipaddress_accepts(cls: type[ipaddress._BaseAddress], text: str) -> bool:
    try:
        cls(text)
    except ValueError:
        return False
    return True


def _ipv6_texts() -> st.SearchStrategy[str]:
    """Real addresses in each text form, plus near-misses."""
    address = st.integers(0, 2**128 - 1).map(ipaddress.IPv6Address)
    forms = st.one_of(
        address.map(str),
        address.map(lambda a: a.exploded),
        address.map(lambda a: a.exploded.upper()),
        st.builds(
            lambda a, v4: str(a).rsplit(":", 2)[0] + ":" + str(ipaddress.IPv4Address(v4)),
            address,
            st.integers(0, 2**32 - 1),
        ),
    )
    noise = st.text(alphabet="0123456789abcdefABCDEFg:.", max_size=45)

    def mutate(data: st.DataObject, text: str) -> str:
        if not text:
            return text
        i = data.draw(st.integers(0, len(text) - 1))
        c = data.draw(st.sampled_from(":.0fgF9"))
        how = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        if how == "insert":
            return text[:i] + c + text[i:]
        if how == "delete":
            return text[:i] + text[i + 1 :]
        return text[:i] + c + text[i + 1 :]

    mutated = st.builds(mutate, st.data(), forms)
    return st.one_of(forms, mutated, noise, from_rule("IPv6address"))


@backend_settings(max_examples=examples(50))
@given(_ipv6_texts())
@example("::ffff:1.2.3.4")
@example("1::2:3:4:5:6:7")
def test_ipv6_agrees_with_ipaddress(on: On, text: str) -> None:
    # ipaddress also accepts "%zone" suffixes (RFC 4007); RFC 3986 has no
    # zones, so strings with "%" are left out of the comparison.
    assume("%" not in text)
    assert on.validate("IPv6address", text) == _ipaddress_accepts(ipaddress.IPv6Address, text)


def _ipv4_texts() -> st.SearchStrategy[str]:
    octet = st.one_of(st.integers(0, 300).map(str), st.sampled_from(["01", "00", "001", ""]))
    dotted = st.lists(octet, min_size=3, max_size=5).map(".".join)
    return st.one_of(dotted, st.text(alphabet="0123456789.", max_size=16))


@backend_settings(max_examples=examples(50))
@given(_ipv4_texts())
def test_ipv4_agrees_with_ipaddress(on: On, text: str) -> None:
    assert on.validate("IPv4address", text) == _ipaddress_accepts(ipaddress.IPv4Address, text)


def test_unknown_rule_suggests_close_names(on: On) -> None:
    with pytest.raises(u.UnknownRuleError) as info:
        on.validate("IPv6adress", "::")
    assert isinstance(info.value, LookupError)
    assert isinstance(info.value, u.UrigrammarError)
    assert isinstance(info.value, ValueError)
    assert "IPv6address" in str(info.value)


def test_unknown_rule_without_close_names(on: On) -> None:
    with pytest.raises(u.UnknownRuleError, match=r"unknown rule 'zzzzzz'$"):
        on.check("zzzzzz", "")


def test_no_rule_is_created_by_a_lookup(on: On) -> None:
    # abnf's Rule("name") registers an empty rule; urigrammar must not.
    with pytest.raises(u.UnknownRuleError):
        on.validate("not-a-rule", "")
    assert "not-a-rule" not in u.RULE_NAMES
    with pytest.raises(u.UnknownRuleError):
        on.validate("not-a-rule", "")


@pytest.mark.parametrize("value", [b"http://a", None, 1, ["a"]])
def test_non_str_text_is_a_type_error(on: On, value: object) -> None:
    with pytest.raises(TypeError):
        on.validate("URI", value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        on.parse(value)  # type: ignore[arg-type]


def test_non_str_rule_is_a_type_error(on: On) -> None:
    with pytest.raises(TypeError):
        on.validate(None, "a")  # type: ignore[arg-type]


def test_bad_method_name(on: On) -> None:
    with pytest.raises(u.URIError, match="method"):
        on.validate("URI", "a:b", method="fast")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rule", "text", "offset"),
    [
        ("URI", "http://[fe80::1%25en0]/", 15),
        ("URI", "1http://a", 0),
        ("URI", "", 0),
        ("URI", "http", 4),  # a viable prefix that ends too soon
        ("IPv4address", "1.2.3.256", 8),
        ("IPv4address", "1.2.3.25a", 8),
        ("IPv6address", "1::2::3", 5),  # "1::2:" may go on as "1::2:3"
        ("IPv6address", "12345::", 4),
        ("dec-octet", "256", 2),
        ("pct-encoded", "%4g", 2),
        ("query", "a=b#c", 3),
        ("segment-nz-nc", "ab:c", 2),
    ],
)
def test_check_offset(on: On, rule: str, text: str, offset: int) -> None:
    with pytest.raises(u.URISyntaxError) as info:
        on.check(rule, text)
    error = info.value
    assert (error.rule, error.text, error.offset) == (rule, text, offset)
    lines = str(error).splitlines()
    assert rule in lines[0]
    assert f"offset {offset}" in lines[0]
    assert lines[2].index("^") - 2 == offset  # caret under the offset


def test_check_passes_valid_text(on: On) -> None:
    assert on.check("URI", "http://a") is None


@backend_settings(max_examples=examples(50))
@given(from_rule("URI-reference"), st.data())
def test_offset_is_at_least_the_intact_prefix(on: On, valid: str, data: st.DataObject) -> None:
    """Damage a valid reference at position i: everything before i is still a
    prefix of a valid string, so the reported offset cannot be smaller."""
    i = data.draw(st.integers(0, len(valid)))
    bad = data.draw(st.sampled_from([" ", "<", '"', "\\", "^", "`", "{", "|", "}", "\u00e9"]))
    text = valid[:i] + bad + valid[i:]
    with pytest.raises(u.URISyntaxError) as info:
        on.check("URI-reference", text)
    assert info.value.offset == i  # none of those characters is ever allowed


def test_rule_names_are_ascii(on: On) -> None:
    # "\u017f" (long s) casefolds to "s"; RFC 5234 rule names are ASCII.
    with pytest.raises(u.UnknownRuleError):
        on.validate("\u017fcheme", "a")
