r"""``urigrammar explain`` and ``urigrammar rules``: the grammar, shown.

``explain`` draws the picture of RFC 3986 section 3 for any URI-reference::

    foo://example.com:8042/over/there?name=ferret#nose
    \_/   \______________/\_________/ \_________/ \__/
     |           |             |           |       |
    scheme   authority        path       query  fragment

then a second tier for the authority (userinfo, the host with the rule it
matched, port) and the path's segments.  How it is drawn:

* Spans come from the parsed reference.  ``parse`` gives the text back
  exactly (``str(parse(t)) == t``), so each component's offset follows from
  the recomposition order of section 5.3: scheme ":" "//" authority path
  "?" query "#" fragment, and in the authority userinfo "@" host ":" port.
* A component of n >= 2 characters gets a brace ``\__/`` n wide, one of a
  single character a ``^``.  An empty component (``http://a?`` has the
  query ``""``) has no character to mark: its ``^`` goes under the character
  just before where it sits, which is always a delimiter (the ``?`` of an
  empty query, the ``#`` of an empty fragment, the ``:`` of an empty port,
  the ``@`` before an empty host, the second ``/`` of ``//`` before an empty
  authority, userinfo or host), and its label says ``(empty)``.  No two
  components of a tier share that character.  The empty path has no
  delimiter and gets no mark; the segment list says the path is empty.
* A line drops from each brace's middle column (left of the middle for an
  even width) to its label, which is centered on it.  Labels are placed
  from the right: each goes on the highest row where it keeps a blank
  column from the labels beside it and neither covers nor touches a line
  still going down, shifted along its own line if that helps (a label
  always covers its own line).  It never covers the line of a component to
  its left, so a fresh row always has room.  Where labels crowd (``a:b``),
  the left one goes a row lower and its line is carried down past the
  right one.
* Every character of a valid URI-reference is printable ASCII other than
  space (the grammar admits no other), so the text is drawn as it is and a
  column is a character.  A text that is no URI-reference but an
  IRI-reference (RFC 3987) is drawn too: its spans are measured in terminal
  columns (``urigrammar.display_width``, which places the caret of every
  error message too: two for an East Asian wide character, none for a
  combining mark or a format character), so the braces stay under their
  characters.  Text that is neither gets the caret message instead, which
  escapes unprintable characters (``_errors``).
* Color: each component's brace, line and label get an ANSI color of
  their own when ``out`` is a terminal and ``NO_COLOR`` is not set to any
  value, the empty one included; never otherwise.
* Length: a picture takes about 160 bytes of memory per character of the
  text (a cell per column per row while it is laid out), so a text over
  ``EXPLAIN_MAX_LENGTH`` characters is refused, before it is parsed, with
  ``InputTooLongError``: not drawn, and so undecided (exit 3), as ``parse``
  would still read it.  No person reads a picture that wide anyway.

``rules`` prints rule definitions as written in their grammar files
(comments and line breaks kept): every rule of the shipped grammars (RFC
3986, what RFC 3987 and RFC 6570 add), or of a ``--grammar`` file and its
imports, or one rule and those it uses.  When the rules printed come from
more than one file, each file's are grouped under a comment naming its
grammar (``; --- RFC 3987 ---``), as ``head`` labels its files only when
given several.  The RFC 5234 core rules (ALPHA, DIGIT, ...) have no text in
any file: they come from the ``abnf`` package and are listed last, each as
an ABNF comment, so the output is itself an ABNF rule list.
"""

from __future__ import annotations

import argparse
import functools
import os
from collections.abc import Sequence
from typing import NamedTuple, TextIO

import urigrammar
from urigrammar import InputTooLongError, URISyntaxError, display_width

from ._batch import run_texts, texts
from ._cmd import EXIT_OK, Command, Transform, add_grammar_options, add_text_input, grammar_from

__all__ = ["COMMANDS", "EXPLAIN_MAX_LENGTH", "explain"]

#: The longest text ``explain`` draws: about 16 MB and half a second at most.
EXPLAIN_MAX_LENGTH = 100_000

