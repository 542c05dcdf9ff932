"""The command line on IRIs (RFC 3987): ``parse --iri``, ``to-uri``,
``to-iri``, ``validate`` and ``rules`` by IRI rule name, and ``explain``
drawing IRIs; and ``resolve``, ``relativize``, ``normalize`` and
``equivalent`` reading a text that is only an IRI as one.  Results are
checked against the library functions the commands stand for."""

from __future__ import annotations

import io
import json
import unicodedata

import pytest
from hypothesis import given

import urigrammar as u
from urigrammar.cli._cli import main
from urigrammar.strategies import from_rule


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


NO_BIDI = from_rule("IRI-reference").filter(lambda t: not u.BIDI_FORMATTING & set(t))


def test_parse_iri_prints_the_components() -> None:
    status, out, _ = run("parse", "--iri", "http://\u4f8b\u3048.jp/\u00e4?q#f")
    assert status == 0
    record = json.loads(out)
    assert record["host"] == "\u4f8b\u3048.jp"
    assert record["host_kind"] == "ireg-name"
    assert record["path"] == "/\u00e4"


def test_parse_iri_takes_iri_rules_only() -> None:
    assert run("parse", "--iri", "--rule", "IRI", "a:\u00e4")[0] == 0
    assert run("parse", "--iri", "--rule", "URI", "a:b")[0] == 2
    assert run("parse", "--rule", "IRI", "a:b")[0] == 2


def test_parse_iri_refuses_bidi_characters() -> None:
    status, out, err = run("parse", "--iri", "http://a/\u202e")
    assert (status, out) == (1, "null\n")
    assert "U+202E" in err
    status, out, err = run("parse", "--iri", "--json", "http://a/\u202e")
    assert json.loads(out)["error"]["offset"] == 9


def test_plain_parse_refuses_iris() -> None:
    assert run("parse", "http://a/\u00e4")[0] == 1


# "-" names standard input, after "--" too (as in `cat -- -`), so the
# command never reads it as the text "-".
@given(NO_BIDI.filter(lambda t: t != "-"))
def test_to_uri_is_the_library_function(text: str) -> None:
    status, out, _ = run("to-uri", "--", text)
    assert status == 0
    assert out == f"{u.to_uri(text)}\n"


@given(from_rule("URI-reference").filter(lambda t: t != "-"))
def test_to_iri_is_the_library_function(text: str) -> None:
    status, out, _ = run("to-iri", "--", text)
    assert status == 0
    assert out == f"{u.to_iri(text)}\n"


def test_conversion_options() -> None:
    assert run("to-uri", "--idna", "http://r\u00e9sum\u00e9.example.org")[1] == (
        "http://xn--rsum-bpad.example.org\n"
    )
    assert run("to-iri", "--idna", "http://xn--rsum-bpad.example.org")[1] == (
        "http://r\u00e9sum\u00e9.example.org\n"
    )
    status, out, err = run("to-uri", "http://a/\u202e")
    assert (status, out) == (1, "\n")
    assert "section 4.1" in err
    assert run("to-uri", "--allow-bidi", "http://a/\u202e")[1] == "http://a/%E2%80%AE\n"
    status, out, _ = run("to-iri", "--json", "http://a/%C3%A4", "a b")
    assert status == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["result"] == "http://a/\u00e4"
    assert second["valid"] is False


def test_validate_and_rules_take_iri_rule_names() -> None:
    status, out, _ = run("validate", "IRI", "http://\u00e4/", "http://a/\ue000")
    assert status == 1
    assert out.splitlines() == ["valid\thttp://\u00e4/", "invalid\thttp://a/\ue000"]
    status, out, _ = run("rules", "ihost")
    assert status == 0
    assert out.startswith("ihost ")
    assert "ireg-name      = *( iunreserved / pct-encoded / sub-delims )" in out


def _columns(text: str) -> int:
    return sum(
        0
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(c) in "WF"
        else 1
        for c in text
    )


@pytest.mark.parametrize(
    "text",
    [
        "http://\u4f8b\u3048.jp/\u00e4?q#f",  # wide characters in the host
        "http://a/e\u0301t\u00e9?\ue000#x",  # a combining mark
        "//\u00e4:8/\U00020000",  # an astral wide character
    ],
)
def test_explain_draws_iris_in_terminal_columns(text: str) -> None:
    status, out, _ = run("explain", text)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == text
    braces = lines[1]
    iri = u.parse_iri(text)
    # The path's brace starts under the path's first column.
    prefix = (f"{iri.scheme}:" if iri.scheme else "") + (
        f"//{iri.authority}" if iri.authority is not None else ""
    )
    start = _columns(prefix)
    width = _columns(iri.path)
    assert braces[start : start + width] == ("\\" + "_" * (width - 2) + "/" if width > 1 else "^")


def test_explain_reports_the_iri_error_for_non_ascii_text() -> None:
    status, _, err = run("explain", "http://a/\ue000")
    assert status == 1
    assert "not a valid IRI-reference" in err
    status, _, err = run("explain", "http://a/ b")
    assert status == 1
    assert "not a valid URI-reference" in err


def test_texts_are_read_as_iris_when_they_are_no_uris() -> None:
    # As the library reads a string: no --iri needed.
    status, out, _ = run("resolve", "http://ex.com/\u00e4/", "b", "../c")
    assert (status, out) == (0, "http://ex.com/\u00e4/b\nhttp://ex.com/c\n")
    assert run("relativize", "http://a/b/", "http://a/b/\u00e4") == (0, "\u00e4\n", "")
    assert run("normalize", "HTTP://ex.com/\u00e4") == (0, "http://ex.com/\u00e4\n", "")
    assert run("equivalent", "http://ex.com/\u00e4", "http://ex.com/%C3%A4")[0] == 0
