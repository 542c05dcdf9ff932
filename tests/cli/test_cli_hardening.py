"""The command line's hardening, one regression
test per repro, with properties against independent oracles
(``str.splitlines`` for line ends, the library functions for results)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.cli import _batch
from urigrammar.cli._cli import COMMANDS, main

CONSOLE = Path(sys.executable).with_name("urigrammar")
LONG = "http://a/" + "b" * u.ABNF_MAX_LENGTH  # valid, and over the abnf limit

# Each command that takes texts, with the arguments before its texts and a
# text it accepts.
TEXT_COMMANDS = {
    "parse": ([], "http://a/"),
    "validate": (["URI"], "http://a/"),
    "resolve": (["http://a/b"], "g"),
    "relativize": (["http://a/b"], "http://a/c"),
    "normalize": ([], "HTTP://a/"),
    "encode": (["--rule", "segment"], "a b"),
    "decode": ([], "a%20b"),
    "explain": ([], "http://a/"),
    "to-uri": ([], "http://a/\u00e4"),
    "to-iri": ([], "http://a/%C3%A4"),
    "match": (["/{x}"], "/a"),
}


class _Stdin(io.StringIO):
    def __init__(self, text: str, tty: bool = False) -> None:
        super().__init__(text)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def run(
    *argv: str, stdin: str | None = None, tty: bool = False, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", _Stdin(stdin or "", tty))
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def console(script: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    # The real console command, through a shell so that `<&-` and `>&-`
    # close its descriptors as a user's shell would.
    return subprocess.run(
        ["sh", "-c", script, str(CONSOLE)], input=stdin, capture_output=True, check=False
    )


def test_that_the_console_command_is_there() -> None:
    assert CONSOLE.is_file()


# --- line input -------------------------------------------------------


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


# --- closed standard streams ------------------------------------------


# Started with a descriptor closed, Python has None for that stream: the
# console command shows it for one closed stdin and one closed stdout; the
# in-process test below takes every case through main() (each console run
# costs a process start and a grammar read, about a second).
CLOSED = {
    '"$0" validate URI <&-': (["validate", "URI"], "stdin"),
    '"$0" validate URI - <&-': (["validate", "URI", "-"], "stdin"),
    '"$0" parse <&-': (["parse"], "stdin"),
    '"$0" validate URI http://a/ >&-': (["validate", "URI", "http://a/"], "stdout"),
    '"$0" parse - >&- <&-': (["parse", "-"], "stdin stdout"),
}


@pytest.mark.parametrize("script", ['"$0" validate URI - <&-', '"$0" validate URI http://a/ >&-'])
def test_closed_stdin_or_stdout_is_one_line_and_no_traceback(script: str) -> None:
    done = console(script)
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert len(done.stderr.decode().splitlines()) == 1
    assert b"standard " in done.stderr


@pytest.mark.parametrize("script", list(CLOSED))
def test_closed_stdin_or_stdout_in_process(script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    argv, closed = CLOSED[script]
    if "stdin" in closed:
        monkeypatch.setattr(sys, "stdin", None)
    if "stdout" in closed:
        monkeypatch.setattr(sys, "stdout", None)
    err = io.StringIO()
    status = main(argv, None if "stdout" in closed else io.StringIO(), err)
    assert status == 2
    assert len(err.getvalue().splitlines()) == 1
    assert "standard " in err.getvalue()


def test_closed_stderr_writes_errors_nowhere() -> None:
    done = console('"$0" validate URI "a b" 2>&-')
    assert done.returncode == 1
    assert done.stdout == b"invalid\ta b\n"  # not the error message


# --- too long for the abnf engine -------------------------------------


def test_too_long_is_never_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run("validate", "URI", "--engine", "abnf", LONG, monkeypatch=monkeypatch)
    assert status == 3
    assert out == f"too long for this engine\t{LONG}\n"
    assert "invalid" not in err


@pytest.mark.parametrize("command", [["validate", "URI"], ["parse"]])
def test_too_long_record(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(*command, "--engine", "abnf", "--json", LONG, monkeypatch=monkeypatch)
    assert status == 3
    record = json.loads(out)
    assert record["valid"] is None
    assert record["error"]["kind"] == "too-long"
    assert "invalid" not in out


def test_invalid_outranks_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(
        "validate", "URI", "--engine", "abnf", LONG, "a b", "a:b", monkeypatch=monkeypatch
    )
    assert status == 1
    verdicts = [line.split("\t")[0] for line in out.splitlines()]
    assert verdicts == ["too long for this engine", "invalid", "valid"]


def test_compiled_engine_decides_the_long_text(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("validate", "URI", LONG, monkeypatch=monkeypatch)[0] == 0


# --- options after texts ----------------------------------------------


def test_resolve_option_after_references(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(
        "resolve", "http://a/b", "g", "--non-strict", "http:h", monkeypatch=monkeypatch
    )
    assert status == 0
    assert out.splitlines() == ["http://a/g", "http://a/h"]  # non-strict for both


@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_every_command_takes_options_after_texts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, text = TEXT_COMMANDS[name]
    first = run(name, *before, "--jobs", "1", text, text, monkeypatch=monkeypatch)
    after = run(name, *before, text, "--jobs", "1", text, monkeypatch=monkeypatch)
    assert first == after
    assert first[0] == 0


def test_double_dash_still_ends_options(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run("normalize", "--", "-a", "--syntax-only", monkeypatch=monkeypatch)
    assert status == 0
    assert out.splitlines() == ["-a", "--syntax-only"]


# --- --jobs below 1 ---------------------------------------------------


@pytest.mark.parametrize("jobs", ["0", "-1", "x"])
@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_jobs_below_one_is_a_usage_error(
    name: str, jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, text = TEXT_COMMANDS[name]
    assert run(name, *before, "--jobs", jobs, text, monkeypatch=monkeypatch)[0] == 2
    assert run(name, *before, "--jobs", jobs, "-", stdin=text, monkeypatch=monkeypatch)[0] == 2


# --- no texts --------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_no_texts_reads_stdin(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before, text = TEXT_COMMANDS[name]
    implicit = run(name, *before, stdin=f"{text}\n{text}\n", monkeypatch=monkeypatch)
    explicit = run(name, *before, "-", stdin=f"{text}\n{text}\n", monkeypatch=monkeypatch)
    assert implicit == explicit
    assert implicit[0] == 0
    assert implicit[1]


def test_no_texts_reading_a_bad_line_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run("validate", "URI", stdin="a b\n", monkeypatch=monkeypatch)
    assert status == 1
    assert out == "invalid\ta b\n"


@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_no_texts_on_a_terminal_is_a_usage_error(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before, _ = TEXT_COMMANDS[name]
    status, out, _ = run(name, *before, tty=True, monkeypatch=monkeypatch)
    assert (status, out) == (2, "")
    assert "no texts" in capsys.readouterr().err


@given(st.lists(st.sampled_from(["http://a/", "a b", "", "%", "//[::1", "x:y"]), max_size=6))
def test_parse_prints_a_line_per_text(texts: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["parse", "--", *texts], out, err) if texts else 0
    lines = out.getvalue().splitlines()
    assert len(lines) == len(texts)
    for text, line in zip(texts, lines, strict=True):
        record = json.loads(line)
        if u.validate("URI-reference", text):
            assert record["path"] == u.parse(text).path
        else:
            assert record is None  # and the error on stderr
    assert err.getvalue().count("^") == sum(not u.validate("URI-reference", t) for t in texts)
    assert status == (0 if all(u.validate("URI-reference", t) for t in texts) else 1)


# --- no password, as the command line shows it ------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["parse", "http://user:s3cret@exa mple.com/"],
        ["validate", "URI", "http://user:s3cret@exa mple.com/"],
        ["normalize", "http://user:s3cret@exa mple.com/"],
        ["resolve", "//user:s3cret@a b", "g"],
    ],
)
def test_password_never_in_error_output(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = run(*argv, monkeypatch=monkeypatch)
    assert status != 0
    assert err
    assert "s3cret" not in err


def test_every_text_command_is_tested() -> None:
    assert {name for name, c in COMMANDS.items() if c.takes_texts} == set(TEXT_COMMANDS)
