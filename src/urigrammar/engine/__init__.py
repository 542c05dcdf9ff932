"""The ABNF engine: any RFC 5234 grammar, validated in linear time.

This layer knows nothing of URIs.  Data flow: ABNF text -> ``abnf``'s ABNF
parser -> ``_reader`` (rules in ``_ir`` form, with ``CharSet`` intervals)
-> ``Grammar`` (namespace, imports, core rules) -> ``_compile`` (one regex
per regular rule) and ``_prefix`` (error offsets) -> verdicts and
``URISyntaxError``.  ``abnf`` itself is the reference engine and the one
for non-regular rules.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .._errors import GrammarError
from ._grammar import ABNF_MAX_LENGTH, Grammar
from ._reader import RuleText, read_rules

__all__ = ["ABNF_MAX_LENGTH", "Grammar", "load_grammar"]


def load_grammar(
    source: str | os.PathLike[str],
    *,
    imports: Sequence[Grammar] = (),
    name: str | None = None,
) -> Grammar:
    """A ``Grammar`` from ABNF (RFC 5234, rules starting in column 0): the
    text itself (a ``str`` holding ``=`` or a line break), or a path to a
    file of it (any other ``str``, or an ``os.PathLike``), read as UTF-8.

    Rules the text uses but does not define come from ``imports``, in
    order, then from RFC 5234's core rules; a rule found nowhere raises
    ``GrammarError`` here, naming the rule and where it is used."""
    if isinstance(source, str) and ("=" in source or "\n" in source):
        text, label = source, name or "<text>"
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = name or str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            # A file that is missing, unreadable or not UTF-8 is a grammar
            # that does not load, like one that does not parse.
            msg = f"{label}: cannot read the grammar: {exc}"
            raise GrammarError(msg) from exc
    else:
        msg = f"source must be ABNF text (str) or a path, not {type(source).__name__}"
        raise TypeError(msg)
    for grammar in imports:
        if not isinstance(grammar, Grammar):
            msg = f"imports must be Grammar objects, not {type(grammar).__name__}"
            raise TypeError(msg)
    rules: list[RuleText] = read_rules(text)
    return Grammar(lambda: rules, name=label, imports=imports)
