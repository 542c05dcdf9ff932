"""Run the fuzz targets under the sanitizers and say what each did.

    python fuzz/campaign.py --seconds 8                 # the smoke tox -e fuzz runs
    python fuzz/campaign.py --runs 1000000 --corpus DIR --log DIR  # a campaign

Each target (``fuzz_*.py`` beside this file) runs in a process of its own
with atheris's AddressSanitizer and libFuzzer runtime preloaded
(``asan_with_fuzzer.so``, which holds UndefinedBehaviorSanitizer's
handlers too), ``PYTHONMALLOC=malloc`` so that Python's objects live where
the sanitizer watches, and the seeds in ``seeds/``.  New inputs
go to a directory of the run's own (``--corpus``, else a temporary one),
never into the seeds.  Two targets run at a time by default.

With ``--log``, each target's libFuzzer report goes to a file of its own
as it runs, where a long campaign's progress shows.  At the end it
prints one line per target: its executions, the coverage edges
libFuzzer counted (``cov``: the C extension's and the instrumented Python's
together) and its features (``ft``), the rate, and whether it crashed; it
exits 1 if any target crashed or disagreed (an uncaught exception or a
sanitizer report ends the target with a non-zero status, its input saved
as ``crash-*`` in the working directory, which git ignores).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import atheris

HERE = Path(__file__).resolve().parent
#: Inputs every target starts from: texts of each scheme and grammar the
#: targets read (a target reads the bytes its own way; libFuzzer mutates
#: from there).
SEEDS = HERE / "seeds"
TARGETS = sorted(path.stem.removeprefix("fuzz_") for path in HERE.glob("fuzz_*.py"))
_DONE = re.compile(r"#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+).*exec/s: (\d+)")
_SEEN = re.compile(r"#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+).*exec/s: (\d+)")


@dataclass(frozen=True)
class Outcome:
    target: str
    status: int
    runs: int
    edges: int
    features: int
    rate: int
    tail: str

    def line(self) -> str:
        verdict = "ok" if self.status == 0 else f"FAILED (status {self.status})"
        return (
            f"{self.target:<12} {self.runs:>10,} runs  {self.edges:>6,} edges  "
            f"{self.features:>6,} features  {self.rate:>6,}/s  {verdict}"
        )


def environment() -> dict[str, str]:
    preload = str(Path(atheris.path()) / "asan_with_fuzzer.so")
    return {
        **os.environ,
        "LD_PRELOAD": preload,
        "PYTHONMALLOC": "malloc",
        "ARROW_DEFAULT_MEMORY_POOL": "system",
        # Two frames of each allocation's stack: malloc and its caller.  The
        # fast unwinder follows frame pointers, which CPython is built
        # without, so deeper frames are noise, nearly every stack new, and
        # the depot that stores them came to cost most of a run (the
        # targets ran 3 to 11 times slower with the default of 30).  A bad
        # access is still reported with the stack where it happened.
        "ASAN_OPTIONS": (
            "detect_leaks=0:halt_on_error=1:detect_stack_use_after_return=1:malloc_context_size=2"
        ),
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    }


def fuzz(target: str, limits: list[str], corpus: Path, log: Path) -> Outcome:
    """Run one target, libFuzzer's report written to ``log/<target>.log``
    as it goes (``tail -f`` shows a long campaign's progress)."""
    mine = corpus / target
    mine.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(HERE / f"fuzz_{target}.py"), *limits, str(mine), str(SEEDS)]
    report = log / f"{target}.log"
    with report.open("w", encoding="utf-8") as sink:
        status = subprocess.run(
            command, env=environment(), stdout=sink, stderr=subprocess.STDOUT, check=False
        ).returncode
    text = report.read_text(encoding="utf-8", errors="replace")
    found = _DONE.findall(text) or _SEEN.findall(text) or [("0", "0", "0", "0")]
    runs, edges, features, rate = (int(x) for x in found[-1])
    return Outcome(target, status, runs, edges, features, rate, text[-6000:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=f"of {', '.join(TARGETS)}")
    parser.add_argument("--seconds", type=int, help="fuzz each target this long")
    parser.add_argument("--runs", type=int, help="fuzz each target for this many inputs")
    parser.add_argument("--corpus", type=Path, help="keep the inputs found here, a folder a target")
    parser.add_argument("--jobs", type=int, default=2, help="targets at a time (default 2)")
    parser.add_argument(
        "--log", type=Path, help="write each target's report here as it runs, a file a target"
    )
    args = parser.parse_args(argv)
    unknown = set(args.targets) - set(TARGETS)
    if unknown:
        parser.error(f"no such target: {', '.join(sorted(unknown))}")
    limits = ["-max_len=1024"]
    if args.seconds is not None:
        limits.append(f"-max_total_time={args.seconds}")
    if args.runs is not None:
        limits.append(f"-runs={args.runs}")
    with tempfile.TemporaryDirectory(prefix="urigrammar-fuzz-") as scratch:
        corpus = args.corpus or Path(scratch) / "corpus"
        log = args.log or Path(scratch) / "log"
        log.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(
                pool.map(lambda t: fuzz(t, limits, corpus, log), args.targets or TARGETS)
            )
    for outcome in outcomes:
        print(outcome.line())
    failed = [o for o in outcomes if o.status != 0]
    for outcome in failed:
        print(f"\n--- {outcome.target} ---\n{outcome.tail}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
