"""Fuzz ``parse`` and ``parse_iri`` on every rule they take, and pickling.

For any text: the C tagger's reference is the Python tagger's (every
component, or the same error at the same offset); ``str()`` of a reference
is its text; on short texts the automata and ``abnf`` agree; a reference
pickles to itself, and unpickling any text (a pickle whose text was
tampered with) gives a reference of that text or a ``URIError``.

    python fuzz/fuzz_parse.py -max_total_time=60 fuzz/seeds/parse
"""

from __future__ import annotations

import pickle

import atheris

import urigrammar as u
from _harness import BACKENDS, offset_in, outcome, run, same, text_from
from urigrammar.uri._api import api
from urigrammar.uri._reference import _read_back

RULES = [(u.URIReference, rule) for rule in u.PARSE_RULES] + [
    (u.IRIReference, rule) for rule in u.IRI_PARSE_RULES
]
FIELDS = ("scheme", "userinfo", "host", "port_text", "path", "query", "fragment")
ABNF_LENGTH = 32  # abnf backtracks: its time grows faster than the text
PARSERS = {
    (cls, backend.name): api(backend).parser_for(cls)
    for cls in (u.URIReference, u.IRIReference)
    for backend in BACKENDS
}


def reading(cls: type[u.URIReference], backend: str, rule: str, text: str) -> object:
    def call() -> object:
        ref = PARSERS[cls, backend](text, rule)
        if str(ref) != text:
            raise AssertionError(f"str() of the reference of {text!r} is {str(ref)!r}")
        return tuple(getattr(ref, field) for field in FIELDS)

    return outcome(call)


def check_methods(cls: type[u.URIReference], rule: str, text: str) -> None:
    if len(text) > ABNF_LENGTH:
        return
    parse = u.parse if cls is u.URIReference else u.parse_iri
    methods = ("automata", "abnf")
    found = [outcome(lambda m=method: parse(text, rule, method=m)) for method in methods]
    same(f"automata and abnf on {text!r}", *found)


def check_pickle(cls: type[u.URIReference], text: str) -> None:
    try:
        ref = PARSERS[cls, "native"](text)
    except u.URISyntaxError:
        pass
    else:
        back = pickle.loads(pickle.dumps(ref))
        if back != ref or type(back) is not type(ref):
            raise AssertionError(f"{ref!r} unpickles as {back!r}")
    try:
        read = _read_back(cls, text)
    except u.URIError as exc:
        offset_in(exc)
        return
    if str(read) != text:
        raise AssertionError(f"unpickling {text!r} gives {str(read)!r}")


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    cls, rule = RULES[fdp.ConsumeIntInRange(0, len(RULES) - 1)]
    text = text_from(fdp)
    same(f"{rule} of {text!r}", *(reading(cls, b.name, rule, text) for b in BACKENDS))
    check_methods(cls, rule, text)
    check_pickle(cls, text)


def warm_up() -> None:
    for cls, rule in RULES:
        for backend in BACKENDS:
            reading(cls, backend.name, rule, "http://a/b?c#d")
        check_methods(cls, rule, "a:b")
        check_pickle(cls, "http://a/")


if __name__ == "__main__":
    run(test_one_input, warm_up)
