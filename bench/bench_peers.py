"""urigrammar's ``validate`` and ``parse`` beside the fastest peer.

    python bench/bench_peers.py [--repeats N]

The URLs of the corpus (``_common.corpus()``) that ``validate`` accepts
as ``URI`` and Ada parses too, so that every peer parses the same texts, all in one
process, the calls taking turns pass by pass; µs per URL, best of
``--repeats`` passes.  The peers are optional: ``can_ada`` (Ada, the
WHATWG parser of Node.js, through nanobind) and ``uritools``; a missing one
is left out.  Then the memory a kept parse takes beyond its text
(tracemalloc over 100,000 kept parses).

Each call runs in a loop of its own, written out (``for text in texts:
validate("URI-reference", text)``), so that no call pays a Python frame
around it that another does not.  Each ratio is urigrammar's time over the
peer's (below 1: urigrammar is faster), printed beside its target.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import time
import tracemalloc
from collections.abc import Callable

import urigrammar
from _common import corpus

#: A loop over the texts, making one call (and reading fields) per text.
Loop = Callable[[list[str]], object]


def best(loop: Loop, texts: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        loop(texts)
        times.append((time.perf_counter() - start) / len(texts))
    return min(times) * 1e6


def each(call: Callable[[str], object]) -> Loop:
    """The loop that calls ``call`` on each text."""

    def loop(texts: list[str]) -> None:
        for text in texts:
            call(text)

    return loop


def kept_bytes(parse: Callable[[str], object], texts: list[str], count: int) -> float:
    """Bytes each kept parse holds beyond its text."""
    pool = (texts * (count // len(texts) + 1))[:count]
    pool = [text + "" for text in pool]  # texts of their own, allocated before
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [parse(text) for text in pool]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(kept) == count
    return (after - before) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    texts = [t for t in corpus() if urigrammar.validate("URI", t)]
    validate, parse = urigrammar.validate, urigrammar.parse
    floor = re.compile(r"[!-~]*").fullmatch

    def validate_each(texts: list[str]) -> None:
        for text in texts:
            validate("URI-reference", text)

    def parse_fields(texts: list[str]) -> None:
        for text in texts:
            ref = parse(text)
            ref.host, ref.path  # noqa: B018

    loops: dict[str, Loop] = {
        "validate": validate_each,
        "parse": each(parse),
        "parse, .host, .path": parse_fields,
        're.fullmatch("[!-~]*")': each(floor),
    }
    # (our call, the peer's call, the target ratio)
    ratios = [("validate", 're.fullmatch("[!-~]*")', 0.5)]
    if importlib.util.find_spec("can_ada"):
        import can_ada

        texts = [t for t in texts if can_ada.can_parse(t)]

        def ada_fields(texts: list[str]) -> None:
            for text in texts:
                url = can_ada.parse(text)
                url.hostname, url.pathname  # noqa: B018

        loops["can_ada.can_parse"] = each(can_ada.can_parse)
        loops["can_ada.parse"] = each(can_ada.parse)
        loops["can_ada.parse, .hostname, .pathname"] = ada_fields
        ratios += [
            ("validate", "can_ada.can_parse", 0.7),
            ("parse", "can_ada.parse", 0.7),
            ("parse, .host, .path", "can_ada.parse, .hostname, .pathname", 0.8),
        ]
    if importlib.util.find_spec("uritools"):
        import uritools

        loops["uritools.urisplit"] = each(uritools.urisplit)
        ratios.append(("parse", "uritools.urisplit", 1.0))
    print(
        f"{len(texts)} valid URLs, µs per URL (best of {args.repeats}), "
        f"back end {urigrammar.BACKEND}"
    )
    for loop in loops.values():
        loop(texts[:1])
    results = dict.fromkeys(loops, float("inf"))
    for _ in range(args.repeats):  # taking turns, pass by pass
        for name, loop in loops.items():
            results[name] = min(results[name], best(loop, texts, 1))
    for name, value in results.items():
        print(f"  {name:40} {value:7.3f}")
    print("ratios (urigrammar over the peer; target at most):")
    for ours, theirs, target in ratios:
        ratio = results[ours] / results[theirs]
        print(f"  {ours:22} / {theirs:38} {ratio:5.2f}  (target {target})")
    print(f"a kept parse: {kept_bytes(parse, texts, 100_000):.0f} bytes beyond its text")


if __name__ == "__main__":
    main()
