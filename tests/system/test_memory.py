"""A million parses leave resident memory flat.

Each measurement runs in a new interpreter (this file run as a script), so
what earlier tests left in the heap can neither hide growth (memory they
freed, reused) nor fake it.  Resident set size is read from
``/proc/self/statm`` (Linux only; the tests skip elsewhere) after a full
garbage collection: once after a warm-up, then every 50,000 parses of a
million more.  The largest growth counts, so a bounded cache that fills
and is emptied again cannot hide at the end.

The inputs cycle through ``tests/data/real-urls.txt`` (2,018 real URLs), and
one in ten is a text no earlier call has seen: a distinct valid URI, a
corpus URL with a space put in, or one with a non-ASCII character (an IRI,
as real input has them) that is new to the error locator.  So a cache keyed by input, or by the
characters an input holds, would show as growth.

The threshold, ``GROWTH_LIMIT = 4 MiB``: with nothing kept, growth measures
under 1 MiB (the allocator's own noise: arenas that stay mapped, a few
interned objects), while anything that keeps a few bytes per call keeps
megabytes over a million calls (16 bytes each is 16 MB).  4 MiB is also well
below what one error automaton's transition table holds when full (about
19 MB: 50,000 entries of about 380 bytes), the largest thing the library
caches.  No timing is asserted.
"""

from __future__ import annotations

import gc
import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import urigrammar as u

CORPUS = Path(__file__).resolve().parents[1] / "data" / "real-urls.txt"
STATM = Path("/proc/self/statm")
WARM_UP = 100_000
RUN = 1_000_000
GROWTH_LIMIT = 4 * 2**20
SAMPLE_EVERY = 50_000

# Code points U+00A0 to U+D7FF: letters, marks and symbols of the Basic
# Multilingual Plane, the surrogates excluded.  55,136 of them, so a
# million parses meet each one about twice.
_FIRST, _LAST = 0xA0, 0xD7FF

pytestmark = pytest.mark.skipif(not STATM.is_file(), reason="needs Linux /proc/self/statm")


def rss() -> int:
    """Resident memory in bytes, after a full collection."""
    gc.collect()
    resident_pages = int(STATM.read_text().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE")


def _char(i: int) -> str:
    return chr(_FIRST + (i * 7919) % (_LAST - _FIRST + 1))


def inputs(corpus: list[str], start: int) -> Iterator[str]:
    """The texts, from the ``start``-th on: the corpus in a cycle, every
    tenth text one that has not been seen before."""
    for i, url in zip(itertools.count(start), itertools.cycle(corpus[start % len(corpus) :])):
        kind = i % 10
        if kind == 7:
            middle = len(url) // 2
            yield f"{url[:middle]} {i}{url[middle:]}"  # invalid: a space
        elif kind == 8:
            yield f"{url}{_char(i)}{i}"  # invalid: a non-ASCII character
        elif kind == 9:
            yield f"https://u{i}@h{i}.example:{i % 65536}/p/{i}?q={i}#f{i}"
        else:
            yield url


def parse_all(texts: Iterator[str], count: int, samples: list[int]) -> tuple[int, int]:
    """Parse ``count`` texts, adding the resident memory to ``samples``
    every ``SAMPLE_EVERY``; how many parsed and how many raised."""
    parsed = failed = 0
    for n, text in enumerate(itertools.islice(texts, count), 1):
        if n % SAMPLE_EVERY == 0:
            samples.append(rss())
        try:
            u.parse(text)
        except u.URISyntaxError:
            failed += 1
        else:
            parsed += 1
    return parsed, failed


def measure_parses() -> int:
    """The largest growth over a million parses after a warm-up, in bytes."""
    corpus = CORPUS.read_text(encoding="utf-8").splitlines()
    parse_all(inputs(corpus, 0), WARM_UP, [])
    before = rss()
    samples: list[int] = []
    parsed, failed = parse_all(inputs(corpus, WARM_UP), RUN, samples)
    samples.append(rss())
    if failed < RUN // 5 or parsed + failed != RUN:  # errors were raised, and caught
        raise AssertionError(f"{parsed} parsed and {failed} failed")
    return max(samples) - before


def measure_error_offsets() -> int:
    """The largest growth over ``check`` on 50,000 texts, each with a bad
    character no earlier text had, after 5,000 such texts; in bytes."""

    def locate(first: int, last: int, samples: list[int]) -> set[int | None]:
        offsets = set()
        for code in range(first, last):
            if code % 5_000 == 0:
                samples.append(rss())
            try:
                u.check("URI", f"http://a/b?c#d{chr(code)}")
            except u.URISyntaxError as exc:
                offsets.add(exc.offset)
        return offsets

    locate(_FIRST, _FIRST + 5_000, [])
    before = rss()
    samples: list[int] = []
    offsets = locate(_FIRST + 5_000, _LAST, samples)
    samples.append(rss())
    if offsets != {len("http://a/b?c#d")}:
        raise AssertionError(f"offsets {offsets}")
    return max(samples) - before


MEASURES = {"parses": measure_parses, "error-offsets": measure_error_offsets}


def growth_in_a_new_interpreter(measure: str) -> int:
    done = subprocess.run(
        [sys.executable, __file__, measure],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.slow  # the library's caches, not the interpreter's: one Python is enough
def test_a_million_parses_keep_memory_flat() -> None:
    growth = growth_in_a_new_interpreter("parses")
    assert growth < GROWTH_LIMIT, f"resident memory grew {growth / 2**20:.1f} MiB"


@pytest.mark.slow
def test_error_offsets_of_many_distinct_characters_keep_memory_flat() -> None:
    """``check`` on texts whose first bad character is one no earlier text
    had: the error locator must not keep something per character (no rule
    of RFC 3986 matches any character past U+00FF)."""
    growth = growth_in_a_new_interpreter("error-offsets")
    assert growth < GROWTH_LIMIT, f"resident memory grew {growth / 2**20:.1f} MiB"


if __name__ == "__main__":
    print(MEASURES[sys.argv[1]]())
