"""``surt``: the surt package's own cases (``tests/vectors/surt.json``),
each difference written down with its reason; and properties: a SURT is
that of the key, so equivalent spellings share one, and the host's labels
come back reversed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

import urigrammar as u
from _backends import On
from _budget import backend_settings
from urigrammar.strategies import uri_references

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "surt.json").read_text("utf-8")
)
CASES = VECTORS["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_the_surt_packages_cases(case: dict[str, Any]) -> None:
    want = case.get("ours", case["surt"])
    assert u.surt(case["text"], **case["options"]) == want
    # Each difference says why.
    assert ("ours" in case) == ("why" in case)


@pytest.mark.skipif(importlib.util.find_spec("surt") is None, reason="needs the surt package")
@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_the_table_holds_the_surt_packages_answers(case: dict[str, Any]) -> None:
    import surt

    assert surt.surt(case["text"], **case["options"]) == case["surt"]


def test_options_choose_the_key() -> None:
    text = "http://www.Example.com/a?b=1&utm_source=x#f"
    assert u.surt(text) == "com,example)/a?b=1"
    assert u.surt(text, u.Canonicalization()) == "com,example,www)/a?b=1&utm_source=x#f"
    assert u.surt("http://[::1]:8080/") == "[::1]:8080)/"
    assert u.surt("http://u:p@a.example/") == "example,a)/"


@backend_settings()
@given(text=uri_references())
def test_a_surt_is_its_keys(on: On, text: str) -> None:
    ref = on.parse(text)
    key = u.parse(u.canonicalize(ref, u.SURT_KEY))
    reordered = u.surt(ref)
    assert reordered == u.surt(str(key))
    if key.host is None:
        assert reordered == str(key)
        return
    labels = key.host.split(".")
    if key.host_kind in ("reg-name", "IPv4address"):
        labels.reverse()
    host = ",".join(labels) if key.host_kind in ("reg-name", "IPv4address") else key.host
    port = "" if key.port_text is None else ":" + key.port_text
    assert reordered.startswith(f"{host}{port}){key.path}")
    assert reordered.endswith("" if key.query is None else "?" + key.query)
