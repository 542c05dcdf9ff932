"""Fuzz ``Grammar.parse`` with captures, on grammars a user brings.

The grammars are the ``abnf`` package's transcriptions of other RFCs
(RFC 3339 date-time, RFC 5646 language tags, RFC 4647 ranges), loaded with
``load_grammar`` as a user's file would be.  For any regular rule, any
choice of its rules to capture and any text: the C tagger gives the
Python one's match (every capture's last span and all its spans) or the
same error at the same offset, and ``validate`` agrees with both.

    python fuzz/fuzz_grammar.py -max_total_time=60 fuzz/seeds/grammar
"""

from __future__ import annotations

import importlib

import atheris

import urigrammar as u
from _harness import BACKENDS, outcome, run, same, text_from

MODULES = ("rfc3339", "rfc5646", "rfc4647")


def _load(module: str) -> u.Grammar:
    rules = importlib.import_module(f"abnf.grammars.{module}").Rule.grammar
    return u.load_grammar(rules if isinstance(rules, str) else "\n".join(rules), name=module)


GRAMMARS = [_load(module) for module in MODULES]
CASES = [
    (grammar, rule, tuple(name for name in grammar.default_captures(rule) if name != rule))
    for grammar in GRAMMARS
    for rule in grammar.rule_names
    if grammar.is_regular(rule)
]


def reading(grammar: u.Grammar, rule: str, captures: tuple[str, ...], text: str) -> list[object]:
    found = []
    for backend in BACKENDS:

        def call(b: object = backend) -> object:
            match = grammar.parse(rule, text, captures=captures, backend=b)  # type: ignore[arg-type]
            return {name: (match.span(name), match.spans(name)) for name in match.captures}

        found.append(outcome(call, u.RuleMatchError))
        found.append(
            outcome(lambda b=backend: grammar.validate(rule, text, backend=b), u.RuleMatchError)
        )
    return found


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    grammar, rule, defaults = CASES[fdp.ConsumeIntInRange(0, len(CASES) - 1)]
    # All the rule's own rules, none, or one: a bounded number of choices,
    # since each new one compiles a program of its own.
    pick = fdp.ConsumeIntInRange(0, len(defaults) + 1)
    captures = defaults if pick == 0 else () if pick == 1 else (defaults[pick - 2],)
    text = text_from(fdp)
    native_match, native_valid, pure_match, pure_valid = reading(grammar, rule, captures, text)
    same(f"{rule} {captures} on {text!r}", native_match, pure_match)
    same(f"validate {rule} on {text!r}", native_valid, pure_valid)
    if (native_valid is True) != isinstance(native_match, dict):
        raise AssertionError(f"validate says {native_valid!r}, parse {native_match!r}")


def warm_up() -> None:
    for grammar, rule, captures in CASES:
        reading(grammar, rule, captures, "2026-11-29T04:40:00Z")
        reading(grammar, rule, captures, "en-GB")


if __name__ == "__main__":
    run(test_one_input, warm_up)
