r"""``urigrammar explain``: a text drawn with its components marked.

Expectations are derived apart from ``_cmd_explain``: component spans from
RFC 3986 Appendix B's regular expression.  The command is run through an
argparse built here from ``_cmd_explain.COMMANDS``, the way ``_cli``
assembles its own; the last test runs ``explain`` and ``rules`` (whose own
tests are in test_cli_rules.py) through ``_cli.main``.
"""

from __future__ import annotations

import io
import re
import sys
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from unittest import mock

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import urigrammar
from _explain import run
from urigrammar import InputTooLongError, URISyntaxError, parse, validate
from urigrammar.cli import _cli
from urigrammar.cli._cmd_explain import COMMANDS, EXPLAIN_MAX_LENGTH, _place, explain
from urigrammar.strategies import from_rule

EXAMPLE = "foo://example.com:8042/over/there?name=ferret#nose"


class Terminal(io.StringIO):
    """An output stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def picture(text: str) -> list[str]:
    # "--": a relative reference may start with "-" ("-a" is a path).  A
    # lone "-" means standard input (as for every text command), so that one
    # goes in through a stand-in stdin, as a shell's `echo - | ...` would.
    if text == "-":
        with mock.patch.object(sys, "stdin", io.StringIO("-\n")):
            status, out, err = run("explain", "-")
    else:
        status, out, err = run("explain", "--", text)
    assert (status, err) == (0, "")
    return out.splitlines()


# --- Expected marks, derived from RFC 3986 Appendix B -----------------------

APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?")
AUTHORITY = re.compile(r"^(?:([^@]*)@)?(\[[^\]]*\]|[^:]*)(?::([0-9]*))?$")


@dataclass(frozen=True)
class Expected:
    label: str
    cells: range  # the columns of the brace, or of the ^ of an empty component
    brace: str


def expected(name: str, start: int, stop: int, kind: str = "") -> Expected:
    notes = [kind] if kind else []
    if start == stop:
        notes.append("empty")
    label = f"{name} ({', '.join(notes)})" if notes else name
    if start == stop:  # a ^ under the delimiter just before it
        return Expected(label, range(start - 1, start), "^")
    width = stop - start
    brace = "^" if width == 1 else "\\" + "_" * (width - 2) + "/"
    return Expected(label, range(start, stop), brace)


def host_kind(host: str) -> str:
    if host.startswith("["):
        return "IPvFuture" if host[1] in "vV" else "IPv6address"
    return "IPv4address" if validate("IPv4address", host) else "reg-name"


def top_marks(text: str) -> list[Expected]:
    match = APPENDIX_B.match(text)
    assert match is not None
    marks = []
    for name, group in (
        ("scheme", 2),
        ("authority", 4),
        ("path", 5),
        ("query", 7),
        ("fragment", 9),
    ):
        start, stop = match.span(group)
        if start < 0 or (name == "path" and start == stop):
            continue
        marks.append(expected(name, start, stop))
    return marks


def authority_marks(text: str) -> list[Expected]:
    match = APPENDIX_B.match(text)
    assert match is not None
    at = match.start(4)
    if at < 0:
        return []
    parts = AUTHORITY.match(match.group(4))
    assert parts is not None
    marks = []
    for name, group in (("userinfo", 1), ("host", 2), ("port", 3)):
        start, stop = parts.span(group)
        if start < 0:
            continue
        kind = host_kind(parts.group(2)) if name == "host" else ""
        marks.append(expected(name, at + start, at + stop, kind))
    return marks


def check_tier(block: list[str], marks: list[Expected]) -> None:
    """The braces of ``block`` lie under exactly the marks' cells, one line
    drops from each, and the labels hang from those lines without touching
    each other or crossing a line."""
    braces, drops, *rows = block
    for column, char in enumerate(braces):
        owner = [m for m in marks if column in m.cells]
        if not owner:
            assert char == " ", (column, block)
    for mark in marks:
        assert braces[mark.cells.start : mark.cells.stop] == mark.brace, (mark, block)
    lines = {}
    for mark in marks:
        found = [c for c in mark.cells if c < len(drops) and drops[c] == "|"]
        assert len(found) == 1, (mark, block)
        lines[mark.label] = found[0]
    assert drops.count("|") == len(marks)
    # Read the label rows: every character is a label or a line going down.
    where: dict[str, tuple[int, int]] = {}
    labels = sorted((m.label for m in marks), key=len, reverse=True)
    for number, row in enumerate(rows):
        column = 0
        while column < len(row):
            if row[column] == " ":
                column += 1
                continue
            if row[column] == "|":
                owner = [label for label, line in lines.items() if line == column]
                assert owner, (column, block)
                column += 1
                continue
            label = next((x for x in labels if row.startswith(x, column)), None)
            assert label is not None, (row, column, block)
            assert label not in where, (label, block)
            where[label] = (number, column)
            column += len(label)
            assert column == len(row) or row[column] == " ", ("labels touch", block)
    assert set(where) == set(lines), block
    for label, (number, start) in where.items():
        line = lines[label]
        assert start <= line < start + len(label), (label, block)
        for above in rows[:number]:
            assert above[line] == "|", (label, block)
        for below in rows[number + 1 :]:
            assert below[line : line + 1] != "|", (label, block)


def check_picture(text: str, out: list[str]) -> None:
    blocks: list[list[str]] = [[]]
    for line in out:
        if line:
            blocks[-1].append(line)
        else:
            blocks.append([])
    text = urigrammar.mask_password(text)  # the picture draws the password as ****
    top, parts = top_marks(text), authority_marks(text)
    if top:
        block = blocks.pop(0)
        assert block[0] == text
        check_tier(block[1:], top)
    if parts:
        block = blocks.pop(0)
        # The authority again, with its "//", at its own columns.
        match = APPENDIX_B.match(text)
        assert match is not None
        begin, end = match.span(3)
        assert block[0] == " " * begin + text[begin:end]
        check_tier(block[1:], parts)
    assert len(blocks) == 1  # the path segments


# --- explain ---------------------------------------------------------------


def test_example_is_the_picture_of_section_3() -> None:
    out = picture(EXAMPLE)
    # RFC 3986 section 3's own picture is drawn by hand: its two 11-wide
    # braces drop their lines at different offsets, so only the text and the
    # braces can match it character for character; the rest is checked by
    # the rules it follows.
    assert out[0] == EXAMPLE
    assert out[1] == r"\_/   \______________/\_________/ \_________/ \__/"
    assert out[2].split() == ["|"] * 5
    assert out[3].split() == ["scheme", "authority", "path", "query", "fragment"]
    for word in out[3].split():
        line = out[3].index(word)
        assert "|" in out[2][line : line + len(word)]
    check_picture(EXAMPLE, out)


def test_example_has_the_host_and_port_tier() -> None:
    out = picture(EXAMPLE)
    tier = out[out.index("") + 1 :]
    assert tier[0] == "    //example.com:8042"
    host, port = EXAMPLE.index("example.com"), EXAMPLE.index("8042")
    assert tier[1][host : host + 11] == "\\" + "_" * 9 + "/"
    assert tier[1][port : port + 4] == "\\__/"
    labels = tier[3]
    start = labels.index("host (reg-name)")
    host_line = tier[2].index("|")
    assert host <= host_line < host + 11
    assert start <= host_line < start + len("host (reg-name)")
    port_line = tier[2].rindex("|")
    assert port <= port_line < port + 4
    assert labels.index("port") <= port_line < labels.index("port") + 4


def test_example_whole_output() -> None:
    assert picture(EXAMPLE) == [
        EXAMPLE,
        r"\_/   \______________/\_________/ \_________/ \__/",
        " |           |             |           |       |",
        "scheme   authority        path       query  fragment",
        "",
        "    //example.com:8042",
        r"      \_________/ \__/",
        "           |       |",
        "  host (reg-name) port",
        "",
        'path segments, split on "/" (the path starts with "/", so the first segment is empty):',
        '  [0] ""',
        '  [1] "over"',
        '  [2] "there"',
    ]


def test_crowded_labels_go_down_a_row() -> None:
    assert picture("a:b") == [
        "a:b",
        "^ ^",
        "| |",
        "| path",
        "scheme",
        "",
        'path segments, split on "/" (a rootless path: no empty segment first):',
        '  [0] "b"',
    ]


def test_ip_literal_host_and_port() -> None:
    assert picture("//[::1]:80") == [
        "//[::1]:80",
        r"  \______/",
        "     |",
        " authority",
        "",
        "//[::1]:80",
        r"  \___/ \/",
        "    |   |",
        "    |  port",
        "host (IPv6address)",
        "",
        "path segments: none (the path is empty)",
    ]


def test_empty_components_are_marked_at_their_delimiter() -> None:
    assert picture("http://a?#") == [
        "http://a?#",
        r"\__/   ^^^",
        " |     |||",
        "scheme ||fragment (empty)",
        "       |query (empty)",
        "   authority",
        "",
        "     //a",
        "       ^",
        "       |",
        "host (reg-name)",
        "",
        "path segments: none (the path is empty)",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "//",
        "//@:",
        "file:///etc/hosts",
        "http://user:pw@[v1.fe]:/a/b/?q#",
        "http://u@h:1/p?q#f",
        "a:b:c/d?e#f",
        "x://1.2.3.4",
        "../a:b",
        "?",
        "#",
    ],
)
def test_edge_cases_follow_the_rules(text: str) -> None:
    check_picture(text, picture(text))


@given(from_rule("URI-reference"))
@example("-")  # the path "-", which the command line reads as standard input
def test_every_brace_under_its_component(text: str) -> None:
    lines = picture(text)
    out = "\n".join(lines)
    assert out.isascii()
    assert "\x1b" not in out
    check_picture(text, lines)


@given(from_rule("URI-reference"))
@example("-")  # the path "-", which the command line reads as standard input
def test_path_segments_are_listed(text: str) -> None:
    out = picture(text)
    listed = [line for line in out if line.startswith("  [")]
    segments = [re.fullmatch(r'  \[(\d+)\] "(.*)"', line) for line in listed]
    assert all(segments)
    assert [int(m.group(1)) for m in segments if m] == list(range(len(listed)))
    assert tuple(m.group(2) for m in segments if m) == parse(text).path_segments
    path = APPENDIX_B.match(text).group(5)  # type: ignore[union-attr]
    assert "/".join(m.group(2) for m in segments if m) == path


@given(from_rule("URI-reference"), st.characters(), st.integers(min_value=0))
def test_valid_text_is_printable_ascii(text: str, char: str, where: int) -> None:
    # What lets explain draw the text as it is: the grammar admits no other
    # character, so one column is one character.
    where %= len(text) + 1
    changed = text[:where] + char + text[where:]
    if validate("URI-reference", changed):
        assert "!" <= char <= "~"


@pytest.mark.parametrize("wide", ["\u212a", "\u0130", "\u017f", "\xe4", "\t", " "])
def test_no_case_folding_lets_non_ascii_in(wide: str) -> None:
    # re.IGNORECASE would match the Kelvin sign against "k"; the grammar must not.
    assert not validate("URI-reference", f"http://{wide}k/")


def colored_runs(line: str) -> list[tuple[str, str]]:
    return re.findall(r"\x1b\[(\d+)m([^\x1b]*)\x1b\[0m", line)


def test_color_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    status, out, _ = run("explain", EXAMPLE, out=Terminal())
    assert status == 0
    assert re.sub(r"\x1b\[\d+m", "", out).splitlines() == picture(EXAMPLE)
    lines = out.splitlines()
    braces = colored_runs(lines[1])
    labels = colored_runs(lines[3])
    assert [text for _, text in braces] == [
        "\\_/",
        "\\" + "_" * 14 + "/",
        "\\" + "_" * 9 + "/",
        "\\" + "_" * 9 + "/",
        "\\__/",
    ]
    assert [text for _, text in labels] == ["scheme", "authority", "path", "query", "fragment"]
    assert [code for code, _ in braces] == [code for code, _ in labels]
    assert len({code for code, _ in braces}) == 5
    assert lines[0] == EXAMPLE  # the text itself stays plain
    tier = colored_runs(lines[8])
    assert [text for _, text in tier] == ["host (reg-name)", "port"]
    assert tier[0][0] != tier[1][0]


@pytest.mark.parametrize("value", ["", "1", "0", "false"])
def test_no_color_set_to_anything_turns_color_off(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("NO_COLOR", value)
    status, out, _ = run("explain", EXAMPLE, out=Terminal())
    assert status == 0
    assert "\x1b" not in out
    assert out.splitlines() == picture(EXAMPLE)


def test_no_color_when_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b" not in run("explain", EXAMPLE)[1]


def test_invalid_text_is_status_1_with_caret() -> None:
    status, out, err = run("explain", "http://a b/")
    assert (status, out) == (1, "")
    with pytest.raises(URISyntaxError) as caught:
        parse("http://a b/")
    assert err == f"{caught.value}\n"
    assert err.splitlines()[-1] == " " * (2 + len("http://a")) + "^"  # under the space


def test_invalid_non_ascii_is_escaped_in_the_caret_line() -> None:
    # U+009F is no ucschar: the text is neither a URI nor an IRI, and the
    # IRI grammar (the text is not ASCII) stops at it.
    status, out, err = run("explain", "http://\x9f\t/")
    assert (status, out) == (1, "")
    # The message quotes the character with repr(); the excerpt escapes it.
    text, caret = err.splitlines()[-2:]
    assert text.isascii()
    assert text == r"  http://\x9f\t/"
    assert caret.index("^") == text.index("\\")


def test_several_texts_one_invalid() -> None:
    status, out, err = run("explain", "a:b", "a b", "c:d")
    assert status == 1
    assert out.splitlines()[0] == "a:b"
    assert "c:d" in out.splitlines()
    assert "a b" in err
    assert "\n\n" in out  # the pictures are apart


# --- long texts -------------------------------------------------------------


def _peak(function: Callable[[], object]) -> int:
    """The most memory ``function`` held at once, in bytes (tracemalloc)."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _long(length: int) -> str:
    head = "http://user@example.com:80/a?q#"
    return head + "f" * (length - len(head))


