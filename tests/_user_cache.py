"""A user's grammar and a per-user cache directory of its own, for the
tests of the cache (engine/) and of ``urigrammar cache`` (cli/)."""

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
    """``URIGRAMMAR_CACHE_DIR`` set to an empty directory under ``tmp_path``."""
    directory = tmp_path / "cache"
    monkeypatch.setenv("URIGRAMMAR_CACHE_DIR", str(directory))
    return directory


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json"))
