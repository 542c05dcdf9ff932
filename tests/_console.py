"""The command line, run two ways for its tests: ``main()`` in this
process with a standard input the test chooses (a terminal or not), and
the installed console command in a fresh process, through a shell so
that the test can close its descriptors as a user's shell would."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from urigrammar.cli._cli import main

CONSOLE = Path(sys.executable).with_name("urigrammar")


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
