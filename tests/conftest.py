"""Shared test settings: Hypothesis profiles (``HYPOTHESIS_PROFILE=ci`` runs
more examples, ``dev``, ``quick`` and ``smoke`` fewer), and a guard that keeps the tests on
their own data."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Plain pytest, and CI's second pass over tox's suite, py310 and
# nocompiler envs (.ci/run).
settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=300, deadline=None)
# tox's `asan` env: each example runs a few times slower under the sanitizers.
settings.register_profile("dev", max_examples=20, deadline=None)
# tox's `suite` env: a quarter of the default count.  The examples are most
# of the suite's time (20 more a property cost about 30 s of its run on two
# cores), and tox is given four minutes.
settings.register_profile(
    "quick", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# tox's envs that check an interpreter (py310, ...) or a build (nocompiler)
# rather than the properties: every property runs, on a few examples.
settings.register_profile(
    "smoke", max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow]
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


# --- both back ends ----------------------------------------------------------
# The back end is a value (urigrammar.engine.Backend): every test that
# depends on it takes it as a parameter, the way yarl's tests take both of
# its quoters, so one pytest run on one Python covers both.  ``backend`` is
# each back end this installation has (native and pure, or pure alone when
# the extension was not built); ``on`` is the public functions whose
# answers depend on the back end, bound to one.  Nothing switches a global.


def pytest_report_header(config: pytest.Config) -> str:
    from urigrammar.engine import BACKENDS, default_backend

    tested = ", ".join(b.name for b in _backends())
    return (
        f"urigrammar back ends: {', '.join(b.name for b in BACKENDS)} "
        f"(default {default_backend().name}; tested: {tested})"
    )


def pytest_configure(config: pytest.Config) -> None:
    from urigrammar.engine import BACKENDS

    # tox's envs say which back ends they expect; a wheel that lacks the
    # extension where it should have it stops the run here.
    expected = os.environ.get("URIGRAMMAR_EXPECT_BACKENDS")
    found = ",".join(b.name for b in BACKENDS)
    if expected is not None and expected != found:
        msg = f"URIGRAMMAR_EXPECT_BACKENDS is {expected!r} but this install has {found!r}"
        raise pytest.UsageError(msg)


def _backends() -> list[Any]:
    """The back ends the tests take: every one this installation has, or
    those URIGRAMMAR_TEST_BACKENDS names (comma-separated), as tox's
    ``asan`` env names ``native``: under the sanitizers only C is under
    test, and the pure runs would only double the time."""
    from urigrammar.engine import BACKENDS

    chosen = os.environ.get("URIGRAMMAR_TEST_BACKENDS")
    if not chosen:
        return list(BACKENDS)
    names = chosen.split(",")
    unknown = set(names) - {b.name for b in BACKENDS}
    if unknown:
        msg = f"URIGRAMMAR_TEST_BACKENDS names back ends this install lacks: {sorted(unknown)}"
        raise pytest.UsageError(msg)
    return [b for b in BACKENDS if b.name in names]


@pytest.fixture(params=_backends(), ids=lambda b: b.name)
def backend(request: pytest.FixtureRequest) -> object:
    """Each back end, in turn."""
    return request.param


@pytest.fixture(params=_backends(), ids=lambda b: b.name)
def on(request: pytest.FixtureRequest) -> object:
    """``validate``, ``check``, ``parse`` and ``parse_iri`` on each back end."""
    from _backends import On

    return On(request.param)


# --- the command line's parser, built once ------------------------------------
# main() builds its argparse tree on every call: a dozen subcommands' options,
# their help through gettext, and the installed version from the package's
# metadata, about 10 ms.  A real run pays that once per process; the tests
# call main() in-process thousands of times (every CLI property example).
# So main() here reuses the tree built for the same commands (a test may register more): parsing
# leaves an argparse parser as it found it.  The tests of the console command
# itself (cli/test_cli_core.py, test_cli_closed_streams.py, test_cli_line_ends.py,
# ...) still run it in fresh processes.


@pytest.fixture(autouse=True, scope="session")
def cli_parsers_built_once() -> Iterator[None]:
    from urigrammar.cli import _cli

    build = _cli._parsers
    built: dict[tuple[object, ...], tuple[object, ...]] = {}

    def reuse():  # type: ignore[no-untyped-def]
        key = tuple((name, id(c)) for name, c in _cli.COMMANDS.items())
        if key not in built:
            built[key] = (build(), tuple(_cli.COMMANDS.values()))  # keep the ids alive
        return built[key][0]

    _cli._parsers = reuse  # type: ignore[assignment]
    try:
        yield
    finally:
        _cli._parsers = build  # type: ignore[assignment]
