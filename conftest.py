"""The examples of the README and of ``docs/`` run as tests, by Sybil: Python
blocks as doctests, ``console`` blocks as shell commands (tests/_examples.py
says how).  This file sits at the top because pytest asks the conftest above
a file how to collect it, and the README is at the top.

An example that needs an optional package says so with a ``skip`` line
naming the package (``missing(...)``) and the tox env that runs it; one
that cannot run in a test says why in its ``skip`` line."""

from __future__ import annotations

import doctest
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from sybil import Sybil
from sybil.parsers.myst import ClearNamespaceParser, PythonCodeBlockParser, SkipParser

from _examples import ConsoleParser, missing
from urigrammar import SCHEME_RULES, SCHEMES


def _enter(namespace: dict[str, Any]) -> None:
    # Each document runs in a directory of its own: an example that writes a
    # file writes it there, and the next example of the page finds it.  The
    # library's two registries, which a page may add to (a scheme profile, a
    # scheme's normalization rule), are left as the page found them: the
    # tests that run after it in this process share them.
    namespace["_registries"] = (dict(SCHEMES._mine), dict(SCHEME_RULES))
    namespace["_home"] = os.getcwd()
    namespace["_directory"] = tempfile.mkdtemp(prefix="urigrammar-example-")
    namespace["missing"] = missing
    os.chdir(namespace["_directory"])


def _leave(namespace: dict[str, Any]) -> None:
    profiles, rules = namespace["_registries"]
    SCHEMES._mine.clear()
    SCHEMES._mine.update(profiles)
    SCHEME_RULES.clear()
    SCHEME_RULES.update(rules)
    os.chdir(namespace["_home"])
    shutil.rmtree(namespace["_directory"], ignore_errors=True)


_collect = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS),
        ConsoleParser(),
        SkipParser(),
        ClearNamespaceParser(),
    ],
    patterns=["README.md", "docs/*.md", "docs/**/*.md"],
    setup=_enter,
    teardown=_leave,
).pytest()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    return _collect(file_path, parent)  # type: ignore[no-any-return]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist's controller tells each worker how it distributes the
    tests (a worker's own ``dist`` option reads "no")."""
    node.workerinput["urigrammar_dist"] = node.config.getvalue("dist")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A page's examples share one namespace and one directory, in order, so
    they run in one process: pytest-xdist may spread pages over its workers
    with ``--dist loadfile`` (a file's tests on one worker, in order), but
    any other distribution would deal a page's examples out, so under it
    they are skipped, saying so."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or workerinput.get("urigrammar_dist") == "loadfile":
        return
    top = Path(__file__).parent
    for item in items:
        if item.path == top / "README.md" or (top / "docs") in item.path.parents:
            item.add_marker(pytest.mark.skip(reason=_UNDER_XDIST))


_UNDER_XDIST = "a page's examples run in order in one process: run them with --dist loadfile"