def test_a_text_over_the_limit_is_refused_in_little_memory() -> None:
    # Drawing a 10 MB line would take over a gigabyte; refused before it is
    # parsed, it takes next to nothing beyond itself.
    text = _long(10_000_000)
    with pytest.raises(InputTooLongError, match="EXPLAIN_MAX_LENGTH") as caught:
        explain(text)
    assert caught.value.offset is None  # the message, not a 10 MB excerpt
    assert len(str(caught.value)) < 200
    assert _peak(lambda: run("explain", text)) < 1_000_000
    status, out, err = run("explain", text)
    assert (status, out) == (3, "")  # not drawn: undecided, never invalid
    assert err == f"{caught.value}\n"


def test_a_text_at_the_limit_is_drawn_in_bounded_memory() -> None:
    # About 160 bytes a character (a cell per column per row): at the limit
    # some 16 MB, and a bound of 250 bytes a character leaves room.
    text = _long(EXPLAIN_MAX_LENGTH)
    explain(EXAMPLE)  # the grammar's first use compiles it: not the picture's memory
    peak = _peak(lambda: explain(text))
    assert peak < 250 * EXPLAIN_MAX_LENGTH
    assert explain(text).splitlines()[0] == text


# --- the label layout on its own -------------------------------------------


@given(
    st.lists(st.integers(0, 60), unique=True, max_size=8).map(sorted),
    st.lists(st.integers(1, 20), min_size=8, max_size=8),
)
def test_layout_never_overlaps(lines: list[int], widths: list[int]) -> None:
    widths = widths[: len(lines)]
    spots = _place(lines, widths)
    spans = [range(start, start + width) for (_, start), width in zip(spots, widths, strict=True)]
    for i, ((row, _), span) in enumerate(zip(spots, spans, strict=True)):
        assert span.start >= 0
        assert lines[i] in span  # a label hangs from its own line
        for j, ((other_row, _), other) in enumerate(zip(spots, spans, strict=True)):
            if j == i:
                continue
            if other_row == row:  # a blank column between labels of a row
                assert span.stop < other.start or other.stop < span.start
            if other_row > row:  # j's line goes down past i's label
                assert lines[j] not in span
                if lines[j] in (span.start - 1, span.stop):
                    assert abs(lines[j] - lines[i]) == 1  # touching only when unavoidable


def test_layout_keeps_one_row_when_labels_fit() -> None:
    assert _place([0, 10, 20], [4, 4, 4]) == [(0, 0), (0, 9), (0, 19)]


def test_through_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # _cli.main with these commands in its registry.
    monkeypatch.setattr(_cli, "COMMANDS", {**_cli.COMMANDS, **COMMANDS})
    out, err = io.StringIO(), io.StringIO()
    assert _cli.main(["rules", "ipv4adress"], out, err) == 2
    assert out.getvalue() == ""
    assert "did you mean 'IPv4address'" in err.getvalue()
    assert _cli.main(["rules", "a", "b"], io.StringIO(), io.StringIO()) == 2
    out = io.StringIO()
    assert _cli.main(["explain", EXAMPLE], out, io.StringIO()) == 0
    assert out.getvalue().splitlines() == picture(EXAMPLE)
    assert _cli.main(["explain", "a b"], io.StringIO(), io.StringIO()) == 1
    out = io.StringIO()
    assert _cli.main(["explain", "--", "-a"], out, io.StringIO()) == 0
    assert out.getvalue().splitlines()[0] == "-a"
