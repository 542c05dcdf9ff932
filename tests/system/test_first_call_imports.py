"""What a process that only validates and parses imports: the compiled
programs are read, no grammar text is, so neither ``abnf`` nor the
standard library's heavier modules are loaded (each costs milliseconds of
a first call; ``dataclasses`` brings ``inspect``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

NEVER = ("abnf", "dataclasses", "inspect", "ast", "typing_extensions")

PROGRAM = f"""
import json, sys, urigrammar
urigrammar.validate("URI", "http://a/b")
urigrammar.parse("http://u@a:1/b?c#d")
urigrammar.parse_iri("http://\\u00e4/b")
urigrammar.parse_iri("http://a/b")
print(json.dumps([name for name in {NEVER!r} if name in sys.modules]))
"""


@pytest.mark.parametrize("pure", ["0", "1"], ids=["default", "pure"])
def test_first_calls_import_no_grammar_reader(pure: str) -> None:
    env = {**os.environ, "URIGRAMMAR_PURE": pure}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(done.stdout) == []
