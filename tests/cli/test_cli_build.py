"""``urigrammar build`` (a reference from its parts, as ``build()``) and
``urigrammar decode`` (``percent_decode`` on each text)."""

from __future__ import annotations

import argparse
import io

import pytest

from urigrammar import validate
from urigrammar.cli._cmd_build import COMMANDS


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="urigrammar")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, command in COMMANDS.items():
        command.configure(sub.add_parser(name))
    args = parser.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    status = COMMANDS[args.command].run(args, out, err)
    return status, out.getvalue(), err.getvalue()


def test_cli_build() -> None:
    argv = ("build", "--scheme", "https", "--host", "bücher.example", "--path", "/a b")
    status, out, err = run(*argv, "--query-pair", "q=ü")
    assert status == 0
    assert out == "https://b%C3%BCcher.example/a%20b?q=%C3%BC\n"
    assert validate("URI", out.strip())
    status, out, err = run(*argv, "--idna", "--query-pair", "q=ü", "--query-pair", "a&b=c=d")
    assert (status, err) == (0, "")
    assert out == "https://xn--bcher-kva.example/a%20b?q=%C3%BC&a%26b=c%3Dd\n"


def test_cli_build_says_when_a_unicode_host_is_percent_encoded() -> None:
    # RFC 3986 section 3.2.2 percent-encodes it; a DNS name wants --idna.
    status, out, err = run("build", "--scheme", "http", "--host", "bücher.example")
    assert (status, out) == (0, "http://b%C3%BCcher.example\n")
    assert "--idna" in err
    assert "3.2.2" in err
    for ascii_or_idna in (("--host", "example.com"), ("--host", "bücher.example", "--idna")):
        assert run("build", "--scheme", "http", *ascii_or_idna)[2] == ""


def test_cli_build_parts() -> None:
    status, out, _ = run(
        "build",
        "--scheme=http",
        "--userinfo=u",
        "--host=::1",
        "--port=8080",
        "--path=/p",
        "--query=a=1",
        "--fragment=f g",
    )
    assert (status, out) == (0, "http://u@[::1]:8080/p?a=1#f%20g\n")


def test_cli_build_error_names_the_part() -> None:
    status, out, err = run("build", "--host", "h", "--path", "rel")
    assert (status, out) == (1, "")
    assert err.startswith("path: ")


def test_cli_query_and_query_pairs_are_exclusive() -> None:
    with pytest.raises(SystemExit):
        run("build", "--query", "a", "--query-pair", "b=c")


def test_cli_decode() -> None:
    status, out, err = run("decode", "%E2%82%AC", "ab%G0", "a%20b")
    assert status == 1
    assert out == "€\n\na b\n"  # an empty line for the bad text: lines stay matched
    assert "ab%G0" in err
    assert err.splitlines()[2] == "    ^"  # under the "%" at offset 2
    assert run("decode", "--errors", "replace", "%FF")[1] == "\ufffd\n"
    assert run("decode", "--form", "a+b%2B")[1] == "a b+\n"
