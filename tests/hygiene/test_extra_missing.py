"""Without the ``urigrammar[psl]`` extra, the public suffix functions say
which extra to install, and nothing else in the package needs it."""

from __future__ import annotations

import sys

import pytest

import urigrammar as u
from urigrammar.hygiene import _suffix


def test_a_missing_list_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "publicsuffixlist", None)  # import fails
    # The list as made, and the answers it gave other tests, forgotten.
    _suffix._forget()
    try:
        for call in (
            lambda: u.registrable_domain("http://example.com/"),
            lambda: u.public_suffix("example.com"),
            u.public_suffix_list_version,
        ):
            with pytest.raises(u.MissingExtraError, match=r"urigrammar\[psl\]"):
                call()
        # No host, no lookup: the list is not needed.
        assert u.registrable_domain("http://[::1]/") is None
        assert u.canonicalize("http://a/", u.CRAWL_KEY) == "http://a/"
    finally:
        _suffix._forget()
