"""The per-user cache of compiled user grammars (``load_grammar(...,
cache=True)``, ``engine.program.store``): a second load reads the grammar with no
``abnf`` and no compiling; a directory or file that someone else could
have written is refused, with the reason logged; writers race safely."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import urigrammar
from _user_cache import GRAMMAR, cache, entries
from urigrammar import load_grammar
from urigrammar.engine import compiled as _grammar
from urigrammar.engine.program import build as _build
from urigrammar.engine.program import store as _cache
from urigrammar.engine.program.artifact import decode
from urigrammar.shipped import grammar_text

__all__ = ["cache"]  # the fixture, imported


def test_the_cache_is_off_unless_asked(cache: Path) -> None:
    assert load_grammar(GRAMMAR).validate("date", "2024-01-31")
    assert not cache.exists()


def test_a_second_load_reads_neither_text_nor_rules(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_grammar(GRAMMAR, cache=True)
    assert first.validate("date", "2024-01-31")
    assert len(entries(cache)) == 1
    with monkeypatch.context() as patch:
        patch.setattr(_grammar, "read_rules", _fail)
        patch.setattr(_build, "build_program", _fail)
        again = load_grammar(GRAMMAR, cache=True)
        assert again.validate("date", "2024-01-31")
        assert not again.validate("date", "2024-1-31")
        assert again.rule_names == first.rule_names
        assert again.source("day") == first.source("day")


def _fail(*args: object, **kwargs: object) -> object:
    pytest.fail("the grammar was read or compiled, not loaded from the cache")


def test_the_cache_directory_is_made_private(cache: Path) -> None:
    load_grammar(GRAMMAR, cache=True)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700


def test_another_text_is_another_entry(cache: Path) -> None:
    load_grammar(GRAMMAR, cache=True)
    changed = load_grammar(GRAMMAR.replace("4DIGIT", "2DIGIT"), cache=True)
    assert len(entries(cache)) == 2
    assert changed.validate("date", "24-01-31")


def test_an_import_changes_the_entry(cache: Path) -> None:
    base = load_grammar("digits = 1*DIGIT\n", cache=True)
    other = load_grammar("digits = 1*HEXDIG\n", cache=True)
    one = load_grammar("n = digits\n", imports=[base], cache=True)
    two = load_grammar("n = digits\n", imports=[other], cache=True)
    assert one.validate("n", "12")
    assert not one.validate("n", "ff")
    assert two.validate("n", "ff")


def _refused(caplog: pytest.LogCaptureFixture, what: str) -> None:
    messages = [r.getMessage() for r in caplog.records if r.name == "urigrammar.cache"]
    assert any(what in m for m in messages), messages


def test_a_symlinked_directory_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real = tmp_path / "elsewhere"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.setenv("URIGRAMMAR_CACHE_DIR", str(link))
    with caplog.at_level(logging.WARNING, logger="urigrammar.cache"):
        assert load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    _refused(caplog, "symbolic link")
    assert not list(real.iterdir())


def test_a_world_writable_directory_is_refused(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache.mkdir()
    cache.chmod(0o777)
    with caplog.at_level(logging.WARNING, logger="urigrammar.cache"):
        assert load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    _refused(caplog, "writable by group or others")
    assert not entries(cache)


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="chown needs root")
def test_a_directory_owned_by_someone_else_is_refused(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache.mkdir(mode=0o700)
    os.chown(cache, 12345, 12345)
    with caplog.at_level(logging.WARNING, logger="urigrammar.cache"):
        assert load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    _refused(caplog, "owned by user 12345")
    assert not entries(cache)


def test_a_file_in_place_of_the_directory_is_refused(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache.write_text("not a directory")
    with caplog.at_level(logging.WARNING, logger="urigrammar.cache"):
        assert load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    _refused(caplog, "not a directory")


def test_a_symlinked_entry_is_not_followed(
    cache: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    (entry,) = entries(cache)
    planted = tmp_path / "planted.json"
    planted.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(planted)
    read: list[object] = []
    real = _grammar.read_rules
    monkeypatch.setattr(_grammar, "read_rules", lambda text: read.append(1) or real(text))
    with caplog.at_level(logging.WARNING, logger="urigrammar.cache"):
        assert load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    assert read, "the entry behind the symbolic link was used"


def test_a_group_writable_entry_is_refused(
    cache: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    (entry,) = entries(cache)
    entry.chmod(0o664)
    read: list[object] = []
    real = _grammar.read_rules
    monkeypatch.setattr(_grammar, "read_rules", lambda text: read.append(1) or real(text))
    with caplog.at_level(logging.WARNING, logger="urigrammar.cache"):
        assert load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    assert read
    _refused(caplog, "writable by group or others")


def test_a_damaged_entry_is_compiled_again(cache: Path) -> None:
    load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    (entry,) = entries(cache)
    entry.write_bytes(entry.read_bytes()[:-10])
    entry.chmod(0o600)
    grammar = load_grammar(GRAMMAR, cache=True)
    assert grammar.validate("date", "2024-01-31")
    assert not grammar.validate("date", "2024-01-3x")


# --- two writers ------------------------------------------------------------------

WRITER = """
import sys, time
from pathlib import Path
import urigrammar
start = Path(sys.argv[1])
while not start.exists():
    time.sleep(0.005)
