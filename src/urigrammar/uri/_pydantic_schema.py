"""How a reference class behaves as a pydantic v2 field type, and the JSON
Schema ``format`` names that belong to rules.

The reference classes carry ``__get_pydantic_core_schema__`` and
``__get_pydantic_json_schema__`` themselves (one-line delegates to this
module), so that a field typed ``URIReference`` needs no wrapper and its
default serializes.  pydantic is never imported here at module level:
``pydantic_core`` is imported inside the functions, which pydantic alone
calls, so ``import urigrammar`` stays free of it.

The value is read with the class's own parse function (``parser_for``)
and written back with ``str()``: exact, never rewritten (RFC 3986 section
5.3).  A ``UrigrammarError`` becomes a ``PydanticCustomError`` whose context holds
the rule and the offset, and the error's own message, in which a userinfo
password is already hidden (section 3.2.1).
"""

from __future__ import annotations

from typing import Any

from .._errors import UrigrammarError
from ._api import parser_for
from ._components import Components

__all__ = [
    "FORMATS",
    "core_schema",
    "default_rule",
    "format_for",
    "is_reference_type",
    "json_schema",
    "pydantic_error",
]

#: JSON Schema's string formats for the URI family (JSON Schema Validation
#: 2020-12, sections 7.3.5 to 7.3.7) and the rule each one names: RFC 3986
#: section 3 and 4.1, RFC 3987 section 2.2, RFC 6570 section 2.  These five
#: and no other rule have a format.
FORMATS = {
    "uri": "URI",
    "uri-reference": "URI-reference",
    "iri": "IRI",
    "iri-reference": "IRI-reference",
    "uri-template": "URI-Template",
}

# Rule names are case-insensitive (RFC 5234 section 2.1).
_FORMAT_OF = {rule.lower(): name for name, rule in FORMATS.items()}


def format_for(rule: str) -> str | None:
    """The JSON Schema ``format`` of values that match ``rule``, or ``None``
    when no format names exactly that rule."""
    return _FORMAT_OF.get(rule.lower())


def is_reference_type(source: object) -> bool:
    """Whether ``source`` (a field's type) is a reference class."""
    return isinstance(source, type) and issubclass(source, Components)


def default_rule(cls: type[Components]) -> str:
    """The rule ``cls``'s parse function reads by default: the one every
    value of the class matches (``URI-reference`` for ``URIReference``,
    ``IRI-reference`` for ``IRIReference``)."""
    return cls.dialect.parse_rules[0]


def pydantic_error(exc: UrigrammarError) -> Exception:
    """``exc`` as a ``PydanticCustomError``: type ``uri_syntax`` when the text
    does not match its rule, ``uri_error`` for any other ``UrigrammarError``; the
    context carries ``rule``, ``offset`` and the (masked) ``message``."""
    from pydantic_core import PydanticCustomError

    from .._errors import URISyntaxError

    kind = "uri_syntax" if isinstance(exc, URISyntaxError) else "uri_error"
    # pydantic fills the template from the context key by key, in order, and
    # rescans what it filled in: with the message last, and given as a
    # value, no brace the message quotes is ever read as a placeholder.
    context = {"rule": exc.rule, "offset": exc.offset, "message": exc.message}
    return PydanticCustomError(kind, "{message}", context)


def core_schema(cls: type[Components], source: Any, handler: Any) -> Any:
    """The pydantic core schema of a ``cls`` field: a ``str`` is parsed with
    ``cls``'s parse function, a ``cls`` value is kept, another reference is
    read again from its text (a URI given for an IRI field, say); anything
    else is a ``uri_type`` error.  Output is ``str()``, in Python mode too:
    ``model_dump()`` gives plain data, and the exact text reads back to an
    equal value."""
    from pydantic_core import PydanticCustomError
    from pydantic_core import core_schema as cs

    parse = parser_for(cls)

    def validate(value: object) -> Components:
        if isinstance(value, cls):
            return value
        if isinstance(value, Components):
            value = str(value)
        if not isinstance(value, str):
            raise PydanticCustomError(
                "uri_type",
                "Input should be a string or a {class_name}",
                {"class_name": cls.__name__},
            )
        try:
            return parse(value)
        except UrigrammarError as exc:
            raise pydantic_error(exc) from None

    serialize = cs.plain_serializer_function_ser_schema(str, when_used="unless-none")
    return cs.no_info_plain_validator_function(validate, serialization=serialize)


def json_schema(cls: type[Components], schema: Any, handler: Any) -> dict[str, Any]:
    """The JSON Schema of a ``cls`` field: a string, with the ``format`` of
    the class's default rule (``uri-reference`` for ``URIReference``)."""
    found: dict[str, Any] = {"type": "string"}
    name = format_for(default_rule(cls))
    if name is not None:
        found["format"] = name
    return found
