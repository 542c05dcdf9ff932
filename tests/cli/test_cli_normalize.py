"""``urigrammar normalize``: a normal form per text, its options, exit
status 1 and a caret for an invalid text; and the one ``Normalization``
value the ``normalize`` and ``equivalent`` commands hand the library."""

from __future__ import annotations

import argparse
import io
from typing import Any

import pytest

import urigrammar
from urigrammar import Normalization
from urigrammar.cli._cmd_resolve import COMMANDS
from urigrammar.uri._normalization import SCHEME_RULES, SchemeRule
from urigrammar.uri._reference import equivalent, normalize


def run(name: str, *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog=f"urigrammar {name}")
    command = COMMANDS[name]
    command.configure(parser)
    out, err = io.StringIO(), io.StringIO()
    status = command.run(parser.parse_args(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_normalize_command_prints_each_normal_form() -> None:
    status, out, err = run(
        "normalize", "HTTP://www.Example.COM:80/a/./b/../c/%7efoo", "http://[::A]:/"
    )
    assert status == 0
    assert out.splitlines() == ["http://www.example.com/a/c/~foo", "http://[::a]/"]
    assert err == ""


def test_normalize_command_options() -> None:
    assert run("normalize", "--syntax-only", "HTTP://a:80")[1] == "http://a:80\n"
    assert run("normalize", "--ipv6-canonical", "http://[::0:A]/")[1] == "http://[::a]/\n"


def test_normalize_command_invalid_is_status_1_with_caret() -> None:
    status, out, err = run("normalize", "http://a b/", "HTTP://a")
    assert status == 1
    assert out == "\nhttp://a/\n"  # an empty line for the invalid text: lines stay matched
    assert "^" in err
    assert "Traceback" not in err


def test_commands_pass_one_options_value(monkeypatch: pytest.MonkeyPatch) -> None:

    seen: list[Normalization | None] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[-1])
        assert not kwargs
        return real[spy_name](*args)

    real = {"normalize": normalize, "equivalent": equivalent}
    for spy_name in real:
        seen.clear()
        # The commands reach the library through the urigrammar module.
        monkeypatch.setattr(urigrammar, spy_name, spy)
        argv = ["--syntax-only", "--ipv6-canonical", "--default-port", "FOO=7"]
        texts = ["foo://a:7", "foo://a"] if spy_name == "equivalent" else ["foo://a:7"]
        run(spy_name, *argv, *texts)
        rules = {**SCHEME_RULES, "foo": SchemeRule(7)}
        want = Normalization(scheme_based=False, ipv6_canonical=True, schemes=rules)
        assert seen == [want]
        monkeypatch.undo()
    status, out, _ = run("normalize", "--default-port", "foo=7", "FOO://a:07/")
    assert (status, out) == (0, "foo://a/\n")
    want_rules = Normalization(schemes={**SCHEME_RULES, "foo": SchemeRule(7)})
    assert out == f"{normalize('FOO://a:07/', want_rules)}\n"
