"""``urigrammar cache dir`` and ``urigrammar cache clear``: the per-user
cache of compiled user grammars named and emptied, and the reason a cache
directory is refused (engine/test_grammar_cache.py tests the cache)."""

from __future__ import annotations

from pathlib import Path

from _user_cache import GRAMMAR, cache, entries

__all__ = ["cache"]  # the fixture, imported


def test_the_cli_names_and_clears_the_cache(cache: Path, tmp_path: Path) -> None:
    from io import StringIO

    from urigrammar.cli import main

    grammar = tmp_path / "date.abnf"
    grammar.write_text(GRAMMAR, encoding="utf-8")
    out, err = StringIO(), StringIO()
    assert main(["validate", "--grammar", str(grammar), "date", "2024-01-31"], out, err) == 0
    assert len(entries(cache)) == 1
    out = StringIO()
    assert main(["cache", "dir"], out, err) == 0
    assert out.getvalue().strip() == str(cache)
    out = StringIO()
    assert main(["cache", "clear"], out, err) == 0
    assert "removed 1 file" in out.getvalue()
    assert not entries(cache)


def test_the_cli_says_why_a_cache_is_refused(cache: Path) -> None:
    from io import StringIO

    from urigrammar.cli import main

    cache.mkdir()
    cache.chmod(0o777)
    out, err = StringIO(), StringIO()
    assert main(["cache", "dir"], out, err) == 2
    assert "writable by group or others" in err.getvalue()
    assert main(["cache", "clear"], out, err) == 2
