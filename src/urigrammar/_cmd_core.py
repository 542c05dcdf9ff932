"""``urigrammar parse`` and ``urigrammar validate``."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ._api import PARSE_RULES, check, parse
from ._cmd import EXIT_INVALID, EXIT_OK, Command
from ._errors import URISyntaxError
from ._grammar import GRAMMAR
from ._reference import URIReference

__all__ = ["COMMANDS", "components"]


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


def _engine(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", choices=("compiled", "abnf"), default="compiled")


def _configure_parse(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", metavar="TEXT", nargs="+")
    parser.add_argument("--rule", default="URI-reference", help=f"one of {', '.join(PARSE_RULES)}")
    _engine(parser)


def _run_parse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def _configure_validate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", metavar="RULE", help="a rule name of RFC 3986 or RFC 5234")
    parser.add_argument("text", metavar="TEXT", nargs="+")
    _engine(parser)


def _run_validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


COMMANDS = {
    "parse": Command(
        "print the components of URI-references as JSON, one object a line",
        _configure_parse,
        _run_parse,
    ),
    "validate": Command(
        "check texts against any rule of RFC 3986 by its name", _configure_validate, _run_validate
    ),
}
