"""No password in the command line's error output: a userinfo's password
(RFC 3986 section 3.2.1) is masked in every command's message."""

from __future__ import annotations

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
