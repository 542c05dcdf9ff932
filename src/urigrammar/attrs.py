"""attrs and cattrs support (``pip install urigrammar[attrs]``).

cattrs converts between attrs classes and plain data; ``register_hooks``
teaches a ``cattrs.Converter`` the reference classes: a reference
unstructures to its exact text (``str()``, RFC 3986 section 5.3) and
structures from a string with that class's parse function, so the round
trip gives an equal value and never rewrites the text::

    import attrs
    from urigrammar import URIReference
    from urigrammar.attrs import make_converter, validator

    @attrs.frozen
    class Link:
        href: URIReference
        rel: str = attrs.field(default="self", validator=validator("reg-name"))

    converter = make_converter()
    link = converter.structure({"href": "HTTP://Example.COM/a/../b"}, Link)
    converter.unstructure(link)   # {'href': 'HTTP://Example.COM/a/../b', 'rel': 'self'}

A string the class rejects raises ``URISyntaxError`` (a ``ValueError``);
cattrs, with its detailed validation on, gathers it into its
``ClassValidationError`` as it does any ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cattrs

import urigrammar

__all__ = ["make_converter", "register_hooks", "validator"]


def _parsers() -> dict[type[Any], Callable[[str], Any]]:
    """Each public reference class and the function that parses its text."""
    return {
        urigrammar.URIReference: urigrammar.parse,
        urigrammar.IRIReference: urigrammar.parse_iri,
    }


def _structure_with(cls: type[Any], parse: Callable[[str], Any]) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _type: Any) -> Any:
        if isinstance(value, cls):
            return value
        if not isinstance(value, str):
            msg = f"a {cls.__name__} is structured from a str, not {type(value).__name__}"
            raise TypeError(msg)
        return parse(value)

    return structure


def register_hooks(converter: cattrs.Converter) -> cattrs.Converter:
    """Register on ``converter`` the structure hook (a ``str`` parsed into
    the reference class; a value of that class kept; anything else a
    ``TypeError``) and the unstructure hook (``str()``) of each reference
    class; returns ``converter``."""
    for cls, parse in _parsers().items():
        converter.register_structure_hook(cls, _structure_with(cls, parse))
        converter.register_unstructure_hook(cls, str)
    return converter


def make_converter(**options: Any) -> cattrs.Converter:
    """A new ``cattrs.Converter(**options)`` with ``register_hooks`` applied."""
    return register_hooks(cattrs.Converter(**options))


def validator(rule: str) -> Callable[[Any, Any, Any], None]:
    """An attrs field validator: the value, a ``str`` or a reference (by its
    text), must match the rule ``rule`` of any shipped grammar, or
    ``URISyntaxError`` is raised (``TypeError`` for any other type; wrap it
    in ``attrs.validators.optional`` to allow ``None``).  An unknown rule name raises
    ``UnknownRuleError`` here, when the class is defined."""
    urigrammar.rule_source(rule)
    references = tuple(_parsers())

    def check(_instance: Any, _attribute: Any, value: Any) -> None:
        if isinstance(value, references):
            value = str(value)
        elif not isinstance(value, str):
            msg = f"{rule} is checked on a str or a reference, not {type(value).__name__}"
            raise TypeError(msg)
        urigrammar.check(rule, value)

    check.__qualname__ = f"validator({rule!r})"
    return check
