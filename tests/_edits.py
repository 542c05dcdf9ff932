"""Strings near a rule's language, for differential tests: a string the
rule matches (``strategies.from_rule``) with a few characters inserted,
deleted or replaced, drawn from a strategy each test chooses for what it
probes (delimiters, Unicode planes, lone surrogates, ...)."""

from __future__ import annotations

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
