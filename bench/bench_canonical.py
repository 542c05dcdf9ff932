"""Per-URL time of ``canonicalize`` beside the peers that make crawl keys,
and of ``registrable_domain`` beside tldextract, on the real-URL corpus,
in this process.

    python bench/bench_canonical.py [--repeats N]

Over the corpus's valid IRI-references: ``canonicalize`` with its defaults
and with ``CRAWL_KEY``, and ``normalize`` for scale; then w3lib's
``canonicalize_url``, courlan's ``normalize_url`` and url-normalize's
``url_normalize`` where installed (each on the same strings; a peer's
errors are ignored, so each pays for the same inputs), the calls taking
turns pass by pass.  The table gives each call's fastest pass in µs per
URL and each row's ratio to ``canonicalize(s, CRAWL_KEY)``.
What each peer gives instead: compare_canonical.py.  Then
``registrable_domain(s)`` beside tldextract (its bundled list, no network)
and ``urllib.parse.urlsplit`` with publicsuffixlist, with the ratios to
tldextract.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Callable

import urigrammar
from _common import Call, corpus, quietly, side_by_side


def peers() -> dict[str, Callable[[str], object]]:
    """name -> callable; a peer that is not installed is left out."""
    found: dict[str, Callable[[str], object]] = {}
    if importlib.util.find_spec("w3lib"):
        import w3lib.url

        found["w3lib canonicalize_url(s)"] = quietly(w3lib.url.canonicalize_url)
    if importlib.util.find_spec("courlan"):
        import courlan

        found["courlan normalize_url(s)"] = quietly(courlan.normalize_url)
    if importlib.util.find_spec("url_normalize"):
        import url_normalize

        found["url_normalize(s)"] = quietly(url_normalize.url_normalize)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    urls = [u for u in corpus() if urigrammar.validate("IRI-reference", u)]
    print(f"corpus: {len(urls)} valid IRI-references, back end {urigrammar.BACKEND}")
    crawl = urigrammar.CRAWL_KEY
    ours: dict[str, Call] = {
        "urigrammar.canonicalize(s, CRAWL_KEY)": (urigrammar.canonicalize, (crawl,)),
        "urigrammar.canonicalize(s)": urigrammar.canonicalize,
        "urigrammar.normalize(s)": urigrammar.normalize,
    }
    rows = list(side_by_side({**ours, **peers()}, urls, args.repeats).items())
    unit = rows[0][1]
    print(f"\n{'call':40} {'µs/URL':>8} {'vs crawl key':>13}")
    for name, seconds in rows:
        print(f"{name:40} {seconds * 1e6:8.2f} {seconds / unit:12.2f}x")
    domains = _domains()
    if domains:
        rows = list(side_by_side(domains, urls, args.repeats).items())
        unit = rows[-1][1]
        print(f"\n{'call':40} {'µs/URL':>8} {'vs tldextract':>14}")
        for name, seconds in rows:
            print(f"{name:40} {seconds * 1e6:8.2f} {seconds / unit:13.2f}x")


def _domains() -> dict[str, Callable[[str], object]]:
    """The registrable-domain calls, tldextract last; none when it or
    publicsuffixlist is missing."""
    if not (
        importlib.util.find_spec("tldextract") and importlib.util.find_spec("publicsuffixlist")
    ):
        return {}
    import urllib.parse

    import publicsuffixlist
    import tldextract

    psl = publicsuffixlist.PublicSuffixList()
    extract = tldextract.TLDExtract(suffix_list_urls=())

    def with_urlsplit(text: str) -> object:
        host = urllib.parse.urlsplit(text).hostname
        return None if host is None else psl.privatesuffix(host)

    return {
        "urigrammar.registrable_domain(s)": urigrammar.registrable_domain,
        "urlsplit + publicsuffixlist": quietly(with_urlsplit),
        "tldextract(s).top_domain_under_public_suffix": quietly(
            lambda s: extract(s).top_domain_under_public_suffix
        ),
    }


if __name__ == "__main__":
    main()
