"""What a process that only validates, parses and expands templates
imports: the compiled programs are read, no grammar text is, so neither
``abnf``, nor urigrammar's compiler (which built those programs), nor the
standard library's heavier modules are loaded (each costs milliseconds of
a first call; ``dataclasses`` brings ``inspect``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

NEVER = (
    "abnf",
    "dataclasses",
    "inspect",
    "ast",
    "typing_extensions",
    # The compiler's stages: inlining and its analyses, the regex emitter,
    # the automata builders, and the one function that drives them.
    "urigrammar.engine.syntax.inline",
    "urigrammar.engine.syntax.analysis",
    "urigrammar.engine.regex.emit",
    "urigrammar.engine.automata.dfa",
    "urigrammar.engine.automata.tagged",
    "urigrammar.engine.program.build",
)

PROGRAM = f"""
import json, sys, urigrammar
urigrammar.validate("URI", "http://a/b")
urigrammar.parse("http://u@a:1/b?c#d")
urigrammar.parse_iri("http://\\u00e4/b")
urigrammar.parse_iri("http://a/b")
urigrammar.URITemplate("http://example.com/{{x}}{{?q}}").expand(x="a", q="b")
print(json.dumps([name for name in {NEVER!r} if name in sys.modules]))
"""


@pytest.mark.parametrize("pure", ["0", "1"], ids=["default", "pure"])
def test_first_calls_import_no_grammar_reader(pure: str) -> None:
    env = {**os.environ, "URIGRAMMAR_PURE": pure}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(done.stdout) == []
