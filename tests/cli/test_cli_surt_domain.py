"""``urigrammar surt`` and ``urigrammar domain``: a line a text, their
options, the functions' answers; ``domain`` without the ``psl`` extra
says so once.  The functions' own tests: hygiene/test_surt.py and
hygiene/test_public_suffix.py."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import io
import json
import sys

import pytest

import urigrammar as u
from urigrammar.cli._cmd_hygiene import COMMANDS
from urigrammar.hygiene import _suffix

PSL = importlib.util.find_spec("publicsuffixlist") is not None


def run(name: str, *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog=f"urigrammar {name}")
    COMMANDS[name].configure(parser)
    out, err = io.StringIO(), io.StringIO()
    status = COMMANDS[name].run(parser.parse_args(argv), out, err)
    return status, out.getvalue(), err.getvalue()


TEXTS = ("http://www.archive.org/goo/?a=2&b&a=1#f", "dns:archive.org", "HTTP://A.example:80/")


def test_surt_prints_each_texts_surt() -> None:
    status, out, _ = run("surt", *TEXTS)
    assert status == 0
    assert out.splitlines() == [u.surt(text) for text in TEXTS]


@pytest.mark.parametrize(
    ("argv", "keywords", "rules"),
    [
        (("--with-scheme",), {"with_scheme": True}, u.SURT_KEY),
        (("--trailing-comma",), {"trailing_comma": True}, u.SURT_KEY),
        (("--crawl",), {}, u.SURT_KEY),
        (
            ("--drop-param", "b", "--nfc"),
            {},
            dataclasses.replace(
                u.SURT_KEY,
                drop_parameters=(*u.TRACKING_PARAMETERS, "b"),
                normalization=u.Normalization(ipv6_canonical=True, nfc=True),
            ),
        ),
    ],
)
def test_surt_flags_add_to_the_surt_key(
    argv: tuple[str, ...], keywords: dict[str, bool], rules: u.Canonicalization
) -> None:
    out = run("surt", *argv, *TEXTS)[1]
    assert out.splitlines() == [u.surt(text, rules, **keywords) for text in TEXTS]


def test_surt_of_an_invalid_text_is_an_empty_line_and_an_error() -> None:
    status, out, err = run("surt", "http://a b/", "http://a/")
    assert (status, out) == (1, "\na)/\n")
    assert "^" in err


@pytest.mark.skipif(not PSL, reason="needs publicsuffixlist: tox -e integrations runs it")
def test_domain_prints_each_registrable_domain_or_suffix() -> None:
    texts = ("https://www.example.co.uk/", "http://[::1]/", "a.pages.github.io")
    assert run("domain", *texts)[1].splitlines() == ["example.co.uk", "", "pages.github.io"]
    assert run("domain", "--suffix", *texts)[1].splitlines() == ["co.uk", "", "github.io"]
    assert run("domain", "--icann", *texts)[1].splitlines() == ["example.co.uk", "", "github.io"]


@pytest.mark.skipif(not PSL, reason="needs publicsuffixlist: tox -e integrations runs it")
def test_domain_json_says_null_for_none_and_masks_passwords() -> None:
    status, out, _ = run("domain", "--json", "https://u:secret@www.example.co.uk/", "http://[::1]/")
    assert status == 0
    first, second = map(json.loads, out.splitlines())
    assert first == {
        "text": "https://u:****@www.example.co.uk/",
        "valid": True,
        "registrable_domain": "example.co.uk",
        "error": None,
    }
    assert second["registrable_domain"] is None
    assert json.loads(run("domain", "--json", "--suffix", "a.example.com")[1])["public_suffix"] == (
        "com"
    )


def test_domain_without_the_list_says_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "publicsuffixlist", None)
    _suffix._forget()
    try:
        status, out, err = run("domain", "http://a.example/", "http://b.example/")
    finally:
        _suffix._forget()
    assert (status, out) == (2, "")
    assert err.count("urigrammar[psl]") == 1
