"""Time and peak memory against input length, for every shape of long input.

    python bench/bench_length.py [--sizes 1000,10000,100000,1000000]

For each shape (a long path, query, fragment, host, userinfo, port, run of
percent-encodings, relative path, scheme, IPvFuture; then, over a rule whose
classes span Unicode, RFC 3987's ``IRI-reference`` from the shipped
``rfc3987.abnf``, a long non-ASCII path, query, host and fragment) and each
size it prints
validate() and parse() time, check() time on the same text with one bad
character at the end, and the peak memory of validate() above the baseline
(tracemalloc).  The last columns are the ratio of the largest to the
second-largest size: linear growth gives about 10 for a tenfold size.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import time
import tracemalloc
from collections.abc import Callable

import urigrammar

SHAPES = {
    "path": ("http://a/", "b/c", ""),
    "query": ("http://a/?", "k=v&", ""),
    "fragment": ("http://a/#", "x/?", ""),
    "host": ("http://", "a.b-", "/"),
    "userinfo": ("http://", "u:p%20", "@h/"),
    "port": ("http://h:", "0", "/"),
    "pct": ("http://a/", "%41", ""),
    "relative-path": ("", "seg/", ""),
    "scheme": ("a", "+", ":x"),
    "ipvfuture": ("http://[v1.", "a:", "]/"),
}


# Over RFC 3987's IRI-reference: ucschar in paths, hosts and fragments,
# iprivate in the query, astral characters included.
UNICODE_SHAPES = {
    "ipath": ("http://a/", "\u00e9t\u00e9/\u4e2d", ""),
    "iquery": ("http://a/?", "\ue000=\U0001f600&", ""),
    "ihost": ("http://", "\u4f8b\u3048", "/"),
    "ifragment": ("http://a/#", "\u0436/?", ""),
}


def make(shape: str, size: int) -> str:
    head, unit, tail = SHAPES.get(shape) or UNICODE_SHAPES[shape]
    return head + unit * (size // len(unit)) + tail


def best_time(run: Callable[[], object], repeats: int = 7) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def peak_memory(run: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def check_quietly(text: str) -> None:
    with contextlib.suppress(urigrammar.URISyntaxError):
        urigrammar.check("URI-reference", text)


def check_iri(text: str) -> None:
    with contextlib.suppress(urigrammar.URISyntaxError):
        urigrammar.check("IRI-reference", text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"{'shape':14} {'size':>8} {'validate ms':>12} {'ns/char':>8} {'parse ms':>9} "
        f"{'check(bad) ms':>14} {'peak KB':>8}"
    )
    worst_ratio = 0.0
    worst_ms = 0.0
    worst_peak = 0
    for shape in [*SHAPES, *UNICODE_SHAPES]:
        times: list[float] = []
        for size in sizes:
            text = make(shape, size)
            bad = text + " "
            if shape in SHAPES:
                validate = functools.partial(urigrammar.validate, "URI-reference", text)
                t_parse = best_time(functools.partial(urigrammar.parse, text))
                t_check = best_time(functools.partial(check_quietly, bad), repeats=1)
            else:
                validate = functools.partial(urigrammar.validate, "IRI-reference", text)
                assert validate(), shape
                t_parse = best_time(functools.partial(urigrammar.parse_iri, text))
                t_check = best_time(functools.partial(check_iri, bad), repeats=1)
            t_validate = best_time(validate)
            peak = peak_memory(validate)
            times.append(t_validate)
            print(
                f"{shape:14} {size:8} {t_validate * 1e3:12.3f} {t_validate / len(text) * 1e9:8.2f} "
                f"{t_parse * 1e3:9.3f} "
                f"{t_check * 1e3:14.1f} {peak / 1024:8.0f}"
            )
            if size == sizes[-1]:
                worst_ms = max(worst_ms, t_validate * 1e3)
                worst_peak = max(worst_peak, peak)
        if len(times) > 1:
            ratio = times[-1] / times[-2]
            worst_ratio = max(worst_ratio, ratio)
            print(f"{'':14} {'ratio':>8} {ratio:12.1f}  (largest / previous size)")
    print(
        f"\nworst over shapes at {sizes[-1]} characters: validate {worst_ms:.2f} ms, "
        f"growth ratio {worst_ratio:.1f}, peak {worst_peak / 1e6:.2f} MB"
    )


if __name__ == "__main__":
    main()
