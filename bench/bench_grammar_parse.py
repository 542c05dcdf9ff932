"""``Grammar.parse`` beside ``Grammar.validate`` on a user's grammar.

    python bench/bench_grammar_parse.py [--repeats N]

The grammars are ``abnf``'s transcriptions of RFC 3339 (``date-time``) and
RFC 5646 (``Language-Tag``), loaded with ``load_grammar`` as a user would.
The texts are the RFCs' examples, repeated with variations so that a pass
takes long enough to time.  One process, every call taking turns pass by
pass; µs per text, best of ``--repeats`` passes, on the native and the
pure back ends:

* ``validate(rule, text)``;
* ``parse(rule, text)`` with the default captures (every rule the grammar
  names), and then reading one field;
* ``parse(rule, text, captures=[one rule])``, then reading it;
* ``spans`` of a repeated rule (every occurrence), after the parse.

Ratios are parse over validate on the same back end; the target for the
default parse is at most 2.  Each is called as a user calls it: no
``backend=`` for the default back end.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import time
from collections.abc import Callable

import urigrammar as u
from urigrammar.engine import BACKENDS, Backend, Grammar, default_backend

DATE_TIMES = [
    "1985-04-12T23:20:50.52Z",
    "1996-12-19T16:39:57-08:00",
    "1990-12-31T23:59:60Z",
    "1990-12-31T15:59:60-08:00",
    "1937-01-01T12:00:27.87+00:20",
]
LANGUAGE_TAGS = [
    "de",
    "zh-Hant",
    "zh-Hans-CN",
    "sl-rozaj-biske",
    "de-CH-1901",
    "es-419",
    "zh-yue-HK",
    "en-US-x-twain",
    "de-DE-u-co-phonebk",
    "sr-Latn-RS",
    "hy-Latn-IT-arevela",
    "x-whatever",
    "i-klingon",
]


def grammar(module: str) -> Grammar:
    rules = importlib.import_module(f"abnf.grammars.{module}").Rule.grammar
    text = "\n".join(rules) + "\n" if isinstance(rules, list) else rules
    return u.load_grammar(text, name=module)


def best(run: Callable[[str], object], texts: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for text in texts:
            run(text)
        times.append((time.perf_counter() - start) / len(texts))
    return min(times) * 1e6


def calls(
    g: Grammar, rule: str, field: str, repeated: str, backend: Backend
) -> dict[str, Callable[[str], object]]:
    # As a user calls them: the default back end needs no keyword.
    validate, parse = g.validate, g.parse
    if backend is not default_backend():
        validate = functools.partial(g.validate, backend=backend)
        parse = functools.partial(g.parse, backend=backend)
    return {
        "validate": lambda t: validate(rule, t),
        "parse, default captures": lambda t: parse(rule, t),
        "parse, then one group": lambda t: parse(rule, t).group(field),
        f"parse, captures=[{field!r}], group": lambda t: parse(rule, t, captures=[field]).group(
            field
        ),
        f"parse, then spans({repeated!r})": lambda t: parse(rule, t).spans(repeated),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    cases = [
        ("rfc3339", "date-time", "full-date", "time-hour", DATE_TIMES),
        ("rfc5646", "Language-Tag", "region", "variant", LANGUAGE_TAGS),
    ]
    for module, rule, field, repeated, examples in cases:
        g = grammar(module)
        texts = examples * (2000 // len(examples))
        print(f"\n{module} {rule}: {len(texts)} texts, µs per text (best of {args.repeats})")
        for backend in BACKENDS:
            runs = calls(g, rule, field, repeated, backend)
            for run in runs.values():
                run(texts[0])  # compile first
            results = dict.fromkeys(runs, float("inf"))
            for _ in range(args.repeats):  # taking turns, pass by pass
                for name, run in runs.items():
                    results[name] = min(results[name], best(run, texts, 1))
            base = results["validate"]
            for name, value in results.items():
                print(
                    f"  {backend.name:6}  {name:36} {value:7.3f} µs   {value / base:5.2f}x validate"
                )


if __name__ == "__main__":
    main()
