"""The one public surface: ``urigrammar/__init__.py``'s ``__all__``.  Every
name in it resolves (most are imported on first use, PEP 562), ``dir()``
shows them all before any is used, and a name outside it is refused."""

from __future__ import annotations

import subprocess
import sys

import pytest

import urigrammar


@pytest.mark.parametrize("name", urigrammar.__all__)
def test_each_public_name_resolves(name: str) -> None:
    assert getattr(urigrammar, name) is not None or name == "PURE_REASON"


def test_dir_shows_every_public_name_before_any_is_used() -> None:
    # A fresh process: here, other tests have loaded names already.
    code = "import urigrammar as u; print(sorted(set(u.__all__) - set(dir(u))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_name_outside_the_surface_is_refused() -> None:
    with pytest.raises(AttributeError, match="no attribute 'ENGINE'"):
        urigrammar.ENGINE  # noqa: B018
    assert len(set(urigrammar.__all__)) == len(urigrammar.__all__)
