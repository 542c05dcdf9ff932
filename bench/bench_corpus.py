"""Per-URL time on the real-URL corpus: urigrammar beside its peers.

    python bench/bench_corpus.py [--repeats N] [--abnf-sample N]

Every peer runs in this process on the same 20,000 strings; the table gives
each one's median microseconds per URL and its ratio to ours (above 1 means
ours is faster).  ``urllib.parse.urlsplit`` is called through
``__wrapped__`` so its LRU cache cannot answer repeated inputs.
"""

from __future__ import annotations

import argparse
import importlib.util
import urllib.parse
from collections.abc import Callable

import urigrammar
from _common import corpus, per_item, quietly


def peers() -> dict[str, tuple[str, Callable[[str], object]]]:
    """name -> (what it does, callable); peers that are not installed are left out."""
    found: dict[str, tuple[str, Callable[[str], object]]] = {}
    split = getattr(urllib.parse.urlsplit, "__wrapped__", urllib.parse.urlsplit)
    found["urllib.parse.urlsplit"] = ("split", quietly(split))
    if importlib.util.find_spec("uritools"):
        import uritools

        found["uritools.urisplit"] = ("split", quietly(uritools.urisplit))
    if importlib.util.find_spec("rfc3987"):
        import rfc3987

        found["rfc3987.match"] = (
            "validate",
            lambda s: rfc3987.match(s, rule="URI_reference") is not None,
        )
        found["rfc3987.parse"] = (
            "parse",
            quietly(lambda s: rfc3987.parse(s, rule="URI_reference")),
        )
        found["rfc3987.match IRI_reference"] = (
            "validate IRI",
            lambda s: rfc3987.match(s, rule="IRI_reference") is not None,
        )
    if importlib.util.find_spec("rfc3986"):
        import rfc3986
        from rfc3986 import validators

        checker = validators.Validator().check_validity_of(*validators.Validator.COMPONENT_NAMES)

        def rfc3986_validate(text: str) -> object:
            return checker.validate(rfc3986.uri_reference(text))

        found["rfc3986 uri_reference+Validator"] = ("validate", quietly(rfc3986_validate))
        found["rfc3986.uri_reference"] = ("parse", quietly(rfc3986.uri_reference))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--abnf-sample", type=int, default=300)
    args = ap.parse_args()

    urls = corpus()
    valid = sum(urigrammar.validate("URI-reference", u) for u in urls)
    print(f"corpus: {len(urls)} URLs, {valid} valid URI-references, abnf backend: ", end="")
    import abnf.parser

    print(abnf.parser._BACKEND)

    ours = {
        "validate": per_item(lambda s: urigrammar.validate("URI-reference", s), urls, args.repeats),
        "parse": per_item(quietly(urigrammar.parse), urls, args.repeats),
    }
    rows: list[tuple[str, str, float]] = [
        ("urigrammar.validate", "validate", ours["validate"]),
        ("urigrammar.parse", "parse", ours["parse"]),
        (
            "urigrammar.validate IRI-reference",
            "validate IRI",
            per_item(lambda s: urigrammar.validate("IRI-reference", s), urls, args.repeats),
        ),
        (
            "urigrammar.parse_iri",
            "parse IRI",
            per_item(quietly(urigrammar.parse_iri), urls, args.repeats),
        ),
    ]
    for name, (kind, run) in peers().items():
        rows.append((name, kind, per_item(run, urls, args.repeats)))
    sample = urls[: args.abnf_sample]
    rows.append(
        (
            f"urigrammar.parse method=abnf ({len(sample)} URLs)",
            "parse",
            per_item(quietly(lambda s: urigrammar.parse(s, method="abnf")), sample, 1),
        )
    )

    print(f"\n{'implementation':44} {'does':13} {'µs/URL':>9} {'vs validate':>12} {'vs parse':>9}")
    for name, kind, seconds in rows:
        print(
            f"{name:44} {kind:13} {seconds * 1e6:9.2f} "
            f"{seconds / ours['validate']:11.2f}x {seconds / ours['parse']:8.2f}x"
        )


if __name__ == "__main__":
    main()
