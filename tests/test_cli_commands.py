"""The command line's conveniences: --version, relativize,
equivalent, encode, --jobs and --json for every command that takes texts,
and help for every option.  Results are checked against the library
functions the commands stand for, and against resolve as the inverse of
relativize."""

from __future__ import annotations

import argparse
import importlib.metadata
import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.cli import _cli
from urigrammar.cli._cli import main
from urigrammar.strategies import from_rule


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


# --- --version and help ------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--version")[0] == 0
    # The version, then the default back end ("native" or "pure",
    # and why pure).  argparse fills the line to the terminal's width.
    version = importlib.metadata.version("urigrammar")
    reason = u.PURE_REASON
    engine = "native engine" if reason is None else f"pure engine: {reason}"
    out = capsys.readouterr().out
    assert " ".join(out.split()) == f"urigrammar {version} ({engine})"


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


# --- relativize --------------------------------------------------------------


_BASE = "http://a/b/c/d;p?q"
_SEGMENTS = st.lists(st.sampled_from(["a", "b", "", "g;x", ".", ".."]), max_size=4)
_TAILS = st.sampled_from(["", "?q", "?y", "#f", "?q#s"])


@given(
    st.one_of(st.just(_BASE), from_rule("URI")),
    st.one_of(
        st.builds(
            lambda root, segments, tail: root + "/".join(segments) + tail,
            st.sampled_from(["http://a/", "http://a/b/c/", "http://o/", "foo:"]),
            _SEGMENTS,
            _TAILS,
        ),
        from_rule("URI"),
    ),
)
def test_relativize_is_undone_by_resolve(base: str, target: str) -> None:
    status, out, err = run("relativize", "--", base, target)
    try:
        expected = str(u.relativize(base, target))
    except u.URIError:
        assert (status, out) == (1, "\n")  # an empty line: lines stay matched
        assert err
        return
    assert (status, out) == (0, expected + "\n")
    assert str(u.resolve(base, expected)) == target


def test_relativize_several_and_a_bad_one() -> None:
    status, out, err = run("relativize", "http://a/b/c", "http://a/b/d", "x y", "http://a/x")
    assert status == 1
    assert out.splitlines() == ["d", "", "/x"]  # the failed text's line is empty
    assert "^" in err


def test_relativize_bad_base() -> None:
    status, out, err = run("relativize", "b/c", "http://a/b")
    assert (status, out) == (1, "")
    assert "base must be a URI" in err


def test_texts_are_read_as_iris_when_they_are_no_uris() -> None:
    # As the library reads a string: no --iri needed.
    status, out, _ = run("resolve", "http://ex.com/\u00e4/", "b", "../c")
    assert (status, out) == (0, "http://ex.com/\u00e4/b\nhttp://ex.com/c\n")
    assert run("relativize", "http://a/b/", "http://a/b/\u00e4") == (0, "\u00e4\n", "")
    assert run("normalize", "HTTP://ex.com/\u00e4") == (0, "http://ex.com/\u00e4\n", "")
    assert run("equivalent", "http://ex.com/\u00e4", "http://ex.com/%C3%A4")[0] == 0


# --- equivalent --------------------------------------------------------------

_PAIRS = [
    ("HTTP://a:80/", "http://a"),
    ("http://a/%7e", "http://a/~"),
    ("http://a/b", "http://a/c"),
    ("http://[::0:1]/", "http://[::1]/"),
    ("http://a:80/", "http://a/"),
    ("x", "X"),
]


@pytest.mark.parametrize(("a", "b"), _PAIRS)
@pytest.mark.parametrize("options", [[], ["--syntax-only"], ["--ipv6-canonical"]])
def test_equivalent_follows_the_library(a: str, b: str, options: list[str]) -> None:
    expected = u.equivalent(
        a,
        b,
        scheme_based="--syntax-only" not in options,
        ipv6_canonical="--ipv6-canonical" in options,
    )
    status, out, _ = run("equivalent", a, b, *options)
    assert status == (0 if expected else 1)
    assert out == ("equivalent\n" if expected else "not equivalent\n")


