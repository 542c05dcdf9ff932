"""``urigrammar build``, ``urigrammar encode`` and ``urigrammar decode``.

``build`` takes each part as data, as ``urigrammar.build`` does: a Unicode
host is percent-encoded as UTF-8 (RFC 3986 section 3.2.2) unless ``--idna``
asks for A-labels.  ``--query`` (the query as text) and ``--query-pair``
(one encoded ``name=value`` pair each, in order) are exclusive.
"""

from __future__ import annotations

import argparse
import functools
from typing import TextIO

import urigrammar
from urigrammar import URIError, UrigrammarError

from ._batch import run_texts, texts
from ._cmd import EXIT_INVALID, EXIT_OK, Command, Transform, add_text_input

__all__ = ["COMMANDS"]

_PARTS = {
    "scheme": "the scheme (RFC 3986 section 3.1), as it is",
    "userinfo": "the userinfo (section 3.2.1), percent-encoded where it must be",
    "host": "the host (section 3.2.2): an IP address, or a name percent-encoded as UTF-8",
    "port": "the port (section 3.2.3), digits",
    "path": "the path (section 3.3), percent-encoded where it must be",
}


def _pair(text: str) -> tuple[str, str]:
    # Split on the first "=", as query_pairs reads them; no "=" is value "".
    name, _, value = text.partition("=")
    return name, value


def _configure_build(parser: argparse.ArgumentParser) -> None:
    for part, what in _PARTS.items():
        parser.add_argument(f"--{part}", default="" if part == "path" else None, help=what)
    query = parser.add_mutually_exclusive_group()
    query.add_argument("--query", help="the query (section 3.4), percent-encoded where it must be")
    query.add_argument(
        "--query-pair",
        dest="query_pairs",
        metavar="NAME=VALUE",
        action="append",
        type=_pair,
        help="a query pair, split on its first '=' (none: the value is empty) and encoded "
        "so that '&', '=' and '+' in it survive; repeatable, kept in order",
    )
    parser.add_argument(
        "--fragment", help="the fragment (section 3.5), percent-encoded where it must be"
    )
    parser.add_argument(
        "--idna",
        action="store_true",
        help="write a non-ASCII host as IDNA A-labels instead of percent-encoding it",
    )


def _run_build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        ref = urigrammar.build(
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
            ref = ref.with_query_pairs(args.query_pairs)
    except UrigrammarError as exc:
        print(exc, file=err)
        return EXIT_INVALID
    print(ref, file=out)
    if args.host and not args.idna and not args.host.isascii():
        # RFC 3986 section 3.2.2 percent-encodes a non-ASCII reg-name, and a
        # reg-name need not be a DNS name; but one that is must reach a
        # resolver as A-labels, so the choice is said where it is made.
        print(_PERCENT_ENCODED_HOST, file=err)
    return EXIT_OK


_PERCENT_ENCODED_HOST = (
    "urigrammar: the host is percent-encoded as UTF-8 (RFC 3986 section 3.2.2); "
    "for a DNS name, --idna writes the A-labels a resolver takes"
)


def _decode_one(form: bool, errors: str, text: str) -> str:
    # "+" -> " " keeps every offset, so an error still points into `text`.
    spaced = text.replace("+", " ") if form else text
    try:
        return urigrammar.percent_decode(spaced, errors=errors)
    except UrigrammarError as exc:
        raise URIError(
            exc.message, rule=exc.rule, text=text, offset=exc.offset, secrets=exc.secrets
        ) from None


def _configure_decode(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "percent-encoded texts to decode")
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
    work = Transform(
        functools.partial(_decode_one, args.form, args.errors), args.json, mask=args.mask_passwords
    )
    return run_texts(work, texts(args), out, err, args.jobs)


def _encode_one(rule: str, keep_escapes: bool, errors: str, text: str) -> str:
    return urigrammar.percent_encode(text, rule, keep_escapes=keep_escapes, errors=errors)


#: ``encode``'s rule when ``--rule`` is not given: ``percent_encode``'s own
#: default.  Its result is data in a path segment, a query and a fragment
#: alike (pchar is in all three), since "/", "?" and "#" are encoded.
DEFAULT_ENCODE_RULE = "segment"


def _encode_rule(value: str) -> str:
    # An argparse type: a rule percent_encode does not take is a usage
    # error before any text, and the message lists the ones it takes.
    # Rule names are case-insensitive (RFC 5234 section 2.1).
    import urigrammar  # ENCODE_RULES reads the grammar: only when a text is encoded

    rules: tuple[str, ...] = urigrammar.ENCODE_RULES
    for rule in rules:
        if rule.lower() == value.lower():
            return rule
    msg = f"not a rule percent-encoding is defined for: {value!r}; one of {', '.join(rules)}"
    raise argparse.ArgumentTypeError(msg)


def _configure_encode(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "texts (any Unicode) to percent-encode")
    parser.add_argument(
        "--rule",
        type=_encode_rule,
        default=DEFAULT_ENCODE_RULE,
        # Not listed here: that would read the grammar to print help.
        help="the rule the result must match: one of urigrammar.ENCODE_RULES "
        "(userinfo, reg-name, segment, path, query, fragment, ... and their IRI forms; "
        f"an unknown rule lists them); default {DEFAULT_ENCODE_RULE}: '/', '?' and '#' "
        "encoded, data in a path segment, a query or a fragment alike",
    )
    parser.add_argument(
        "--keep-escapes",
        action="store_true",
        help="leave a '%%' that starts a valid %%XX alone (text already partly encoded)",
    )
    parser.add_argument(
        "--errors",
        choices=("strict", "surrogateescape", "surrogatepass"),
        default="strict",
        help="what to do with a lone surrogate, such as a byte of an argument that is not "
        "UTF-8 (as str.encode; surrogateescape gives that byte back)",
    )


def _run_encode(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    work = Transform(
        functools.partial(_encode_one, args.rule, args.keep_escapes, args.errors),
        args.json,
        mask=args.mask_passwords,
        rule=args.rule,
    )
    return run_texts(work, texts(args), out, err, args.jobs)


COMMANDS = {
    "build": Command(
        "print the URI (RFC 3986) made of the given parts, each percent-encoded for its rule",
        _configure_build,
        _run_build,
    ),
    "decode": Command(
        "print percent-encoded texts decoded as UTF-8, one a line",
        _configure_decode,
        _run_decode,
        takes_texts=True,
    ),
    "encode": Command(
        "print texts percent-encoded (as UTF-8) for a rule of RFC 3986 or RFC 3987 (--rule), "
        "one a line",
        _configure_encode,
        _run_encode,
        takes_texts=True,
    ),
}
