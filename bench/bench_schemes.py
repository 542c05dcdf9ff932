"""Each scheme profile's ``validate`` beside ``validate("URI")`` on the
same texts.  ``--schemes`` runs only the rows of the profiles that serve
the schemes named (drawing texts is the slow part).

    python bench/bench_schemes.py [--repeats N] [--count N] [--schemes did,http,...]

For every profile in ``urigrammar.SCHEMES``, the texts are strings of its
rule drawn by Hypothesis from the scheme's own grammar
(``strategies.from_rule``, derandomized: the same texts every run), kept
where the profile accepts them, plus, for http and https, the corpus URLs
of that scheme.  One process, the calls taking turns pass by pass; µs per
text, best of ``--repeats`` passes, on the default back end:

* ``validate("URI", text)``, the floor;
* ``profile.validate(text)``: the target is at most 2x the floor;
* ``profile.parse(text)``, the typed value, then ``as_dict()``: every field
  read, decoded where the scheme decodes (a field that does not decode
  raises, and the error is the result).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings

import urigrammar as u
from _common import corpus
from urigrammar.strategies import from_rule


def drawn(profile: u.Profile, count: int) -> list[str]:  # type: ignore[type-arg]
    """Up to ``count`` texts the profile accepts, drawn from its rule."""
    found: list[str] = []

    @settings(
        max_examples=count * 3,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(from_rule(profile.rule, profile.grammar))
    def collect(text: str) -> None:
        if len(found) < count and profile.validate(text):
            found.append(text)

    collect()
    return found


def _fields(profile: u.Profile, text: str) -> object:  # type: ignore[type-arg]
    """The typed fields, or the error of one that does not decode (a
    mailto header field whose octets are not UTF-8, say)."""
    try:
        return profile.parse(text).as_dict()
    except u.URIError as exc:
        return exc


def best(run: Callable[[str], object], texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        run(text)
    return (time.perf_counter() - start) / len(texts) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument(
        "--schemes", default="", help="comma-separated scheme names (default: every profile)"
    )
    args = parser.parse_args()
    only = {name.strip().lower() for name in args.schemes.split(",") if name.strip()}
    unknown = only - set(u.SCHEMES)
    if unknown:
        parser.error(f"no profile serves {', '.join(sorted(unknown))}")
    urls = corpus()
    print(f"back end: {u.BACKEND}; µs per text, best of {args.repeats} passes")
    print(f"{'scheme':8} {'texts':>6} {'URI':>8} {'profile':>8} {'ratio':>6} {'parse':>8}")
    for scheme in u.SCHEMES:
        profile = u.SCHEMES[scheme]
        if profile.schemes[0] != scheme:
            continue  # one row a profile (https shares http's)
        if only and only.isdisjoint(profile.schemes):
            continue
        texts = drawn(profile, args.count)
        for name in profile.schemes:
            texts += [url for url in urls if url.lower().startswith(name + ":")]
        texts = [text for text in texts if profile.validate(text)]
        if not texts:
            print(f"{scheme:8} (no text drawn)")
            continue
        texts = texts * max(1, 3000 // len(texts))
        runs: dict[str, Callable[[str], object]] = {
            "URI": lambda t: u.validate("URI", t),
            "profile": profile.validate,
            "parse": lambda t, p=profile: _fields(p, t),
        }
        results = dict.fromkeys(runs, float("inf"))
        for _ in range(args.repeats):
            for name, run in runs.items():
                results[name] = min(results[name], best(run, texts))
        ratio = results["profile"] / results["URI"]
        print(
            f"{'/'.join(profile.schemes):8} {len(set(texts)):6} {results['URI']:8.3f} "
            f"{results['profile']:8.3f} {ratio:6.2f} {results['parse']:8.3f}"
        )


if __name__ == "__main__":
    main()
