"""The URL Standard's own test data (web-platform-tests'
``url/resources/urltestdata.json``, in ``data/wpt/``): urigrammar hands each
input to Ada as the URL Standard's API would (a base parsed first, a NUL
and a lone surrogate dealt with as the binding needs), so Ada's reading is
the one the data expects; and ``diff`` never raises on any input.

Needs ``can_ada`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from urigrammar import URIError

pytest.importorskip("can_ada")

from urigrammar.differential import KINDS, diff
from urigrammar.differential._whatwg import whatwg_parse

DATA = Path(__file__).resolve().parents[1] / "data" / "wpt" / "urltestdata.json"
CASES: list[dict[str, Any]] = [
    case for case in json.loads(DATA.read_text("utf-8")) if isinstance(case, dict)
]
FIELDS = ("href", "protocol", "username", "password", "host", "hostname", "port")
FIELDS += ("pathname", "search", "hash")

# Cases for changes to the URL Standard newer than the Ada that can_ada
# 3.0.0 bundles: an opaque path's trailing spaces before "?" or "#" are
# stripped, and "^" is percent-encoded in a path.
NEWER_THAN_ADA = {
    "non-special:opaque  ?hi",
    "non-special:opaque  #hi",
    "foo://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~",
    "wss://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~",
}


def _id(case: dict[str, Any]) -> str:
    return ascii(case["input"])[1:-1][:60] + ("" if case["base"] is None else " @base")


def test_the_copy_is_the_one_its_readme_names() -> None:
    digest = hashlib.sha256(DATA.read_bytes()).hexdigest()
    assert digest == "0a983e7fc2ebdb7479aeb275297a5801b6bb302b60f225c84c84991505603832"
    assert len(CASES) == 866
    assert {case["input"] for case in CASES} >= NEWER_THAN_ADA


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_binding_reads_as_the_standard_says(case: dict[str, Any]) -> None:
    base = None if case["base"] is None else whatwg_parse(case["base"], None)
    if case["base"] is not None and base is None:
        assert case.get("failure")  # a base that is no URL: the input fails
        return
    url = whatwg_parse(case["input"], base)
    if case.get("failure"):
        assert url is None
        return
    assert url is not None
    got = {field: getattr(url, field) for field in FIELDS}
    expected = {field: case[field] for field in FIELDS}
    if case["input"] in NEWER_THAN_ADA and got != expected:
        pytest.xfail("a change to the URL Standard newer than can_ada 3.0.0's Ada")
    assert got == expected


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_diff_never_raises(case: dict[str, Any]) -> None:
    text = case["input"]
    for finding in diff(text):
        assert finding.kind in KINDS
        assert 0 <= finding.offset <= len(text)
    if case["base"] is None:
        return
    refused = None
    try:
        found = diff(text, case["base"])
    except URIError as exc:  # the base: no URI, or read differently by the two
        refused, found = exc, []
    assert refused is None or refused.text == case["base"]
    for finding in found:
        assert 0 <= finding.offset <= len(text)
