"""Fuzz ``validate`` and ``check`` on every rule of RFC 3986 and RFC 3987.

For any rule and text: the C runner's verdict is the Python one's, and so
is ``check``'s error (its class and offset, inside the text); ``check``
raises exactly when ``validate`` says no.  (``abnf``'s own parser, the
third reading, is the oracle of the Hypothesis tests: it is quadratic, and
would hold the fuzzer to a few hundred inputs a second.)

    python fuzz/fuzz_validate.py -max_total_time=60 fuzz/seeds/validate
"""

from __future__ import annotations

import atheris

import urigrammar as u
from _harness import BACKENDS, outcome, run, same, text_from
from urigrammar.uri._api import api

RULES = u.RULE_NAMES
APIS = [api(backend) for backend in BACKENDS]


def verdicts(rule: str, text: str) -> list[object]:
    found = []
    for functions in APIS:
        valid = outcome(lambda f=functions: f.validate(rule, text))
        checked = outcome(lambda f=functions: f.check(rule, text))
        if (checked is None) != (valid is True):
            raise AssertionError(f"validate says {valid!r}, check {checked!r} on {text!r}")
        found.append((valid, checked))
    return found


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    rule = RULES[fdp.ConsumeIntInRange(0, len(RULES) - 1)]
    text = text_from(fdp)
    native, *others = verdicts(rule, text)
    for other in others:
        same(f"{rule} on {text!r}", native, other)


def warm_up() -> None:
    for rule in RULES:
        verdicts(rule, "http://a/b?c#d")
        verdicts(rule, "a b")


if __name__ == "__main__":
    run(test_one_input, warm_up)
