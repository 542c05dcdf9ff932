"""``urigrammar.differential.diff`` over the 2,018 real URLs of
``data/real-urls.txt``: no finding on a URL where the two readings agree,
by an oracle of its own (``_differential_oracle``: ``urigrammar.equivalent``
on what each parser read), and a named kind for every one where they part.

Needs ``can_ada`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from urigrammar.differential import diff

pytest.importorskip("can_ada")

from _differential_oracle import agree

CORPUS = (Path(__file__).resolve().parents[1] / "data" / "real-urls.txt").read_text("utf-8")
URLS = CORPUS.splitlines()


def test_the_corpus_is_read() -> None:
    assert len(URLS) == 2018


def test_no_finding_where_the_readings_agree() -> None:
    agreeing = [text for text in URLS if agree(text)]
    assert len(agreeing) > 1990
    assert [text for text in agreeing if diff(text)] == []


def test_a_named_kind_where_they_part() -> None:
    parting = [text for text in URLS if not agree(text)]
    assert parting
    fallbacks = {"rfc-failure", "whatwg-failure", "scheme-differs", "host-differs"}
    fallbacks |= {"port-differs", "path-differs"}
    for text in parting:
        found = diff(text)
        assert found, text
        assert not {f.kind for f in found} & fallbacks, text