# SGR codes, one per component; the authority's parts use bright ones.
_COLORS = {
    "scheme": "31",
    "authority": "32",
    "path": "33",
    "query": "34",
    "fragment": "35",
    "userinfo": "96",
    "host": "92",
    "port": "93",
}
_RESET = "\x1b[0m"


class _Mark(NamedTuple):
    """One component to draw: its name (which picks the color), its label
    and its span ``[start, stop)`` in the text."""

    name: str
    label: str
    start: int
    stop: int

    @property
    def cells(self) -> range:
        """The columns the brace takes: the span, or for an empty component
        the character before it."""
        if self.start == self.stop:
            return range(self.start - 1, self.start)
        return range(self.start, self.stop)

    @property
    def line(self) -> int:
        """The column the line to the label drops from."""
        return self.cells.start + (len(self.cells) - 1) // 2

    @property
    def brace(self) -> str:
        width = len(self.cells)
        return "^" if width == 1 else "\\" + "_" * (width - 2) + "/"


def _mark(name: str, start: int, value: str, kind: str | None = None) -> _Mark:
    notes = [kind] if kind else []
    if not value:
        notes.append("empty")
    label = f"{name} ({', '.join(notes)})" if notes else name
    return _Mark(name, label, start, start + display_width(value))


def _authority_marks(ref: urigrammar.Reference, at: int) -> list[_Mark]:
    """``[ userinfo "@" ] host [ ":" port ]`` from column ``at`` on."""
    assert ref.host is not None
    marks: list[_Mark] = []
    if ref.userinfo is not None:
        marks.append(_mark("userinfo", at, ref.userinfo))
        at += display_width(ref.userinfo) + 1
    marks.append(_mark("host", at, ref.host, ref.host_kind))
    at += display_width(ref.host)
    if ref.port_text is not None:
        marks.append(_mark("port", at + 1, ref.port_text))
    return marks


def _marks(ref: urigrammar.Reference) -> tuple[list[_Mark], list[_Mark]]:
    """The components (section 3) and the authority's parts (section 3.2),
    at their columns in ``str(ref)``."""
    top: list[_Mark] = []
    parts: list[_Mark] = []
    at = 0
    if ref.scheme is not None:
        top.append(_mark("scheme", at, ref.scheme))
        at += display_width(ref.scheme) + 1
    authority = ref.authority
    if authority is not None:
        at += 2
        top.append(_mark("authority", at, authority))
        parts = _authority_marks(ref, at)
        at += display_width(authority)
    if ref.path:
        top.append(_mark("path", at, ref.path))
        at += display_width(ref.path)
    if ref.query is not None:
        top.append(_mark("query", at + 1, ref.query))
        at += 1 + display_width(ref.query)
    if ref.fragment is not None:
        top.append(_mark("fragment", at + 1, ref.fragment))
    return top, parts


