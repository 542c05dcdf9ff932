"""``urigrammar scheme``: one JSON Lines record a text, by the profile of
its scheme, checked against ``parse_scheme`` itself."""

from __future__ import annotations

import io
import json

from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.cli._cli import main


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        import sys

        saved = sys.stdin
        sys.stdin = io.StringIO(stdin)
        try:
            status = main(list(argv), out, err)
        finally:
            sys.stdin = saved
    else:
        status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_a_valid_urn_prints_its_fields() -> None:
    status, out, _ = run("scheme", "URN:Example:a?+r?=q#f")
    assert status == 0
    record = json.loads(out)
    assert record == {
        "text": "URN:Example:a?+r?=q#f",
        "valid": True,
        "scheme": "urn",
        "profile": "RFC 8141 namestring",
        "fields": {
            "nid": "Example",
            "nss": "a",
            "r_component": "r",
            "q_component": "q",
            "f_component": "f",
        },
        "error": None,
    }


def test_invalid_texts_and_unknown_schemes_exit_1_in_order() -> None:
    status, out, _ = run("scheme", "urn:ab:c", "urn:a:b", "nope:x", "no scheme")
    assert status == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["valid"] for r in records] == [True, False, False, False]
    assert [r["error"] and r["error"]["kind"] for r in records] == [
        None,
        "syntax",
        "unknown-scheme",
        "syntax",
    ]
    assert records[1]["error"]["offset"] == 5
    assert records[2]["profile"] is None
    assert records[3]["scheme"] is None


def test_a_valid_uri_with_a_field_that_does_not_decode() -> None:
    status, out, _ = run("scheme", "mailto:a@b?subject=%FF")
    record = json.loads(out)
    assert status == 1
    assert (record["valid"], record["fields"], record["error"]["kind"]) == (True, None, "invalid")


def test_texts_from_stdin() -> None:
    status, out, _ = run("scheme", "-", stdin="urn:ab:c\nurn:cd:e\n")
    assert status == 0
    assert [json.loads(line)["fields"]["nid"] for line in out.splitlines()] == ["ab", "cd"]


@given(
    st.sampled_from(["urn:", "URN:", "urn:ab:", "urn:ex:a?+", "x:", ""]).flatmap(
        lambda head: st.text(alphabet="ab:?+=#%/1-@F&", max_size=12).map(lambda t: head + t)
    )
)
def test_each_record_is_what_parse_scheme_says(text: str) -> None:
    if text.startswith("-"):
        return  # an option, not a text
    status, out, _ = run("scheme", "--", text)
    record = json.loads(out)
    seen = (record["valid"], record["fields"], (record["error"] or {}).get("offset"))
    assert seen == _expected(text)
    assert status == (0 if record["error"] is None else 1)


def _expected(text: str) -> tuple[bool, object, int | None]:
    try:
        value = u.parse_scheme(text)
    except u.URIError as exc:
        return False, None, exc.offset
    try:
        return True, value.as_dict(), None
    except u.URIError as exc:
        return True, None, exc.offset
