"""No password in the command line's error output: a userinfo's password
(RFC 3986 section 3.2.1) is masked in every command's message."""

from __future__ import annotations

import json

import pytest

from _console import run


@pytest.mark.parametrize(
    "argv",
    [
        ["parse", "http://user:s3cret@exa mple.com/"],
        ["validate", "URI", "http://user:s3cret@exa mple.com/"],
        ["normalize", "http://user:s3cret@exa mple.com/"],
        ["resolve", "//user:s3cret@a b", "g"],
    ],
)
def test_password_never_in_error_output(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = run(*argv, monkeypatch=monkeypatch)
    assert status != 0
    assert err
    assert "s3cret" not in err


# --- a password typed with an unencoded "/", "?" or "#" ---------------------------


@pytest.mark.parametrize("delimiter", "/?#")
@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "URI"],
        ["validate", "--json", "URI"],
        ["parse"],
        ["parse", "--json"],
        ["parse", "--iri"],
        ["normalize"],
        ["resolve", "http://b/"],
        ["explain"],
    ],
    ids=" ".join,
)
def test_the_command_line_hides_a_password_with_a_delimiter(
    argv: list[str], delimiter: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = f"http://alice:s3c{delimiter}ret@example.com/"
    status, out, err = run(*argv, text, monkeypatch=monkeypatch)
    assert status == 1
    assert "ret" not in err
    assert "<hidden>" in err or "<hidden>" in out
    if "--json" in argv:
        record = json.loads(out)
        assert record["text"] == text  # the input, echoed as given
        assert "ret" not in record["error"]["message"]
