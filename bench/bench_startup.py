"""Start-up: whole processes, and the first call of each kind in a process.

    python bench/bench_startup.py [--runs N]

Part 1, whole processes (wall time, the fastest of ``--runs`` runs, each
command run in turn so that a moment of load touches all alike):

* ``python -c "import uritools; uritools.urisplit('http://a/b')"``, the
  peer every other line is divided by;
* ``urigrammar --version`` and ``urigrammar validate URI-reference
  http://a/b``, through the console script installed beside this Python;
* ``python -c "pass"``, the interpreter's own floor.

Part 2, in fresh processes: CPU time of ``import urigrammar``, then of the
first ``validate``, ``parse``, ``parse_iri`` and ``URITemplate(...).expand``
beyond it, on each back end this installation has: the imports the call
needs (urigrammar imports its names on first use), the call itself, and
their sum.  Every process runs with its bytecode written and read, as an
installed package does (a first run writes it; ``PYTHONDONTWRITEBYTECODE``
is dropped), so no source is compiled in a measured run.

Part 3, a user grammar of 50 or more rules (RFC 3987's file loaded with
``load_grammar``): its cold load (the text is read, the first
``validate`` compiles a rule) beside the same from the per-user cache,
in a temporary ``URIGRAMMAR_CACHE_DIR``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = sys.executable

PEER = "import uritools; uritools.urisplit('http://a/b')"

# The console script installed beside this Python (what a user runs), else
# the module (python -m, which adds runpy's start-up).
_SCRIPT = shutil.which("urigrammar", path=str(Path(PYTHON).parent))
URIGRAMMAR = [_SCRIPT] if _SCRIPT else [PYTHON, "-m", "urigrammar"]

WHOLE = {
    "uritools (peer)": [PYTHON, "-c", PEER],
    "urigrammar --version": [*URIGRAMMAR, "--version"],
    "urigrammar validate URI-reference http://a/b": [
        *URIGRAMMAR,
        "validate",
        "URI-reference",
        "http://a/b",
    ],
    "python -c pass (floor)": [PYTHON, "-c", "pass"],
}

# (the names a call touches, which import the modules behind them; the call)
FIRST = {
    "validate": ("urigrammar.validate", "urigrammar.validate('URI-reference', 'http://a/b')"),
    "parse": ("urigrammar.parse", "urigrammar.parse('http://a/b')"),
    "parse_iri": ("urigrammar.parse_iri", "urigrammar.parse_iri('http://ä/b')"),
    "URITemplate.expand": (
        "urigrammar.URITemplate",
        "urigrammar.URITemplate('http://a{/x*}{?q}').expand(x=['y'], q='1')",
    ),
}

# Three times: import urigrammar; the modules the call needs (touching
# the names imports them); the call, its grammar's and program's loading
# included.
PROBE = """
import time
start = time.process_time()
import urigrammar
imported = time.process_time()
{touch}
touched = time.process_time()
{call}
done = time.process_time()
print(imported - start, touched - imported, done - touched)
"""

USER = """
import time, sys
start = time.process_time()
import urigrammar
imported = time.process_time()
g = urigrammar.load_grammar(sys.argv[1], cache={cache})
g.validate('IRI-reference', 'http://a/b')
print(time.process_time() - imported)
"""


def _wall(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _probe(code: str, env: dict[str, str]) -> tuple[float, ...]:
    done = subprocess.run([PYTHON, "-c", code], env=env, check=True, capture_output=True, text=True)
    return tuple(float(field) for field in done.stdout.split())


def whole(runs: int) -> None:
    env = dict(os.environ)
    best = {name: float("inf") for name in WHOLE}
    for _ in range(runs):
        for name, command in WHOLE.items():
            best[name] = min(best[name], _wall(command, env))
    peer = best["uritools (peer)"]
    print(f"Whole processes: wall time, fastest of {runs} runs")
    for name, seconds in best.items():
        print(f"  {name:48} {1000 * seconds:7.1f} ms  {seconds / peer:5.2f}x the peer")


def first_calls(runs: int) -> None:
    from urigrammar.engine import BACKENDS

    print(
        f"First calls in a fresh process, CPU ms, fastest of {runs}: import urigrammar; "
        "then the imports the call needs, the call, and the two together"
    )
    for backend in BACKENDS:
        env = {key: value for key, value in os.environ.items() if key != "URIGRAMMAR_PURE"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if backend.name == "pure":
            env["URIGRAMMAR_PURE"] = "1"
        for name, (touch, call) in FIRST.items():
            code = PROBE.format(touch=touch, call=call)
            _probe(code, env)  # writes the bytecode of what the call imports
            results = [_probe(code, env) for _ in range(runs)]
            imported, needs, first = (min(r[i] for r in results) for i in range(3))
            beyond = min(r[1] + r[2] for r in results)
            print(
                f"  {backend.name:6} {name:20} import {1000 * imported:5.1f}   needs"
                f" {1000 * needs:5.1f}   call {1000 * first:5.1f}   beyond import"
                f" {1000 * beyond:5.1f} ms"
            )


def user_grammar(runs: int, grammar: Path) -> None:
    print(f"A user grammar ({grammar.name}): load and first validate, CPU ms, fastest of {runs}")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, URIGRAMMAR_CACHE_DIR=cache)
        cold = min(_probe_user(env, grammar, cache=False) for _ in range(runs))
        _probe_user(env, grammar, cache=True)  # fills the cache
        warm = min(_probe_user(env, grammar, cache=True) for _ in range(runs))
    print(f"  cold (read and compiled)    {1000 * cold:7.1f} ms")
    print(f"  from the cache              {1000 * warm:7.1f} ms  {warm / cold:5.1%} of cold")


def _probe_user(env: dict[str, str], grammar: Path, *, cache: bool) -> float:
    code = USER.format(cache=cache)
    done = subprocess.run(
        [PYTHON, "-c", code, str(grammar)], env=env, check=True, capture_output=True, text=True
    )
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    whole(args.runs)
    first_calls(max(3, args.runs // 3))
    from urigrammar.shipped import grammar_path

    user_grammar(max(3, args.runs // 3), Path(grammar_path("rfc3987.abnf")))


if __name__ == "__main__":
    main()
