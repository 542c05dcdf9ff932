"""A ``str`` subclass is read by the characters it holds by templates: as
the template's text, as the URI ``match`` reads, and as a value
``expand`` writes.  A subclass whose ``__len__``, ``__getitem__`` and
``__iter__`` (or methods) say it holds another text gets the answer its
characters get, and a template keeps an exact ``str``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import urigrammar as u
from _liars import lying, outcome

FAKE = "http://evil.example/{+path}{?q,r}"

TEMPLATES = ["http://example.com/{x}/{y}", "{/segments*}{?q}", "{+base}{#frag}", "x{"]
URIS = ["http://example.com/a/b", "http://example.com/%C3%A9/1", "/a/b?q=1", "http://other/"]
VALUES = ["a b", "é/ü", "", "%41"]

ENTRIES: dict[str, tuple[list[str], Callable[[str], object]]] = {
    "template": (TEMPLATES, lambda text: (str(u.URITemplate(text)), u.URITemplate(text).variables)),
    "match": (URIS, lambda text: u.URITemplate("http://example.com/{x}/{y}").match(text)),
    "match-ambiguous": (URIS, lambda text: u.URITemplate("{+a}/{b}{?q}").match(text)),
    "expand": (VALUES, lambda text: u.URITemplate("/{x}{?y}{#z}").expand(x=text, y=text, z=text)),
}


@pytest.mark.parametrize("methods", [False, True], ids=["len-item-iter", "and-methods"])
@pytest.mark.parametrize("entry", ENTRIES)
def test_a_lying_str_subclass_is_read_as_the_characters_it_holds(entry: str, methods: bool) -> None:
    texts, call = ENTRIES[entry]
    for text in texts:
        liar = lying(text, FAKE, methods=methods)
        assert outcome(call, liar) == outcome(call, text), text


def test_a_template_keeps_an_exact_str() -> None:
    template = u.URITemplate(lying("/{x}", FAKE))
    assert type(str(template)) is str
    assert str(template) == "/{x}"
