"""Lines of input: a lone CR ends a line as LF and CRLF do, and nothing
else does; a byte order mark at the start of a file or of stdin is
dropped.  ``split_lines`` is held to ``str.splitlines``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from _console import console, run
from urigrammar.cli import _batch


def test_lone_cr_ends_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(
        "validate", "URI", "-", stdin="http://b/\rhttp://c/\n", monkeypatch=monkeypatch
    )
    assert status == 0
    assert out.splitlines() == ["valid\thttp://b/", "valid\thttp://c/"]


def test_bom_is_dropped_from_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"\xef\xbb\xbfhttp://a/\r\nhttp://b/\r")
    status, out, _ = run("validate", "URI", "--file", str(path), monkeypatch=monkeypatch)
    assert status == 0
    assert out.splitlines() == ["valid\thttp://a/", "valid\thttp://b/"]


def test_bom_and_lone_cr_through_the_console_stdin() -> None:
    done = console('"$0" validate URI --json -', b"\xef\xbb\xbfhttp://b/\rhttp://c/\n\xff\n")
    assert done.returncode == 1  # the last line is not UTF-8: invalid, no crash
    got = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["text"] for r in got[:2]] == ["http://b/", "http://c/"]
    assert [r["valid"] for r in got] == [True, True, False]
    assert b"Traceback" not in done.stderr


# Line ends and characters that are not line ends here (str.splitlines
# would split on \x0c and \u2028, so the oracle only sees the first kind).
_PIECES = st.sampled_from(["a", "é", "\r", "\n", "\r\n", "\ufeff", " ", "\udcff"])


@given(st.lists(_PIECES, max_size=40), st.lists(st.integers(1, 7), min_size=1, max_size=40))
@example(["\r\n", "\n"], [1])  # a "\r" pairs with one "\n" only, across chunks too
@example(["\ufeff", "\r", "\n", "\ufeff"], [1])
def test_split_lines_matches_splitlines(pieces: list[str], cuts: list[int]) -> None:
    text = "".join(pieces)
    chunks, at = [], 0
    for size in cuts * (len(text) + 1):
        if at >= len(text):
            break
        chunks.append(text[at : at + size])
        at += size
    expected = text.removeprefix("\ufeff").splitlines()
    assert list(_batch.split_lines(chunks)) == expected


@given(st.text(alphabet="\x0b\x0c\x1c\x85\u2028ab", max_size=20))
def test_only_cr_and_lf_end_lines(text: str) -> None:
    assert list(_batch.split_lines([text])) == ([text] if text else [])
