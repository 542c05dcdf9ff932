"""``urigrammar canonicalize``: the key of each URI-reference (or
IRI-reference), one a line, in the order of the texts (``canonicalize``).
``urigrammar surt``: the SURT of each (``surt``), one a line.
``urigrammar domain``: the registrable domain of each (``registrable_domain``),
or its public suffix, one a line, empty for none (``null`` in JSON), the
text's password masked in JSON, always.
``urigrammar lint``: the RFCs' advice on each text (``lint``).

canonicalize's options turn ``Canonicalization``'s steps on, one flag
each, over the defaults or, with ``--crawl``, over ``CRAWL_KEY``;
``--drop-param`` adds names or globs to those dropped.  A text that fails
gets its error on stderr and an empty output line, as the other text
commands do (``_cmd``).

lint prints a line for each finding, the text (its password masked, always:
a finding may be about it) then the finding, and nothing for a text with
none; its exit status is 1 when any text has a finding or is invalid.
"""

from __future__ import annotations

import argparse
import functools
from typing import TextIO

import urigrammar
from urigrammar import UrigrammarError

from ._batch import run_texts, texts
from ._cmd import (
    EXIT_USAGE,
    Command,
    Outcome,
    Transform,
    Verdict,
    add_text_input,
    json_line,
    verdict_of,
)

__all__ = ["COMMANDS"]

#: Each on/off step: its flag's name, the ``Canonicalization`` field, help.
_STEPS = (
    ("--idna", "idna", "hosts that are internationalized domain names as A-labels"),
    ("--drop-fragment", "drop_fragment", "drop the fragment"),
    ("--sort-query", "sort_query", "sort the query's pieces by name, stable"),
    ("--drop-empty-query", "drop_empty_query", "drop an empty query with its '?'"),
    ("--drop-www", "drop_www", "drop a host's leading 'www.' label"),
)


def _configure(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "URI-references (or IRI-references) to canonicalize")
    parser.add_argument(
        "--crawl",
        action="store_true",
        help="start from the crawl preset (CRAWL_KEY): A-labels, RFC 5952 IPv6, no fragment, "
        "no tracking parameters, the query sorted, no empty query",
    )
    for flag, field, what in _STEPS:
        parser.add_argument(flag, dest=field, action="store_true", help=what)
    parser.add_argument(
        "--drop-param",
        action="append",
        default=[],
        metavar="NAME",
        help="drop the query pieces of this name or shell-style glob, such as 'utm_*' (repeatable)",
    )
    parser.add_argument(
        "--drop-tracking",
        action="store_true",
        help="drop the tracking parameters (TRACKING_PARAMETERS: utm_*, gclid, fbclid...)",
    )
    parser.add_argument(
        "--ipv6-canonical", action="store_true", help="IPv6 hosts in RFC 5952 text form"
    )
    parser.add_argument(
        "--nfc", action="store_true", help="IRI text in Unicode Normalization Form C"
    )


def options(
    args: argparse.Namespace, start: urigrammar.Canonicalization | None = None
) -> urigrammar.Canonicalization:
    """The ``Canonicalization`` the command line asks for: its steps over
    ``start``, or over ``CRAWL_KEY`` (``--crawl``) or the defaults."""
    import dataclasses  # here: its import costs every run of the command line

    if start is None:
        start = urigrammar.CRAWL_KEY if args.crawl else urigrammar.Canonicalization()
    chosen = {field: True for _, field, _ in _STEPS if getattr(args, field)}
    dropped = [*start.drop_parameters, *args.drop_param]
    if args.drop_tracking:
        dropped += urigrammar.TRACKING_PARAMETERS
    normal = start.normalization
    if args.ipv6_canonical or args.nfc:
        normal = dataclasses.replace(
            normal,
            ipv6_canonical=normal.ipv6_canonical or args.ipv6_canonical,
            nfc=normal.nfc or args.nfc,
        )
    return dataclasses.replace(
        start, normalization=normal, drop_parameters=tuple(dict.fromkeys(dropped)), **chosen
    )


def _canonical(rules: urigrammar.Canonicalization, text: str) -> str:
    return urigrammar.canonicalize(text, rules)


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    work = Transform(
        functools.partial(_canonical, options(args)), args.json, mask=args.mask_passwords
    )
    return run_texts(work, texts(args), out, err, args.jobs)


