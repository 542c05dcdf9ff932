"""The ``urigrammar`` command line.

Each command lives in a ``_cmd_*`` module as a ``Command`` (its help, how
it adds its arguments, how it runs); this module only assembles them, reads
the arguments and maps errors to exit statuses (listed in ``_cmd``): no
traceback reaches the user, for bad input or for closed streams.

Options may follow texts (``resolve http://a/b g --non-strict h``): each
command's arguments are read with ``parse_intermixed_args``.  argparse
cannot do that through subparsers, so the command name is taken off first
and its own parser reads the rest; the top parser still handles
``--help``, ``--version`` and a missing or unknown command.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from typing import TextIO

import urigrammar
from urigrammar import UrigrammarError

from . import (
    _cmd_build,
    _cmd_cache,
    _cmd_core,
    _cmd_diff,
    _cmd_explain,
    _cmd_hygiene,
    _cmd_iri,
    _cmd_resolve,
    _cmd_scheme,
    _cmd_template,
)
from ._cmd import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Command, UsageError

__all__ = ["main"]

COMMANDS: dict[str, Command] = {
    **_cmd_core.COMMANDS,
    **_cmd_resolve.COMMANDS,
    **_cmd_hygiene.COMMANDS,
    **_cmd_build.COMMANDS,
    **_cmd_explain.COMMANDS,
    **_cmd_iri.COMMANDS,
    **_cmd_template.COMMANDS,
    **_cmd_diff.COMMANDS,
    **_cmd_scheme.COMMANDS,
    **_cmd_cache.COMMANDS,
}

_EPILOG = (
    "exit status: 0 every text valid (equivalent: the two are equivalent); "
    "1 some text invalid (equivalent: not equivalent; diff: some finding; "
    "check-host: some URL refused; "
    "scheme: invalid or no profile); "
    "2 usage error, input or output that cannot be read or written, "
    "or (equivalent) a text that is neither a URI-reference nor an IRI-reference; "
    "3 no text invalid but some undecided (too long for --method abnf); "
    "130 interrupted (Ctrl-C)"
)


class _Version(argparse.Action):
    """``--version``, printed as is: argparse's own action wraps the line
    to the terminal's width."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        sys.stdout.write(_version().replace("%(prog)s", parser.prog) + "\n")
        parser.exit()


def _version() -> str:
    # The package's own constant: importlib.metadata would cost an import
    # as long as the rest of a short run.
    reason = urigrammar.PURE_REASON
    backend = "native back end" if reason is None else f"pure back end: {reason}"
    return f"%(prog)s {urigrammar.__version__} ({backend})"


def _parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    top = argparse.ArgumentParser(
        prog="urigrammar",
        description="Validate, parse and work with URIs (RFC 3986), IRIs (RFC 3987) and "
        "URI Templates (RFC 6570) by the RFCs' own grammars, or by any ABNF file (--grammar).",
        epilog=_EPILOG,
    )
    top.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="print the version of urigrammar and exit",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parsers: dict[str, argparse.ArgumentParser] = {}
    for name, command in COMMANDS.items():
        # Each command's own arguments are added when it runs (_configured):
        # some read the library to say what they take, and a run uses one.
        parsers[name] = sub.add_parser(name, help=command.help, description=command.help)
    return top, parsers


def _configured(name: str, parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with command ``name``'s arguments, added once."""
    if not getattr(parser, "_urigrammar_configured", False):
        COMMANDS[name].configure(parser)
        parser._urigrammar_configured = True  # type: ignore[attr-defined]
    return parser


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except ValueError:  # closed
        return False


# No argument from the system holds a NUL, so a NUL first marks a text that
# came after "--" (see _intermixed).
_AFTER_DASHES = "\0"


def _unmark(value: object) -> object:
    if isinstance(value, str):
        return value.removeprefix(_AFTER_DASHES)
    if isinstance(value, list):
        return [_unmark(item) for item in value]
    return value


def _intermixed(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``parser.parse_intermixed_args(argv)``, with "--" as usual: what
    follows it is never an option.  (Intermixed parsing mishandles a "--"
    that comes before the first positional, CPython up to 3.13 at least, so
    the texts after it are marked as texts instead and unmarked after.)"""
    if "--" not in argv:
        return parser.parse_intermixed_args(argv)
    cut = argv.index("--")
    marked = [_AFTER_DASHES + item for item in argv[cut + 1 :]]
    args = parser.parse_intermixed_args(argv[:cut] + marked)
    for name, value in vars(args).items():
        setattr(args, name, _unmark(value))
    return args


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    top, parsers = _parsers()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in parsers:
        # Top-level options, no command or an unknown one: argparse says so
        # (and exits).
        return top.parse_args(argv)
    name = argv[0]
    parser = _configured(name, parsers[name])
    args = _intermixed(parser, argv[1:])
    args.command = name
    if COMMANDS[name].takes_texts and not args.text and not args.file:
        # No texts: read them from stdin, unless a person is at it (a
        # forgotten argument would otherwise wait for typing, silently).
        if _stdin_is_terminal():
            parser.error("no texts: give them as arguments, or lines with '-' or --file")
        args.text = ["-"]
    return args


def _writable(stream: TextIO | None) -> TextIO:
    # Started with the stream closed (`2>&-`), Python has None for it, and
    # print(file=None) would write to stdout instead: write nowhere.
    return open(os.devnull, "w", encoding="utf-8") if stream is None else stream


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status."""
    err = _writable(sys.stderr if err is None else err)
    if out is None:
        if sys.stdout is None:  # started with stdout closed (`>&-`)
            print("urigrammar: cannot write the results: standard output is closed", file=err)
            return EXIT_USAGE
        out = sys.stdout
        # An argument that is not UTF-8 reaches argv as lone surrogates (PEP
        # 383), and commands echo their texts: write those escaped, as
        # Python's own stderr does, rather than fail in print().
        if isinstance(out, io.TextIOWrapper):
            out.reconfigure(errors="backslashreplace")
    try:
        return _run(argv, out, err)
    except KeyboardInterrupt:
        # Ctrl-C: one line, no traceback, and the status a shell gives a
        # command killed by SIGINT (run_texts has stopped any workers).
        print("urigrammar: interrupted", file=err)
        return EXIT_INTERRUPTED


def _run(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> int:
    try:
        args = _parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage message
        return EXIT_USAGE if exc.code else EXIT_OK
    try:
        return COMMANDS[args.command].run(args, out, err)
    except (UrigrammarError, UsageError) as exc:
        # Per-text errors are reported by the commands themselves; what
        # arrives here is about the arguments (an unknown rule, say) or the
        # streams.  str() of a UrigrammarError is what hides a password.
        print(f"urigrammar: {exc}", file=err)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader has gone (`urigrammar parse --file big | head -1`): stop
        # quietly, as cat does.  Python flushes stdout once more at exit and
        # would complain of the pipe there, so stdout goes to devnull first.
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_USAGE  # output that cannot be written (README's table)
    except OSError as exc:
        # An unreadable --file (missing, a directory, no permission), a
        # stream closed under us, or an output that cannot be written (a
        # full disk).
        print(f"urigrammar: {exc}", file=err)
        return EXIT_USAGE