def _place(lines: Sequence[int], widths: Sequence[int]) -> list[tuple[int, int]]:
    """Where each label goes, as (row, first column): ``lines`` are the
    columns the labels hang from, strictly increasing, ``widths`` their
    lengths.  See the module docstring for the rules."""
    placed: dict[int, tuple[int, int]] = {}

    def fits(i: int, row: int, start: int) -> bool:
        stop = start + widths[i]
        for j, (other_row, other_start) in placed.items():
            if other_row == row and start <= other_start + widths[j] and other_start <= stop:
                return False  # overlaps, or leaves no blank column between
            if other_row > row and start - 1 <= lines[j] <= stop:
                return False  # would cut or touch a line still on its way down
        return True

    for i in reversed(range(len(lines))):
        line, width = lines[i], widths[i]
        # Off the line of the component to the left, and a blank column away
        # from it unless the two lines are next to each other.
        lowest = max(line - width + 1, min(lines[i - 1] + 2, line) if i else 0)
        centered = min(max(line - (width - 1) // 2, lowest), line)
        starts = sorted(range(lowest, line + 1), key=lambda s: (abs(s - centered), s))
        row = 0
        while (i not in placed) and row <= len(lines):
            for start in starts:
                if fits(i, row, start):
                    placed[i] = (row, start)
                    break
            row += 1
        assert i in placed  # a row below every label always has room
    return [placed[i] for i in range(len(lines))]


_Cell = tuple[str, str | None]  # a character and the component it draws


def _render(cells: dict[int, _Cell], color: bool) -> str:
    chunks: list[str] = []
    current: str | None = None
    for column in range(max(cells, default=-1) + 1):
        char, name = cells.get(column, (" ", None))
        code = _COLORS[name] if color and name is not None else None
        if code != current:
            chunks.append(_RESET if current is not None else "")
            chunks.append(f"\x1b[{code}m" if code is not None else "")
            current = code
        chunks.append(char)
    if current is not None:
        chunks.append(_RESET)
    return "".join(chunks)


def _tier(text: str, marks: Sequence[_Mark], color: bool) -> list[str]:
    """``text``, the braces under it, and the labels hanging from them."""
    spots = _place([m.line for m in marks], [len(m.label) for m in marks])
    depth = max(row for row, _ in spots) + 1
    grid: list[dict[int, _Cell]] = [{} for _ in range(2 + depth)]
    for mark, (row, start) in zip(marks, spots, strict=True):
        for column, char in zip(mark.cells, mark.brace, strict=True):
            grid[0][column] = (char, mark.name)
        for below in grid[1 : 2 + row]:
            below[mark.line] = ("|", mark.name)
        for offset, char in enumerate(mark.label):
            grid[2 + row][start + offset] = (char, mark.name)
    return [text] + [_render(cells, color) for cells in grid]


def _segments(ref: urigrammar.Reference) -> list[str]:
    segments = ref.path_segments
    if not segments:
        return ["path segments: none (the path is empty)"]
    if ref.path.startswith("/"):
        why = 'the path starts with "/", so the first segment is empty'
    else:
        why = "a rootless path: no empty segment first"
    # A segment holds no '"' (the grammar admits none), so quoting is plain.
    return [f'path segments, split on "/" ({why}):'] + [
        f'  [{index}] "{segment}"' for index, segment in enumerate(segments)
    ]


def _reference(text: str) -> urigrammar.Reference:
    """``text`` as a URI-reference, or failing that as an IRI-reference;
    the error of the one the text was likelier meant as (an IRI when it has
    non-ASCII characters) when it is neither."""
    try:
        return urigrammar.parse(text)
    except URISyntaxError:
        if text.isascii():
            raise
    return urigrammar.parse_iri(text)


def explain(text: str, *, color: bool = False) -> str:
    """The picture of ``text``'s components, a userinfo's password drawn as
    ``****``; raises ``URISyntaxError``, or ``InputTooLongError`` for a text
    over ``EXPLAIN_MAX_LENGTH``."""
    if len(text) > EXPLAIN_MAX_LENGTH:
        msg = (
            f"too long to draw: {len(text):,} characters, over EXPLAIN_MAX_LENGTH "
            f"({EXPLAIN_MAX_LENGTH:,}); 'urigrammar parse' reads a text of any length"
        )
        # No offset: the message alone, without an excerpt of the text, so
        # there is no password to hide.
        raise InputTooLongError(msg, rule="URI-reference", text=text, secrets=None)
    ref = _reference(text)
    masked = urigrammar.mask_password(text)
    if masked != text:
        # A picture is for people, and nothing reads it back: the password
        # is drawn as ****, which keeps the URI's parts where they were.
        text, ref = masked, _reference(masked)
    top, parts = _marks(ref)
    lines: list[str] = []
    if top:
        lines += _tier(text, top, color)
    if parts:
        # The authority again at its columns, with its "//": the second "/"
        # is where an empty userinfo or host is marked.
        begin = parts[0].start
        lines += ["", *_tier(" " * (begin - 2) + "//" + str(ref.authority), parts, color)]
    if lines:
        lines.append("")
    lines += _segments(ref)
    return "\n".join(lines)


def _use_color(out: TextIO) -> bool:
    # https://no-color.org; set at all, even empty, means no color here.
    if "NO_COLOR" in os.environ:
        return False
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False


def _configure_explain(parser: argparse.ArgumentParser) -> None:
    # No --json: the output is a picture.  Line input and --jobs as for
    # every command that takes texts (a file of URLs drawn one by one).
    add_text_input(
        parser,
        "TEXT",
        f"URI-references (or IRI-references) to draw, up to {EXPLAIN_MAX_LENGTH:,} "
        "characters each (a longer one is not drawn: exit 3); a password in the "
        "userinfo is drawn as ****",
        json_flag=False,
        mask_flag=False,
    )


def _run_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    work = Transform(functools.partial(explain, color=_use_color(out)), line_per_text=False)
    return run_texts(work, texts(args), out, err, args.jobs, apart=True)


def _definition(grammar: urigrammar.Grammar, name: str, width: int) -> str:
    source = grammar.source(name)
    if source is None:
        return f"; {name.ljust(width)} core rule of RFC 5234 Appendix B, from the abnf package"
    # The grammar keeps the file's text with RFC 5234's CRLF line ends.
    return source.replace("\r\n", "\n").rstrip("\n")


def _configure_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name",
        metavar="NAME",
        nargs="?",
        help="show this rule (any case; of RFC 3986, RFC 3987, RFC 6570, RFC 5234's core "
        "rules, or the --grammar file and its imports) and every rule it uses; without it, "
        "every rule of the shipped grammars (or of the --grammar file and its imports)",
    )
    add_grammar_options(parser)


def _listed(args: argparse.Namespace) -> list[tuple[urigrammar.Grammar, str]]:
    """The rules to print, each with the grammar to read it from."""
    if args.name is None and args.grammar is None:
        if args.imports:
            grammar_from(None, tuple(args.imports))  # the usage error it raises
        # Each shipped rule once, from the grammar its name means
        # (urigrammar.grammar_of): RFC 3986's, then what RFC 3987 and RFC
        # 6570 add; the core rules last.
        return [(urigrammar.grammar_of(name), name) for name in urigrammar.RULE_NAMES]
    grammar = grammar_from(args.grammar, tuple(args.imports), args.name)
    if args.name is None:
        return [(grammar, name) for name in grammar.all_names]
    name = grammar.canonical(args.name)  # UnknownRuleError: a usage error
    used = [other for other in grammar.references(name) if other != name]
    return [(grammar, one) for one in (name, *used)]


def _run_rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    del err
    listed = _listed(args)
    # Definitions grouped by the file that holds them, each group headed by
    # a comment naming it, when more than one file does (as head(1) labels
    # its files only when given several); core rules come last, each
    # comment saying where it is from.
    groups: dict[str | None, list[tuple[urigrammar.Grammar, str]]] = {}
    for grammar, name in listed:
        home = grammar.defined_in(name)
        groups.setdefault(None if home is None else home.name, []).append((grammar, name))
    labelled = len([label for label in groups if label is not None]) > 1
    width = max(len(name) for grammar in {g for g, _ in listed} for name in grammar.all_names)
    first = True
    for label, members in sorted(groups.items(), key=lambda item: item[0] is None):
        if labelled:
            if not first:
                print(file=out)
            if label is not None:
                print(f"; --- {label} ---", file=out)
        first = False
        for grammar, name in members:
            print(_definition(grammar, name, width), file=out)
    return EXIT_OK


COMMANDS = {
    "explain": Command(
        "draw the components of URI-references (and IRI-references) as in RFC 3986 section 3",
        _configure_explain,
        _run_explain,
        takes_texts=True,
    ),
    "rules": Command(
        "print the rules of RFC 3986, RFC 3987 and RFC 6570 (or of an ABNF file, --grammar) "
        "as written, or one rule and those it uses",
        _configure_rules,
        _run_rules,
    ),
}