def _configure_surt(parser: argparse.ArgumentParser) -> None:
    _configure(parser)
    parser.add_argument(
        "--with-scheme", action="store_true", help="write 'scheme://(' before the host"
    )
    parser.add_argument(
        "--trailing-comma", action="store_true", help="a ',' after the host's last label"
    )


def _surt_one(rules: urigrammar.Canonicalization, with_scheme: bool, comma: bool, text: str) -> str:
    return urigrammar.surt(text, rules, with_scheme=with_scheme, trailing_comma=comma)


def _run_surt(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # The step flags add to SURT_KEY, which --crawl's steps are part of.
    rules = options(args, urigrammar.SURT_KEY)
    compute = functools.partial(_surt_one, rules, args.with_scheme, args.trailing_comma)
    work = Transform(compute, args.json, mask=args.mask_passwords)
    return run_texts(work, texts(args), out, err, args.jobs)


def _domain_one(suffix: bool, private: bool, as_json: bool, text: str) -> Outcome:
    find = urigrammar.public_suffix if suffix else urigrammar.registrable_domain
    field = "public_suffix" if suffix else "registrable_domain"
    shown = urigrammar.mask_password(text)
    try:
        found = find(text, private=private)
    except UrigrammarError as exc:  # a text of more than the engines take
        if as_json:
            return Outcome(verdict_of(exc), json_line(shown, {field: None}, exc))
        return Outcome(verdict_of(exc), "", str(exc))
    if as_json:
        return Outcome("valid", json_line(shown, {field: found}))
    return Outcome("valid", found or "")


def _configure_domain(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "URI-references, IRI-references or host names", mask_flag=False)
    parser.add_argument(
        "--suffix", action="store_true", help="the public suffix instead of the registrable domain"
    )
    parser.add_argument(
        "--icann", action="store_true", help="the Public Suffix List's ICANN section only"
    )


def _run_domain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        urigrammar.public_suffix_list_version()
    except urigrammar.MissingExtraError as exc:
        # Once, before any text: every text would fail alike.
        print(exc, file=err)
        return EXIT_USAGE
    work = functools.partial(_domain_one, args.suffix, not args.icann, args.json)
    return run_texts(work, texts(args), out, err, args.jobs)


def _lint_one(as_json: bool, text: str) -> Outcome:
    shown = urigrammar.mask_password(text)
    try:
        findings = urigrammar.lint(text)
    except UrigrammarError as exc:
        if as_json:
            return Outcome(verdict_of(exc), json_line(shown, {"findings": None}, exc))
        return Outcome(verdict_of(exc), None, str(exc))
    verdict: Verdict = "invalid" if findings else "valid"
    if as_json:
        records = [
            {
                "code": f.code,
                "severity": f.severity,
                "section": f.section,
                "offset": f.offset,
                "length": f.length,
                "message": f.message,
            }
            for f in findings
        ]
        return Outcome(verdict, json_line(shown, {"findings": records}))
    return Outcome(verdict, "\n".join(f"{shown}\t{f}" for f in findings) or None)


def _configure_lint(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "URI-references (or IRI-references) to lint", mask_flag=False)


def _run_lint(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return run_texts(functools.partial(_lint_one, args.json), texts(args), out, err, args.jobs)


COMMANDS = {
    "canonicalize": Command(
        "print the key of each URI-reference (or IRI-reference): one string for every "
        "spelling of one resource, and with options the steps crawlers take beyond "
        "equivalence, one a line",
        _configure,
        _run,
        takes_texts=True,
    ),
    "surt": Command(
        "print the SURT of each URI-reference (or IRI-reference), the web archives' "
        "sort-friendly key: its host's labels reversed, then its path and query, one a line",
        _configure_surt,
        _run_surt,
        takes_texts=True,
    ),
    "domain": Command(
        "print the registrable domain of each URI-reference (or IRI-reference, or host name) "
        "from the Public Suffix List, or its public suffix, one a line (empty for none; "
        "needs urigrammar[psl])",
        _configure_domain,
        _run_domain,
        takes_texts=True,
    ),
    "lint": Command(
        "print the advice RFC 3986, RFC 3987, RFC 5952 and RFC 9110 give about how each "
        "URI-reference (or IRI-reference) is written, a line a finding: exit 1 when any",
        _configure_lint,
        _run_lint,
        takes_texts=True,
    ),
}
