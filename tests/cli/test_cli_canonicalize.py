"""``urigrammar canonicalize``: a key per text, each flag the step of
``Canonicalization`` it names, ``--crawl`` the preset; exit status 1, an
empty line and a caret for an invalid text.  The function's own tests:
hygiene/test_canonicalize.py."""

from __future__ import annotations

import argparse
import dataclasses
import io

import pytest

import urigrammar as u
from urigrammar.cli._cmd_hygiene import COMMANDS, options

TEXT = "HTTP://www.Bücher.example:80/a?utm_source=x&b=1&a=2&ref=q#f"


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="urigrammar canonicalize")
    COMMANDS["canonicalize"].configure(parser)
    return parser.parse_args(argv)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = COMMANDS["canonicalize"].run(_args(*argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_each_text_gets_its_key_and_a_bad_one_an_empty_line() -> None:
    status, out, err = run(TEXT, "http://a b/", "http://a/%7e")
    assert status == 1
    assert out.splitlines() == [u.canonicalize(TEXT), "", "http://a/~"]
    assert "^" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "rules"),
    [
        ((), u.Canonicalization()),
        (("--crawl",), u.CRAWL_KEY),
        (("--idna", "--drop-fragment"), u.Canonicalization(idna=True, drop_fragment=True)),
        (("--sort-query", "--drop-www"), u.Canonicalization(sort_query=True, drop_www=True)),
        (("--drop-empty-query",), u.Canonicalization(drop_empty_query=True)),
        (
            ("--drop-param", "ref", "--drop-param", "u*"),
            u.Canonicalization(drop_parameters=("ref", "u*")),
        ),
        (("--drop-tracking",), u.Canonicalization(drop_parameters=u.TRACKING_PARAMETERS)),
        (
            ("--crawl", "--drop-www", "--drop-param", "ref", "--nfc"),
            dataclasses.replace(
                u.CRAWL_KEY,
                drop_www=True,
                drop_parameters=(*u.TRACKING_PARAMETERS, "ref"),
                normalization=u.Normalization(ipv6_canonical=True, nfc=True),
            ),
        ),
        (
            ("--ipv6-canonical",),
            u.Canonicalization(normalization=u.Normalization(ipv6_canonical=True)),
        ),
    ],
)
def test_each_flag_turns_on_its_step(argv: tuple[str, ...], rules: u.Canonicalization) -> None:
    assert options(_args(*argv)) == rules
    assert run(*argv, TEXT)[1] == u.canonicalize(TEXT, rules) + "\n"


def test_json_lines_and_masked_passwords() -> None:
    status, out, _ = run("--json", "--mask-passwords", "http://u:secret@a/?x")
    assert status == 0
    assert "secret" not in out
    assert '"result": "http://u:****@a/?x"' in out
