"""Per-URL time of the operations beyond parse, on the real-URL corpus,
beside the peers that do the same job.

    python bench/bench_operations.py [--repeats N]

Over the corpus's valid URI-references: ``normalize`` (RFC 3986 section 6),
``equivalent`` of a URL and its normal form, ``resolve`` of each URL
against one base (section 5.2), ``parse_iri``, ``to_uri``, and
``URITemplate.expand`` of a template made once.  Peers run in this process
on the same strings where installed: ``rfc3986``'s ``normalize`` and
``resolve_with``, ``urllib.parse.urljoin`` and ``yarl``'s ``URL`` and
``join``.  The table gives median µs per URL and the ratio to our
``parse`` of the same strings (the unit every operation starts from).
"""

from __future__ import annotations

import argparse
import importlib.util
import urllib.parse
from collections.abc import Callable

import urigrammar
from _common import corpus, per_item, quietly

BASE = "http://a/b/c/d;p?q"


def peers() -> dict[str, Callable[[str], object]]:
    """name -> callable; a peer that is not installed is left out."""
    found: dict[str, Callable[[str], object]] = {
        "urllib.parse.urljoin(BASE, s)": quietly(lambda s: urllib.parse.urljoin(BASE, s)),
    }
    if importlib.util.find_spec("rfc3986"):
        import rfc3986

        base = rfc3986.uri_reference(BASE)
        found["rfc3986 uri_reference(s).normalize()"] = quietly(
            lambda s: rfc3986.uri_reference(s).normalize()
        )
        found["rfc3986 uri_reference(s).resolve_with(BASE)"] = quietly(
            lambda s: rfc3986.uri_reference(s).resolve_with(base)
        )
    if importlib.util.find_spec("yarl"):
        import yarl

        yarl_base = yarl.URL(BASE)
        found["yarl.URL(s) (normalizes)"] = quietly(yarl.URL)
        found["yarl.URL(BASE).join(URL(s))"] = quietly(lambda s: yarl_base.join(yarl.URL(s)))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    urls = [u for u in corpus() if urigrammar.validate("URI-reference", u)]
    template = urigrammar.URITemplate("https://example.com/search{?q,page}")
    print(f"corpus: {len(urls)} valid URI-references, back end {urigrammar.BACKEND}")
    ours: dict[str, Callable[[str], object]] = {
        "urigrammar.parse(s)": urigrammar.parse,
        "urigrammar.normalize(s)": urigrammar.normalize,
        "urigrammar.equivalent(s, normalize(s))": lambda s: urigrammar.equivalent(
            s, urigrammar.normalize(s)
        ),
        "urigrammar.resolve(BASE, s)": lambda s: urigrammar.resolve(BASE, s),
        "urigrammar.parse_iri(s)": urigrammar.parse_iri,
        "urigrammar.to_uri(s)": urigrammar.to_uri,
        "URITemplate(...).expand(q=s, page=2)": lambda s: template.expand(q=s, page=2),
    }
    rows = [(name, per_item(run, urls, args.repeats)) for name, run in ours.items()]
    rows += [(name, per_item(run, urls, args.repeats)) for name, run in peers().items()]
    parse = rows[0][1]
    print(f"\n{'call':46} {'µs/URL':>8} {'vs parse':>9}")
    for name, seconds in rows:
        print(f"{name:46} {seconds * 1e6:8.2f} {seconds / parse:8.1f}x")


if __name__ == "__main__":
    main()
