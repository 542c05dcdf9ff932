"""What the tests of the URI methods that return a new reference share:
decoded text to put into one, the check that a reference reads back
(``parse(str(x)) == x``), and a reference's fields as a tuple."""

from __future__ import annotations

from hypothesis import strategies as st

import urigrammar as u

# Decoded text: any scalar values but lone surrogates (no UTF-8 form).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
SEGMENTS = st.lists(TEXT, max_size=5)


FIELDS = ("scheme", "userinfo", "host", "path", "query", "fragment", "host_kind", "port_text")


def fields(ref: u.URIReference | u.IRIReference) -> tuple[str | None, ...]:
    """Every field a reference keeps, read through its public names."""
    return tuple(getattr(ref, name) for name in FIELDS)


def reads_back(ref: u.URIReference) -> u.URIReference:
    assert u.parse(str(ref)) == ref
    assert str(u.parse(str(ref))) == str(ref)
    return ref
