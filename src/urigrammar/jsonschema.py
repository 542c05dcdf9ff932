"""jsonschema support: the URI family's formats checked by the RFCs' own
rules (``pip install urigrammar[jsonschema]``).

JSON Schema's ``uri``, ``uri-reference``, ``iri``, ``iri-reference`` and
``uri-template`` formats name RFC 3986's ``URI`` and ``URI-reference``,
RFC 3987's ``IRI`` and ``IRI-reference`` and RFC 6570's ``URI-Template``
(JSON Schema Validation 2020-12, sections 7.3.5 to 7.3.7).  urigrammar
checks each with that rule from the RFC's grammar::

    import jsonschema
    from urigrammar.jsonschema import FORMAT_CHECKER

    schema = {"type": "string", "format": "iri"}
    jsonschema.validate("http://例え.jp/ä", schema, format_checker=FORMAT_CHECKER)

``FORMAT_CHECKER`` is jsonschema's own ``FormatChecker()`` (every format it
knows, dates, e-mail addresses and the rest) with these five replaced;
``register(checker)`` replaces them on a checker of yours, and
``format_checker()`` makes a fresh one.  The ``iri`` and
``iri-reference`` checks also refuse a bidirectional formatting character
(``urigrammar.BIDI_FORMATTING``): the ABNF admits them, but RFC 3987
section 4.1 says IRIs MUST NOT contain them, and a format asks whether a
string is a valid IRI (``parse_iri`` and a pydantic ``IRIReference`` field
refuse them too).  A value that is not a string passes, as JSON Schema
says a format applies only to its own type.  A failure's
``ValidationError.cause`` is the ``URISyntaxError``, with its rule and
offset.
"""

from __future__ import annotations

from collections.abc import Callable

from jsonschema import FormatChecker

import urigrammar
from urigrammar.uri._pydantic_schema import FORMATS

__all__ = ["FORMATS", "FORMAT_CHECKER", "format_checker", "register"]


def _checker(rule: str) -> Callable[[object], bool]:
    iri = rule in urigrammar.IRI_PARSE_RULES

    def check(instance: object) -> bool:
        if isinstance(instance, str):
            # Raises URISyntaxError, which jsonschema keeps as the cause;
            # parse_iri also refuses bidi characters (RFC 3987 section 4.1).
            if iri:
                urigrammar.parse_iri(instance, rule)
            else:
                urigrammar.check(rule, instance)
        return True

    check.__name__ = f"is_{rule.lower().replace('-', '_')}"
    check.__doc__ = f"Whether a string matches the rule {rule}; anything else passes."
    return check


def register(checker: FormatChecker) -> FormatChecker:
    """Put urigrammar's checks for the five formats of ``FORMATS`` on
    ``checker``, in place of any it had; returns ``checker``.  A check
    raises ``URISyntaxError`` for an invalid string, which jsonschema
    reports as a ``ValidationError`` whose ``cause`` it is."""
    for name, rule in FORMATS.items():
        checker.checks(name, raises=urigrammar.URISyntaxError)(_checker(rule))
    return checker


def format_checker() -> FormatChecker:
    """A new ``FormatChecker``: jsonschema's default formats, with
    urigrammar's five."""
    return register(FormatChecker())


#: jsonschema's default formats, with urigrammar's ``uri``,
#: ``uri-reference``, ``iri``, ``iri-reference`` and ``uri-template``.
FORMAT_CHECKER = format_checker()
