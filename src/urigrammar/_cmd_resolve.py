"""``urigrammar resolve`` and ``urigrammar normalize`` (RFC 3986 sections 5
and 6): one result a line, in the order of the arguments."""

from __future__ import annotations

import argparse
from typing import TextIO

from ._cmd import EXIT_INVALID, Command, each_text
from ._errors import URIError
from ._normalize import normalize
from ._resolve import as_base, resolve

__all__ = ["COMMANDS"]


def _configure_resolve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", metavar="BASE", help="a URI (it has a scheme)")
    parser.add_argument("ref", metavar="REF", nargs="+")
    parser.add_argument(
        "--non-strict",
        action="store_true",
        help="read a reference with the base's scheme as relative (RFC 3986 section 5.2.2)",
    )


def _run_resolve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        base = as_base(args.base)
    except URIError as exc:
        print(exc, file=err)
        return EXIT_INVALID
    return each_text(
        args.ref,
        lambda text: resolve(base, text, strict=not args.non_strict),
        out,
        err,
        (URIError,),
    )


def _configure_normalize(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", metavar="TEXT", nargs="+")
    parser.add_argument(
        "--syntax-only",
        action="store_true",
        help="skip the scheme-based step (default ports, empty paths; RFC 3986 section 6.2.3)",
    )
    parser.add_argument(
        "--ipv6-canonical", action="store_true", help="write IPv6 hosts as RFC 5952 says"
    )


def _run_normalize(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    def work(text: str) -> object:
        return normalize(
            text, scheme_based=not args.syntax_only, ipv6_canonical=args.ipv6_canonical
        )

    return each_text(args.text, work, out, err, (URIError,))


COMMANDS = {
    "resolve": Command(
        "print the target URI of each reference against a base, one a line",
        _configure_resolve,
        _run_resolve,
    ),
    "normalize": Command(
        "print the normal form of each URI-reference, one a line",
        _configure_normalize,
        _run_normalize,
    ),
}
