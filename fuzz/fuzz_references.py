"""Fuzz the functions that read references and make new ones:
``normalize``, ``resolve``, ``relativize``, ``equivalent`` and
``percent_decode``.

On any ``str`` each returns normally or raises a ``URIError`` subclass
whose offset is inside its text; a reference it returns reads back from
its own ``str()``; and the C normalization writes the Python one's text.

    python fuzz/fuzz_references.py -max_total_time=60 fuzz/seeds/references
"""

from __future__ import annotations

import atheris

import urigrammar as u
from _harness import offset_in, run, text_from
from urigrammar.uri._api import normalizer
from urigrammar.uri._normalize import native_text, normal_text

BASE = "http://a/b/c/d;p?q"


def check_references(text: str, other: str) -> None:
    for call in (
        lambda: u.normalize(text, ipv6_canonical=True),
        lambda: u.normalize(text, scheme_based=False),
        lambda: u.resolve(BASE, text),
        lambda: u.resolve(text, other, strict=False),
        lambda: u.relativize(BASE, text),
        lambda: u.equivalent(text, other),
        lambda: u.percent_decode(text),
        lambda: u.percent_decode(text, errors="replace"),
    ):
        try:
            result = call()
        except u.URIError as exc:
            offset_in(exc)
            continue
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


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    other = text_from(fdp, fdp.ConsumeIntInRange(0, 16))
    text = text_from(fdp)
    check_normal(text)
    check_references(text, other)


def warm_up() -> None:
    for text in ("HTTP://a/./b/../c?%7e#d", "//[::1]:80/", "a b"):
        check_normal(text)
        check_references(text, "../g")


if __name__ == "__main__":
    run(test_one_input, warm_up)
