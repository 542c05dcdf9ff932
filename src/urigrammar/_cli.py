"""The ``urigrammar`` command line.

Exit status: 0 when every text was valid, 1 when some text was not (each
error goes to stderr with its caret), 2 for a usage error such as an
unknown rule name.  No traceback reaches the user for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ._api import PARSE_RULES, check, parse
from ._errors import UnknownRuleError, URIError, URISyntaxError
from ._grammar import GRAMMAR
from ._reference import URIReference

__all__ = ["main"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def components(ref: URIReference) -> dict[str, Any]:
    """The JSON object ``urigrammar parse`` prints for one reference."""
    return {
        "scheme": ref.scheme,
        "authority": ref.authority,
        "userinfo": ref.userinfo,
        "host": ref.host,
        "host_kind": ref.host_kind,
        "port": ref.port,
        "path": ref.path,
        "query": ref.query,
        "fragment": ref.fragment,
    }


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="urigrammar",
        description="Validate and parse URIs by the grammar of RFC 3986.",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("parse", help="print the components of a URI-reference as JSON")
    p.add_argument("text", metavar="TEXT", nargs="+")
    p.add_argument("--rule", default="URI-reference", help=f"one of {', '.join(PARSE_RULES)}")
    p.add_argument("--engine", choices=("compiled", "abnf"), default="compiled")

    v = sub.add_parser("validate", help="check texts against any rule of RFC 3986 by name")
    v.add_argument("rule", metavar="RULE")
    v.add_argument("text", metavar="TEXT", nargs="+")
    v.add_argument("--engine", choices=("compiled", "abnf"), default="compiled")
    return top


def _cmd_parse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    status = EXIT_OK
    for text in args.text:
        try:
            ref = parse(text, args.rule, engine=args.engine)
        except URISyntaxError as exc:
            print(exc, file=err)
            status = EXIT_INVALID
            continue
        print(json.dumps(components(ref), ensure_ascii=False), file=out)
    return status


def _cmd_validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rule = GRAMMAR.canonical(args.rule)
    status = EXIT_OK
    for text in args.text:
        try:
            check(rule, text, engine=args.engine)
        except URISyntaxError as exc:
            print(f"invalid\t{text}", file=out)
            print(exc, file=err)
            status = EXIT_INVALID
        else:
            print(f"valid\t{text}", file=out)
    return status


_COMMANDS = {"parse": _cmd_parse, "validate": _cmd_validate}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage message
        return EXIT_USAGE if exc.code else EXIT_OK
    try:
        return _COMMANDS[args.command](args, out, err)
    except UnknownRuleError as exc:
        print(f"urigrammar: {exc}", file=err)
        return EXIT_USAGE
    except URIError as exc:
        # A usage error the library caught (parse --rule path, say).
        print(f"urigrammar: {exc}", file=err)
        return EXIT_USAGE
