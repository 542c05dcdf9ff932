"""tox.ini's lists of test files stay whole: the ``slow`` env names the
files it collects (collecting the whole suite for four tests would take
longer than running them), so every file with a slow test must be named."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SLOW = re.compile(r"^\s*(@pytest\.mark\.slow|pytestmark = .*pytest\.mark\.slow)", re.MULTILINE)


def _listed(section: str) -> set[str]:
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "tox.ini", encoding="utf-8")
    return set(config[section]["tests"].split())


def test_every_file_with_a_slow_test_is_in_the_slow_env() -> None:
    holding = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if _SLOW.search(path.read_text(encoding="utf-8"))
    }
    assert holding  # a search that found nothing would pass
    assert holding == _listed("slow")
