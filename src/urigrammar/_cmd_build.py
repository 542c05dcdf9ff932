"""``urigrammar build`` and ``urigrammar decode``.

``build`` takes each part as data, as ``urigrammar.build`` does: a Unicode
host is percent-encoded as UTF-8 (RFC 3986 section 3.2.2) unless ``--idna``
asks for A-labels.  ``--query`` (the query as text) and ``--query-pair``
(one encoded ``name=value`` pair each, in order) are exclusive.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from ._build import build, with_query_pairs
from ._cmd import EXIT_INVALID, EXIT_OK, Command, each_text
from ._encode import percent_decode
from ._errors import URIError

__all__ = ["COMMANDS"]


def _pair(text: str) -> tuple[str, str]:
    # Split on the first "=", as query_pairs reads them; no "=" is value "".
    name, _, value = text.partition("=")
    return name, value


def _configure_build(parser: argparse.ArgumentParser) -> None:
    for part in ("scheme", "userinfo", "host", "port", "path"):
        parser.add_argument(f"--{part}", default="" if part == "path" else None)
    query = parser.add_mutually_exclusive_group()
    query.add_argument("--query")
    query.add_argument(
        "--query-pair",
        dest="query_pairs",
        metavar="NAME=VALUE",
        action="append",
        type=_pair,
        help="a query pair, split on its first '=' (none: the value is empty) and encoded "
        "so that '&', '=' and '+' in it survive; repeatable, kept in order",
    )
    parser.add_argument("--fragment")
    parser.add_argument(
        "--idna",
        action="store_true",
        help="write a non-ASCII host as IDNA A-labels instead of percent-encoding it",
    )


def _run_build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        ref = build(
            scheme=args.scheme,
            userinfo=args.userinfo,
            host=args.host,
            port=args.port,
            path=args.path,
            query=args.query,
            fragment=args.fragment,
            idna=args.idna,
        )
        if args.query_pairs:
            ref = with_query_pairs(ref, args.query_pairs)
    except URIError as exc:
        print(exc, file=err)
        return EXIT_INVALID
    print(ref, file=out)
    return EXIT_OK


def _configure_decode(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", metavar="TEXT", nargs="+")
    parser.add_argument(
        "--errors",
        choices=("strict", "replace", "backslashreplace"),
        default="strict",
        help="what to do with octets that are not UTF-8 (as bytes.decode)",
    )
    parser.add_argument(
        "--form", action="store_true", help="also read '+' as a space (form-urlencoded)"
    )


def _run_decode(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    def work(text: str) -> str:
        # "+" -> " " keeps every offset, so an error still points into `text`.
        spaced = text.replace("+", " ") if args.form else text
        try:
            return percent_decode(spaced, errors=args.errors)
        except URIError as exc:
            raise URIError(exc.message, rule=exc.rule, text=text, offset=exc.offset) from None

    return each_text(args.text, work, out, err, (URIError,))


COMMANDS = {
    "build": Command(
        "print the URI made of the given parts, each percent-encoded for its rule",
        _configure_build,
        _run_build,
    ),
    "decode": Command(
        "print percent-encoded texts decoded as UTF-8, one a line", _configure_decode, _run_decode
    ),
}
