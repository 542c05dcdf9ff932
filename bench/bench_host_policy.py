"""Per-URL time of ``HostPolicy.allows`` with a 1,000-entry allow list (500
names, 500 ``*.`` wildcards, the corpus's hosts among them), over the
corpus's http and https URLs, beside ``agreed_host`` alone (what every
check starts with) and ``urllib.parse.urlsplit`` with a set lookup (what a
hand-written allow list costs, and gets wrong).

    python bench/bench_host_policy.py [--repeats 5]

Prints µs per URL and the share of URLs allowed; the issue's target is
1 µs a URL for ``allows``.  A policy keeps its answers by a URL's scheme,
host and port (the corpus names 961 hosts): ``allows`` is timed as a
crawl or a proxy asks, and with its answers emptied before each URL, as
a first lookup costs.  Needs the ``urigrammar[whatwg]`` extra.
"""

from __future__ import annotations

import argparse
import urllib.parse

from _common import corpus, per_item, quietly
from urigrammar.differential import HostPolicy, agreed_host

TARGET = 1.0


def _hostname(text: str) -> str | None:
    return urllib.parse.urlsplit(text).hostname


def _listable(host: str) -> bool:
    """Whether a policy takes ``host`` as an entry (urlsplit's hostname
    may be anything)."""
    try:
        HostPolicy([host, f"*.{host}"])
    except ValueError:
        return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    urls = [u for u in corpus() if u.startswith(("http://", "https://"))]
    hosts = sorted(h for h in {quietly(_hostname)(u) for u in urls} if h and _listable(h))
    names = hosts[:250] + [f"host{i}.example" for i in range(250)]
    wildcards = [f"*.{h}" for h in hosts[250:500]] + [f"*.zone{i}.example" for i in range(250)]
    policy = HostPolicy([*names, *wildcards])
    allowed = sum(policy.allows(u) for u in urls)
    print(
        f"{len(urls):,} http(s) URLs; {len(names) + len(wildcards):,} entries; allowed: {allowed:,}"
    )
    plain = set(names)

    def by_hand(text: str) -> bool:
        return urllib.parse.urlsplit(text).hostname in plain

    def first_time(text: str) -> bool:
        # The policy keeps its answers by scheme, host and port: emptied,
        # every URL is a first lookup.
        policy._kept.clear()
        return policy.allows(text)

    runs = {
        "HostPolicy.allows(s)": policy.allows,
        "HostPolicy.allows(s), nothing kept": first_time,
        "agreed_host(s)": quietly(agreed_host),
        "urlsplit(s).hostname in a set": quietly(by_hand),
    }
    print(f"{'call':34} {'µs/URL':>8}")
    for name, run in runs.items():
        print(f"{name:34} {per_item(run, urls, args.repeats) * 1e6:8.2f}")
    print(f"target: HostPolicy.allows at most {TARGET} µs a URL")


if __name__ == "__main__":
    main()
