"""The README and the documentation site hold together: every public name is
in the API reference, every code block is one the tests run (or a display
of data, marked as such), and the README keeps to its few screens with what
a new user needs first.  The examples themselves run through Sybil (the
top ``conftest.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import urigrammar

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted([ROOT / "README.md", *DOCS.rglob("*.md")])

# The languages Sybil runs (tests/_examples.py, conftest.py), and those that
# show data rather than do something: a grammar file's text, a diagram, an
# output format, a data file of the package included as it is.  A block in
# any other language would go unrun.
RUN = {"python", "console"}
SHOWN = {"text", "abnf", "json", "{toctree}", "{eval-rst}", "{literalinclude}"}
FENCE = re.compile(r"^(```+|~~~+)(\S*)", re.MULTILINE)


def fences(page: Path) -> list[str]:
    """The language of each fenced block of a page (an opening fence is
    followed by its closing one)."""
    found = FENCE.findall(page.read_text(encoding="utf-8"))
    return [language for _, language in found[::2]]


def test_the_documents_are_found() -> None:
    assert ROOT / "README.md" in PAGES
    assert len(PAGES) > 10


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_code_block_is_run_or_marked_as_data(page: Path) -> None:
    languages = fences(page)
    unknown = [language for language in languages if language not in RUN | SHOWN]
    assert not unknown, f"{page.name}: blocks no test runs: {unknown}"


def test_every_public_name_is_in_the_api_reference() -> None:
    reference = (DOCS / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"urigrammar\.(\w+)$", reference, re.MULTILINE))
    assert set(urigrammar.__all__) - documented == set()


def test_the_readme_fits_a_few_screens_with_the_first_steps_first() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    first_screen = "\n".join(lines[:60])
    assert "pip install ." in first_screen
    assert re.search(r"^\$ urigrammar ", first_screen, re.MULTILINE)
    assert "pip install tox && tox" in first_screen
    assert ">>> import urigrammar" in first_screen


def test_every_guide_page_is_in_the_table_of_contents() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in DOCS.rglob("*.md"):
        name = page.relative_to(DOCS).with_suffix("").as_posix()
        assert name == "index" or re.search(rf"^{re.escape(name)}$", index, re.MULTILINE), name


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MyST make it: lower case, spaces to
    hyphens, punctuation dropped."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_readmes_links_into_the_repository_lead_somewhere() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(((?!https?:)[^)#]+)(?:#([^)]+))?\)", readme)
    assert links
    for target, anchor in links:
        path = ROOT / target
        assert path.exists(), target
        if anchor:
            headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE)
            assert anchor in {slug(h) for h in headings}, f"{target}#{anchor}"
