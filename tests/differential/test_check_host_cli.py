"""``urigrammar check-host``: the host of each URL a ``HostPolicy`` made of
the flags lets through, the reason for each it refuses, exit 1 on any
refused, 2 for a policy that means nothing.  The policy's own tests:
test_host_policy.py.  Needs ``can_ada`` (``tox -e integrations``)."""

from __future__ import annotations

import json

import pytest

from _console import run

pytest.importorskip("can_ada")


def test_a_host_a_line_and_the_reasons_on_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    urls = ["https://API.example.com/x", "http://evil.com\\@api.example.com/", "http://10.0.0.1/"]
    status, out, err = run(
        "check-host", "--allow", "api.example.com", *urls, monkeypatch=monkeypatch
    )
    assert status == 1
    assert out.splitlines() == ["api.example.com", "", ""]
    assert "backslash" in err
    assert "no public service" in err


def test_json_records_and_every_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    urls = ["wss://a.cdn.example.org:8443/", "https://a.cdn.example.org/", "http://127.0.0.1:8443/"]
    status, out, _ = run(
        "check-host",
        "--json",
        "--allow",
        "*.cdn.example.org",
        "--allow",
        "127.0.0.1",
        "--scheme",
        "wss",
        "--scheme",
        "http",
        "--port",
        "8443",
        "--allow-internal",
        *urls,
        monkeypatch=monkeypatch,
    )
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [r["host"] for r in records] == ["a.cdn.example.org", None, "127.0.0.1"]
    assert "scheme 'https'" in records[1]["error"]["message"]


def test_exit_0_when_every_url_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("check-host", "https://example.net/", monkeypatch=monkeypatch) == (
        0,
        "example.net\n",
        "",
    )


@pytest.mark.parametrize("flags", [["--allow", "a.*.b"], ["--port", "70000"], ["--scheme", "ftp"]])
def test_a_policy_that_means_nothing_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, flags: list[str]
) -> None:
    status, out, err = run("check-host", *flags, "https://example.net/", monkeypatch=monkeypatch)
    assert (status, out) == (2, "")
    assert err.startswith("urigrammar: ")
