"""``urigrammar cache dir`` and ``urigrammar cache clear``: the per-user
cache of compiled user grammars named and emptied, and the reason a cache
directory is refused (engine/test_grammar_cache.py tests the cache)."""

from __future__ import annotations

from pathlib import Path

import pytest

GRAMMAR = """\
date = year "-" month "-" day
year = 4DIGIT
month = 2DIGIT
day = 2DIGIT
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("URIGRAMMAR_CACHE_DIR", str(directory))
    return directory


def _entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json"))


def test_the_cli_names_and_clears_the_cache(cache: Path, tmp_path: Path) -> None:
    from io import StringIO

    from urigrammar.cli import main

    grammar = tmp_path / "date.abnf"
    grammar.write_text(GRAMMAR, encoding="utf-8")
    out, err = StringIO(), StringIO()
    assert main(["validate", "--grammar", str(grammar), "date", "2024-01-31"], out, err) == 0
    assert len(_entries(cache)) == 1
    out = StringIO()
    assert main(["cache", "dir"], out, err) == 0
    assert out.getvalue().strip() == str(cache)
    out = StringIO()
    assert main(["cache", "clear"], out, err) == 0
    assert "removed 1 file" in out.getvalue()
    assert not _entries(cache)


def test_the_cli_says_why_a_cache_is_refused(cache: Path) -> None:
    from io import StringIO

    from urigrammar.cli import main

    cache.mkdir()
    cache.chmod(0o777)
    out, err = StringIO(), StringIO()
    assert main(["cache", "dir"], out, err) == 2
    assert "writable by group or others" in err.getvalue()
    assert main(["cache", "clear"], out, err) == 2
