"""The grammars urigrammar ships, as ``Grammar`` objects of the engine.

``grammar/rfc3986.abnf`` holds RFC 3986 Appendix A verbatim; it is package
data in a wheel (``urigrammar/rfc3986.abnf``), and a source checkout
without an install falls back to the file at the top of the repository.
Each grammar is read on first use, not at import: reading a grammar with
``abnf``'s ABNF parser costs about a third of a second, which
``import urigrammar`` should not pay.
"""

from __future__ import annotations

from pathlib import Path

from ..engine import Grammar
from ..engine._reader import RuleText, read_rules

__all__ = ["GRAMMAR", "RFC3986", "grammar_text"]


def grammar_text(file_name: str = "rfc3986.abnf") -> str:
    """The text of a shipped grammar file, from package data or the source tree."""
    import importlib.resources  # only on first use: it is slow to import

    packaged = importlib.resources.files("urigrammar").joinpath(file_name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    # An editable install or a bare checkout: the file stays at the top of
    # the repository, where it is committed, and is copied into the wheel.
    source = Path(__file__).resolve().parents[3] / "grammar" / file_name
    return source.read_text(encoding="utf-8")


def _shipped(file_name: str) -> list[RuleText]:
    return read_rules(grammar_text(file_name))


#: RFC 3986 Appendix A.  Vetted: its regexes backtrack only at bounded
#: choices outside repetitions (host, IPv6address, dec-octet), and
#: bench/bench_length.py and the tests time every shape of long input.
RFC3986 = Grammar(lambda: _shipped("rfc3986.abnf"), name="RFC 3986", lazy=True, vetted=True)

#: The grammar the URI model (parse, build, encode, ...) works from.
GRAMMAR = RFC3986
