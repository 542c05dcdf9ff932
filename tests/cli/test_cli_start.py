"""The command line starts without reading a grammar: ``--version`` and
every ``--help`` are printed with no grammar loaded and no ``abnf``."""

from __future__ import annotations

import json
import subprocess
import sys

from urigrammar.cli._cli import COMMANDS

PROBE = """
import contextlib, io, json, sys
from urigrammar.cli import main
from urigrammar.shipped import SHIPPED
for argv in json.loads(sys.argv[1]):
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(argv)
        except SystemExit:
            pass
    loaded = [g.name for g in SHIPPED if g._rules is not None]
    print(json.dumps([argv, loaded, "abnf" in sys.modules]))
"""


def test_version_and_every_help_read_no_grammar() -> None:
    runs = [["--version"], ["--help"], *([name, "--help"] for name in sorted(COMMANDS))]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(runs)],
        capture_output=True,
        text=True,
        check=True,
    )
    seen = [json.loads(line) for line in done.stdout.splitlines()]
    assert [argv for argv, _, _ in seen] == runs
    assert [(argv, loaded, abnf) for argv, loaded, abnf in seen if loaded or abnf] == []
