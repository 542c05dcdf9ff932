"""What every command that takes texts does alike: options may follow the
texts, ``--jobs`` below 1 is a usage error, no texts means the lines of
stdin (and a usage error on a terminal), and a line out per text."""

from __future__ import annotations

import importlib.util
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _console import run
from urigrammar.cli._cli import COMMANDS, main

# Each command that takes texts, with the arguments before its texts and a
# text it accepts.
TEXT_COMMANDS = {
    "parse": ([], "http://a/"),
    "validate": (["URI"], "http://a/"),
    "resolve": (["http://a/b"], "g"),
    "relativize": (["http://a/b"], "http://a/c"),
    "normalize": ([], "HTTP://a/"),
    "canonicalize": (["--crawl"], "HTTP://a/?utm_source=x"),
    "lint": (["--json"], "https://a/"),  # a clean text prints nothing but in JSON
    "surt": ([], "http://a/"),
    "encode": (["--rule", "segment"], "a b"),
    "decode": ([], "a%20b"),
    "explain": ([], "http://a/"),
    "to-uri": ([], "http://a/\u00e4"),
    "to-iri": ([], "http://a/%C3%A4"),
    "match": (["/{x}"], "/a"),
    "scheme": ([], "urn:example:a"),
}
# diff and check-host need the urigrammar[whatwg] extra (tests/differential
# test diff without): where it is installed, they are held to what the
# others do.
WHATWG = importlib.util.find_spec("can_ada") is not None
if WHATWG:
    TEXT_COMMANDS["diff"] = ([], "http://a/")
    TEXT_COMMANDS["check-host"] = (["--allow", "a.example"], "http://a.example/")
# domain needs the urigrammar[psl] extra, as diff needs whatwg.
PSL = importlib.util.find_spec("publicsuffixlist") is not None
if PSL:
    TEXT_COMMANDS["domain"] = ([], "http://www.example.com/")


def test_resolve_option_after_references(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(
        "resolve", "http://a/b", "g", "--non-strict", "http:h", monkeypatch=monkeypatch
    )
    assert status == 0
    assert out.splitlines() == ["http://a/g", "http://a/h"]  # non-strict for both


@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_every_command_takes_options_after_texts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, text = TEXT_COMMANDS[name]
    first = run(name, *before, "--jobs", "1", text, text, monkeypatch=monkeypatch)
    after = run(name, *before, text, "--jobs", "1", text, monkeypatch=monkeypatch)
    assert first == after
    assert first[0] == 0


def test_double_dash_still_ends_options(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run("normalize", "--", "-a", "--syntax-only", monkeypatch=monkeypatch)
    assert status == 0
    assert out.splitlines() == ["-a", "--syntax-only"]


# --- --jobs below 1 ---------------------------------------------------


@pytest.mark.parametrize("jobs", ["0", "-1", "x"])
@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_jobs_below_one_is_a_usage_error(
    name: str, jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, text = TEXT_COMMANDS[name]
    assert run(name, *before, "--jobs", jobs, text, monkeypatch=monkeypatch)[0] == 2
    assert run(name, *before, "--jobs", jobs, "-", stdin=text, monkeypatch=monkeypatch)[0] == 2


# --- no texts --------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_no_texts_reads_stdin(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before, text = TEXT_COMMANDS[name]
    implicit = run(name, *before, stdin=f"{text}\n{text}\n", monkeypatch=monkeypatch)
    explicit = run(name, *before, "-", stdin=f"{text}\n{text}\n", monkeypatch=monkeypatch)
    assert implicit == explicit
    assert implicit[0] == 0
    assert implicit[1]


def test_no_texts_reading_a_bad_line_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run("validate", "URI", stdin="a b\n", monkeypatch=monkeypatch)
    assert status == 1
    assert out == "invalid\ta b\n"


@pytest.mark.parametrize("name", sorted(TEXT_COMMANDS))
def test_no_texts_on_a_terminal_is_a_usage_error(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before, _ = TEXT_COMMANDS[name]
    status, out, _ = run(name, *before, tty=True, monkeypatch=monkeypatch)
    assert (status, out) == (2, "")
    assert "no texts" in capsys.readouterr().err


@given(st.lists(st.sampled_from(["http://a/", "a b", "", "%", "//[::1", "x:y"]), max_size=6))
def test_parse_prints_a_line_per_text(texts: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["parse", "--", *texts], out, err) if texts else 0
    lines = out.getvalue().splitlines()
    assert len(lines) == len(texts)
    for text, line in zip(texts, lines, strict=True):
        record = json.loads(line)
        if u.validate("URI-reference", text):
            assert record["path"] == u.parse(text).path
        else:
            assert record is None  # and the error on stderr
    assert err.getvalue().count("^") == sum(not u.validate("URI-reference", t) for t in texts)
    assert status == (0 if all(u.validate("URI-reference", t) for t in texts) else 1)


def test_every_text_command_is_tested() -> None:
    untested = (set() if WHATWG else {"diff", "check-host"}) | (set() if PSL else {"domain"})
    assert {name for name, c in COMMANDS.items() if c.takes_texts} == set(TEXT_COMMANDS) | untested
