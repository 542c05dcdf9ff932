"""What runs the examples of the README and of ``docs/`` (Sybil, configured in
the repository's top ``conftest.py``).

Python examples are doctests (``>>>`` and the output shown) or plain blocks
run for their effect.  Shell examples are ``console`` blocks, written as a
terminal shows them::

    $ urigrammar validate URI 'http://a/b'
    valid
    $ cat > item.abnf <<'EOF'
    > item = 1*DIGIT
    > EOF

A line starting ``$ `` is a command, the ``> `` lines after it continue it
(as the shell's second prompt does), and the lines up to the next command
are what it prints, stdout and stderr together, compared line by line with
trailing blanks ignored.  The exit status is not compared: an error shows in
what is printed.  Each document's examples run in a directory of their own,
so an example that needs a file makes it first.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sybil import Document, Example, Region
from sybil.parsers.markdown.lexers import FencedCodeBlockLexer

PROMPT = "$ "
CONTINUATION = "> "


@dataclass(frozen=True)
class Command:
    line: str
    expected: str


def commands(source: str) -> list[Command]:
    """The commands of one ``console`` block, each with the output shown."""
    found: list[Command] = []
    lines = source.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith(PROMPT):
            msg = f"a console block must start with a {PROMPT!r} command: {line!r}"
            raise ValueError(msg)
        command = [line[len(PROMPT) :]]
        index += 1
        while index < len(lines) and lines[index].startswith(CONTINUATION):
            command.append(lines[index][len(CONTINUATION) :])
            index += 1
        output: list[str] = []
        while index < len(lines) and not lines[index].startswith(PROMPT):
            output.append(lines[index])
            index += 1
        found.append(Command("\n".join(command), "\n".join(output)))
    return found


def _tidy(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines())


def run_console(example: Example) -> str | None:
    """Run each command of the block in bash, in the current directory (the
    document's own), with this interpreter's scripts (``urigrammar``) first
    on ``PATH``; a difference is the failure's message."""
    scripts = str(Path(sys.executable).parent)
    env = dict(os.environ, PATH=scripts + os.pathsep + os.environ.get("PATH", ""))
    # Unbuffered, a command's stdout and stderr interleave as a terminal
    # shows them (line by line); into a pipe, stdout would come last.
    env.update(LC_ALL="C.UTF-8", COLUMNS="100", PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
    for command in example.parsed:
        done = subprocess.run(
            ["bash", "-c", command.line],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            timeout=120,
            check=False,
        )
        shown, printed = _tidy(command.expected), _tidy(done.stdout)
        if shown != printed:
            return (
                f"$ {command.line}\nshown:\n{shown}\nprinted (exit {done.returncode}):\n{printed}"
            )
    return None


class ConsoleParser:
    """The ``console`` blocks of a Markdown or MyST document."""

    def __init__(self) -> None:
        self.lexer = FencedCodeBlockLexer(language="console")

    def __call__(self, document: Document) -> Iterable[Region]:
        for lexed in self.lexer(document):
            source = lexed.lexemes["source"]
            yield Region(lexed.start, lexed.end, commands(str(source)), run_console)


def missing(*modules: str) -> bool:
    """Whether any of these modules cannot be imported here: the condition of
    a ``skip`` for an example that needs an optional package."""
    return any(importlib.util.find_spec(module) is None for module in modules)
