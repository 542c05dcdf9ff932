"""``mask_password``: a userinfo's password written as ``****``, the rest
of the text as it was, so a masked URI or IRI parses to the same parts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import urigrammar as u
from _budget import examples
from urigrammar.strategies import from_rule

PARTS = ("scheme", "host", "port", "path", "query", "fragment")


@given(from_rule("URI-reference"))
@settings(max_examples=examples(100), deadline=None)
def test_a_masked_uri_parses_to_the_same_parts_but_the_password(text: str) -> None:
    ref = u.parse(text)
    masked = u.mask_password(text)
    again = u.parse(masked)
    assert [getattr(again, p) for p in PARTS] == [getattr(ref, p) for p in PARTS]
    userinfo = ref.userinfo
    if userinfo is None or not userinfo.partition(":")[2]:  # no password
        assert masked == text
    else:
        user = userinfo.partition(":")[0]
        assert again.userinfo == f"{user}:****"
        assert u.mask_password(userinfo, "userinfo") == again.userinfo
        assert u.mask_password(ref.authority or "", "authority") == again.authority
    assert u.mask_password(masked) == masked


@given(from_rule("IRI-reference"))
@settings(max_examples=examples(100), deadline=None)
def test_a_masked_iri_parses_to_the_same_parts(text: str) -> None:
    try:
        ref = u.parse_iri(text)
    except u.URISyntaxError:  # a bidi formatting character: no IRI to parse
        return
    again = u.parse_iri(u.mask_password(text))
    assert [getattr(again, p) for p in PARTS] == [getattr(ref, p) for p in PARTS]


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("https://admin:S3cret@example.com/", "https://admin:****@example.com/"),
        ("//a:b:c@h", "//a:****@h"),  # the password is what follows the first ":"
        ("http://u:@h/", "http://u:@h/"),  # an empty one hides nothing
        ("http://u@h/", "http://u@h/"),
        ("http://h:80/x@y", "http://h:80/x@y"),  # a port, and an "@" in the path
        ("http://u:p/ss@h/", "http://u:****@h/"),  # invalid: found as errors find it
        ("mailto:a:b@example.com", "mailto:a:b@example.com"),  # no authority
    ],
)
def test_mask_password_examples(text: str, masked: str) -> None:
    assert u.mask_password(text) == masked


def test_mask_password_reads_rule_names_in_any_case() -> None:
    assert u.mask_password("a:b", "USERINFO") == u.mask_password("a:b", "userinfo") == "a:****"
    assert u.mask_password("a:b@h", "IAuthority") == "a:****@h"


def test_mask_password_takes_only_str() -> None:
    with pytest.raises(TypeError):
        u.mask_password(b"http://u:p@h/")  # type: ignore[arg-type]
