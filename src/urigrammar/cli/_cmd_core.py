"""``urigrammar parse`` and ``urigrammar validate``.

Texts come from the command line, or one a line from files and standard
input (``-``, ``--file PATH``, or stdin when no text is given), and get one
output line each whatever their source (``_cmd``): for ``validate`` a
verdict and the text, for ``parse`` a JSON object of components or
``null``; with ``--json`` a JSON Lines record.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import TextIO

import urigrammar
from urigrammar import URISyntaxError

from ._batch import run_texts, texts, worker
from ._cmd import Command, add_grammar_options, add_text_input, grammar_from

__all__ = ["COMMANDS"]


def _method(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--method",
        choices=("automata", "abnf"),
        default="automata",
        help="automata (the default: linear time) or abnf (the abnf package's own parser; "
        "a text over ABNF_MAX_LENGTH characters is reported as too long, exit 3)",
    )


def _run(kind: str, rule: str, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    grammar = getattr(args, "grammar", None)
    files = None if grammar is None else (grammar, tuple(args.imports))
    work = worker(kind, rule, args.method, args.json, files, mask=args.mask_passwords)
    return run_texts(work, texts(args), out, err, args.jobs)


def _configure_parse(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "URI-references to parse (IRI-references with --iri)")
    parser.add_argument(
        "--rule",
        default=None,
        help="the rule to parse by: one of "
        f"{', '.join(urigrammar.PARSE_RULES)} (default URI-reference), or with --iri one "
        f"of {', '.join(urigrammar.IRI_PARSE_RULES)} (default IRI-reference)",
    )
    parser.add_argument(
        "--iri",
        action="store_true",
        help="parse IRI-references (RFC 3987): non-ASCII characters allowed, bidi "
        "formatting characters refused (section 4.1)",
    )
    _method(parser)


def _run_parse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rules = urigrammar.IRI_PARSE_RULES if args.iri else urigrammar.PARSE_RULES
    rule = rules[0] if args.rule is None else args.rule
    # A rule parse does not take is a usage error before any text is read:
    # parse("") raises it (an unknown or unparseable rule) or a syntax
    # error, which says only that "" is not a text of a good rule.
    with contextlib.suppress(URISyntaxError):
        (urigrammar.parse_iri if args.iri else urigrammar.parse)("", rule)
    return _run("parse-iri" if args.iri else "parse", rule, args, out, err)


def _configure_validate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "rule",
        metavar="RULE",
        help="a rule name (any case) of RFC 3986 (URI, host, ...), RFC 3987 (IRI, ihost, "
        "...), RFC 6570 (URI-Template, varname, ...) or RFC 5234's core rules (ALPHA, ...); "
        "with --grammar, of that file, its imports or the core rules.  The text is "
        "checked against that rule's ABNF only, so IRI rules accept the bidi formatting "
        "characters RFC 3987 section 4.1 forbids (parse --iri refuses them)",
    )
    add_text_input(parser, "TEXT", "texts to check against RULE")
    _method(parser)
    add_grammar_options(parser)


def _run_validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # A grammar that does not load, or an unknown rule: a usage error, up
    # front, before any text is read.
    grammar = grammar_from(args.grammar, tuple(args.imports), args.rule)
    grammar.canonical(args.rule)
    return _run("validate", args.rule, args, out, err)


COMMANDS = {
    "parse": Command(
        "print the components of URI-references (or IRI-references, --iri) as a JSON object a line",
        _configure_parse,
        _run_parse,
        takes_texts=True,
    ),
    "validate": Command(
        "check texts against a rule, by name: of RFC 3986 (URIs), RFC 3987 (IRIs), "
        "RFC 6570 (URI Templates), RFC 5234's core rules, or any ABNF file (--grammar)",
        _configure_validate,
        _run_validate,
        takes_texts=True,
    ),
}
