"""``urigrammar expand`` and ``urigrammar match``: results equal the
library's, exit statuses 0/1/2, JSON in and out."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import urigrammar as u
from urigrammar.cli._cli import main


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is None:
        status = main(list(argv), out, err)
    else:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("sys.stdin", io.StringIO(stdin))
            status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_expand_with_assignments() -> None:
    status, out, err = run("expand", "/search{?q,lang}", "q=a b=c", "lang=")
    assert (status, err) == (0, "")
    assert out == "/search?q=a%20b%3Dc&lang=\n"


def test_expand_with_a_json_file(tmp_path: Path) -> None:
    variables = {"list": ["red", "green"], "keys": {"semi": ";"}, "n": 100, "u": None}
    path = tmp_path / "vars.json"
    path.write_text(json.dumps(variables), encoding="utf-8")
    template = "{/list*}{?keys*,n,u}"
    status, out, _ = run("expand", template, "--vars", str(path))
    assert status == 0
    assert out == u.URITemplate(template).expand(variables) + "\n"
    # An assignment wins over the file; "-" reads stdin.
    status, out, _ = run("expand", template, "n=7", "--vars", "-", stdin=json.dumps(variables))
    assert out == "/red/green?semi=%3B&n=7\n"


@pytest.mark.parametrize(
    ("argv", "stdin", "status"),
    [
        (["expand", "{a"], None, 1),  # not a template
        (["expand", "{=a}"], None, 1),  # a reserved operator
        (["expand", "{a:1}", "--vars", "-"], '{"a": [1]}', 1),  # prefix on a list
        (["expand", "{a}", "--vars", "-"], '{"a": [[1]]}', 1),  # no such value
        (["expand", "{a}", "--vars", "-"], "[1]", 2),  # not an object
        (["expand", "{a}", "--vars", "-"], "{", 2),  # not JSON
        (["expand", "{a}", "novalue"], None, 2),  # not name=value
        (["match", "{a", "x"], None, 2),  # the template is an argument
    ],
)
def test_failures(
    argv: list[str], stdin: str | None, status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    got, _out, err = run(*argv, stdin=stdin)
    err += capsys.readouterr().err  # argparse writes its usage errors there
    assert got == status
    assert err
    assert "Traceback" not in err


def test_a_bad_template_shows_the_caret() -> None:
    status, _, err = run("expand", "/a{b c}")
    assert status == 1
    assert err.splitlines()[1:] == ["  /a{b c}", "      ^"]


def test_match_prints_json_per_uri() -> None:
    template = "/users/{id}{?tags*}"
    status, out, err = run("match", template, "/users/42?tags=a&tags=b", "/users/", "/x")
    assert status == 1  # one URI did not match
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines == [{"id": "42", "tags": ["a", "b"]}, {"id": ""}, None]
    # One line on stderr for the one that failed, naming it, its password
    # masked.
    assert err.splitlines() == ["'/x' does not match /users/{id}{?tags*}"]
    _, _, err = run("match", "http://{host}/", "http://u:s3cretpw@h/x")
    assert err.splitlines() == ["'http://u:****@h/x' does not match http://{host}/"]
    assert run("match", template, "/users/7")[0] == 0


def test_match_reads_lines_and_writes_records(tmp_path: Path) -> None:
    path = tmp_path / "uris.txt"
    path.write_text("/a/1\n/a/b/c\n", encoding="utf-8")
    status, out, _ = run("match", "--json", "/a{/x}", "--file", str(path))
    assert status == 1
    assert [json.loads(line) for line in out.splitlines()] == [
        {"text": "/a/1", "valid": True, "variables": {"x": "1"}, "error": None},
        {
            "text": "/a/b/c",
            "valid": False,
            "variables": None,
            "error": {
                "offset": None,
                "message": "'/a/b/c' does not match /a{/x}",
                "kind": "invalid",
            },
        },
    ]
    status, out, _ = run("match", "{x}", "-", stdin="caf%C3%A9\n")
    assert (status, json.loads(out)) == (0, {"x": "caf\u00e9"})


def test_match_too_big_to_split_is_undecided_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An ambiguous template's split past MAX_SPLIT_CELLS is undecided: that
    # URI gets its line (null) and the run goes on to the next, exit 3.
    from urigrammar.template import _match

    monkeypatch.setattr(_match, "MAX_SPLIT_CELLS", 100)
    template = "{a}{b}"
    status, out, err = run("match", template, "x" * 100, "xy")
    assert status == 3
    assert out.splitlines() == ["null", '{"a": "xy", "b": ""}']
    assert "MAX_SPLIT_CELLS" in err
    status, out, _ = run("match", "--json", template, "x" * 100)
    record = json.loads(out)
    assert (record["valid"], record["variables"]) == (None, None)
    assert record["error"]["kind"] == "too-long"
