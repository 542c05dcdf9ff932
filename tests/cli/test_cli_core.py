"""The command line: parse and validate, exit statuses, no tracebacks."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from urigrammar.cli._cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_parse_prints_components() -> None:
    status, out, _ = run("parse", "foo://example.com:8042/over/there?name=ferret#nose")
    assert status == 0
    got = json.loads(out)
    assert got == {
        "scheme": "foo",
        "authority": "example.com:8042",
        "userinfo": None,
        "host": "example.com",
        "host_kind": "reg-name",
        "port": 8042,
        "path": "/over/there",
        "query": "name=ferret",
        "fragment": "nose",
    }


def test_parse_invalid_is_status_1_with_caret() -> None:
    # The invalid text gets a line, so output lines match input lines:
    # null, the error on stderr.
    status, out, err = run("parse", "http://a b")
    assert (status, out) == (1, "null\n")
    assert "^" in err
    assert "Traceback" not in err
    # With --json, the record has the keys a valid text's has.
    status, out, err = run("parse", "--json", "http://a b", "http://a/")
    bad, good = (json.loads(line) for line in out.splitlines())
    assert bad == {
        "text": "http://a b",
        "valid": False,
        **dict.fromkeys(good.keys() - {"text", "valid", "error"}),
        "error": {
            "offset": 8,
            "message": (
                "not a valid URI-reference: unexpected ' ' at offset 8; "
                "a space is written %20 in a URI"
            ),
            "kind": "syntax",
        },
    }
    assert list(bad) == list(good)
    assert (good["valid"], good["error"], good["host"]) == (True, None, "a")
    assert err == ""


def test_validate_verdicts_and_status() -> None:
    status, out, err = run("validate", "IPv6address", "::1", "1::2::3")
    assert status == 1
    assert out.splitlines() == ["valid\t::1", "invalid\t1::2::3"]
    assert "offset 5" in err
    assert run("validate", "ipv4ADDRESS", "1.2.3.4")[0] == 0


def test_validate_is_the_pure_abnf_and_says_so() -> None:
    # A rule name means its ABNF: an IRI rule admits a bidi character, which
    # parse --iri refuses (RFC 3987 section 4.1); --help says which is which.
    assert run("validate", "IRI", "http://a/\u202e")[0] == 0
    assert run("parse", "--iri", "http://a/\u202e")[0] == 1
    from urigrammar.cli import _cli

    _, parsers = _cli._parsers()
    shown = _cli._configured("validate", parsers["validate"]).format_help()
    assert "RFC 3987 section 4.1" in " ".join(shown.split())


def test_unknown_rule_is_a_usage_error() -> None:
    status, out, err = run("validate", "IPv6adress", "::1")
    assert status == 2
    assert out == ""
    assert "IPv6address" in err


def test_bad_arguments_are_usage_errors() -> None:
    assert run("parse", "--rule", "path", "x")[0] == 2
    assert run()[0] == 2
    assert run("frobnicate")[0] == 2


def test_module_and_console_entry_points() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "urigrammar", "validate", "URI", "http://a", "a b"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines() == ["valid\thttp://a", "invalid\ta b"]
    assert "Traceback" not in done.stderr
