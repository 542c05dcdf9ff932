"""``urigrammar equivalent``: whether two texts are equivalent (RFC 3986
section 6), by exit status, as the library's ``equivalent`` says, with
the options of ``normalize``."""

from __future__ import annotations

import io

import pytest

import urigrammar as u
from urigrammar.cli._cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


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
