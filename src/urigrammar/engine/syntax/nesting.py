"""How deep a grammar's groups nest, checked before the text is read.

The reader (``rulelist``) recurses a few frames for each group (``( )``)
or option (``[ ]``) a rule nests, ``abnf``'s reader of a rule (when its
engine runs one) about fifteen, and the passes over the rules after them
recurse too; past the interpreter's stack they could only fail.  How many
levels fit depends on how deep the caller's own stack already is, so the
limit is a number instead: ``check_nesting`` refuses a text whose groups
and options nest more than ``MAX_NESTING`` deep, at the bracket that opens
the first level too many, before any of that runs.  Grammars nest a few
levels; a part nested deeper can be named as a rule of its own, and a
reference to it is no level (a chain of rules may be as long as wanted).
``MAX_NESTING`` levels leave ``abnf`` room for a caller some 500 frames
deep; deeper than that, ``stack_exhausted`` says so."""

from __future__ import annotations

import re

from ..._errors import GrammarError
from .limits import MAX_NESTING

__all__ = ["MAX_NESTING", "check_nesting", "stack_exhausted"]

# What a bracket may sit in without opening or closing anything (a quoted
# string, a prose value, a comment: each ends with its line at the latest),
# the brackets, and a line break that starts a rule (one not followed by
# white space, which would continue the rule above: RFC 5234 section 4).
# Compiled when a grammar is first read from its text (re's own cache
# keeps them): a process that runs compiled grammars reads none.
_TOKENS = r'"[^"\r\n]*"?|<[^>\r\n]*>?|;[^\r\n]*|[(\[)\]]|(?:\r\n|\r(?!\n)|\n)(?![ \t])'
_BREAKS = r"\r\n|\r|\n"
_RULENAME = r"[A-Za-z][A-Za-z0-9-]*"


def check_nesting(text: str) -> None:
    """``GrammarError`` for an ABNF ``text`` whose groups and options nest
    more than ``MAX_NESTING`` deep; linear in the text, with no recursion."""
    depth = 0
    for token in re.finditer(_TOKENS, text):
        kind = token.group()
        if kind in {"(", "["}:
            depth += 1
            if depth > MAX_NESTING:
                raise _too_deep(text, token.start())
        elif kind in {")", "]"}:
            depth = max(depth - 1, 0)
        elif kind[0] in "\r\n":
            depth = 0  # a new rule: an unclosed bracket above is abnf's to report


def _too_deep(text: str, offset: int) -> GrammarError:
    breaks = [0, *(found.end() for found in re.finditer(_BREAKS, text[:offset]))]
    # The rule: the name that starts the last line above the offset that
    # does not continue the line before it.
    starts = (at for at in reversed(breaks) if text[at : at + 1] not in (" ", "\t"))
    found = re.compile(_RULENAME).match(text, next(starts, 0))
    name = None if found is None else found.group()
    msg = (
        f"groups and options nest more than MAX_NESTING ({MAX_NESTING}) deep"
        f"{'' if name is None else f' in rule {name!r}'}: line {len(breaks)}, "
        f"column {offset - breaks[-1] + 1} opens level {MAX_NESTING + 1}; "
        "name a nested part as a rule of its own (a reference is no level)"
    )
    return GrammarError(msg, rule=name, text=text, offset=offset)


def stack_exhausted() -> GrammarError:
    """The error for a text nested within ``MAX_NESTING`` that could not be
    read for want of stack (by the reader, or by ``abnf``'s, which takes
    about fifteen frames a level): its caller was already deep in its
    own."""
    msg = (
        "reading the grammar's groups and options ran out of Python stack "
        f"(at most MAX_NESTING ({MAX_NESTING}) levels): "
        "load it from a shallower call, or name nested parts as rules of their own"
    )
    return GrammarError(msg)
