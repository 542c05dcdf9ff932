"""Shared helpers for the benchmarks: the corpus and a timer.

Benchmarks are scripts, not tests: they print numbers and ratios and never
fail on them.  Run them from the repository root, with the peers installed
(``pip install -r bench/requirements.txt``).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

#: The full corpus (20,000 real URLs), where the project's shared folder
#: sits beside the repository; a clone has only the sample in tests/data/.
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "real-urls.txt"
SAMPLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-urls.txt"


def corpus(path: Path | None = None) -> list[str]:
    """The corpus lines, without their line endings: the full corpus when
    it is there, else the sample the tests use (said on stderr, since the
    numbers are then over fewer URLs)."""
    if path is None:
        path = CORPUS if CORPUS.is_file() else SAMPLE
        if path is SAMPLE:
            print(f"(the full corpus is not at {CORPUS}: using {SAMPLE})", file=sys.stderr)
    return path.read_text("utf-8").splitlines()


def per_item(run: Callable[[str], object], items: Sequence[str], repeats: int = 5) -> float:
    """Median over ``repeats`` passes of the seconds one item takes."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            run(item)
        times.append((time.perf_counter() - start) / len(items))
    return statistics.median(times)


#: A call to time: a function of an item, or a function and the one
#: argument that follows each item (so that ``canonicalize(s, CRAWL_KEY)``
#: is timed as a user calls it, with no Python function of the
#: benchmark's around it).
Call = Callable[[str], object] | tuple[Callable[..., object], tuple[object]]


def side_by_side(runs: dict[str, Call], items: Sequence[str], repeats: int = 5) -> dict[str, float]:
    """Each run's fastest pass, in seconds per item, the runs taking turns
    pass by pass: a spell in which the machine runs slower falls on every
    run alike, rather than on the one timed then."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, call in runs.items():
            start = time.perf_counter()
            if isinstance(call, tuple):
                run, (option,) = call
                for item in items:
                    run(item, option)
            else:
                for item in items:
                    call(item)
            best[name] = min(best[name], (time.perf_counter() - start) / len(items))
    return best


def quietly(run: Callable[[str], object]) -> Callable[[str], object]:
    """``run`` with the errors a validator raises for invalid input ignored,
    so that every peer pays for the same inputs."""

    def wrapped(text: str) -> object:
        try:
            return run(text)
        except Exception:  # peers raise assorted errors for invalid input
            return None

    return wrapped
