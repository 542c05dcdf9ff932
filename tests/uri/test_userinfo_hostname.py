"""The decoded views of the authority: ``user`` and ``password`` (the
userinfo split at its first ":", its password deprecated by RFC 3986
section 3.2.1) and ``hostname`` (the host, decoded, without brackets)."""

from __future__ import annotations

import pytest

import urigrammar as u


@pytest.mark.parametrize(
    ("text", "user", "password", "hostname"),
    [
        ("http://us%65r:p%40ss:x@h/", "user", "p@ss:x", "h"),
        ("http://user@h/", "user", None, "h"),
        ("http://:@h/", "", "", "h"),
        ("http://h/", None, None, "h"),
        ("http://[::1]/", None, None, "::1"),
        ("http://[v1.x]/", None, None, "v1.x"),
        ("http://1.2.3.4/", None, None, "1.2.3.4"),
        ("http://b%C3%BCcher.example/", None, None, "bücher.example"),
        ("http://xn--bcher-kva.example/", None, None, "xn--bcher-kva.example"),
        ("mailto:a@b", None, None, None),
    ],
)
def test_views(text: str, user: str | None, password: str | None, hostname: str | None) -> None:
    ref = u.parse(text)
    assert (ref.user, ref.password, ref.hostname) == (user, password, hostname)


def test_password_docstring_carries_the_warning() -> None:
    doc = u.URIReference.password.__doc__ or ""
    assert "3.2.1" in doc
    assert "deprecated" in doc


@pytest.mark.parametrize(
    "escape", ["%40", "%2F", "%2f", "%3A", "%3a", "%3F", "%23", "%5B", "%5C", "%5c", "%5D"]
)
def test_a_host_that_decodes_to_a_delimiter_has_no_hostname(escape: str) -> None:
    # "evil.com%40good.com" decoded reads "evil.com@good.com", which ends
    # with "good.com"; no client reaches that name (the URL Standard's
    # forbidden host code points), so hostname says so where it starts.
    ref = u.parse(f"http://evil.com{escape}good.com/")
    with pytest.raises(u.URIError) as caught:
        _ = ref.hostname
    assert (caught.value.rule, caught.value.offset) == ("reg-name", len("evil.com"))
    assert ref.host == f"evil.com{escape}good.com"  # the host as written stays readable


@pytest.mark.parametrize("escape", ["%2E", "%41", "%2D", "%C3%BC", "%21", "%25"])
def test_other_escapes_decode(escape: str) -> None:
    decoded = u.percent_decode(escape)
    assert u.parse(f"http://a{escape}b/").hostname == f"a{decoded}b"
