"""``lint``: each code on a text that has it and on one that has not, the
offsets of what it points at, no password in any message; and against
``normalize`` (RFC 3986 section 6, written apart from ``lint``): a
reference has none of the findings that normalization removes exactly
when it is its own normal form.  The ``lint`` command:
cli/test_cli_lint.py."""

from __future__ import annotations

import pytest
from hypothesis import assume, given

import urigrammar as u
from _backends import On
from _budget import backend_settings
from urigrammar.strategies import from_rule, uri_references

#: Each code: a text that has it (and where: offset, length) and a text
#: that is the same but for the advice taken.
CASES = {
    "scheme-case": ("HTTP://a/", (0, 4), "http://a/"),
    "host-case": ("http://Example.com/", (7, 11), "http://example.com/"),
    "percent-encoding-case": ("http://a/%3a", (9, 3), "http://a/%3A"),
    "percent-encoded-unreserved": ("http://a/%41", (9, 3), "http://a/A"),
    "empty-port": ("http://a:/", (8, 1), "http://a/"),
    "default-port": ("https://a:443/", (9, 4), "https://a/"),
    "dot-segments": ("http://a/b/../c", (11, 2), "http://a/c"),
    "password": ("ftp://u:secret@a/", (8, 6), "ftp://u@a/"),
    "dns-label-length": ("http://" + "a" * 64 + ".example/", (7, 64), "http://a.example/"),
    "dns-name-length": ("http://" + "a." * 128 + "example/", (7, 263), "http://a.example/"),
    "ipv6-text-form": ("http://[0:0::1]/", (7, 8), "http://[::1]/"),
    "not-nfc": ("http://a/e\u0301", (9, 2), "http://a/\u00e9"),
    "http-userinfo": ("https://u@a/", (8, 2), "https://a/"),
    "http-empty-host": ("http:///a", (7, 0), "http://a/a"),
    "empty-path": ("wss://a?x", (7, 0), "wss://a/?x"),
}

#: The codes whose advice normalization takes (with ``ipv6_canonical``).
NORMALIZED = {
    "scheme-case",
    "host-case",
    "percent-encoding-case",
    "percent-encoded-unreserved",
    "empty-port",
    "default-port",
    "dot-segments",
    "ipv6-text-form",
    "empty-path",
}


def test_every_code_has_a_case() -> None:
    assert set(CASES) == set(u.LINT_CODES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_where_it_is_and_where_it_is_not(code: str) -> None:
    text, (offset, length), fixed = CASES[code]
    found = [f for f in u.lint(text) if f.code == code]
    assert [(f.offset, f.length) for f in found] == [(offset, length)]
    severity, section = u.LINT_CODES[code]
    assert (found[0].severity, found[0].section) == (severity, section)
    assert code not in {f.code for f in u.lint(fixed)}


def test_dot_segments_may_start_a_relative_path() -> None:
    assert not u.lint("../../a/b")
    assert [f.offset for f in u.lint("./a/../b")] == [4]
    assert [f.code for f in u.lint("/a/./b")] == ["dot-segments"]
    # Without an authority, "/.//" is how a path that starts "//" is written.
    assert not u.lint("x:/.//a")
    assert [f.offset for f in u.lint("x:/.//./a")] == [6]


def test_an_empty_path_is_advice_where_the_scheme_says_so() -> None:
    for scheme in ("http", "https", "ws", "wss", "ftp"):
        assert [f.code for f in u.lint(f"{scheme}://a")] == ["empty-path"]
    assert not u.lint("foo://a")


def test_no_message_quotes_the_userinfo() -> None:
    text = "ftp://user:%71%7A%6b%6a%c3%a9@a/"  # the password "qzkjé"
    findings = u.lint(text)
    assert {f.code for f in findings} >= {"percent-encoded-unreserved", "percent-encoding-case"}
    for finding in findings:
        # Neither the decoded password, nor a character of it, nor its hex.
        assert "qzkj" not in finding.message
        assert "%" not in finding.message
        assert not finding.message.endswith((" q", " z", " k", " j", "\u00e9"))


def test_a_long_non_ascii_label_is_counted_without_encoding_it() -> None:
    label = "".join(chr(0x4E00 + i % 20000) for i in range(100_000))
    findings = u.lint(f"http://{label}.com/")
    assert [f.code for f in findings] == ["dns-label-length", "dns-name-length"]
    assert [f.code for f in u.lint("http://" + "ä" * 59 + ".com/")] == ["dns-label-length"]
    assert not u.lint("http://" + "ä" * 40 + ".com/")


def test_ipv4_hosts_and_ascii_iris_take_no_case_advice() -> None:
    assert not u.lint("http://192.0.2.1/")
    assert not u.lint("http://bücher.example/ä")
    assert [f.code for f in u.lint("http://Bücher.example/")] == ["host-case"]
    assert not u.lint("http://b%C3%BCcher.example/")


def test_the_findings_come_in_the_texts_order() -> None:
    offsets = [f.offset for f in u.lint("HTTP://u:p@Example.com:80/a/./%7e")]
    assert offsets == sorted(offsets)
    assert len(offsets) == 8


def test_a_text_that_is_no_reference_is_a_syntax_error() -> None:
    with pytest.raises(u.URISyntaxError) as caught:
        u.lint("http://u:secret@a b/")
    assert "secret" not in str(caught.value)
    with pytest.raises(TypeError):
        u.lint(3)  # type: ignore[arg-type]


_texts = uri_references()
_iri_texts = from_rule("IRI-reference").filter(lambda t: not any(c in u.BIDI_FORMATTING for c in t))


@backend_settings()
@given(text=_iri_texts)
def test_findings_point_inside_the_text_and_never_at_a_password(on: On, text: str) -> None:
    ref = on.parse(text) if u.validate("URI-reference", text) else on.parse_iri(text)
    findings = u.lint(ref)
    assert findings == u.lint(text)
    password = (ref.userinfo or "").partition(":")[2]
    for finding in findings:
        assert 0 <= finding.offset <= finding.offset + finding.length <= len(text)
        assert finding.code in u.LINT_CODES
        if len(password) > 3:
            assert password not in finding.message


@backend_settings()
@given(text=_texts)
def test_no_normalization_advice_exactly_when_normal(on: On, text: str) -> None:
    ref = on.parse(text)
    # Section 5.2.1: a relative path keeps its dot segments, which depend on
    # the base; a port's leading zeros are no advice of the RFC's.
    assume(ref.scheme is not None or ref.host is not None or ref.path.startswith("/"))
    assume(not (ref.port_text or "").startswith("0"))
    normal = u.normalize(ref, ipv6_canonical=True)
    advice = {f.code for f in u.lint(ref)} & NORMALIZED
    assert not ({f.code for f in u.lint(normal)} & NORMALIZED)
    assert (not advice) == (str(normal) == text)
