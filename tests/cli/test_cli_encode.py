"""``urigrammar encode``: ``percent_encode`` on each text, for the rule
``--rule`` names (the rules percent-encoding is defined for), with its
options; ``decode`` gives the text back."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.cli._cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


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
