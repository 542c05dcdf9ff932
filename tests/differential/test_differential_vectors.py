"""``urigrammar.differential.diff`` on the vectors of
``vectors/differential.json``: for every kind, texts where the URL Standard
and RFC 3986 part for that reason, each id naming the two sections, with
the kind and offset of every finding; and texts both read alike, or both
refuse, which give none.

Needs ``can_ada`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("can_ada")

from urigrammar.differential import KINDS, diff
from urigrammar.differential._explain import explain
from urigrammar.differential._whatwg import whatwg_parse

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "differential.json").read_text("utf-8")
)
CASES = VECTORS["cases"]

# The kinds no known text reaches: they name a difference in one component
# that no finer kind explains, for whatever a later Ada reads otherwise.
FALLBACKS = {"scheme-differs", "host-differs", "port-differs", "path-differs"}
# The kinds of other readers only (their vectors: differential_readers.json).
OTHER_READERS = {"bracketed-host", "reader-failure"}


@pytest.mark.parametrize(
    ("text", "base", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_vector(text: str, base: str | None, expected: list[list[object]]) -> None:
    found = diff(text, base)
    assert [[f.kind, f.offset] for f in found] == expected
    for finding in found:
        assert 0 <= finding.offset <= len(text)


def test_every_kind_has_a_vector_citing_both_documents() -> None:
    seen = {kind for case in CASES for kind, _ in case[3]}
    assert seen | FALLBACKS | OTHER_READERS == set(KINDS)
    for case_id, *_ in CASES:
        assert "/url-" in case_id
        assert "/rfc-" in case_id


def test_the_issue_examples_part_where_it_says() -> None:
    backslash = diff("http://evil.com\\@good.com/")[0]
    assert backslash.whatwg.host == "evil.com"
    assert backslash.rfc.error is not None
    assert "offset 15" in backslash.rfc.error
    for text in ("http://127.1/", "http://0x7f.1/", "http://2130706433/"):
        (finding,) = diff(text)
        assert (finding.rfc.host_kind, finding.whatwg.host) == ("reg-name", "127.0.0.1")
        assert finding.resolver == "127.0.0.1"
    assert diff("http://\u2460\u2461\u2466.\u24ea.\u24ea.\u2460/")[0].whatwg.host == "127.0.0.1"
    for text, base in (
        ("http:evil.com/", None),
        ("http:///evil.com/", None),
        ("/\\evil.com", "http://good.com/a"),
    ):
        assert {f.whatwg.host for f in diff(text, base)} == {"evil.com"}


@pytest.mark.parametrize(
    ("part", "kind"),
    [
        ("scheme", "scheme-differs"),
        ("host", "host-differs"),
        ("port", "port-differs"),
        ("path", "path-differs"),
    ],
)
def test_a_difference_no_finer_kind_explains_is_named_by_its_component(
    part: str, kind: str
) -> None:
    # No text is known to reach these; explain() is given the difference.
    text = "http://a:8080/p"
    url = whatwg_parse(text, None)
    offsets = {"scheme": 0, "host": 7, "port": 9, "path": 13}
    assert explain(text, None, url, rfc_offset=None, differs={part}) == [(kind, offsets[part])]


def test_a_kind_that_explains_a_component_leaves_no_fallback() -> None:
    text = "http:///evil.com/"
    url = whatwg_parse(text, None)
    found = explain(text, None, url, rfc_offset=None, differs={"host", "path"})
    assert [kind for kind, _ in found] == ["slash-count"]
