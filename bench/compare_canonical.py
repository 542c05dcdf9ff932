"""Where w3lib, url-normalize and courlan give another key than
``canonicalize``, and the surt package another SURT than ``surt``, over the
corpus.  Not timed (bench_canonical.py times
them): the table in docs/guide/hygiene.md is read from this output.

    python bench/compare_canonical.py [--examples N]

Each peer is compared with ``canonicalize`` under the options that do the
steps the peer says it does (sorting, fragment, IDNA, ...), so that what is
left is how each reads the RFCs.  A difference is one of:

* ``spelling``: the peer's key is another spelling of the same resource
  (``canonicalize`` of the peer's key is ours): it stopped short of a
  normalization step; the component named is where;
* ``meaning``: the peer's key is another resource: it changed something
  that RFC 3986 gives meaning to; the component named is where;
* ``not a URI``: the peer's key is no URI-reference (RFC 3986 section 4.1);
* ``refused``: the text is no IRI-reference, so there is no key; the peer
  gives one anyway (or raises: ``peer error``).

For SURTs: ``same``; ``archive steps``, where the surt package's SURT is
ours put through the archives' own steps (everything lowercased, a path's
trailing slash dropped, the query's pieces sorted whole); ``other``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
from collections import Counter, defaultdict
from collections.abc import Callable

import urigrammar as u
from _common import corpus

PARTS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")


def peers() -> dict[str, tuple[Callable[[str], str], u.Canonicalization]]:
    """name -> (the peer's function, the Canonicalization of its steps)."""
    import courlan
    import url_normalize
    import w3lib.url

    return {
        # canonicalize_url: query sorted, fragment dropped, an empty query
        # dropped, the host as A-labels.
        "w3lib": (
            w3lib.url.canonicalize_url,
            u.Canonicalization(
                sort_query=True, drop_fragment=True, drop_empty_query=True, idna=True
            ),
        ),
        # url_normalize: the host as A-labels, an empty query dropped.
        "url-normalize": (
            url_normalize.url_normalize,
            u.Canonicalization(idna=True, drop_empty_query=True),
        ),
        # normalize_url: query sorted, its tracking parameters dropped, an
        # empty query dropped.
        "courlan": (
            courlan.normalize_url,
            u.Canonicalization(
                sort_query=True, drop_parameters=u.TRACKING_PARAMETERS, drop_empty_query=True
            ),
        ),
    }


def _where(a: str, b: str) -> str:
    """The first component in which two URI-references differ."""
    x, y = u.parse(a), u.parse(b)
    for part in PARTS:
        if getattr(x, part if part != "port" else "port_text") != getattr(
            y, part if part != "port" else "port_text"
        ):
            return part
    return "none"


def kind(text: str, theirs: str | None, rules: u.Canonicalization) -> tuple[str, str | None]:
    """The kind of difference, and our key (``None`` when there is none)."""
    try:
        ours = u.canonicalize(text, rules)
    except u.URIError:
        return ("refused" if theirs is not None else "both refuse"), None
    if theirs is None:
        return "peer error", ours
    if theirs == ours:
        return "same", ours
    if not u.validate("URI-reference", theirs):
        return "not a URI", ours
    if u.canonicalize(theirs, rules) == ours:
        return f"spelling: {_where(theirs, ours)}", ours
    return f"meaning: {_where(u.canonicalize(theirs, rules), ours)}", ours


Examples = defaultdict[str, list[tuple[str, str | None, str | None]]]


def _report(peer: str, counts: Counter[str], examples: Examples) -> None:
    """Each kind's count, most common first, with its examples."""
    print(f"\n{peer} {importlib.metadata.version(peer)}")
    for found, count in counts.most_common():
        print(f"  {count:6,}  {found}")
        for text, theirs, ours in examples[found]:
            print(f"            text:   {text[:110]}")
            print(f"            {peer}: {str(theirs)[:110]}")
            print(f"            ours:   {str(ours)[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2, help="examples shown per kind")
    args = parser.parse_args()
    texts = corpus()
    print(f"{len(texts):,} URLs")
    for name, (function, rules) in peers().items():
        counts: Counter[str] = Counter()
        examples: Examples = defaultdict(list)
        for text in texts:
            try:
                theirs: str | None = function(text)
            except Exception:  # peers raise assorted errors
                theirs = None
            found, ours = kind(text, theirs, rules)
            counts[found] += 1
            if found != "same" and len(examples[found]) < args.examples:
                examples[found].append((text, theirs, ours))
        _report(name, counts, examples)
    compare_surt(texts, args.examples)


def _archive_steps(ours: str) -> str:
    """``ours`` as the surt package's canonicalizer would leave it."""
    ours = ours.lower()
    head, mark, query = ours.partition("?")
    if head.endswith("/") and not head.endswith(")/"):
        head = head[:-1]
    if mark:
        query = "&".join(sorted(query.split("&")))
    return head + mark + query if query or not mark else head


def compare_surt(texts: list[str], shown: int) -> None:
    import surt

    counts: Counter[str] = Counter()
    examples: Examples = defaultdict(list)
    for text in texts:
        try:
            ours = u.surt(text)
        except u.URIError:
            counts["refused"] += 1
            continue
        try:
            theirs = surt.surt(text)
        except Exception:  # the peer raises assorted errors
            counts["peer error"] += 1
            continue
        found = (
            "same"
            if theirs == ours
            else "archive steps"
            if theirs == _archive_steps(ours)
            else "other"
        )
        counts[found] += 1
        if found != "same" and len(examples[found]) < shown:
            examples[found].append((text, theirs, ours))
    _report("surt", counts, examples)


if __name__ == "__main__":
    main()
