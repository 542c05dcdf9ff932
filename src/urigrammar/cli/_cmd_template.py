"""``urigrammar expand`` and ``urigrammar match``: RFC 6570 URI Templates.

``expand TEMPLATE name=value...`` prints the expansion.  Values given as
``name=value`` are strings; ``--vars FILE`` (``-``: stdin) reads a JSON
object of variables, for lists (arrays), associative arrays (objects),
numbers and undefined ones (``null``); a ``name=value`` wins over the file.
A template or value that cannot be expanded is exit 1, a bad argument
(``--vars`` that is not a JSON object, a ``name`` without ``=``) exit 2.

``match TEMPLATE URI...`` prints, for each URI, the JSON object of the
variables an expansion gave it, or ``null`` (and exit 1) when none did; a
template that is not one is a usage error (exit 2), like an unknown rule.
URIs come as ``parse``'s texts do (arguments, ``-``, ``--file``); with
``--json`` each line is a record ``{"text", "valid", "variables",
"error"}`` (``_cmd.json_line``).  An ambiguous template too big to split
for a URI (``MAX_SPLIT_CELLS``) leaves that URI undecided (exit 3 when
nothing else failed), like a text too long for ``--method abnf``.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any, TextIO

import urigrammar
from urigrammar import URIError, UrigrammarError

from ._batch import run_texts, texts
from ._cmd import (
    EXIT_INVALID,
    EXIT_OK,
    Command,
    Outcome,
    UsageError,
    add_text_input,
    json_line,
    shown,
    verdict_of,
)

__all__ = ["COMMANDS"]


def _assignment(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals:
        msg = f"not name=value: {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return name, value


def _configure_expand(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("template", metavar="TEMPLATE", help="an RFC 6570 URI Template")
    parser.add_argument(
        "assignments",
        metavar="NAME=VALUE",
        nargs="*",
        type=_assignment,
        help="a variable and its string value, split on the first '='; wins over --vars",
    )
    parser.add_argument(
        "--vars",
        metavar="FILE",
        help="a JSON object of variables ('-': read it from stdin): strings, numbers, "
        "booleans, arrays (lists), objects (associative arrays), null (undefined)",
    )


def _variables_file(source: str) -> dict[str, Any]:
    try:
        if source == "-":
            if sys.stdin is None:
                raise UsageError("cannot read --vars: standard input is closed")
            loaded = json.load(sys.stdin)
        else:
            loaded = json.loads(Path(source).read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        msg = f"--vars {source}: not JSON: {exc}"
        raise UsageError(msg) from None
    if not isinstance(loaded, dict):
        msg = f"--vars {source}: a JSON object of variables, not {type(loaded).__name__}"
        raise UsageError(msg)
    return loaded


def _run_expand(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    variables = {} if args.vars is None else _variables_file(args.vars)
    variables.update(args.assignments)
    try:
        expanded = urigrammar.URITemplate(args.template).expand(variables)
    except UrigrammarError as exc:
        print(exc, file=err)
        return EXIT_INVALID
    except TypeError as exc:  # a JSON value no template takes (an array in an array)
        print(f"urigrammar: {exc}", file=err)
        return EXIT_INVALID
    print(expanded, file=out)
    return EXIT_OK


@functools.cache
def _template(text: str) -> urigrammar.URITemplate:
    # Parsed and compiled once per process, not once per URI.
    return urigrammar.URITemplate(text)


class _Match:
    """``match`` on one URI; picklable (the template as text) for ``--jobs``."""

    __slots__ = ("json", "mask", "template")

    def __init__(self, template: str, json: bool, mask: bool = False) -> None:
        self.template = template
        self.json = json
        self.mask = mask

    def __call__(self, uri: str) -> Outcome:
        try:
            found = _template(self.template).match(uri)
        except UrigrammarError as exc:  # an ambiguous template's split too big: undecided
            return self._failed(uri, exc)
        if found is None:
            # Named with their passwords masked, as every message shows one.
            named, template = urigrammar.mask_password(uri), urigrammar.mask_password(self.template)
            failed = URIError(f"{named!r} does not match {template}", text=uri, secrets=None)
            return self._failed(uri, failed)
        if self.json:
            return Outcome("valid", json_line(shown(uri, self.mask), {"variables": found}))
        return Outcome("valid", json.dumps(found, ensure_ascii=False))

    def _failed(self, uri: str, exc: UrigrammarError) -> Outcome:
        if self.json:
            line = json_line(shown(uri, self.mask), {"variables": None}, exc)
            return Outcome(verdict_of(exc), line)
        return Outcome(verdict_of(exc), "null", str(exc))


def _configure_match(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("template", metavar="TEMPLATE", help="an RFC 6570 URI Template")
    add_text_input(parser, "URI", "URIs to match against the template")


def _run_match(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    urigrammar.URITemplate(args.template)  # a bad template: a usage error, before any URI
    work = _Match(args.template, args.json, args.mask_passwords)
    return run_texts(work, texts(args), out, err, args.jobs)


COMMANDS = {
    "expand": Command(
        "print the expansion of an RFC 6570 URI Template with the given variables",
        _configure_expand,
        _run_expand,
    ),
    "match": Command(
        "print the variables of URIs matched against an RFC 6570 URI Template, as JSON",
        _configure_match,
        _run_match,
        takes_texts=True,
    ),
}