def test_equivalent_options_change_the_answer() -> None:
    assert run("equivalent", "http://a:80/", "http://a/")[0] == 0
    assert run("equivalent", "http://a:80/", "http://a/", "--syntax-only")[0] == 1
    assert run("equivalent", "http://[::0:1]/", "http://[::1]/")[0] == 1
    assert run("equivalent", "http://[::0:1]/", "http://[::1]/", "--ipv6-canonical")[0] == 0


def test_equivalent_invalid_text_is_trouble() -> None:
    status, out, err = run("equivalent", "a b", "a")
    assert (status, out) == (2, "")
    assert "^" in err


# --- encode ------------------------------------------------------------------


# "-" as a text always stands for the lines of stdin.
@given(st.sampled_from(u.ENCODE_RULES), st.text(max_size=12).filter(lambda t: t != "-"))
def test_encode_is_percent_encode(rule: str, text: str) -> None:
    try:
        expected = u.percent_encode(text, rule)
    except u.URIError:
        status, out, _ = run("encode", "--rule", rule, "--", text)
        assert (status, out) == (1, "\n")
        return
    status, out, _ = run("encode", "--rule", rule, "--", text)
    assert status == 0
    assert out == expected + "\n"
    assert run("decode", "--", expected)[1] == text + "\n"


def test_encode_rules_are_the_librarys() -> None:
    for rule in u.ENCODE_RULES:
        assert run("encode", "--rule", rule.upper(), "a")[0] == 0


@pytest.mark.parametrize("rule", ["path-abempty", "foo", "URI", "query2", "ALPHA"])
def test_an_unknown_encode_rule_lists_the_encode_rules(
    rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Not a rule at all ("foo") or not one percent-encoding is defined for:
    # a usage error, before any text, that names every rule it takes.
    status, out, err = run("encode", "--rule", rule, "a")
    err += capsys.readouterr().err  # argparse writes its usage errors there
    assert (status, out) == (2, "")
    assert all(name in err for name in u.ENCODE_RULES)
    assert "Traceback" not in err


def test_encode_defaults_to_percent_encodes_rule() -> None:
    # segment, as percent_encode: "/", "?" and "#" are encoded.
    assert run("encode", "a b/c?d#e", "ü")[1] == "a%20b%2Fc%3Fd%23e\n%C3%BC\n"
    assert run("encode", "a b/c?d#e")[1] == run("encode", "--rule", "segment", "a b/c?d#e")[1]
    assert run("encode", "x")[1] == u.percent_encode("x") + "\n"


def test_encode_options() -> None:
    assert run("encode", "--rule", "query", "a%20b c")[1] == "a%2520b%20c\n"
    assert run("encode", "--rule", "query", "--keep-escapes", "a%20b c")[1] == "a%20b%20c\n"
    assert run("encode", "--rule", "segment", "\udcff")[0] == 1
    assert run("encode", "--rule", "segment", "--errors", "surrogateescape", "\udcff")[1] == (
        "%FF\n"
    )


# --- --jobs and --json for every command -------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", "http://a/b/c"],
        ["relativize", "http://a/b/c"],
        ["normalize"],
        ["encode", "--rule", "query"],
        ["decode"],
        ["explain"],
    ],
)
def test_jobs_keep_the_order(argv: list[str], tmp_path: Path) -> None:
    lines = [f"http://a/{'b/' * (i % 4)}%7e{i}" if i % 7 else f"bad {i}%" for i in range(400)]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one = run(*argv, "--file", str(path))
    two = run(*argv, "--file", str(path), "--jobs", "2")
    assert one == two
    assert one[0] == (0 if argv[0] == "encode" else 1)  # "%" is text to encode


