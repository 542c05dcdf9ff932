"""A text longer than the ``abnf`` engine takes: a verdict of its own
("too long for the abnf method", exit status 3, a record with no verdict),
never "invalid"; an invalid text outranks it, and the compiled engine
decides the same text."""

from __future__ import annotations

import json

import pytest

import urigrammar as u
from _console import run

LONG = "http://a/" + "b" * u.ABNF_MAX_LENGTH  # valid, and over the abnf limit


def test_too_long_is_never_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run("validate", "URI", "--method", "abnf", LONG, monkeypatch=monkeypatch)
    assert status == 3
    assert out == f"too long for the abnf method\t{LONG}\n"
    assert "invalid" not in err


@pytest.mark.parametrize("command", [["validate", "URI"], ["parse"]])
def test_too_long_record(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(*command, "--method", "abnf", "--json", LONG, monkeypatch=monkeypatch)
    assert status == 3
    record = json.loads(out)
    assert record["valid"] is None
    assert record["error"]["kind"] == "too-long"
    assert "invalid" not in out


def test_invalid_outranks_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(
        "validate", "URI", "--method", "abnf", LONG, "a b", "a:b", monkeypatch=monkeypatch
    )
    assert status == 1
    verdicts = [line.split("\t")[0] for line in out.splitlines()]
    assert verdicts == ["too long for the abnf method", "invalid", "valid"]


def test_compiled_engine_decides_the_long_text(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("validate", "URI", LONG, monkeypatch=monkeypatch)[0] == 0
