"""The ``urigrammar`` command line.

Each command lives in a ``_cmd_*`` module as a ``Command`` (its help, how
it adds its arguments, how it runs); this module only assembles them and
maps errors to exit statuses: 0 when every text was valid, 1 when some text
was not (each error goes to stderr with its caret), 2 for a usage error such
as an unknown rule name.  No traceback reaches the user for bad input.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from . import _cmd_build, _cmd_core, _cmd_explain, _cmd_resolve
from ._cmd import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Command
from ._errors import URIError

__all__ = ["main"]

COMMANDS: dict[str, Command] = {
    **_cmd_core.COMMANDS,
    **_cmd_resolve.COMMANDS,
    **_cmd_build.COMMANDS,
    **_cmd_explain.COMMANDS,
}


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="urigrammar",
        description="Validate, parse and work with URIs by the grammar of RFC 3986.",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        command.configure(sub.add_parser(name, help=command.help, description=command.help))
    return top


def _parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    # argparse gives a `TEXT...` positional only the texts before the first
    # option (`validate URI --json a b` would leave `a b` over), so texts
    # found after options join it; anything else left over is an error.
    args, rest = parser.parse_known_args(argv)
    stray = [item for item in rest if item.startswith("-") and item != "-"]
    if stray or (rest and not isinstance(getattr(args, "text", None), list)):
        parser.error(f"unrecognized arguments: {' '.join(stray or rest)}")
    if rest:
        args.text.extend(rest)
    return args


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status."""
    if out is None:
        out = sys.stdout
        # An argument that is not UTF-8 reaches argv as lone surrogates (PEP
        # 383), and commands echo their texts: write those escaped, as
        # Python's own stderr does, rather than fail in print().
        if isinstance(out, io.TextIOWrapper):
            out.reconfigure(errors="backslashreplace")
    err = sys.stderr if err is None else err
    try:
        args = _parse_args(_parser(), argv)
    except SystemExit as exc:  # argparse has printed its usage message
        return EXIT_USAGE if exc.code else EXIT_OK
    try:
        return COMMANDS[args.command].run(args, out, err)
    except URIError as exc:
        # Per-text errors are reported by the commands themselves; what
        # arrives here is about the arguments (an unknown rule, say).
        print(f"urigrammar: {exc}", file=err)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader has gone (`urigrammar parse --file big | head -1`): stop
        # quietly, as cat does.  Python flushes stdout once more at exit and
        # would complain of the pipe there, so stdout goes to devnull first.
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_INVALID
    except OSError as exc:
        # An unreadable --file (missing, a directory, no permission) or an
        # output that cannot be written (a full disk).
        print(f"urigrammar: {exc}", file=err)
        return EXIT_USAGE
