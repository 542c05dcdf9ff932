"""A ``str`` subclass is read by the characters it holds by every scheme
profile, on each back end: ``validate``, ``check``, ``parse`` and
``parse_scheme`` answer a subclass whose ``__len__``, ``__getitem__`` and
``__iter__`` (or methods) say it holds another text as they answer its
characters.  The requirements read the text in Python beside the DFAs,
which read it in C: both must read the same one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from _liars import lying, outcome
from urigrammar import SCHEMES, parse_scheme
from urigrammar.engine import Backend

TEXTS = {
    "acct": ["acct:someone@example.com", "acct:@x"],
    "data": ["data:,A%20b", "data:text/plain;base64,SGk=", "data:x"],
    "did": ["did:example:123", "did:x"],
    "file": ["file:///c:/path", "file://host/p", "file:a b"],
    "geo": ["geo:13.4,52.5;u=10", "geo:91,0"],
    "http": ["http://example.com/a?b#c", "http://user:pw@example.com/", "http:///x"],
    "https": ["https://example.com:443/", "https://#"],
    "mailto": ["mailto:a@b.example?subject=hi", "mailto:a@b@c"],
    "ni": ["ni:///sha-256;UyaQV-Ev4rdLoHyJJWCi11OHfrYv9E1aGQAlMO2X_-Q", "ni:///x;y"],
    "tag": ["tag:example.com,2024:x", "tag:x"],
    "tel": ["tel:+1-201-555-0123;ext=1", "tel:+1;ext=1;ext=2", "tel:"],
    "urn": ["urn:isbn:0451450523", "urn:x"],
    "ws": ["ws://h/p?q", "ws://h/#f"],
    "wss": ["wss://h:443/", "wss:h"],
}
#: What the liar claims each text holds: of another length, and valid
#: for most profiles.
FAKE = "http://evil.example:8080/x/y/z?q=2"

ENTRIES: dict[str, Callable[[str, str, Backend], object]] = {
    "validate": lambda scheme, text, b: SCHEMES[scheme].validate(text, backend=b),
    "check": lambda scheme, text, b: SCHEMES[scheme].check(text, backend=b).text,
    "parse": lambda scheme, text, b: repr(SCHEMES[scheme].parse(text, backend=b)),
    "parse_scheme": lambda scheme, text, b: repr(parse_scheme(text, backend=b)),
}


@pytest.mark.parametrize("methods", [False, True], ids=["len-item-iter", "and-methods"])
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("scheme", TEXTS)
def test_a_lying_str_subclass_is_read_as_the_characters_it_holds(
    scheme: str, entry: str, methods: bool, backend: Backend
) -> None:
    call = ENTRIES[entry]
    for text in TEXTS[scheme]:
        liar = lying(text, FAKE, methods=methods)
        assert outcome(call, scheme, liar, backend) == outcome(call, scheme, text, backend), text
