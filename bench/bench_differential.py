"""``urigrammar.differential.diff`` over the corpus: µs per URL.

    python bench/bench_differential.py [--repeats N] [--sample]

Every corpus line (``_common.corpus()``; with ``--sample`` the 2,018 of
``tests/data/real-urls.txt``), valid or not, in one process;
the fastest of ``--repeats`` passes, beside the two parses it is made of
(``urigrammar.parse`` and Ada's, through ``can_ada``) taking turns with it
pass by pass.  Then the findings: how many URLs have one, by kind, and how
many fall on URLs where the two readings agree by the corpus test's oracle
(``tests/_differential_oracle.py``: RFC 3986 section 6's ``equivalent`` on
what each parser read), which must be none.  Needs the ``urigrammar[whatwg]`` extra.

With ``--readers``, ``diff(text, readers=READERS)`` (every reader; their
extras installed) takes turns with the others too, and the URLs with a
finding are counted by pair of readers.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Callable
from pathlib import Path

import can_ada

import urigrammar as u
from _common import SAMPLE, corpus
from urigrammar.differential import READERS, diff

# The oracle the corpus test uses, from the tests' shared helpers.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _differential_oracle import agree


def one_pass(run: Callable[[str], object], texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        run(text)
    return (time.perf_counter() - start) / len(texts) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--sample", action="store_true", help="the tests' 2,018 URLs")
    parser.add_argument("--readers", action="store_true", help="every reader too")
    args = parser.parse_args()
    texts = corpus(SAMPLE if args.sample else None)

    def rfc(text: str) -> object:
        try:
            return u.parse(text)
        except u.URIError:
            return None

    def whatwg(text: str) -> object:
        try:
            return can_ada.parse(text)
        except ValueError:
            return None

    def every(text: str) -> object:
        return diff(text, readers=READERS)

    calls: dict[str, Callable[[str], object]] = {
        "diff(text)": diff,
        "urigrammar.parse(text)": rfc,
        "can_ada.parse(text)": whatwg,
    }
    if args.readers:
        calls["diff(text, readers=READERS)"] = every
    for run in calls.values():
        for text in texts[:100]:
            run(text)
    results = dict.fromkeys(calls, float("inf"))
    for _ in range(args.repeats):  # taking turns, pass by pass
        for name, run in calls.items():
            results[name] = min(results[name], one_pass(run, texts))
    print(f"{len(texts)} URLs, µs per URL (best of {args.repeats}), back end {u.BACKEND}")
    for name, value in results.items():
        print(f"  {name:28} {value:6.2f}")
    kinds: collections.Counter[str] = collections.Counter()
    with_findings = on_agreeing = 0
    for text in texts:
        found = diff(text)
        kinds.update({f.kind for f in found})
        with_findings += bool(found)
        on_agreeing += bool(found) and agree(text)
    print(f"URLs with a finding: {with_findings}; by kind: {dict(sorted(kinds.items()))}")
    print(f"findings on URLs where the two readings agree: {on_agreeing} (target 0)")
    if args.readers:
        pairs: collections.Counter[tuple[str, str]] = collections.Counter()
        for text in texts:
            pairs.update({f.readers for f in diff(text, readers=READERS)})
        print("URLs with a finding, by pair of readers:")
        for pair, count in pairs.most_common():
            print(f"  {pair[0]:>8} {pair[1]:<8} {count}")


if __name__ == "__main__":
    main()
