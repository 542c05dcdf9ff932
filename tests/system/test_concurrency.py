"""Threads get the answers one thread gets.

urigrammar's only shared state is its caches, all filled lazily on first
use: each back end's matchers per rule spelling (``_api``), the grammars'
programs and what each back end makes of them, the error-locating automata
and their transition tables (``automata.lazy``), the set of unreserved
characters (``_normalize``).  Each test empties those caches, then starts
four threads at once (a barrier) so they race to fill them, with the
interpreter switching threads as often as it can; then it compares every
result with a single-threaded run over the same texts, in order.

The texts are ``tests/data/real-urls.txt``: 2,018 real URLs, 20 of them
invalid (see ``tests/data/README.md``).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import urigrammar as u
from _backends import On
from _budget import stride
from _references import fields
from _tables import empty_tables
from urigrammar.engine import BACKENDS
from urigrammar.uri import _normalize
from urigrammar.uri._api import api

CORPUS = Path(__file__).resolve().parents[1] / "data" / "real-urls.txt"
THREADS = 4
BASE = "http://a/b/c/d;p?q"


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    """A sixth of the corpus (a fifth on the smaller profiles' stride, or
    less): every sixth text and every invalid one.  The races are for the
    cold caches, early on, so more texts would add time and no race."""
    texts = CORPUS.read_text(encoding="utf-8").splitlines()
    step = max(6, stride())
    return [
        text
        for i, text in enumerate(texts)
        if i % step == 0 or not u.validate("URI-reference", text)
    ]


def share(corpus: list[str], on: On) -> list[str]:
    """The part of the corpus a test run on ``on``'s back end takes: with
    two back ends, every other text (each its own half) and every invalid
    one, so that the two runs cost what one run of the whole did (four
    threads switching every microsecond are slow)."""
    count, index = len(BACKENDS), BACKENDS.index(on.backend)
    return [
        text
        for i, text in enumerate(corpus)
        if i % count == index or not u.validate("URI-reference", text)
    ]


@pytest.fixture
def cold_caches() -> Iterator[None]:
    """Empty caches, and a thread switch as often as the interpreter allows."""
    for backend in BACKENDS:
        empty_tables(api(backend))
    u.RFC3986.clear_caches()
    _normalize._unreserved.cache_clear()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


Record = tuple[Any, ...]


def _parsed(
    on: On, text: str, rule: str = "URI-reference", method: u.Method = "automata"
) -> Record:
    try:
        ref = on.parse(text, rule, method=method)
    except u.URISyntaxError as exc:
        return (False, exc.offset)
    return (True, fields(ref))


def _offset(on: On, rule: str, text: str) -> int | None:
    try:
        on.check(rule, text)
    except u.URISyntaxError as exc:
        return exc.offset
    return None


def _together(work: Callable[[int], list[Record]]) -> list[list[Record]]:
    """``work(i)`` for ``i`` in ``range(THREADS)``, each on its own thread,
    all released at the same moment."""
    barrier = threading.Barrier(THREADS)

    def start(i: int) -> list[Record]:
        barrier.wait()
        return work(i)

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        return list(pool.map(start, range(THREADS)))


def _interleaved(texts: Sequence[str], record: Callable[[str], Record]) -> list[Record]:
    """``record`` of every text, thread ``i`` taking texts ``i``, ``i + 4``, ...;
    the results put back in the texts' order."""
    chunks = _together(lambda i: [record(text) for text in texts[i::THREADS]])
    results: list[Record] = [()] * len(texts)
    for i, chunk in enumerate(chunks):
        results[i::THREADS] = chunk
    return results


@pytest.mark.usefixtures("cold_caches")
def test_threads_parse_and_validate_the_corpus(on: On, corpus: list[str]) -> None:
    def record(text: str) -> Record:
        return (
            on.validate("URI-reference", text),
            on.validate("uri", text),
            _parsed(on, text),
        )

    texts = share(corpus, on)
    per_thread = _together(lambda _: [record(text) for text in texts])
    expected = [record(text) for text in texts]
    assert any(not valid for valid, _, _ in expected)  # some errors were raised
    for results in per_thread:
        assert results == expected


@pytest.mark.usefixtures("cold_caches")
def test_threads_locate_errors_like_one_thread(on: On, corpus: list[str]) -> None:
    # Each text is damaged at its end, in its middle and not at all, and
    # checked against rules that reject much of the corpus at varied
    # offsets: the error automata are built, and their transition tables
    # filled, by four threads at once.
    def record(text: str) -> Record:
        middle = len(text) // 2
        return (
            _offset(on, "URI-reference", text + "\x7f"),
            _offset(on, "URI-reference", text[:middle] + " " + text[middle:]),
            _offset(on, "URI", text),
            _offset(on, "absolute-URI", text),
            _offset(on, "relative-ref", text),
            _offset(on, "path-abempty", text),
        )

    texts = share(corpus, on)
    got = _interleaved(texts, record)
    assert got == [record(text) for text in texts]


@pytest.mark.usefixtures("cold_caches")
def test_threads_resolve_and_normalize_like_one_thread(corpus: list[str]) -> None:
    def record(text: str) -> Record:
        try:
            target = str(u.resolve(BASE, text))
            normal = str(u.normalize(text, ipv6_canonical=True))
        except u.URISyntaxError as exc:
            return (False, exc.offset)
        return (True, target, normal)

    got = _interleaved(corpus, record)
    assert got == [record(text) for text in corpus]


@pytest.mark.usefixtures("cold_caches")
def test_threads_share_the_abnf_engine(corpus: list[str]) -> None:
    # The pure-Python engine is slow, so some eighty texts (fewer on the
    # smaller profiles): every sixth, and every one the grammar rejects,
    # so that both the matches and the failures of the shared engine objects
    # are raced for.
    invalid = [text for text in corpus if not u.validate("URI-reference", text)]
    texts = [
        text for i, text in enumerate(corpus) if i % 6 == 0 or not u.validate("URI-reference", text)
    ]
    assert len(invalid) == 20
    assert len(texts) > len(invalid)
    assert stride() > 1 or 50 < len(texts) < 150

    # The abnf engine's answers depend on no back end: the default one's.
    on = On(api().backend)

    def record(text: str) -> Record:
        return (_parsed(on, text, method="abnf"), _parsed(on, text, "URI", method="abnf"))

    got = _interleaved(texts, record)
    assert got == [record(text) for text in texts]
