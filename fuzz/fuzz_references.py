"""Fuzz the functions that read references and make new ones:
``normalize``, ``resolve``, ``relativize``, ``equivalent`` and
``percent_decode``.

Each input chooses one of these functions, as the columns target's input
chooses its check: it is most of the Python an input runs, and the C
checks below run on every input.  On any ``str`` each returns normally
or raises a ``URIError`` subclass whose offset is inside its text; a
reference it returns reads back from its own ``str()``; and the C
normalization writes the Python one's text,
whether from a record or from a text (parsed, normalized and parsed
again in C), as the C keys of ``canonicalize`` write Python's keys and C
reads the host Python reads.

    python fuzz/fuzz_references.py -max_total_time=60 fuzz/seeds/references
"""

from __future__ import annotations

from collections.abc import Callable

import atheris

import urigrammar as u
from _harness import offset_in, run, text_from
from urigrammar.hygiene._canonical import c_key
from urigrammar.uri._api import default_api, normalizer
from urigrammar.uri._normalize import native_text, normal_text, text_normalizer

BASE = "http://a/b/c/d;p?q"

#: The C functions of a text (``None`` on the pure back end), and what
#: answers for them in Python.
TEXT_NORMAL = text_normalizer(u.URIReference)
KEYS = [
    (options, c_key(options))
    for options in (
        u.Canonicalization(),
        u.CRAWL_KEY,
        u.Canonicalization(sort_query=True, drop_parameters=("a*", "b"), drop_empty_query=True),
    )
]
PYTHON_KEY = getattr(u.canonicalize, "__wrapped__", u.canonicalize)
HOSTS: dict[str, object] = {}
HOST_LOOKUP = default_api().host_lookup(u.URIReference, HOSTS)


#: The functions that make references, each of a text and another.
CALLS: tuple[Callable[[str, str], object], ...] = (
    lambda text, other: u.normalize(text, ipv6_canonical=True),
    lambda text, other: u.normalize(text, scheme_based=False),
    lambda text, other: u.resolve(BASE, text),
    lambda text, other: u.resolve(text, other, strict=False),
    lambda text, other: u.relativize(BASE, text),
    u.equivalent,
    lambda text, other: u.percent_decode(text),
    lambda text, other: u.percent_decode(text, errors="replace"),
)


def check_reference(call: Callable[[str, str], object], text: str, other: str) -> None:
    """``call`` returns or raises a ``URIError`` whose offset is in its
    text, and a reference it returns reads back from its ``str()``."""
    try:
        result = call(text, other)
    except u.URIError as exc:
        offset_in(exc)
        return
    if isinstance(result, u.URIReference) and u.parse(str(result)) != result:
        raise AssertionError(f"{result!r} does not read back from {str(result)!r}")


def check_normal(text: str) -> None:
    """The native back end's normal text (C) is the pure one's (Python)."""
    try:
        ref = u.parse(text)
    except u.URISyntaxError:
        return
    for options in (u.Normalization(), u.Normalization(scheme_based=False)):
        made = native_text(ref, options, normalizer())
        if made is not None and made != normal_text(ref, options):
            raise AssertionError(f"C normalizes {text!r} to {made!r}")


def check_text(text: str) -> None:
    """C's functions of a text answer as Python does, or leave it to it."""
    if TEXT_NORMAL is None or HOST_LOOKUP is None:
        return
    made = TEXT_NORMAL(text)
    if made is not None:
        wanted = u.parse(normal_text(u.parse(text), u.Normalization()))
        if made != wanted or str(made) != str(wanted):
            raise AssertionError(f"C normalizes {text!r} to {made!r}, not {wanted!r}")
    for options, key in KEYS:
        found = None if key is None else key(text)
        if found is not None and found != PYTHON_KEY(text, options):
            raise AssertionError(f"C keys {text!r} as {found!r} under {options!r}")
    if made is not None and made.host is not None:
        HOSTS.clear()
        HOSTS[u.parse(text).host or ""] = "host"
        if HOST_LOOKUP(text) != "host":
            raise AssertionError(f"C reads another host in {text!r}")


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    call = CALLS[fdp.ConsumeIntInRange(0, len(CALLS) - 1)]
    other = text_from(fdp, fdp.ConsumeIntInRange(0, 16))
    text = text_from(fdp)
    check_normal(text)
    check_text(text)
    check_reference(call, text, other)


def warm_up() -> None:
    for text in ("HTTP://a/./b/../c?%7e#d", "//[::1]:80/", "a b", "http://h/?b&a=1&utm_x#f"):
        check_normal(text)
        check_text(text)
        for call in CALLS:
            check_reference(call, text, "../g")


if __name__ == "__main__":
    run(test_one_input, warm_up)
