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
    assert "****" in err or "****" in out
    if "--json" in argv:
        record = json.loads(out)
        assert record["text"] == text  # the input, echoed as given
        assert "ret" not in record["error"]["message"]


# --- stdout: the texts as given, or masked with --mask-passwords --------------------

SECRET = "http://alice:s3cretpw@example.com/a?q#f"


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "URI"],
        ["validate", "--json", "URI"],
        ["parse"],
        ["parse", "--json"],
        ["parse", "--iri", "--json"],
        ["normalize"],
        ["normalize", "--json"],
        ["resolve", "http://b/"],
        ["to-uri"],
        ["to-iri", "--json"],
        ["scheme"],
        ["match", "--json", "http://{userinfo}@{host}/a{?q}#f"],
        ["encode", "--rule", "query"],
        ["decode"],
    ],
    ids=" ".join,
)
def test_stdout_holds_the_text_as_given_unless_asked_to_mask(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = run(*argv, SECRET, monkeypatch=monkeypatch)
    masked = run(*argv, "--mask-passwords", SECRET, monkeypatch=monkeypatch)
    assert masked[0] == plain[0]  # the verdict is the text's, not the masked text's
    assert "s3cretpw" in plain[1]  # data, read back by other programs
    if argv[0] == "match":
        # The variables are the template's to name: a password bound to
        # one is shown as matched; the text itself is masked.
        assert json.loads(masked[1])["text"] == "http://alice:****@example.com/a?q#f"
        return
    assert "s3cretpw" not in masked[1]
    assert "alice:****@example.com" in masked[1]


def test_parse_masks_the_userinfo_and_authority_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run("parse", "--mask-passwords", SECRET, monkeypatch=monkeypatch)
    record = json.loads(out)
    assert (record["userinfo"], record["authority"]) == ("alice:****", "alice:****@example.com")
    assert record["host"] == "example.com"


def test_a_masked_invalid_text_keeps_its_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "http://alice:s3c ret@example.com/"  # the space makes it invalid
    status, out, err = run("validate", "--mask-passwords", "URI", text, monkeypatch=monkeypatch)
    assert (status, out) == (1, "invalid\thttp://alice:****@example.com/\n")
    assert "s3c" not in err


def test_explain_always_draws_the_password_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run("explain", SECRET, monkeypatch=monkeypatch)
    assert status == 0
    assert out.splitlines()[0] == "http://alice:****@example.com/a?q#f"
    assert "s3cretpw" not in out


@pytest.mark.parametrize(
    ("argv", "masked"),
    [
        (["validate", "--mask-passwords", "userinfo", "admin:s3cretpw"], "valid\tadmin:****"),
        (
            ["validate", "--mask-passwords", "AUTHORITY", "admin:s3cretpw@h:80"],
            "valid\tadmin:****@h:80",
        ),
        (
            ["encode", "--mask-passwords", "--rule", "userinfo", "admin:s3cretpw\u00e9"],
            "admin:****",
        ),
    ],
    ids=["validate-userinfo", "validate-authority", "encode-userinfo"],
)
def test_a_text_of_a_userinfo_or_authority_rule_is_masked_as_one(
    argv: list[str], masked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(*argv, monkeypatch=monkeypatch)
    assert (status, out.splitlines(), err) == (0, [masked], "")


def test_match_masks_the_templates_password_too(monkeypatch: pytest.MonkeyPatch) -> None:
    template = "http://u:s3cretpw@{h}/"
    for argv in (["match", template], ["match", "--json", template]):
        status, out, err = run(*argv, "http://u:s3cretpw@h /", monkeypatch=monkeypatch)
        assert status == 1
        assert "s3cretpw" not in err + out.replace('"text": "http://u:s3cretpw@h /"', "")
        assert "does not match http://u:****@{h}/" in err + out
