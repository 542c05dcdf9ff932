"""tox.ini's list of the slow tests stays whole: the ``slow`` env runs the
tests ``[slow]`` names, with no marker to pick them (collecting the whole
suite for five tests would take longer than running them; the other envs
deselect them by their marker), so every slow test must be named there, by
its file when every test of the file is slow, else by its node id."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_TEST = re.compile(r"^((?:@[^\n]*\n)*)def (test_\w+)", re.MULTILINE)


def _tests(path: Path) -> dict[str, bool]:
    """Each test function of the file, and whether it is marked slow."""
    return {
        name: "pytest.mark.slow" in decorators
        for decorators, name in _TEST.findall(path.read_text(encoding="utf-8"))
    }


def _listed() -> list[str]:
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "tox.ini", encoding="utf-8")
    return config["slow"]["tests"].split()


def test_the_slow_list_names_every_slow_test_and_nothing_else() -> None:
    slow = {
        (str(path.relative_to(ROOT)), name)
        for path in (ROOT / "tests").rglob("test_*.py")
        for name, marked in _tests(path).items()
        if marked
    }
    assert slow  # a search that found nothing would pass
    named = set()
    for entry in _listed():
        file, _, name = entry.partition("::")
        tests = _tests(ROOT / file)
        chosen = [name] if name else list(tests)
        assert all(tests.get(test) for test in chosen), f"{entry} names a test that is not slow"
        named |= {(file, test) for test in chosen}
    assert named == slow
