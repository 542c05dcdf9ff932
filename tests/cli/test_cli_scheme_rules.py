"""Scheme rules on the command line: ``--default-port NAME=PORT`` and
``--empty-path-is-root NAME`` give ``normalize`` and ``equivalent`` the
``schemes=`` the library functions take."""

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
