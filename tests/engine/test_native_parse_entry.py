"""parse's C entry (``Entry`` with a default rule, the native back end's)
called many times in every form: each call keeps the references it was
given, and answers stay right while another thread empties the tables
the entry reads."""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable

import pytest

import urigrammar as u
from _backends import C_RECORDS
from _references import fields
from _tables import parse_table
from urigrammar.engine import NATIVE
from urigrammar.uri._api import api

pytestmark = pytest.mark.skipif(NATIVE is None, reason="no C entry: the extension is not built")
#: The C entry runs a tagger itself only when the tagger makes the class in C.
c_records = pytest.mark.skipif(not C_RECORDS, reason="references are Python records")

ENTRIES: tuple[Callable[..., object], ...] = ()
if NATIVE is not None:
    _NATIVE = api(NATIVE)
    ENTRIES = (
        _NATIVE.parser_for(u.URIReference),
        _NATIVE.parser_for(u.IRIReference),
        _NATIVE.parser_for(u.IRIReference, screen=False),
    )


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
    (("//a",), {"method": "abnf"}),
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
    except (u.UrigrammarError, TypeError) as error:
        return (type(error), str(error))
    return (type(found), fields(found))  # type: ignore[arg-type]


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
    for i, entry in enumerate(ENTRIES):
        for name, matcher in parse_table(entry).fast.items():
            at = f"{i} {name}"
            counts[at] = sys.getrefcount(matcher)
            tagger = getattr(matcher, "__self__", None)  # None: a Python function
            if tagger is not None:
                counts[f"{at} tagger"] = sys.getrefcount(tagger)
    return counts


@pytest.mark.thread_unsafe  # it counts references, which other threads hold too
@c_records
def test_every_call_form_keeps_the_references_it_was_given() -> None:
    _run_every_form(3)  # fills the tables and every cache
    held = _held()
    assert any(" tagger" in at for at in held)  # the native taggers are in the tables
    _run_every_form(300)
    assert _held() == held


def test_threads_parse_right_while_the_tables_are_emptied() -> None:
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
        for _ in range(200):
            for entry in ENTRIES:
                parse_table(entry).fast.clear()
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        sys.setswitchinterval(interval)
    assert wrong == []
