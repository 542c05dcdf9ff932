"""URI Templates (RFC 6570): urigrammar beside uritemplate and uri-template.

    python bench/bench_template.py [--repeats N]

The workload is every example of RFC 6570 (tests/vectors/rfc6570.json:
191 template/variables pairs).  In one process, side by side, it times

* expansion of templates parsed once (``URITemplate(t)`` built beforehand),
  and parsing plus expansion together, against ``uritemplate`` and
  ``uri-template``; each peer's count of expansions equal to the RFC's;
* validation of the 156 distinct templates plus the issue's hard cases,
  against ``uri-template``'s ``validate``, with how often each agrees with
  the grammar;
* matching: ``match`` on each example's expansion (no peer matches), and
  on long URIs, to show the time per character stays flat for an
  unambiguous template (one regex) and an ambiguous one (``_split``).

Times are medians of ``--repeats`` passes, in microseconds per item; a
ratio above 1 means ours is faster.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import urigrammar
from _common import per_item, quietly

VECTORS = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "rfc6570.json"

# The cases where the peers and the grammar part ways.
HARD = ["{v:1000}", "{%2F}", "a b", "a'b", "{=a}", "{v:10000}", "{a..b}", "x{", "{$a}"]


def _cases() -> list[tuple[str, dict[str, Any], str]]:
    doc = json.loads(VECTORS.read_text(encoding="utf-8"))
    return [
        (case["template"], doc["variables"][case["variables"]], case["expansion"])
        for case in doc["vectors"]
    ]


def _time(run: Callable[[Any], object], items: Sequence[Any], repeats: int) -> float:
    return per_item(run, items, repeats)  # type: ignore[arg-type]


def _expanders() -> dict[str, tuple[Callable[[str], Any], Callable[[Any, dict[str, Any]], str]]]:
    """name -> (parse a template, expand a parsed one with variables)."""
    found: dict[str, tuple[Callable[[str], Any], Callable[[Any, dict[str, Any]], str]]] = {
        "urigrammar": (urigrammar.URITemplate, lambda t, v: t.expand(v)),
    }
    if importlib.util.find_spec("uritemplate"):
        import uritemplate

        found["uritemplate"] = (uritemplate.URITemplate, lambda t, v: t.expand(v))
    if importlib.util.find_spec("uri_template"):
        import uri_template

        found["uri-template"] = (uri_template.URITemplate, lambda t, v: str(t.expand(**v)))
    return found


def _row(name: str, seconds: float, ours: float, note: str = "") -> None:
    print(f"  {name:34} {seconds * 1e6:9.2f} {seconds / ours:8.2f}x  {note}")


def _expansion(cases: list[tuple[str, dict[str, Any], str]], repeats: int) -> None:
    print(f"expansion: {len(cases)} RFC 6570 examples")
    print(f"  {'':34} {'µs/item':>9} {'ratio':>9}  RFC's expansion")
    rows = []
    for name, (parse, expand) in _expanders().items():
        parsed = [(parse(t), v) for t, v, _e in cases]
        right = 0
        for (template, values), (_t, _v, expected) in zip(parsed, cases, strict=True):
            with contextlib.suppress(Exception):  # a refused case scores as wrong
                right += expand(template, values) == expected
        once = _time(quietly(lambda p, e=expand: e(p[0], p[1])), parsed, repeats)
        both = _time(quietly(lambda c, p=parse, e=expand: e(p(c[0]), c[1])), cases, repeats)
        rows.append((name, once, both, right))
    ours_once, ours_both = rows[0][1], rows[0][2]
    print("  parsed once, expanded each time:")
    for name, once, _both, right in rows:
        _row(name, once, ours_once, f"{right}/{len(cases)}")
    print("  parsed and expanded each time:")
    for name, _once, both, right in rows:
        _row(name, both, ours_both, f"{right}/{len(cases)}")


def _validation(templates: list[str], repeats: int) -> None:
    print(f"\nvalidation: {len(templates)} templates (the RFC's and {len(HARD)} hard cases)")
    print(f"  {'':34} {'µs/item':>9} {'ratio':>9}  agrees with the grammar")
    grammar = {t: urigrammar.validate("URI-Template", t) for t in templates}
    ours = _time(lambda t: urigrammar.validate("URI-Template", t), templates, repeats)
    _row("urigrammar.validate", ours, ours, f"{len(templates)}/{len(templates)}")
    construct = _time(quietly(urigrammar.URITemplate), templates, repeats)
    _row("urigrammar.URITemplate (parse)", construct, ours)
    if importlib.util.find_spec("uri_template"):
        import uri_template

        agree = sum(uri_template.validate(t) == grammar[t] for t in templates)
        differ = [t for t in templates if uri_template.validate(t) != grammar[t]]
        peer = _time(uri_template.validate, templates, repeats)
        _row("uri_template.validate", peer, ours, f"{agree}/{len(templates)} (differs: {differ})")


def _matching(cases: list[tuple[str, dict[str, Any], str]], repeats: int) -> None:
    pairs = [(urigrammar.URITemplate(t), e) for t, _v, e in cases]
    for template, _e in pairs:
        template.match("")  # compile each matcher before timing
    groups = {
        "unambiguous": [p for p in pairs if not p[0].ambiguous],
        "ambiguous, split by the regex": [
            p for p in pairs if p[0].ambiguous and p[0]._compiled().deterministic
        ],
        "ambiguous, split by _split": [p for p in pairs if not p[0]._compiled().deterministic],
    }
    print("\nmatching: each example's expansion (no peer matches)")
    print(f"  {'':34} {'µs/item':>9} {'templates':>10}")
    everything = _time(lambda p: p[0].match(p[1]), pairs, repeats)
    print(f"  {'all':34} {everything * 1e6:9.2f} {len(pairs):10}")
    for label, group in groups.items():
        seconds = _time(lambda p: p[0].match(p[1]), group, repeats)
        print(f"  {label:34} {seconds * 1e6:9.2f} {len(group):10}")
    compile_time = _time(
        lambda t: urigrammar.URITemplate(t).match(""), [t for t, _v, _e in cases], 1
    )
    print(f"  {'parse, compile and match, cold':34} {compile_time * 1e6:9.2f} {len(cases):10}")
    print("\nmatching long URIs: µs per 1,000 characters (flat = linear)")
    shapes = {
        "/users/{id}{?q*}": lambda n: "/users/" + "a" * n + "?k=" + "v" * n,
        "{+path}/here": lambda n: "/a" * n + "/here",
        "{+path}/here (no match)": lambda n: "/a" * n + "/there",
        "{a}{b}": lambda n: "x" * n,
    }
    print(f"  {'template':26}" + "".join(f"{n:>12,}" for n in (1_000, 10_000, 100_000)))
    for shape, make in shapes.items():
        template = urigrammar.URITemplate(shape.split(" ")[0])
        template.match("")  # compiled before timing
        cells = []
        for n in (1_000, 10_000, 100_000):
            uri = make(n)
            start = time.perf_counter()
            template.match(uri)
            cells.append((time.perf_counter() - start) * 1e6 / (len(uri) / 1000))
        print(f"  {shape:26}" + "".join(f"{c:12.2f}" for c in cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    cases = _cases()
    _expansion(cases, args.repeats)
    templates = list(dict.fromkeys([t for t, _v, _e in cases] + HARD))
    _validation(templates, args.repeats)
    _matching(cases, args.repeats)


if __name__ == "__main__":
    main()
