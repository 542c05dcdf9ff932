"""``urigrammar parse`` and ``urigrammar validate``.

Texts come from the command line, or one a line from files and standard
input (``-``, or ``--file PATH``).  Texts given as arguments get the short
output (a verdict, or a JSON object of components); texts read from a stream
get JSON Lines, one record per input line in input order (see ``_batch``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import TextIO

from ._api import PARSE_RULES, check, parse
from ._batch import components, read_lines, run_batch, worker
from ._cmd import EXIT_INVALID, EXIT_OK, Command, each_text
from ._errors import InputTooLongError, URIError, URISyntaxError
from ._grammar import GRAMMAR

__all__ = ["COMMANDS"]


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "text", metavar="TEXT", nargs="*", help="texts to check; '-' reads lines from stdin"
    )
    parser.add_argument(
        "--file",
        action="append",
        default=[],
        metavar="PATH",
        help="read texts from PATH, one a line (repeatable)",
    )
    parser.add_argument(
        "--json", action="store_true", help="JSON Lines output for argument texts too"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="spread line input over N processes"
    )
    parser.add_argument("--engine", choices=("compiled", "abnf"), default="compiled")


def _streamed(args: argparse.Namespace) -> bool:
    return bool(args.file) or "-" in args.text or args.json


def _texts(args: argparse.Namespace) -> Iterator[str]:
    # Argument texts are texts, '-' stands for the lines of standard input,
    # then come the lines of each --file, in the order given.
    for text in args.text:
        if text == "-":
            yield from read_lines(["-"])
        else:
            yield text
    yield from read_lines(args.file)


def _stream(kind: str, rule: str, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.jobs < 1:
        raise URIError(f"--jobs takes a number of processes from 1 up, not {args.jobs}")
    valid = run_batch(worker(kind, rule, args.engine), _texts(args), out, err, jobs=args.jobs)
    return EXIT_OK if valid else EXIT_INVALID


def _configure_parse(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument("--rule", default="URI-reference", help=f"one of {', '.join(PARSE_RULES)}")


def _run_parse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rule = GRAMMAR.canonical(args.rule)
    if rule not in PARSE_RULES:
        parse("", rule)  # raises the URIError that says which rules parse takes
    if _streamed(args):
        return _stream("parse", rule, args, out, err)
    return each_text(
        args.text,
        lambda text: json.dumps(
            components(parse(text, rule, engine=args.engine)), ensure_ascii=False
        ),
        out,
        err,
    )


def _configure_validate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", metavar="RULE", help="a rule name of RFC 3986 or RFC 5234")
    _common(parser)


def _run_validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rule = GRAMMAR.canonical(args.rule)
    if _streamed(args):
        return _stream("validate", rule, args, out, err)
    status = EXIT_OK
    for text in args.text:
        try:
            check(rule, text, engine=args.engine)
        except (URISyntaxError, InputTooLongError) as exc:
            print(f"invalid\t{text}", file=out)
            print(exc, file=err)
            status = EXIT_INVALID
        else:
            print(f"valid\t{text}", file=out)
    return status


COMMANDS = {
    "parse": Command(
        "print the components of URI-references as JSON (JSON Lines for line input)",
        _configure_parse,
        _run_parse,
    ),
    "validate": Command(
        "check texts against any rule of RFC 3986 by its name", _configure_validate, _run_validate
    ),
}
