"""What every command-line command is made of (see ``_cli``).

A command that takes texts adds them with ``add_text_input`` (texts as
arguments, ``-`` and ``--file`` for lines, ``--jobs``) and turns each text
into an ``Outcome``: the line for stdout, the message for stderr, and a
verdict.  ``_batch.run_texts`` feeds it the texts and folds the verdicts
into the exit status.

Output, the same shape whatever the texts come from (arguments, ``-``,
``--file``): one line per text, in input order, failures included, so that
line n of the output is about text n.

* By default the result as it is: ``validate``'s verdict, a tab and the
  text; ``parse``'s components and ``match``'s variables as a JSON object;
  the text that ``resolve``, ``normalize``, ``encode``... give.  A text
  that fails has its error on stderr and, on stdout, ``validate``'s
  ``invalid`` line, ``null`` for ``parse`` and ``match``, and an empty line
  for the others (``--json`` tells it from an empty result).
* With ``--json``, JSON Lines: one object per text with the same keys
  whether it failed or not (``json_line``).

``explain`` draws multi-line pictures for people, each starting with its
text; a text that fails has its error on stderr only.

Exit statuses, the same for every command that takes texts:

* 0 (``EXIT_OK``): every text was valid;
* 1 (``EXIT_INVALID``): some text was invalid;
* 2 (``EXIT_USAGE``): a usage error (an unknown option or rule, no texts
  on a terminal, ``--jobs 0``) or input/output that cannot be read or
  written (a missing ``--file``, a closed stdin or stdout);
* 3 (``EXIT_UNDECIDED``): no text was invalid, but some could not be
  decided (``--method abnf`` refuses texts over ``ABNF_MAX_LENGTH``);
* 130 (``EXIT_INTERRUPTED``): interrupted (Ctrl-C, SIGINT), for every
  command: 128 plus the signal's number, as shells report it.

The verdicts combine as a three-valued "and" (Kleene's): one invalid text
answers "is every text valid?" with no, whatever the undecided ones would
turn out to be, so 1 wins over 3.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
from collections.abc import Callable, Iterable
from typing import Any, Literal, NamedTuple, TextIO

import urigrammar
from urigrammar import InputTooLongError, UrigrammarError, URISyntaxError

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNDECIDED",
    "EXIT_USAGE",
    "Command",
    "Outcome",
    "Transform",
    "UsageError",
    "add_grammar_options",
    "add_text_input",
    "exit_status",
    "grammar_from",
    "json_line",
    "message",
    "shown",
]

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_UNDECIDED = 0, 1, 2, 3
EXIT_INTERRUPTED = 130

Verdict = Literal["valid", "invalid", "undecided"]


class UsageError(Exception):
    """A problem with how the command was called or with its streams, not
    with a text: ``_cli`` prints it on one line and exits with 2."""


class Command(NamedTuple):
    """One subcommand: ``configure`` adds its arguments to its parser, ``run``
    does the work and returns the exit status.  ``takes_texts`` says that
    its parser has the ``text`` and ``--file`` of ``add_text_input``, so that
    ``_cli`` can read stdin when neither is given."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO, TextIO], int]
    takes_texts: bool = False


class Outcome(NamedTuple):
    """What one text gave: ``out`` goes to stdout and ``err`` to stderr, one
    line each (``None``: nothing)."""

    verdict: Verdict
    out: str | None = None
    err: str | None = None


def exit_status(verdicts: Iterable[Verdict]) -> int:
    """The exit status for a run with these verdicts (see the module
    docstring for why an invalid text outranks an undecided one)."""
    seen = set(verdicts)
    if "invalid" in seen:
        return EXIT_INVALID
    if "undecided" in seen:
        return EXIT_UNDECIDED
    return EXIT_OK


def verdict_of(exc: UrigrammarError) -> Verdict:
    # A text the abnf engine refused for its length may well be valid: it
    # was not judged, so it must never be reported as invalid.
    return "undecided" if isinstance(exc, InputTooLongError) else "invalid"


def message(exc: UrigrammarError) -> str:
    """The error's one-line message as ``str(exc)`` shows it (the caret
    excerpt that follows is left off).  Always through ``str`` so that what
    ``UrigrammarError`` hides there (a password) stays hidden here too."""
    return str(exc).split("\n", 1)[0]


def _kind(exc: UrigrammarError) -> str:
    if isinstance(exc, InputTooLongError):
        return "too-long"
    if isinstance(exc, URISyntaxError):
        return "syntax"
    return "invalid"


def shown(text: str, mask: bool, rule: str | None = None) -> str:
    """``text`` as stdout shows it: with its password masked when asked
    (``--mask-passwords``), read as a text of ``rule`` (a userinfo, an
    authority, or else a URI), else as given."""
    return urigrammar.mask_password(text, rule) if mask else text


def json_line(text: str, fields: dict[str, Any], exc: UrigrammarError | None = None) -> str:
    """The JSON Lines record of one text, with the same keys whether it
    failed or not: ``text``; ``valid``, ``true``, ``false``, or ``null``
    for a text not decided (too long for ``--method abnf``); the command's
    ``fields``, each ``null`` when the text failed; and ``error``, ``null``
    unless it failed: ``{"offset", "message", "kind"}``, where ``kind`` is
    ``syntax``, ``too-long`` or ``invalid`` (any other error, such as
    malformed percent-encoding)."""
    if exc is None:
        return json.dumps({"text": text, "valid": True, **fields, "error": None})
    error = {"offset": exc.offset, "message": message(exc), "kind": _kind(exc)}
    valid = None if isinstance(exc, InputTooLongError) else False
    return json.dumps({"text": text, "valid": valid, **dict.fromkeys(fields), "error": error})


