"""``urigrammar --version`` (the version and the default back end) and
the help: every command listed, every option with a help text that
formats."""

from __future__ import annotations

import argparse
import importlib.metadata
import io

import pytest

import urigrammar as u
from urigrammar.cli import _cli
from urigrammar.cli._cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--version")[0] == 0
    # The version, then the default back end ("native" or "pure",
    # and why pure).  argparse fills the line to the terminal's width.
    version = importlib.metadata.version("urigrammar")
    reason = u.PURE_REASON
    backend = "native back end" if reason is None else f"pure back end: {reason}"
    out = capsys.readouterr().out
    assert " ".join(out.split()) == f"urigrammar {version} ({backend})"


def _actions(parser: argparse.ArgumentParser, path: str) -> list[tuple[str, argparse.Action]]:
    found = []
    for action in parser._actions:
        found.append((path, action))
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                found.append((f"{path} {choice.dest}", choice))
            for name, sub in action.choices.items():
                found += _actions(sub, f"{path} {name}")
    return found


def test_every_option_and_command_has_help() -> None:
    top, parsers = _cli._parsers()
    for name, parser in parsers.items():  # each command adds its arguments when it runs
        _cli._configured(name, parser)
    actions = _actions(top, "urigrammar")
    assert len(actions) > 50
    missing = [
        f"{path}: {action.option_strings or action.dest}"
        for path, action in actions
        if not isinstance(action, argparse._SubParsersAction)
        and (not action.help or action.help == argparse.SUPPRESS)
    ]
    assert missing == []
    for _, action in actions:  # and every help text formats ("%" and all)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                assert sub.format_help()


def test_every_command_is_listed_with_help() -> None:
    top, parsers = _cli._parsers()
    assert set(parsers) == set(_cli.COMMANDS)
    text = top.format_help()
    for name, command in _cli.COMMANDS.items():
        assert name in text
        assert command.help.split()[0] in text


# --- what each help says it takes ---------------------------------------------

# Words each command's help must hold, so that it names every kind of text
# and grammar the command takes (argparse's line wrapping aside).
HELP_WORDS: dict[str, tuple[str, ...]] = {
    "": ("URIs (RFC 3986)", "IRIs (RFC 3987)", "URI Templates (RFC 6570)", "--grammar"),
    "parse": ("URI-references", "IRI-references", "--iri", "IRI-reference"),
    "validate": (
        "RFC 3986",
        "RFC 3987",
        "RFC 6570",
        "URI-Template",
        "RFC 5234",
        "--grammar",
        "its imports",
    ),
    "resolve": ("URI-reference", "IRI-reference", "RFC 3986 section 5.2"),
    "relativize": ("URI", "IRI"),
    "normalize": ("URI-reference", "IRI-reference"),
    "equivalent": ("URI-reference", "IRI-reference"),
    "canonicalize": ("URI-reference", "IRI-reference", "equivalence"),
    "lint": ("URI-reference", "IRI-reference", "RFC 3986", "RFC 9110"),
    "surt": ("URI-reference", "IRI-reference", "SURT", "reversed"),
    "domain": ("Public Suffix List", "urigrammar[psl]", "host name"),
    "build": ("RFC 3986",),
    "decode": ("UTF-8",),
    "encode": ("RFC 3986", "RFC 3987", "ENCODE_RULES", "IRI forms"),
    "explain": ("URI-references", "IRI-references"),
    "rules": ("RFC 3986", "RFC 3987", "RFC 6570", "--grammar", "its imports", "core"),
    "to-uri": ("IRI-references", "RFC 3987"),
    "to-iri": ("URI-references", "RFC 3987"),
    "expand": ("RFC 6570",),
    "match": ("RFC 6570",),
    "diff": ("RFC 3986", "URL Standard", "urigrammar[whatwg]", "--base", "JSON Lines"),
    "check-host": ("--allow", "--scheme", "--port", "--allow-internal", "urigrammar[whatwg]"),
    "scheme": ("urigrammar.SCHEMES", "JSON Lines", "exit 1"),
    "cache": ("--grammar",),
}


def test_each_help_names_what_the_command_takes(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(HELP_WORDS) - {""} == set(_cli.COMMANDS)
    for command, words in HELP_WORDS.items():
        argv = [command, "--help"] if command else ["--help"]
        assert main(argv) == 0
        shown = " ".join(capsys.readouterr().out.split())
        missing = [word for word in words if word not in shown]
        assert missing == [], command


def test_no_help_names_rfc_3986_alone_for_what_takes_iris_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Each command's one-line summary, as the top help lists it: one that
    # works on IRIs (or on the other grammars) says so there, not only in
    # its options.
    takes_more = ["parse", "validate", "resolve", "normalize", "equivalent", "encode", "rules"]
    for command in takes_more:
        summary = _cli.COMMANDS[command].help
        assert "IRI" in summary or "RFC 3987" in summary, command
