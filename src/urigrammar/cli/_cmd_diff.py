"""``urigrammar diff [--base URL] TEXT...``: where RFC 3986 and the URL
Standard (and the numeric resolver) read each text differently
(``urigrammar.differential.diff``).

One JSON object a line, in the order of the texts, whatever they come
from (arguments, ``-``, ``--file``, stdin): ``{"text": ..., "findings":
[...]}``, each finding as ``Finding.to_json`` writes it.  Exit status 1
when any text has a finding, 0 when none has; 2 when the
``urigrammar[whatwg]`` extra is missing or the base is no URL that both
read alike, found before any text is read.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

import urigrammar

from ._batch import run_texts, texts
from ._cmd import Command, Outcome, add_text_input, shown

__all__ = ["COMMANDS"]


class _Diff:
    """``diff`` on one text; picklable (the base as text) for ``--jobs``."""

    __slots__ = ("base", "mask")

    def __init__(self, base: str | None, mask: bool = False) -> None:
        self.base = base
        self.mask = mask

    def __call__(self, text: str) -> Outcome:
        found = urigrammar.differential.diff(text, self.base)
        findings = [f.to_json() for f in found]
        line = json.dumps({"text": shown(text, self.mask), "findings": findings})
        return Outcome("invalid" if found else "valid", line)


def _configure(parser: argparse.ArgumentParser) -> None:
    add_text_input(
        parser,
        "TEXT",
        "URLs to read by RFC 3986 and by the URL Standard",
        json_flag=False,
    )
    parser.add_argument(
        "--base",
        metavar="URL",
        help="resolve each text against this URL (RFC 3986 section 5.2, the URL Standard's "
        "base URL); it must be a URI that both read alike",
    )


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # The extra and the base, checked once before any text: a missing
    # can_ada or a bad base is a usage error (exit 2), not a finding.
    urigrammar.differential.diff("", args.base)
    return run_texts(_Diff(args.base, args.mask_passwords), texts(args), out, err, args.jobs)


COMMANDS = {
    "diff": Command(
        "print where RFC 3986, the URL Standard (WHATWG, read by Ada: needs "
        "urigrammar[whatwg]) and the numeric resolver read URLs differently, as JSON Lines; "
        "exit 1 on any finding",
        _configure,
        _run,
        takes_texts=True,
    ),
}