g = urigrammar.load_grammar(sys.argv[2], cache=True)
rules = [r for r in g.rule_names if g.is_regular(r)]
rules = rules[int(sys.argv[3])::2]
for rule in rules:
    g.program(rule)
print(len(rules))
"""


def test_two_processes_writing_one_entry_leave_a_valid_cache(cache: Path, tmp_path: Path) -> None:
    grammar = tmp_path / "rfc3986.abnf"
    grammar.write_text(grammar_text("rfc3986.abnf"), encoding="utf-8")
    start = tmp_path / "go"
    env = dict(os.environ, URIGRAMMAR_CACHE_DIR=str(cache))
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(start), str(grammar), str(n)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in (0, 1)
    ]
    start.touch()
    for writer in writers:
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err
        assert int(out) > 10
    (entry,) = entries(cache)
    assert not list(cache.glob(".tmp-*")), "a temporary file was left behind"
    loaded = load_grammar(grammar, cache=True)
    assert not isinstance(decode(entry.read_bytes(), loaded.lineage), str)
    assert loaded.validate("URI", "http://a/b")
    assert not loaded.validate("URI", "http://a b/")


def test_cache_dir_is_public() -> None:
    assert urigrammar.cache_dir() == _cache.cache_dir()


# --- the directory checked is the directory used ------------------------------


def swap_after_check(
    number: int, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """The cache with one entry, and another directory with files of the
    cache's kind; the cache's path is swapped for a link to that one right
    after the cache's ``number``-th check (another user who can write its
    parent could do that between a check and a use)."""
    load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    for n in range(3):
        (elsewhere / f"{n}.json").write_text("{}")
    checked = _cache._unsafe
    seen = [0]

    def check_then_swap(info: os.stat_result, what: str) -> str | None:
        found = checked(info, what)
        seen[0] += what == str(cache)
        if what == str(cache) and seen[0] == number:
            cache.rename(tmp_path / "moved")
            cache.symlink_to(elsewhere)
        return found

    monkeypatch.setattr(_cache, "_unsafe", check_then_swap)
    return tmp_path / "moved", elsewhere


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="POSIX: O_NOFOLLOW and dir_fd")
def test_clear_removes_only_in_the_directory_it_checked(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved, elsewhere = swap_after_check(1, cache, tmp_path, monkeypatch)
    assert urigrammar.clear_cache() == 1
    assert entries(moved) == []
    assert len(entries(elsewhere)) == 3


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="POSIX: O_NOFOLLOW and dir_fd")
def test_a_write_lands_in_the_directory_it_checked(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A new grammar's load checks the cache to read it (1), then to write
    # what it compiled (2): the swap falls between the write's check and use.
    moved, elsewhere = swap_after_check(2, cache, tmp_path, monkeypatch)
    load_grammar(GRAMMAR + 'week = "W" 2DIGIT\n', cache=True).validate("week", "W01")
    assert len(entries(moved)) == 2
    assert len(entries(elsewhere)) == 3


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX: a FIFO")
def test_a_fifo_in_place_of_an_entry_does_not_hang_a_load(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    load_grammar(GRAMMAR, cache=True).validate("date", "2024-01-31")
    (entry,) = entries(cache)
    entry.unlink()
    os.mkfifo(entry)
    code = (
        "import urigrammar\n"
        f"print(urigrammar.load_grammar({GRAMMAR!r}, cache=True).validate('date', '2024-01-31'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=30,  # a load that waits on the FIFO's writer would hang
        env={**os.environ, "URIGRAMMAR_CACHE_DIR": str(cache)},
        check=False,
    )
    assert done.stdout.strip() == "True"
    assert "not a regular file" in done.stderr
