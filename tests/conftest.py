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
# Every test runs on the engine urigrammar starts with: "native" (the C
# extension's DFA runner) when it is built, "pure" (the regexes and the
# automaton) when it is not or when URIGRAMMAR_PURE is set.  tox gives each
# CPython env one engine (tox.ini: py311 and py313 native, py310 and py312
# pure, forced by URIGRAMMAR_PURE with the extension built), so a tox run
# takes every test through both engines without running anything twice in
# one env, and test_native's guard fails an env on the wrong engine.
# `pytest --engines both` runs every test twice in one session, once per
# engine, as yarl runs its tests with and without its C quoter: the switch
# is `_runner.use`, and URIGRAMMAR_PURE for the subprocesses a test starts.
# test_native.py is left out: it compares the engines itself.
ENGINE_FREE_MODULES = frozenset({"test_native"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engines",
        choices=("active", "both"),
        default="active",
        help="active: every test on the engine urigrammar starts with (URIGRAMMAR_PURE=1 "
        "forces pure); both: every test once on the native engine and once on the pure one",
    )


def _started_on() -> str:
    from urigrammar.engine import _runner

    return _runner.engine()


# The engine the process started on, before any test switches it.
STARTED_ON = _started_on()


def pytest_report_header(config: pytest.Config) -> str:
    from urigrammar.engine import _runner

    built = "built" if _runner.NATIVE_AVAILABLE else "not built"
    forced = os.environ.get("URIGRAMMAR_PURE", "")
    return (
        f"urigrammar engine: {STARTED_ON} (extension {built}, URIGRAMMAR_PURE={forced!r}, "
        f"--engines {config.getoption('engines')})"
    )


def pytest_configure(config: pytest.Config) -> None:
    from urigrammar.engine import _runner

    # tox names each env's engine; a run of a few tests (`tox -e py310 --
    # -k resolve`) stops here too when the env is on the other one (the
    # full check, extension and all, is test_native's).
    expected = os.environ.get("URIGRAMMAR_EXPECT_ENGINE")
    if expected is not None and expected != STARTED_ON:
        msg = f"URIGRAMMAR_EXPECT_ENGINE is {expected!r} but urigrammar runs on {STARTED_ON!r}"
        raise pytest.UsageError(msg)
    if config.getoption("engines") == "both" and not _runner.NATIVE_AVAILABLE:
        msg = "--engines both: the native engine is not built (no C compiler at install time)"
        raise pytest.UsageError(msg)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.config.getoption("engines") != "both":
        return
    if metafunc.module.__name__.rpartition(".")[2] in ENGINE_FREE_MODULES:
        return
    metafunc.parametrize("engine_under_test", ["native", "pure"], indirect=True)


@pytest.fixture(autouse=True)
def engine_under_test(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The engine the test runs on: its parameter under ``--engines both``,
    else the one the process started on, untouched."""
    wanted: str | None = getattr(request, "param", None)
    if wanted is None:
        yield STARTED_ON
        return
    from urigrammar.engine import _runner

    if wanted == "pure":
        monkeypatch.setenv("URIGRAMMAR_PURE", "1")
    else:
        monkeypatch.delenv("URIGRAMMAR_PURE", raising=False)
    before = _runner.engine()
    _runner.use(wanted)
    try:
        yield wanted
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


# --- the command line's parser, built once ------------------------------------
# main() builds its argparse tree on every call: a dozen subcommands' options,
# their help through gettext, and the installed version from the package's
# metadata, about 10 ms.  A real run pays that once per process; the tests
# call main() in-process thousands of times (every CLI property example).
# So main() here reuses the tree built for the same engine (the --version
# line names it) and the same commands (a test may register more): parsing
# leaves an argparse parser as it found it.  test_cli_core and
# test_cli_hardening still run the console command in fresh processes.


@pytest.fixture(autouse=True, scope="session")
def cli_parsers_built_once() -> Iterator[None]:
    from urigrammar.cli import _cli
    from urigrammar.engine import _runner

    build = _cli._parsers
    built: dict[tuple[object, ...], tuple[object, ...]] = {}

    def reuse():  # type: ignore[no-untyped-def]
        key = (_runner.engine(), *((name, id(c)) for name, c in _cli.COMMANDS.items()))
        if key not in built:
            built[key] = (build(), tuple(_cli.COMMANDS.values()))  # keep the ids alive
        return built[key][0]

    _cli._parsers = reuse  # type: ignore[assignment]
    try:
        yield
    finally:
        _cli._parsers = build  # type: ignore[assignment]
