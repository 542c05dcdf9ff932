"""``--grammar FILE`` and ``--import FILE``: ``validate`` and ``rules`` on
any ABNF file."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import urigrammar as u
from urigrammar.cli._cli import main

DATES = 'date = year "-" month\nyear = 4DIGIT\nmonth = "0" %x31-39 / "1" %x30-32\n'


class _Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    saved = sys.stdin
    sys.stdin = _Stdin(stdin)
    try:
        out, err = io.StringIO(), io.StringIO()
        status = main(list(argv), out, err)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def dates(tmp_path: Path) -> str:
    path = tmp_path / "dates.abnf"
    path.write_text(DATES, encoding="utf-8")
    return str(path)


def test_validate_takes_a_rule_of_the_file(dates: str) -> None:
    status, out, err = run("validate", "--grammar", dates, "DATE", "2024-12", "2024-13")
    assert status == 1
    assert out.splitlines() == ["valid\t2024-12", "invalid\t2024-13"]
    assert "offset 6" in err
    assert run("validate", "--grammar", dates, "month", "09")[0] == 0


def test_validate_agrees_with_the_library_on_line_input_and_jobs(dates: str) -> None:
    grammar = u.load_grammar(Path(dates))
    texts = ["2024-01", "2024-1", "1999-10", "x", "", "2024-00"]
    for jobs in ("1", "2"):
        status, out, _ = run(
            "validate",
            "--grammar",
            dates,
            "date",
            "-",
            "--jobs",
            jobs,
            "--json",
            stdin="\n".join(texts),
        )
        records = [json.loads(line) for line in out.splitlines()]
        assert [r["text"] for r in records] == texts
        assert [r["valid"] for r in records] == [grammar.validate("date", t) for t in texts]
        assert status == 1


def test_imports_fill_gaps(tmp_path: Path) -> None:
    months = tmp_path / "months.abnf"
    months.write_text('month = "jan" / "feb"\n', encoding="utf-8")
    top = tmp_path / "top.abnf"
    top.write_text('stamp = 2DIGIT "-" month\n', encoding="utf-8")
    argv = ("validate", "--grammar", str(top), "--import", str(months), "stamp")
    assert run(*argv, "01-jan")[0] == 0
    assert run(*argv, "01-mar")[0] == 1
    # Without the import the grammar does not load: a usage error.
    status, _, err = run("validate", "--grammar", str(top), "stamp", "01-jan")
    assert status == 2
    assert "'month'" in err
    assert "'stamp'" in err


def test_bad_grammars_and_rules_are_usage_errors(dates: str, tmp_path: Path) -> None:
    assert run("validate", "--grammar", str(tmp_path / "missing.abnf"), "x", "a")[0] == 2
    assert run("validate", "--grammar", dates, "URI", "http://a")[0] == 2  # not in the file
    assert run("validate", "--import", dates, "URI", "http://a")[0] == 2  # import alone
    (tmp_path / "junk.abnf").write_text("this is not abnf\n", encoding="utf-8")
    assert run("validate", "--grammar", str(tmp_path / "junk.abnf"), "x", "a")[0] == 2


def test_the_abnf_engine_takes_the_file_too(dates: str) -> None:
    status, out, _ = run("validate", "--method", "abnf", "--grammar", dates, "date", "2024-12")
    assert (status, out) == (0, "valid\t2024-12\n")
    status, _, _ = run("validate", "--method", "abnf", "--grammar", dates, "date", "2024-13")
    assert status == 1


def test_rules_prints_the_file(dates: str) -> None:
    status, out, _ = run("rules", "--grammar", dates, "date")
    assert status == 0
    lines = out.splitlines()
    assert lines[:3] == DATES.splitlines()
    assert "DIGIT" in lines[3]
    status, out, _ = run("rules", "--grammar", dates)
    assert out.splitlines()[:3] == DATES.splitlines()
    assert len(out.splitlines()) == 3 + len(u.load_grammar(DATES).core_names)


def test_unreadable_grammar_file_is_a_usage_error(tmp_path: Path) -> None:
    latin = tmp_path / "latin.abnf"
    latin.write_bytes(b'r = "\xe9"\n')
    status, _, err = run("validate", "--grammar", str(latin), "r", "x")
    assert status == 2
    assert "Traceback" not in err
    assert "cannot read" in err


def test_jobs_has_a_ceiling(capsys: pytest.CaptureFixture[str]) -> None:
    from urigrammar.cli._cmd import MAX_JOBS, _jobs

    status, _, _ = run("validate", "URI", "--jobs", str(MAX_JOBS + 1), "http://a")
    assert status == 2
    assert "at most" in capsys.readouterr().err  # argparse writes to sys.stderr
    assert _jobs(str(MAX_JOBS)) == MAX_JOBS


def test_imports_that_disagree_on_a_rule_are_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("URIGRAMMAR_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "top.abnf").write_text("stamp = day sep hour\n", encoding="utf-8")
    (tmp_path / "dates.abnf").write_text('day = 2DIGIT\nsep = "-"\n', encoding="utf-8")
    (tmp_path / "times.abnf").write_text('hour = 2DIGIT\nsep = ":"\n', encoding="utf-8")
    files = ["--grammar", str(tmp_path / "top.abnf")]
    files += ["--import", str(tmp_path / "dates.abnf"), "--import", str(tmp_path / "times.abnf")]
    status, out, err = run("validate", *files, "stamp", "01-02")
    assert (status, out) == (2, "")
    assert "'sep'" in err
    assert "dates.abnf" in err
    assert "times.abnf" in err
    assert "Traceback" not in err


def test_rules_label_the_file_and_each_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("URIGRAMMAR_CACHE_DIR", str(tmp_path / "cache"))
    top, days, hours = (tmp_path / name for name in ("top.abnf", "days.abnf", "hours.abnf"))
    top.write_text('stamp = day "T" hour\n', encoding="utf-8")
    days.write_text("day = 2DIGIT\n", encoding="utf-8")
    hours.write_text("hour = 2DIGIT\n", encoding="utf-8")
    files = ["--grammar", str(top), "--import", str(days), "--import", str(hours)]
    for argv in (["rules", *files], ["rules", *files, "stamp"]):
        status, out, err = run(*argv)
        assert (status, err) == (0, "")
        assert out.startswith(f"; --- {top} ---\nstamp = ")
        assert f"\n\n; --- {days} ---\nday = 2DIGIT\n" in out
        assert f"\n\n; --- {hours} ---\nhour = 2DIGIT\n" in out
        assert "; DIGIT " in out
    # --import fills a --grammar file's gaps: alone it is a usage error.
    status, out, err = run("rules", "--import", str(days))
    assert (status, out) == (2, "")
    assert "--grammar" in err


def test_a_grammar_file_with_a_long_comment_loads(tmp_path: Path) -> None:
    # Read by abnf, a 16 KB file like this took 8.6 s and 2 GB.
    path = tmp_path / "commented.abnf"
    path.write_text(DATES + "; " + "c" * 200_000 + "\n", encoding="utf-8")
    assert run("validate", "--grammar", str(path), "date", "2024-12") == (0, "valid\t2024-12\n", "")


def test_a_grammar_file_past_a_limit_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "long.abnf"
    path.write_text(DATES + 'long = "' + "c" * 5000 + '"\n', encoding="utf-8")
    status, out, err = run("validate", "--grammar", str(path), "date", "2024-12")
    assert (status, out) == (2, "")
    assert "MAX_RULE_LENGTH" in err
