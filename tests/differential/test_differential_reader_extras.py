"""The readers' libraries are extras: none is imported until a reader
reads, and a missing one is a ``MissingExtraError`` naming its extra; the
standard library's reader needs nothing.  Runs in every env: a library is
taken away here, never needed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from urigrammar import MissingExtraError
from urigrammar.differential import READERS, _readers, diff

LIBRARIES = ("urllib3", "httpx", "yarl", "pydantic_core")


def test_no_reader_library_is_imported_before_a_reader_reads() -> None:
    code = (
        "import sys, urigrammar.differential as d\n"
        "d.READERS; d.diff.__doc__\n"
        f"print([m for m in {LIBRARIES!r} if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("name", "module", "extra"),
    [
        ("urllib3", "urllib3", "urllib3"),
        ("httpx", "httpx", "httpx"),
        ("yarl", "yarl", "yarl"),
        ("pydantic", "pydantic_core", "pydantic"),
    ],
)
def test_a_missing_library_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, name: str, module: str, extra: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # its import raises ImportError
    _readers._module.cache_clear()
    try:
        with pytest.raises(MissingExtraError, match=rf"urigrammar\[{extra}\]"):
            READERS[name].read("http://a/", None)
        with pytest.raises(MissingExtraError):
            diff("http://a/", readers=["urllib", name])
    finally:
        _readers._module.cache_clear()


def test_the_standard_librarys_reader_needs_no_extra() -> None:
    found = READERS["urllib"].read("HTTP://Example.COM:8080/a?q", None)
    assert (found.scheme, found.host, found.port, found.path) == (
        "http",
        "example.com",
        "8080",
        "/a",
    )
    assert READERS["urllib"].version == ".".join(map(str, sys.version_info[:3]))
