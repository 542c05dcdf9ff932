"""``urigrammar diff [--base URL] [--reader NAME]... TEXT...``: where RFC
3986 and the URL Standard (and the numeric resolver), or the named
readers, read each text differently (``urigrammar.differential.diff``).
``urigrammar check-host --allow HOST... TEXT...``: whether each URL passes
a ``HostPolicy``.

One JSON object a line, in the order of the texts, whatever they come
from (arguments, ``-``, ``--file``, stdin): ``{"text": ..., "findings":
[...]}``, each finding as ``Finding.to_json`` writes it.  Exit status 1
when any text has a finding, 0 when none has; 2 when the
``urigrammar[whatwg]`` extra is missing or the base is no URL that both
read alike, found before any text is read.

check-host prints the host of each URL it allows, one a line, and the
reason for each it refuses on stderr (an empty line on stdout); with
``--json`` a record a text, ``{"text", "valid", "host", "error"}``.  Exit
status 1 when any URL is refused.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

import urigrammar

from ._batch import run_texts, texts
from ._cmd import Command, Outcome, UsageError, add_text_input, json_line, shown, verdict_of

__all__ = ["COMMANDS"]


class _Diff:
    """``diff`` on one text; picklable (the base as text) for ``--jobs``."""

    __slots__ = ("base", "mask", "readers")

    def __init__(
        self, base: str | None, mask: bool = False, readers: tuple[str, ...] | None = None
    ) -> None:
        self.base = base
        self.mask = mask
        self.readers = readers

    def __call__(self, text: str) -> Outcome:
        found = urigrammar.differential.diff(text, self.base, self.readers)
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
    parser.add_argument(
        "--reader",
        metavar="NAME",
        action="append",
        choices=list(urigrammar.differential.READERS),
        help="a reader to compare, in place of RFC 3986 and the URL Standard (repeat it: "
        "two or more; name rfc3986 and whatwg to keep them): "
        + ", ".join(urigrammar.differential.READERS),
    )


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # The extras and the base, checked once before any text: a missing
    # library or a bad base is a usage error (exit 2), not a finding.
    readers = None if args.reader is None else tuple(args.reader)
    if readers is not None and len(set(readers)) < 2:
        msg = "name two readers or more with --reader"
        raise UsageError(msg)
    urigrammar.differential.diff("http://a/", args.base, readers)
    job = _Diff(args.base, args.mask_passwords, readers)
    return run_texts(job, texts(args), out, err, args.jobs)


class _CheckHost:
    """``HostPolicy.check`` on one text; picklable for ``--jobs``."""

    __slots__ = ("as_json", "policy")

    def __init__(self, policy: urigrammar.differential.HostPolicy, as_json: bool) -> None:
        self.policy = policy
        self.as_json = as_json

    def __call__(self, text: str) -> Outcome:
        masked = urigrammar.mask_password(text)
        try:
            host = self.policy.check(text)
        except urigrammar.UrigrammarError as exc:
            if self.as_json:
                return Outcome(verdict_of(exc), json_line(masked, {"host": None}, exc))
            return Outcome(verdict_of(exc), "", str(exc))
        if self.as_json:
            return Outcome("valid", json_line(masked, {"host": host}))
        return Outcome("valid", host)


def _configure_check_host(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "URL", "URLs to check", mask_flag=False)
    parser.add_argument(
        "--allow",
        action="append",
        metavar="HOST",
        help="an allowed host: a name, a '*.' wildcard (more labels before a dot), or an IP "
        "address (repeatable); without any, every host but the internal addresses",
    )
    parser.add_argument(
        "--scheme",
        action="append",
        metavar="SCHEME",
        help="an allowed scheme among http, https, ws, wss (repeatable; default http and https)",
    )
    parser.add_argument(
        "--port",
        action="append",
        type=int,
        metavar="N",
        help="an allowed port (repeatable; default each scheme's own)",
    )
    parser.add_argument(
        "--allow-internal",
        action="store_true",
        help="let loopback, private, link-local, multicast and other internal addresses pass",
    )


def _run_check_host(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # The policy and the extra, before any text: a bad policy or a missing
    # can_ada is a usage error (exit 2).
    urigrammar.differential.agreed_host("http://example.com/")
    try:
        policy = urigrammar.differential.HostPolicy(
            args.allow,
            schemes=args.scheme or ("http", "https"),
            ports=args.port,
            allow_internal=args.allow_internal,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return run_texts(_CheckHost(policy, args.json), texts(args), out, err, args.jobs)


COMMANDS = {
    "diff": Command(
        "print where RFC 3986, the URL Standard (WHATWG, read by Ada: needs "
        "urigrammar[whatwg]) and the numeric resolver read URLs differently, as JSON Lines; "
        "exit 1 on any finding",
        _configure,
        _run,
        takes_texts=True,
    ),
    "check-host": Command(
        "print the host of each URL that an allow list of hosts, schemes and ports lets "
        "through, decided on the host RFC 3986, the URL Standard and the numeric resolver "
        "agree on (needs urigrammar[whatwg]); exit 1 on any refused",
        _configure_check_host,
        _run_check_host,
        takes_texts=True,
    ),
}
