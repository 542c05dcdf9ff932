"""Shared test settings: Hypothesis profiles (``HYPOTHESIS_PROFILE=ci`` runs
more examples, ``quick`` and ``dev`` fewer), and a guard that keeps the tests on their own
data."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
# tox's envs for the other Pythons (py310, py312, py313): every test runs,
# with a quarter of the examples; py311 runs the full count (tox.ini).
settings.register_profile(
    "quick", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The project's shared/ directory sits beside the repository on developers'
# machines but not in a user's clone or an sdist, so a test that reads it
# skips there, or fails, and what it guarded goes unchecked.  What the tests
# need lives under tests/data/.  This catches the ways a path to it is
# written: "../shared", a "shared" path component, "shared/corpus".
SHARED_PATH = re.compile(r"""\.\./shared\b|["']shared["']|\bshared[/\\]""")


def mentions_of_shared(source: str) -> list[int]:
    """The line numbers (from 1) of ``source`` that name the shared directory."""
    return [n for n, line in enumerate(source.splitlines(), 1) if SHARED_PATH.search(line)]


class NoSharedData(pytest.Item):
    """Fails if a test module beside this file names the shared directory."""

    def runtest(self) -> None:
        found = {
            module.name: lines
            for module in sorted(self.path.parent.rglob("test_*.py"))
            if (lines := mentions_of_shared(module.read_text(encoding="utf-8")))
        }
        if found:
            pytest.fail(
                f"test modules name the shared directory (module: lines): {found}; "
                "tests read their data from tests/data/ (see tests/data/README.md)",
                pytrace=False,
            )

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


class ThisFile(pytest.File):
    def collect(self) -> list[pytest.Item]:
        return [NoSharedData.from_parent(self, name="no_test_module_reads_shared")]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """This conftest is collected as a file holding the guard above, so the
    guard runs in every full run of the tests (and with ``-n``)."""
    if file_path == Path(__file__):
        return ThisFile.from_parent(parent, path=file_path)
    return None


# --- both engines (issue 14) ---------------------------------------------------
# The validate-facing tests run once per engine, as yarl runs its tests with
# and without its C quoter: "native" (the C extension's DFA runner, when it
# is built) and "pure" (the regexes and the automaton).  The other modules
# run on whichever engine is active (ENGINE): test_engine_oracle's foreign
# grammars too (about 20 s of CPU per engine and Python, mostly the abnf
# oracle), while test_native.py compares the engines on user grammars.
ENGINE_MODULES = frozenset({"test_validate", "test_engines", "test_iri_grammar", "test_long"})
ENGINE_TESTS = frozenset({"test_every_rule_agrees_with_abnfs_rfc3987"})


def engines() -> list[str]:
    from urigrammar.engine import _runner

    return ["native", "pure"] if _runner.NATIVE_AVAILABLE else ["pure"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rpartition(".")[2]
    if module in ENGINE_MODULES or metafunc.function.__name__ in ENGINE_TESTS:
        metafunc.parametrize("validate_engine", engines(), indirect=True)


@pytest.fixture(autouse=True)
def validate_engine(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The engine a test in ``ENGINE_MODULES`` runs on (its parameter); the
    active one, untouched, for the other tests."""
    engine: str | None = getattr(request, "param", None)
    if engine is None:
        yield None
        return
    from urigrammar.engine import _runner

    before = _runner.engine()
    _runner.use(engine)
    try:
        yield engine
    finally:
        _runner.use(before)


@pytest.fixture
def pure_engine() -> Iterator[None]:
    """The pure engine for one test (one about the regexes and the automaton)."""
    from urigrammar.engine import _runner

    before = _runner.engine()
    _runner.use("pure")
    try:
        yield
    finally:
        _runner.use(before)
