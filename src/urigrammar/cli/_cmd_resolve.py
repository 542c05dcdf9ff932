"""``urigrammar resolve``, ``relativize``, ``normalize`` and ``equivalent``
(RFC 3986 sections 5 and 6): one result a line, in the order of the texts.
Each text is read as the library's functions read a string: as a URI, or
as an IRI when it is an IRI-reference and no URI-reference, so these
commands need no ``--iri``.

A text that fails gets its error on stderr and an empty output line, so
that lines stay matched (``_cmd``); ``relativize`` can answer ``""`` too,
and ``--json`` tells the two apart.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

import urigrammar
from urigrammar import UrigrammarError

from ._batch import run_texts, texts
from ._cmd import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Command, Transform, add_text_input

__all__ = ["COMMANDS"]


if TYPE_CHECKING:
    from typing import TypeAlias

    # What a text is read into: a URI, or an IRI when it is no URI.
    _Ref: TypeAlias = urigrammar.URIReference | urigrammar.IRIReference


def _base(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", metavar="BASE", help="the base URI or IRI (it has a scheme)")


def _checked_base(text: str, err: TextIO) -> _Ref | None:
    # The base is checked once, before any text: resolving "" against it
    # raises the error a bad base gives (RFC 3986 section 5.1).  It is read
    # as resolve reads a string: a URI, or an IRI when it is no URI.
    try:
        urigrammar.resolve(text, "")
        if urigrammar.validate("URI-reference", text):
            return urigrammar.parse(text)
        return urigrammar.parse_iri(text)
    except UrigrammarError as exc:
        print(exc, file=err)
        return None


def _resolve_one(base: _Ref, strict: bool, text: str) -> _Ref:
    return urigrammar.resolve(base, text, strict=strict)


def _configure_resolve(parser: argparse.ArgumentParser) -> None:
    _base(parser)
    add_text_input(parser, "REF", "URI-references (or IRI-references) to resolve against BASE")
    parser.add_argument(
        "--non-strict",
        action="store_true",
        help="read a reference with the base's scheme as relative (RFC 3986 section 5.2.2)",
    )


def _run_resolve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    base = _checked_base(args.base, err)
    if base is None:
        return EXIT_INVALID
    work = Transform(
        functools.partial(_resolve_one, base, not args.non_strict),
        args.json,
        mask=args.mask_passwords,
    )
    return run_texts(work, texts(args), out, err, args.jobs)


def _relativize_one(base: _Ref, text: str) -> _Ref:
    return urigrammar.relativize(base, text)


def _configure_relativize(parser: argparse.ArgumentParser) -> None:
    _base(parser)
    add_text_input(parser, "TARGET", "target URIs (or IRIs) to write relative to BASE")


def _run_relativize(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    base = _checked_base(args.base, err)
    if base is None:
        return EXIT_INVALID
    work = Transform(functools.partial(_relativize_one, base), args.json, mask=args.mask_passwords)
    return run_texts(work, texts(args), out, err, args.jobs)


def _default_port(text: str) -> tuple[str, int]:
    name, _, port = text.partition("=")
    if not name or not (port.isascii() and port.isdigit()) or len(port) > 20:
        raise argparse.ArgumentTypeError(f"takes NAME=PORT, as http=80, not {text!r}")
    return name.lower(), int(port)  # scheme names compare without case (3.1)


def _normal_form_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--syntax-only",
        action="store_true",
        help="skip the scheme-based step (default ports, empty paths; RFC 3986 section 6.2.3)",
    )
    parser.add_argument(
        "--ipv6-canonical", action="store_true", help="write IPv6 hosts as RFC 5952 says"
    )
    parser.add_argument(
        "--default-port",
        action="append",
        default=[],
        type=_default_port,
        metavar="NAME=PORT",
        help="a scheme's default port, which the scheme-based step drops; adds to or "
        "replaces the built-in scheme rules (repeatable)",
    )
    parser.add_argument(
        "--empty-path-is-root",
        action="append",
        default=[],
        metavar="NAME",
        help="a scheme whose empty path under an authority means '/' (repeatable)",
    )


def _schemes(args: argparse.Namespace) -> Mapping[str, urigrammar.SchemeRule] | None:
    """The library's scheme rules with the command line's on top, or
    ``None`` (the library's own) when there are none."""
    if not args.default_port and not args.empty_path_is_root:
        return None
    import dataclasses  # here: its import costs every run of the command line

    rules = dict(urigrammar.SCHEME_RULES)
    for name, port in args.default_port:
        rules[name] = dataclasses.replace(
            rules.get(name, urigrammar.SchemeRule()), default_port=port
        )
    for name in map(str.lower, args.empty_path_is_root):
        rules[name] = dataclasses.replace(
            rules.get(name, urigrammar.SchemeRule()), empty_path_is_root=True
        )
    return rules


def _options(args: argparse.Namespace) -> urigrammar.Normalization:
    """The ``Normalization`` the command line asks for (without ``nfc``:
    an IRI's text is kept in the form it was written)."""
    return urigrammar.Normalization(
        scheme_based=not args.syntax_only,
        ipv6_canonical=args.ipv6_canonical,
        schemes=_schemes(args),
    )


def _normalize_one(options: urigrammar.Normalization, text: str) -> _Ref:
    return urigrammar.normalize(text, options)


def _configure_normalize(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "URI-references (or IRI-references) to normalize")
    _normal_form_options(parser)


def _run_normalize(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    work = Transform(
        functools.partial(_normalize_one, _options(args)), args.json, mask=args.mask_passwords
    )
    return run_texts(work, texts(args), out, err, args.jobs)


def _configure_equivalent(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="a URI-reference (or IRI-reference)")
    parser.add_argument("b", metavar="B", help="another URI-reference (or IRI-reference)")
    _normal_form_options(parser)


def _run_equivalent(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        same = urigrammar.equivalent(args.a, args.b, _options(args))
    except UrigrammarError as exc:
        # Neither "equivalent" (0) nor "not equivalent" (1): an invalid text
        # has no normal form to compare.  2, as cmp and diff say trouble.
        print(exc, file=err)
        return EXIT_USAGE
    # Said in words for a person; scripts read the exit status.
    print("equivalent" if same else "not equivalent", file=out)
    return EXIT_OK if same else EXIT_INVALID


COMMANDS = {
    "resolve": Command(
        "print the target of each URI-reference (or IRI-reference) resolved against a base "
        "(RFC 3986 section 5.2), one a line",
        _configure_resolve,
        _run_resolve,
        takes_texts=True,
    ),
    "relativize": Command(
        "print the shortest reference that resolves against a base URI (or IRI) to each "
        "target, one a line",
        _configure_relativize,
        _run_relativize,
        takes_texts=True,
    ),
    "normalize": Command(
        "print the normal form of each URI-reference (or IRI-reference; RFC 3986 section 6), "
        "one a line",
        _configure_normalize,
        _run_normalize,
        takes_texts=True,
    ),
    "equivalent": Command(
        "say whether two URI-references (or IRI-references) have the same normal form "
        "(RFC 3986 section 6): exit 0 when they do, 1 when not",
        _configure_equivalent,
        _run_equivalent,
    ),
}
