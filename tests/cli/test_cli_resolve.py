"""``urigrammar resolve``: each reference resolved against the base, a line
per reference, exit status 1 and a caret for a bad one.  The section 5.4
base comes from ``vectors/rfc3986_5_4.json``."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

from urigrammar.cli._cmd_resolve import COMMANDS

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "rfc3986_5_4.json").read_text("utf-8")
)
BASE = VECTORS["base"]


def run(name: str, *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog=f"urigrammar {name}")
    command = COMMANDS[name]
    command.configure(parser)
    out, err = io.StringIO(), io.StringIO()
    status = command.run(parser.parse_args(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_resolve_command_prints_each_target() -> None:
    status, out, err = run("resolve", BASE, "../../../g", "g;x?y#s", "")
    assert status == 0
    assert out.splitlines() == ["http://a/g", "http://a/b/c/g;x?y#s", "http://a/b/c/d;p?q"]
    assert err == ""


def test_resolve_command_non_strict() -> None:
    assert run("resolve", BASE, "http:g")[1] == "http:g\n"
    assert run("resolve", "--non-strict", BASE, "http:g")[1] == "http://a/b/c/g\n"


def test_resolve_command_relative_base_is_status_1_with_caret() -> None:
    status, out, err = run("resolve", "/b/c", "g")
    assert status == 1
    assert out == ""
    assert "scheme" in err
    assert err.splitlines()[-1].strip() == "^"
    assert "Traceback" not in err


def test_resolve_command_goes_on_after_a_bad_reference() -> None:
    status, out, err = run("resolve", BASE, "g h", "g")
    assert status == 1
    assert out == "\nhttp://a/b/c/g\n"  # an empty line for the bad one: lines stay matched
    assert "^" in err
