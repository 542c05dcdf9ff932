"""Strings near a rule's language, for differential tests: a string the
rule matches (``strategies.from_rule``) with a few characters inserted,
deleted or replaced, drawn from a strategy each test chooses for what it
probes (delimiters, Unicode planes, lone surrogates, ...); and fixed
samples of both, the same on every run, for engines fed in one batch."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urigrammar.strategies import from_rule


@st.composite
def edited(draw: st.DrawFn, rule: str, chars: st.SearchStrategy[str], most: int = 2) -> str:
    """A string of ``rule`` with 0 to ``most`` edits, each inserting,
    deleting or replacing one character (inserted ones from ``chars``)."""
    text = draw(from_rule(rule))
    for _ in range(draw(st.integers(0, most))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace"]))
        if how == "insert" or not text:
            text = text[:at] + draw(chars) + text[at:]
            continue
        at = min(at, len(text) - 1)
        text = text[:at] + ("" if how == "delete" else draw(chars)) + text[at + 1 :]
    return text


def drawn(rule: str, count: int) -> list[str]:
    """``count`` strings of ``rule`` drawn by Hypothesis, the same on every
    run (derandomized): a fixed sample for engines fed in one batch."""
    found: list[str] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(from_rule(rule))
    def collect(text: str) -> None:
        found.append(text)

    collect()
    return found


def damaged(texts: list[str], seed: str, alphabet: str) -> list[str]:
    """Each text with one character inserted, deleted or replaced (put in
    from ``alphabet``), at a place drawn from a generator seeded by
    ``seed``: the same damage on every run."""
    draw = random.Random(seed)
    out = []
    for text in texts:
        at = draw.randrange(len(text) + 1)
        char = draw.choice(alphabet)
        how = draw.choice(("insert", "delete", "replace")) if text else "insert"
        if how == "insert":
            out.append(text[:at] + char + text[at:])
        else:
            at = min(at, len(text) - 1)
            out.append(text[:at] + ("" if how == "delete" else char) + text[at + 1 :])
    return out
