"""``urigrammar to-uri`` and ``urigrammar to-iri``: the mappings of RFC
3987 sections 3.1 and 3.2, one result a line, in the order of the texts.

A text that fails gets its error on stderr and an empty output line, as
for ``resolve`` and ``normalize`` (``_cmd``).
"""

from __future__ import annotations

import argparse
import functools
from typing import TextIO

import urigrammar

from ._batch import run_texts, texts
from ._cmd import Command, Transform, add_text_input

__all__ = ["COMMANDS"]


def _to_uri_one(idna: bool, allow_bidi: bool, text: str) -> urigrammar.URIReference:
    return urigrammar.to_uri(text, idna=idna, allow_bidi=allow_bidi)


def _configure_to_uri(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "IRI", "IRI-references to map to URI-references")
    parser.add_argument(
        "--idna",
        action="store_true",
        help="write a non-ASCII host as IDNA A-labels (xn--...) instead of percent-encoding it",
    )
    parser.add_argument(
        "--allow-bidi",
        action="store_true",
        help="accept bidi formatting characters (RFC 3987 section 4.1 forbids them) and "
        "percent-encode them",
    )


def _run_to_uri(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    work = Transform(
        functools.partial(_to_uri_one, args.idna, args.allow_bidi),
        args.json,
        mask=args.mask_passwords,
    )
    return run_texts(work, texts(args), out, err, args.jobs)


def _to_iri_one(idna: bool, text: str) -> urigrammar.IRIReference:
    return urigrammar.to_iri(text, idna=idna)


def _configure_to_iri(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "URI", "URI-references to map to IRI-references")
    parser.add_argument(
        "--idna",
        action="store_true",
        help="write a host's IDNA A-labels (xn--...) as Unicode (U-labels)",
    )


def _run_to_iri(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    work = Transform(functools.partial(_to_iri_one, args.idna), args.json, mask=args.mask_passwords)
    return run_texts(work, texts(args), out, err, args.jobs)


COMMANDS = {
    "to-uri": Command(
        "map IRI-references to URI-references (RFC 3987 section 3.1), one a line",
        _configure_to_uri,
        _run_to_uri,
        takes_texts=True,
    ),
    "to-iri": Command(
        "map URI-references to IRI-references (RFC 3987 section 3.2), one a line",
        _configure_to_iri,
        _run_to_iri,
        takes_texts=True,
    ),
}