class Transform:
    """The work of a command that turns each text into another text
    (``resolve``, ``normalize``, ``encode``...).  Picklable when
    ``compute`` is (a module-level function or a ``functools.partial`` of
    one), so that ``--jobs`` can send it to worker processes.
    ``line_per_text``: whether a text that fails gets an empty line, so
    that lines stay matched; ``explain``'s pictures start with their text
    and need none.  (A plain class: a dataclass would cost the command
    line's start the import of ``dataclasses``.)"""

    __slots__ = ("compute", "json", "line_per_text", "mask", "rule")

    def __init__(
        self,
        compute: Callable[[str], object],
        json: bool = False,
        line_per_text: bool = True,
        mask: bool = False,
        rule: str | None = None,
    ) -> None:
        self.compute = compute
        self.json = json
        self.line_per_text = line_per_text
        #: Whether the text and the result are shown with their passwords
        #: masked (``--mask-passwords``); ``rule``, the rule both are texts
        #: of, when not whole URIs (``encode --rule userinfo``).
        self.mask = mask
        self.rule = rule

    def __call__(self, text: str) -> Outcome:
        try:
            result = shown(str(self.compute(text)), self.mask, self.rule)
        except UrigrammarError as exc:
            if self.json:
                line = json_line(shown(text, self.mask, self.rule), {"result": None}, exc)
                return Outcome(verdict_of(exc), line)
            return Outcome(verdict_of(exc), "" if self.line_per_text else None, str(exc))
        if self.json:
            record = json_line(shown(text, self.mask, self.rule), {"result": result})
            return Outcome("valid", record)
        return Outcome("valid", result)


def _jobs(value: str) -> int:
    # An argparse type: a bad value is a usage error (exit 2) before any
    # text is read, in every mode.
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"takes a number of processes from 1 up, not {jobs}")
    if jobs > MAX_JOBS:
        # Each job is a process: a huge number forks until memory runs out.
        msg = f"takes at most {MAX_JOBS} processes on this machine, not {jobs}"
        raise argparse.ArgumentTypeError(msg)
    return jobs


#: The most processes ``--jobs`` starts: four per CPU, and 64 at least.
MAX_JOBS = max(64, 4 * (os.cpu_count() or 1))


def add_text_input(
    parser: argparse.ArgumentParser,
    metavar: str,
    what: str,
    *,
    json_flag: bool = True,
    mask_flag: bool = True,
) -> None:
    """The texts of a command: as arguments, ``-`` for the lines of stdin,
    ``--file`` for the lines of a file; with none of them stdin is read (or,
    on a terminal, it is a usage error).  Also ``--jobs``, ``--json`` and
    ``--mask-passwords``."""
    parser.add_argument(
        "text",
        metavar=metavar,
        nargs="*",
        help=f"{what}; '-' reads them from stdin, one a line; with none (and no --file) "
        "stdin is read when it is not a terminal; put '--' before a text that starts with '-'",
    )
    parser.add_argument(
        "--file",
        action="append",
        default=[],
        metavar="PATH",
        help="read texts from PATH, one a line (repeatable; after the argument texts)",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help=(
            "spread the texts over N worker processes (output stays in input order); "
            "they start only where a text takes longer than sending it to one, "
            "which validate and parse on the automata do not"
        ),
    )
    if json_flag:
        parser.add_argument(
            "--json",
            action="store_true",
            help="one JSON object a line (JSON Lines), one per text, in input order",
        )
    if mask_flag:
        parser.add_argument(
            "--mask-passwords",
            action="store_true",
            help="write the password of a userinfo (user:password@) as **** on stdout; "
            "errors on stderr never show it, and without this stdout holds the texts as given",
        )


def add_grammar_options(parser: argparse.ArgumentParser) -> None:
    """``--grammar FILE`` and ``--import FILE``: rules from any ABNF file."""
    parser.add_argument(
        "--grammar",
        metavar="FILE",
        help="an ABNF file (RFC 5234, rules in column 0) to take the rule from instead of "
        "the shipped grammars; compiled once into the cache (urigrammar cache dir)",
    )
    parser.add_argument(
        "--import",
        dest="imports",
        metavar="FILE",
        action="append",
        default=[],
        help="an ABNF file whose rules fill what --grammar uses but does not define "
        "(repeatable; two that define one rule differently are an error, which the "
        "--grammar file settles by defining it)",
    )


@functools.cache
def grammar_from(
    path: str | None, imports: tuple[str, ...] = (), rule: str | None = None
) -> urigrammar.Grammar:
    """The grammar that ``--grammar`` and ``--import`` name, loaded once per
    process; when neither is given, the shipped grammar that defines
    ``rule`` (RFC 3986, RFC 3987, ...), or RFC 3986."""
    if path is None:
        if imports:
            msg = "--import fills gaps of a --grammar file: give --grammar too"
            raise UsageError(msg)
        return urigrammar.RFC3986 if rule is None else urigrammar.grammar_of(rule)
    # The per-user cache (urigrammar cache dir): a grammar file is read and
    # compiled once, not by every run; a cache that fails its checks is
    # passed by.
    from pathlib import Path  # only for --grammar

    loaded = tuple(urigrammar.load_grammar(Path(i), cache=True) for i in imports)
    return urigrammar.load_grammar(Path(path), imports=loaded, cache=True)
