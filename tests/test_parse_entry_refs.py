"""parse's C entry (``Entry`` with a default rule) under load: every call
form keeps the references it was given, and answers stay right while
another thread switches engines, which empties the tables the entry reads
(issue 14's review)."""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable

import pytest

import urigrammar as u
from urigrammar.engine import _runner
from urigrammar.uri import _api
from urigrammar.uri import _reference as reference

pytestmark = pytest.mark.skipif(
    not _runner.NATIVE_AVAILABLE or _runner._forced_pure, reason="no C entry"
)

ENTRIES = (reference.parse, reference._parse_iri, reference._parse_iri_unscreened)


class Spelling(str):
    """A str subclass: never an exact key, so the entry hands it on."""


# Fast and fallback, valid and invalid: (args, kwargs).
CALLS: list[tuple[tuple[object, ...], dict[str, object]]] = [
    (("http://a/b?c#d",), {}),
    (("http://a b",), {}),
    (("a:b", "URI"), {}),
    (("a:b", "IRI"), {}),
    (("//a", "relative-ref"), {}),
    (("//a", "uri-REFERENCE"), {}),
    (("//a", "no-such-rule"), {}),
    (("//a",), {"rule": "relative-ref"}),
    (("//a",), {"engine": "abnf"}),
    (("//a", Spelling("relative-ref")), {}),
    ((Spelling("http://a"),), {}),
    (("x:\u00e9\u200e",), {}),
    ((b"http://a",), {}),
    (("//a", 5), {}),
    ((), {}),
]


def _outcome(
    call: Callable[..., object], args: tuple[object, ...], kw: dict[str, object]
) -> object:
    try:
        found = call(*args, **kw)
    except (u.URIError, TypeError) as error:
        return (type(error), str(error))
    return (type(found), tuple(found))  # type: ignore[call-overload]


def _run_every_form(times: int) -> None:
    for _ in range(times):
        for entry in ENTRIES:
            for args, kw in CALLS:
                _outcome(entry, args, kw)


def _held() -> dict[object, int]:
    """The reference counts of what the entries hold: their default rule
    names, and the matchers in their tables and the taggers behind them."""
    # Keys are new strings: the names themselves would count once more.
    counts: dict[str, int] = {}
    for entry in ENTRIES:
        for held in gc.get_referents(entry):
            if isinstance(held, str):
                counts[f"default of {id(entry)}"] = sys.getrefcount(held)
    for (cls, screen), table in _api._entry_tables.items():
        for name, matcher in table.items():
            at = f"{cls.__name__} {screen} {name}"
            counts[at] = sys.getrefcount(matcher)
            tagger = getattr(matcher, "__self__", None)  # None: a Python function
            if tagger is not None:
                counts[f"{at} tagger"] = sys.getrefcount(tagger)
    return counts


def test_every_call_form_keeps_the_references_it_was_given() -> None:
    before = _runner.engine()
    try:
        _runner.use("native")
        _run_every_form(3)  # fills the tables and every cache
        held = _held()
        _run_every_form(300)
        assert _held() == held
    finally:
        _runner.use(before)


def test_threads_parse_right_while_the_engine_switches() -> None:
    before = _runner.engine()
    expected = {
        (i, j): _outcome(entry.__wrapped__, args, kw)
        for i, entry in enumerate(ENTRIES)
        for j, (args, kw) in enumerate(CALLS)
    }
    stop = threading.Event()
    wrong: list[object] = []

    def work() -> None:
        while not stop.is_set():
            for i, entry in enumerate(ENTRIES):
                for j, (args, kw) in enumerate(CALLS):
                    if _outcome(entry, args, kw) != expected[(i, j)]:
                        wrong.append((i, args, kw))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    threads = [threading.Thread(target=work) for _ in range(4)]
    try:
        for thread in threads:
            thread.start()
        for _ in range(100):
            _runner.use("pure")
            _runner.use("native")
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        sys.setswitchinterval(interval)
        _runner.use(before)
    assert wrong == []
