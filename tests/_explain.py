"""The ``explain`` and ``rules`` commands run through an argparse built here
from ``_cmd_explain.COMMANDS``, the way ``_cli`` assembles its own."""

from __future__ import annotations

import argparse
import io

from urigrammar.cli._cmd_explain import COMMANDS


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="urigrammar")
    sub = top.add_subparsers(dest="command", required=True)
    for name, command in COMMANDS.items():
        command.configure(sub.add_parser(name, help=command.help, description=command.help))
    return top


def run(*argv: str, out: io.StringIO | None = None) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of one command."""
    out = io.StringIO() if out is None else out
    err = io.StringIO()
    args = _parser().parse_args(argv)
    status = COMMANDS[args.command].run(args, out, err)
    return status, out.getvalue(), err.getvalue()
