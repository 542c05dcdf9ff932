"""A coverage-guided fuzz target (atheris) for urigrammar's text functions.

It checks the fuzz invariant of ``tests/system/test_fuzz.py``: on any ``str``,
``validate``, ``check``, ``parse``, ``normalize``, ``resolve``,
``relativize``, ``equivalent`` and ``percent_decode`` return normally or
raise a ``URIError`` subclass.  Any other exception, or a broken promise
(``str(parse(t)) != t``, an error offset outside the text, the two methods
disagreeing, the C normalization writing another text than the Python
one), is a crash: atheris prints the input and saves it as
``crash-<sha1>``.  See ``fuzz/README.md``; not part of CI.

    python fuzz/fuzz_parse.py -atheris_runs=100000
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import urigrammar as u
    from urigrammar.uri._api import normalizer
    from urigrammar.uri._normalize import native_text, normal_text

RULES = u.RULE_NAMES
BASE = "http://a/b/c/d;p?q"
ABNF_LENGTH = 64  # the abnf engine is quadratic: compare the methods on short texts only


def text_from(fdp: atheris.FuzzedDataProvider) -> str:
    """The text, drawn one of three ways: Unicode without surrogates, with
    them, or bytes read as ``argv`` and files are (UTF-8, surrogateescape)."""
    how = fdp.ConsumeIntInRange(0, 2)
    size = fdp.remaining_bytes()
    if how == 0:
        return str(fdp.ConsumeUnicodeNoSurrogates(size))
    if how == 1:
        return str(fdp.ConsumeUnicode(size))
    return bytes(fdp.ConsumeBytes(size)).decode("utf-8", "surrogateescape")


def offset_in(error: u.URIError) -> None:
    """The error's offset is inside the text it is about, and it renders."""
    if error.offset is not None and not 0 <= error.offset <= len(error.text or ""):
        raise AssertionError(f"offset {error.offset} outside {error.text!r}")
    str(error)


def check_rule(rule: str, text: str) -> None:
    try:
        valid = u.validate(rule, text)
    except u.InputTooLongError:
        if len(text) <= u.ABNF_MAX_LENGTH:
            raise
        return
    try:
        u.check(rule, text)
    except u.URISyntaxError as exc:
        if valid or exc.text != text:
            raise AssertionError("check raised on a text validate accepts") from exc
        offset_in(exc)
    else:
        if not valid:
            raise AssertionError("check accepted a text validate rejects")


def check_parse(text: str) -> None:
    results = []
    methods: tuple[u.Method, ...] = ("automata", "abnf") if len(text) <= ABNF_LENGTH else ()
    for method in methods or ("automata",):
        try:
            ref = u.parse(text, method=method)
        except u.URISyntaxError as exc:
            offset_in(exc)
            results.append(None)
            continue
        if str(ref) != text:
            raise AssertionError(f"str(parse(text)) is {str(ref)!r}")
        results.append(ref)
    if len(set(results)) != 1:
        raise AssertionError(f"the methods disagree: {results!r}")


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
    rule = RULES[fdp.ConsumeIntInRange(0, len(RULES) - 1)]
    other = str(fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 16)))
    text = text_from(fdp)
    check_rule(rule, text)
    check_parse(text)
    check_normal(text)
    check_references(text, other)


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