@pytest.mark.parametrize(
    ("argv", "function"),
    [
        (["normalize"], lambda t: str(u.normalize(t))),
        (["resolve", "http://a/b/c"], lambda t: str(u.resolve("http://a/b/c", t))),
        (["decode"], u.percent_decode),
        (["encode", "--rule", "segment"], lambda t: u.percent_encode(t, "segment")),
    ],
)
def test_json_records_one_per_text(argv: list[str], function: object) -> None:
    texts = ["a/./b", "%41", "a b", "%", "HTTP://X/"]
    status, out, _ = run(*argv, "--json", "--", *texts)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["text"] for r in records] == texts
    for text, record in zip(texts, records, strict=True):
        try:
            expected = function(text)  # type: ignore[operator]
        except u.URIError:
            assert record["valid"] is False
            assert record["result"] is None
            assert record["error"]["kind"] in ("syntax", "invalid")
        else:
            assert record == {"text": text, "valid": True, "result": expected, "error": None}
    assert status == (0 if all(r["valid"] for r in records) else 1)


# --- scheme rules on the command line (normalize's and equivalent's schemes=)


@given(
    st.sampled_from(["foo", "http", "FOO"]),
    st.integers(0, 70000),
    st.booleans(),
    st.sampled_from(["foo://a:7", "foo://a:7/", "http://a:80", "FOO://a", "foo://a:08080"]),
)
def test_scheme_rules_are_the_librarys(name: str, port: int, root: bool, text: str) -> None:
    lower = name.lower()
    base = u.SCHEME_RULES.get(lower, u.SchemeRule())
    schemes = {
        **u.SCHEME_RULES,
        lower: u.SchemeRule(port, empty_path_is_root=root or base.empty_path_is_root),
    }
    options = ["--default-port", f"{name}={port}"] + (["--empty-path-is-root", name] * root)
    status, out, _ = run("normalize", *options, text)
    assert (status, out) == (0, f"{u.normalize(text, schemes=schemes)}\n")
    same = u.equivalent(text, "foo://a/", schemes=schemes)
    assert run("equivalent", text, "foo://a/", *options)[0] == (0 if same else 1)


@pytest.mark.parametrize("bad", ["foo", "=80", "foo=", "foo=x", "foo=١", "foo=-1"])
def test_default_port_takes_name_equals_digits(bad: str) -> None:
    assert run("normalize", "--default-port", bad, "a")[0] == 2


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
    "build": ("RFC 3986",),
    "decode": ("UTF-8",),
    "encode": ("RFC 3986", "RFC 3987", "ENCODE_RULES", "IRI forms"),
    "explain": ("URI-references", "IRI-references"),
    "rules": ("RFC 3986", "RFC 3987", "RFC 6570", "--grammar", "its imports", "core"),
    "to-uri": ("IRI-references", "RFC 3987"),
    "to-iri": ("URI-references", "RFC 3987"),
    "expand": ("RFC 6570",),
    "match": ("RFC 6570",),
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


# --- a password typed with an unencoded "/", "?" or "#" ---------------------------


@pytest.mark.parametrize("delimiter", "/?#")
@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "URI"],
        ["validate", "--json", "URI"],
        ["parse"],
        ["parse", "--json"],
        ["parse", "--iri"],
        ["normalize"],
        ["resolve", "http://b/"],
        ["explain"],
    ],
    ids=" ".join,
)
def test_the_command_line_hides_a_password_with_a_delimiter(
    argv: list[str], delimiter: str
) -> None:
    text = f"http://alice:s3c{delimiter}ret@example.com/"
    status, out, err = run(*argv, text)
    assert status == 1
    assert "ret" not in err
    assert "<hidden>" in err or "<hidden>" in out
    if "--json" in argv:
        record = json.loads(out)
        assert record["text"] == text  # the input, echoed as given
        assert "ret" not in record["error"]["message"]
