"""``urigrammar diff``: one JSON object a text (JSON Lines), in input order
from arguments, ``-``, ``--file`` or stdin; exit 1 on any finding, 0 on
none, 2 for a missing extra or a base the parsers do not read alike.

Needs ``can_ada`` (``tox -e integrations``), but for the missing extra."""

from __future__ import annotations

import json
import sys

import pytest

import urigrammar as u
from _console import run


@pytest.fixture
def whatwg() -> None:
    pytest.importorskip("can_ada")


def _records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.usefixtures("whatwg")
def test_a_line_per_text_and_exit_1_on_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["http://127.1/", "http://good.com/", "http://a b/"]
    status, out, err = run("diff", *texts, monkeypatch=monkeypatch)
    assert (status, err) == (1, "")
    records = _records(out)
    assert [r["text"] for r in records] == texts
    assert [[f["kind"] for f in r["findings"]] for r in records] == [["ipv4-number"], [], []]
    assert records[0]["findings"] == [f.to_json() for f in u.differential.diff(texts[0])]


@pytest.mark.usefixtures("whatwg")
def test_exit_0_when_every_text_reads_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run("diff", "https://good.com/a", "mailto:a@b", monkeypatch=monkeypatch)
    assert status == 0
    assert [r["findings"] for r in _records(out)] == [[], []]


@pytest.mark.usefixtures("whatwg")
def test_stdin_and_base(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = "/a\n/\\evil.com\n"
    status, out, _ = run(
        "diff", "--base", "https://good.com/x", stdin=stdin, monkeypatch=monkeypatch
    )
    assert status == 1
    first, second = _records(out)
    assert first["findings"] == []
    assert [f["kind"] for f in second["findings"]] == ["backslash"]
    assert second["findings"][0]["readings"]["whatwg"]["host"] == "evil.com"


@pytest.mark.usefixtures("whatwg")
@pytest.mark.parametrize("base", ["relative", "http://127.1/", "http://a b/"])
def test_a_bad_base_is_a_usage_error(base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run("diff", "--base", base, "g", monkeypatch=monkeypatch)
    assert (status, out) == (2, "")
    assert err.startswith("urigrammar: ")
    assert "^" in err


@pytest.mark.usefixtures("whatwg")
def test_jobs_keep_the_order(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"http://127.{i}/" if i % 3 else f"http://a{i}/" for i in range(30)]
    one = run("diff", *texts, monkeypatch=monkeypatch)
    two = run("diff", "--jobs", "2", *texts, monkeypatch=monkeypatch)
    assert one == two
    assert one[0] == 1


@pytest.mark.usefixtures("whatwg")
def test_findings_never_show_a_password(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "http:alice:s3cret@evil.com/"
    _, out, _ = run("diff", text, monkeypatch=monkeypatch)
    (record,) = _records(out)
    assert record["text"] == text  # the input, echoed as every command's --json does
    assert "s3cret" not in json.dumps(record["findings"])


def test_without_the_extra_exit_2_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from urigrammar.differential import _whatwg

    monkeypatch.setitem(sys.modules, "can_ada", None)
    monkeypatch.setattr(_whatwg, "_module", None)
    status, out, err = run("diff", "http://a/", monkeypatch=monkeypatch)
    assert (status, out) == (2, "")
    assert "pip install 'urigrammar[whatwg]'" in err


@pytest.mark.usefixtures("whatwg")
def test_a_port_too_long_for_int_is_a_finding_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "http://h:" + "9" * 4301 + "/"
    status, out, err = run("diff", text, monkeypatch=monkeypatch)
    assert (status, err) == (1, "")
    assert [f["kind"] for f in _records(out)[0]["findings"]] == ["port-range"]


@pytest.mark.usefixtures("whatwg")
def test_a_base_that_fails_shows_no_password(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run("diff", "--base", "http:\\\\u:SECRETPW@h/", "x", monkeypatch=monkeypatch)
    assert status == 2
    assert "****" in err
    assert "SECRETPW" not in out + err


@pytest.mark.usefixtures("whatwg")
def test_readers_named_with_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("urllib3")
    text = "http://127.0.0.1\\@1.1.1.1/"
    status, out, err = run(
        "diff", "--reader", "urllib", "--reader", "urllib3", text, monkeypatch=monkeypatch
    )
    assert (status, err) == (1, "")
    (record,) = _records(out)
    assert record["findings"] == [
        f.to_json() for f in u.differential.diff(text, readers=["urllib", "urllib3"])
    ]
    assert record["findings"][0]["readers"] == ["urllib", "urllib3"]
    status, _, err = run("diff", "--reader", "urllib", text, monkeypatch=monkeypatch)
    assert status == 2
    assert "two readers" in err
