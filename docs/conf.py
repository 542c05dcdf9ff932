"""Sphinx settings for urigrammar's documentation site.

Sphinx with MyST: the pages stay Markdown that GitHub shows as written,
Sphinx gives cross-references checked at build time and an API reference
read from the docstrings (autodoc), and furo is a clean theme with no
JavaScript framework.  Nothing here reaches the network: no intersphinx,
no remote images.  ``tox -e docs`` builds with warnings as errors."""

from __future__ import annotations

import urigrammar

project = "urigrammar"
author = "the urigrammar developers"
copyright = "the urigrammar developers"  # noqa: A001 - Sphinx's name
release = urigrammar.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# Headings get anchors down to ###, so a page links to a section of another
# as [text](page.md#a-heading), checked at build time.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The API reference: members in the order the source gives them, signatures
# with their types, and no import of optional packages (the integrations'
# modules import pydantic or pyarrow only when used).
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = f"urigrammar {release}"
# A broken reference, a missing page or a bad heading is a warning, and the
# build fails on warnings: nitpicky adds references autodoc cannot resolve.
nitpicky = False
