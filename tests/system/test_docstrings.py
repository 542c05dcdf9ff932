"""The docstrings as documentation: every public function and class
(``urigrammar.__all__``) has a docstring with an example, and each example
gives the output it shows, run by the standard library's ``doctest``.  The
package's own docstring, the page ``help(urigrammar)`` opens with, runs
too, and the page names every public name.

Each example runs on its own, with no names given to it (it imports
``urigrammar`` itself), against an empty cache directory, and with the
scheme registry restored after it."""

from __future__ import annotations

import doctest
import inspect
import pydoc
import re
from pathlib import Path

import pytest

import urigrammar


def _documented(name: str) -> bool:
    """Whether public ``name`` is a function or a class, whose docstring
    must show an example; constants, mappings and modules need none."""
    value = getattr(urigrammar, name)
    return inspect.isclass(value) or inspect.isroutine(value)


DOCUMENTED = [name for name in urigrammar.__all__ if _documented(name)]

#: The public names whose examples need an extra's package: skipped where
#: it is missing (tox's ``integrations`` env has it).
NEEDS = {
    "public_suffix": "publicsuffixlist",
    "public_suffix_list_version": "publicsuffixlist",
    "registrable_domain": "publicsuffixlist",
}


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The cache examples read and clear an empty directory, never the
    # user's; register_scheme's example registers into a copy of the registry.
    monkeypatch.setenv("URIGRAMMAR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(urigrammar.SCHEMES, "_mine", dict(urigrammar.SCHEMES._mine))


def _run_examples(value: object, name: str) -> tuple[int, str]:
    """How many examples ``value``'s own docstring holds, and the report of
    those that failed (empty when none did)."""
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(value, name, globs={})
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in tests:
        runner.run(test, out=report.append)
    return sum(len(test.examples) for test in tests), "".join(report)


def test_the_public_functions_and_classes_are_found() -> None:
    # A check that found nothing would pass every test below.
    assert {"parse", "validate", "URIReference", "Grammar", "URISyntaxError"} <= set(DOCUMENTED)
    assert "RULE_NAMES" not in DOCUMENTED
    assert "differential" not in DOCUMENTED


@pytest.mark.parametrize("name", DOCUMENTED)
def test_each_public_name_shows_an_example_that_runs(name: str) -> None:
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    value = getattr(urigrammar, name)
    examples, failures = _run_examples(value, name)
    assert examples, f"urigrammar.{name}'s docstring has no example (a >>> line)"
    assert not failures, f"urigrammar.{name}'s example fails:\n{failures}"


def test_the_package_docstring_runs() -> None:
    examples, failures = _run_examples(urigrammar, "urigrammar")
    assert examples
    assert not failures, f"urigrammar's docstring fails:\n{failures}"


def _unnamed(text: str) -> list[str]:
    return [name for name in urigrammar.__all__ if not re.search(rf"\b{name}\b", text)]


def test_the_package_docstring_names_every_public_name() -> None:
    # Its list of the public names by purpose is complete.
    assert not _unnamed(urigrammar.__doc__ or "")


def test_help_names_every_public_name() -> None:
    page = pydoc.plain(pydoc.render_doc(urigrammar))
    assert not _unnamed(page)
