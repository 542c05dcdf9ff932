"""A template read into literals and expressions through the grammar.

``URI-Template = *( literals / expression )`` (RFC 6570 section 2) is a
repetition, and a regex group inside a repetition keeps only its last
match, so the template is read in two steps, each with a regex the engine
compiles from the grammar (``Grammar.program``, rules kept as groups):

1. ``check("URI-Template", text)``: the whole text, or ``URISyntaxError``
   with the offset and a caret;
2. ``expression``'s regex, searched through the checked text: literals
   contain no ``{`` (section 2.1), so every ``{`` starts an expression and
   the text between two expressions is literals; inside each expression,
   ``varspec``'s regex, searched through its ``variable-list``, gives each
   variable's name and modifier (``varname`` holds no ``,``).

No character of the syntax is written in this module: the groups say what
matched (``op-reserve``, ``max-length``, ``explode``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from ..engine import Grammar
from ..shipped import encode_except, userinfo_secret
from ._errors import ReservedOperatorError
from ._sets import OPERATORS, Operator, uri_chars

__all__ = ["Expression", "Part", "VarSpec", "read_template"]

_TEMPLATE = "URI-Template"
_EXPRESSION = "expression"
_VARSPEC = "varspec"
# The rules whose matches the reader looks at.
_EXPRESSION_GROUPS = ("operator", "op-reserve", "variable-list")
_VARSPEC_GROUPS = ("varname", "max-length", "explode")


class VarSpec(NamedTuple):
    """One ``varspec`` (section 2.3): a name and its modifier (2.4)."""

    name: str
    #: The ``max-length`` of a prefix modifier (section 2.4.1), or ``None``.
    prefix: int | None
    #: Whether the explode modifier ``*`` is given (section 2.4.2).
    explode: bool
    #: Where the varspec starts in the template (for error messages).
    offset: int


class Expression(NamedTuple):
    """One ``expression`` (section 2.2)."""

    operator: Operator
    varspecs: tuple[VarSpec, ...]
    #: The expression's span in the template, braces included.
    start: int
    end: int


#: A part of a template: a literal, as expansion writes it (section 3.1),
#: or an expression.
Part = str | Expression


@cache
def _pattern(
    grammar: Grammar, rule: str, names: tuple[str, ...]
) -> tuple[re.Pattern[str], tuple[int, ...]]:
    """The rule's regex, and the group number of each of ``names``."""
    program = grammar.program(rule, frozenset(names))
    groups = {name: index for index, name in enumerate(program.names, 1)}
    return re.compile(program.source), tuple(groups[name] for name in names)


@cache
def _kept() -> frozenset[str]:
    # The characters a URI can hold as they are ("%" starts a triplet here:
    # the template is valid).
    return uri_chars() | {"%"}


def literal_expansion(text: str) -> str:
    """Section 3.1: a literal character allowed in a URI (``unreserved /
    reserved / pct-encoded``) is copied, any other (``ucschar``,
    ``iprivate``) written as the pct-encoded triplets of its UTF-8 octets."""
    if _kept().issuperset(text):
        return text
    return encode_except(text, uri_chars(), keep_escapes=True)


def _varspecs(grammar: Grammar, text: str, start: int, end: int) -> tuple[VarSpec, ...]:
    pattern, (name_at, length_at, explode_at) = _pattern(grammar, _VARSPEC, _VARSPEC_GROUPS)
    specs = []
    for found in pattern.finditer(text, start, end):
        length = found.group(length_at)
        specs.append(
            VarSpec(
                found.group(name_at),
                None if length is None else int(length),
                found.group(explode_at) is not None,
                found.start(),
            )
        )
    return tuple(specs)


def read_template(grammar: Grammar, text: str) -> tuple[Part, ...]:
    """The parts of ``text``, which must match ``URI-Template`` (else
    ``URISyntaxError``); an expression with a reserved operator raises
    ``ReservedOperatorError`` (section 2.2)."""
    grammar.check(_TEMPLATE, text)
    pattern, (operator_at, reserved_at, list_at) = _pattern(
        grammar, _EXPRESSION, _EXPRESSION_GROUPS
    )
    parts: list[Part] = []
    position = 0
    for found in pattern.finditer(text):
        if found.start() > position:
            parts.append(literal_expansion(text[position : found.start()]))
        if found.group(reserved_at) is not None:
            offset = found.start(reserved_at)
            msg = (
                f"operator {text[offset]!r} at offset {offset} is reserved for future "
                "extensions (RFC 6570 section 2.2): no expansion is defined for it"
            )
            raise ReservedOperatorError(
                msg, rule="op-reserve", text=text, offset=offset, secrets=userinfo_secret
            )
        operator = OPERATORS[found.group(operator_at) or ""]
        specs = _varspecs(grammar, text, found.start(list_at), found.end(list_at))
        parts.append(Expression(operator, specs, found.start(), found.end()))
        position = found.end()
    if position < len(text):
        parts.append(literal_expansion(text[position:]))
    return tuple(parts)
