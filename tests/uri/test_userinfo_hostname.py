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
