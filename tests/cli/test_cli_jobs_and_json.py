"""``--jobs`` and ``--json`` on every command that takes texts: the same
lines in the same order over several processes, and a JSON record per
text whose result is the library function's."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import urigrammar as u
from urigrammar.cli._cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", "http://a/b/c"],
        ["relativize", "http://a/b/c"],
        ["normalize"],
        ["encode", "--rule", "query"],
        ["decode"],
        ["explain"],
    ],
)
def test_jobs_keep_the_order(argv: list[str], tmp_path: Path) -> None:
    lines = [f"http://a/{'b/' * (i % 4)}%7e{i}" if i % 7 else f"bad {i}%" for i in range(400)]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one = run(*argv, "--file", str(path))
    two = run(*argv, "--file", str(path), "--jobs", "2")
    assert one == two
    assert one[0] == (0 if argv[0] == "encode" else 1)  # "%" is text to encode


@pytest.mark.parametrize(
    ("argv", "function"),
    [
        (["normalize"], lambda t: str(u.normalize(t))),
        (["resolve", "http://a/b/c"], lambda t: str(u.resolve("http://a/b/c", t))),
        (["decode"], u.percent_decode),
        (["encode", "--rule", "segment"], lambda t: u.percent_encode(t, "segment")),
    ],
)
def test_json_records_one_per_text(argv: list[str], function: object) -> None:
    texts = ["a/./b", "%41", "a b", "%", "HTTP://X/"]
    status, out, _ = run(*argv, "--json", "--", *texts)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["text"] for r in records] == texts
    for text, record in zip(texts, records, strict=True):
        try:
            expected = function(text)  # type: ignore[operator]
        except u.URIError:
            assert record["valid"] is False
            assert record["result"] is None
            assert record["error"]["kind"] in ("syntax", "invalid")
        else:
            assert record == {"text": text, "valid": True, "result": expected, "error": None}
    assert status == (0 if all(r["valid"] for r in records) else 1)
