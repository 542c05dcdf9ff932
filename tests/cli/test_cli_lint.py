"""``urigrammar lint``: a line a finding (the text, its password masked,
then the finding), nothing for a clean text, JSON Lines with ``--json``,
and exit status 1 when any text has a finding or is invalid.  The
function's own tests: hygiene/test_lint.py."""

from __future__ import annotations

import argparse
import io
import json

import urigrammar as u
from urigrammar.cli._cmd_hygiene import COMMANDS


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="urigrammar lint")
    COMMANDS["lint"].configure(parser)
    out, err = io.StringIO(), io.StringIO()
    status = COMMANDS["lint"].run(parser.parse_args(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_a_line_a_finding_and_none_for_a_clean_text() -> None:
    text = "HTTP://a/%7e"
    status, out, err = run("https://example.com/", text)
    assert status == 1
    assert out.splitlines() == [f"{text}\t{finding}" for finding in u.lint(text)]
    assert err == ""


def test_clean_texts_exit_0() -> None:
    assert run("https://example.com/", "urn:isbn:0451450523") == (0, "", "")


def test_an_invalid_text_is_an_error_on_stderr() -> None:
    status, out, err = run("http://a b/")
    assert (status, out) == (1, "")
    assert "^" in err


def test_passwords_are_masked_always() -> None:
    status, out, _ = run("ftp://u:secret@a/")
    assert status == 1
    assert "secret" not in out
    assert out.startswith("ftp://u:****@a/\t")
    _, out, _ = run("--json", "ftp://u:secret@a/")
    assert "secret" not in out


def test_json_lines_hold_every_field_of_each_finding() -> None:
    text = "http://a:80/./b"
    status, out, _ = run("--json", text, "http://a b")
    assert status == 1
    first, second = map(json.loads, out.splitlines())
    assert first["text"] == text
    assert first["findings"] == [
        {
            "code": f.code,
            "severity": f.severity,
            "section": f.section,
            "offset": f.offset,
            "length": f.length,
            "message": f.message,
        }
        for f in u.lint(text)
    ]
    assert second["valid"] is False
    assert second["findings"] is None
