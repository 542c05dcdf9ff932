"""The native engine beside the pure engine and peers.

    python bench/bench_native.py [--repeats N] [--size N]

One process, the same corpus URLs for everyone (``_common.corpus()``), the
peers taking turns pass by pass (this machine's load varies by the second):
µs per URL for ``validate`` on the native engine (the C runner of the
rule's minimal DFA) and on the pure one (the regexes), for
``URI-reference`` and ``IRI-reference``; a bare ``re`` fullmatch of
``[!-~]*`` (the floor of any ``re`` call); ``rfc3987.match(...,
rule="IRI_reference")``; ``uritools.urisplit``.  Ratios are time over the
native ``validate``'s (above 1: native is faster); the issues' targets are
printed beside them.  Then ``parse`` on both engines beside a bare RFC
3986 Appendix B ``fullmatch`` and ``uritools.urisplit``.  Then the DFA
build time and size per rule (the minimal DFA of validate, the tagged DFA
of parse), and every long shape of ``bench_length.py`` at ``--size``
characters (1 MB by default) through the native validate and parse, with
the growth from a tenth of the size and the peak traced memory.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import re
import time
import tracemalloc
from collections.abc import Callable

import urigrammar
from _common import corpus, quietly
from bench_length import SHAPES, UNICODE_SHAPES, best_time, make
from urigrammar.engine import NATIVE, PURE, Backend, inline_rule
from urigrammar.engine.automata.dfa import build_tables
from urigrammar.engine.automata.tagged import build_tagged
from urigrammar.shipped import shipped_rule
from urigrammar.uri._api import api
from urigrammar.uri._components import layout
from urigrammar.uri._visitor import CAPTURES, LEAVES


def validate(rule: str, backend: Backend) -> Callable[[str], object]:
    # A partial, as a caller holding the rule name would call it: no extra
    # Python frame beside the C-level peers (``re``'s fullmatch).
    return functools.partial(api(backend).validate, rule)


def parser(backend: Backend, cls: type[urigrammar.Reference]) -> Callable[[str], object]:
    return api(backend).parser_for(cls)


def interleaved(
    runs: dict[str, Callable[[str], object]], items: list[str], repeats: int
) -> dict[str, float]:
    """The fastest pass's seconds per item of each run, the runs taking
    turns pass by pass so that a change in the machine's load hits them all
    alike.  The fastest pass, not the median: on this shared machine a pass
    is only ever slowed by other work, and the median of a few passes swung
    by 2x under load where the minimum held."""
    passes: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            run(items[0])  # made on first use
            start = time.perf_counter()
            for item in items:
                run(item)
            passes[name].append((time.perf_counter() - start) / len(items))
    return {name: min(times) for name, times in passes.items()}


#: RFC 3986 Appendix B's regular expression, as printed there: it splits
#: any string into five parts and validates nothing.
APPENDIX_B = r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?"


def per_url_parse(urls: list[str], repeats: int) -> None:
    """``parse`` on both engines beside a bare Appendix B ``fullmatch`` and
    ``uritools.urisplit``, over the corpus URLs that are URI-references
    (``parse`` raises for the others, and an error costs what it costs)."""
    valid = [url for url in urls if urigrammar.validate("URI-reference", url)]
    print(f"\nparse: the {len(valid)} corpus URLs that are URI-references\n")
    assert NATIVE is not None
    runs: dict[str, Callable[[str], object]] = {
        "native parse": parser(NATIVE, urigrammar.URIReference),
        "pure parse": parser(PURE, urigrammar.URIReference),
        "native parse_iri": parser(NATIVE, urigrammar.IRIReference),
        "Appendix B fullmatch": re.compile(APPENDIX_B).fullmatch,
    }
    # The floor of a parse that returns a URIReference: making one from its
    # spans, already found, as the tagger does (a record, engine.Record).
    # (A Python record, under URIGRAMMAR_PURE, keeps values, not spans.)
    found = {url: urigrammar.parse(url) for url in valid}
    spans = {url: layout(*ref._values())[1:] for url, ref in found.items()}
    make = urigrammar.URIReference._make
    runs["URIReference from its spans"] = lambda url: make(url, *spans[url])
    if importlib.util.find_spec("uritools"):
        import uritools

        runs["uritools.urisplit"] = uritools.urisplit
    times = interleaved(runs, valid, repeats)
    native = times["native parse"]
    print(f"{'':34} {'µs/URL':>8} {'/ native parse':>15}")
    for name, t in times.items():
        print(f"{name:34} {t * 1e6:8.3f} {t / native:15.2f}")
    print("\ntargets:")
    print(
        f"  target: native parse / Appendix B fullmatch = "
        f"{native / times['Appendix B fullmatch']:.2f} (at most 1.0)"
    )
    if "uritools.urisplit" in times:
        print(
            f"  target: uritools.urisplit / native parse = "
            f"{times['uritools.urisplit'] / native:.1f} (at least 6)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--size", type=int, default=1_000_000)
    args = ap.parse_args()
    if NATIVE is None:
        raise SystemExit("the extension is not built: pip install . with a C compiler")
    urls = corpus()
    per_url(urls, args.repeats)
    per_url_parse(urls, args.repeats)
    dfa_sizes()
    long_shapes(args.size)


def per_url(urls: list[str], repeats: int) -> None:
    print(f"{len(urls)} corpus URLs, the fastest of {repeats} passes\n")

    assert NATIVE is not None
    runs: dict[str, Callable[[str], object]] = {}
    for rule in ("URI-reference", "IRI-reference"):
        runs[f"native validate {rule}"] = validate(rule, NATIVE)
        runs[f"pure validate {rule}"] = validate(rule, PURE)
    runs["re [!-~]* fullmatch"] = re.compile(r"[!-~]*").fullmatch
    # The floor of any callable in this loop: the cheapest C call there is.
    runs["len (any call's floor)"] = len
    if importlib.util.find_spec("rfc3987"):
        import rfc3987

        runs["rfc3987.match IRI_reference"] = lambda s: rfc3987.match(s, rule="IRI_reference")
    if importlib.util.find_spec("uritools"):
        import uritools

        runs["uritools.urisplit"] = quietly(uritools.urisplit)

    times = interleaved(runs, urls, repeats)
    uri = times["native validate URI-reference"]
    iri = times["native validate IRI-reference"]
    print(f"{'':34} {'µs/URL':>8} {'/ native URI':>13} {'/ native IRI':>13}")
    for name, t in times.items():
        print(f"{name:34} {t * 1e6:8.3f} {t / uri:13.2f} {t / iri:13.2f}")
    print("\ntargets:")
    floor = times["re [!-~]* fullmatch"]
    print(f"  target: native URI-reference / re [!-~]* = {uri / floor:.2f} (at most 0.5)")
    call = times["len (any call's floor)"]
    print(f"            (len / re [!-~]* = {call / floor:.2f}: the loop and a call alone)")
    if "uritools.urisplit" in times:
        print(
            f"  target: uritools.urisplit / native URI-reference = "
            f"{times['uritools.urisplit'] / uri:.1f} (at least 6)"
        )
    if "rfc3987.match IRI_reference" in times:
        print(
            f"  target: rfc3987.match IRI_reference / native IRI-reference = "
            f"{times['rfc3987.match IRI_reference'] / iri:.1f} (at least 10)"
        )
    print(f"  target: native IRI-reference / native URI-reference = {iri / uri:.2f} (at most 1.3)")


def dfa_sizes() -> None:
    print(
        f"\n{'DFA of':16} {'build ms':>9} {'states':>7} {'classes':>8} {'intervals':>10}"
        f" {'tagged ms':>10} {'states':>7} {'records':>8}"
    )
    for rule in ("URI-reference", "URI", "relative-ref", "IRI-reference", "IRI", "irelative-ref"):
        grammar, name = shipped_rule(rule)
        body = inline_rule(grammar.rules, name)
        start = time.perf_counter()
        tables = build_tables(body)
        took = time.perf_counter() - start
        assert tables is not None
        # The tagged DFA of parse (engine/automata/tagged.py), with the visitor's captures.
        captured = inline_rule(grammar.rules, name, CAPTURES - {name}, LEAVES)
        start = time.perf_counter()
        tagged = build_tagged(captured)
        tagged_took = time.perf_counter() - start
        assert tagged is not None
        print(
            f"{rule:16} {took * 1e3:9.0f} {tables.nstates:7} {tables.nclasses:8} "
            f"{len(tables.starts):10} {tagged_took * 1e3:10.0f} {tagged.nstates:7} "
            f"{len(tagged.records):8}"
        )


def _timed(run: Callable[[], object]) -> tuple[float, int]:
    """Best time of ``run`` and its peak traced memory in bytes."""
    took = best_time(run)
    tracemalloc.start()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return took, peak


def long_shapes(size: int) -> None:
    print(
        f"\n{'shape':14} {'rule':14} {'validate ms':>12} {'ns/char':>8} {'x10 growth':>10} "
        f"{'peak KB':>8} {'parse ms':>9} {'x10 growth':>10} {'peak KB':>8}"
    )
    print(f"{'':29}(at {size} characters; growth from a tenth of it)")
    worst = 0.0
    for shape in [*SHAPES, *UNICODE_SHAPES]:
        rule = "URI-reference" if shape in SHAPES else "IRI-reference"
        parse = urigrammar.parse if shape in SHAPES else urigrammar.parse_iri
        text = make(shape, size)
        tenth = make(shape, size // 10)
        assert urigrammar.validate(rule, text), shape
        big, peak = _timed(functools.partial(urigrammar.validate, rule, text))
        small = best_time(functools.partial(urigrammar.validate, rule, tenth))
        parsed, parse_peak = _timed(functools.partial(parse, text))
        parsed_small = best_time(functools.partial(parse, tenth))
        worst = max(worst, big)
        print(
            f"{shape:14} {rule:14} {big * 1e3:12.3f} {big / len(text) * 1e9:8.2f} "
            f"{big / small:10.1f} {peak / 1024:8.1f} {parsed * 1e3:9.3f} "
            f"{parsed / parsed_small:10.1f} {parse_peak / 1024:8.1f}"
        )
    print(
        f"\nworst validate: {worst * 1e3:.3f} ms at {size} characters (target: at most 2 ms); "
        "parse's peak memory includes the components it returns"
    )


if __name__ == "__main__":
    main()
