"""A closed stdin, stdout or stderr: one line on stderr and exit status 2,
or errors written nowhere, and never a traceback, in the console command
and through ``main()``."""

from __future__ import annotations

import io
import sys

import pytest

from _console import CONSOLE, console
from urigrammar.cli._cli import main


def test_that_the_console_command_is_there() -> None:
    assert CONSOLE.is_file()


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
