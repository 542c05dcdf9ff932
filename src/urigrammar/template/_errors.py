"""The errors of URI Templates, in urigrammar's one hierarchy (``URIError``).

A template that does not match ``URI-Template`` raises ``URISyntaxError``
like any other rule; these are what the grammar allows but a template
processor refuses (RFC 6570 sections 2.2 and 2.4.1).
"""

from __future__ import annotations

from .._errors import URIError

__all__ = ["ExpansionError", "ReservedOperatorError", "TemplateError"]


class TemplateError(URIError):
    """A template the grammar accepts but that cannot be used as it is."""


class ReservedOperatorError(TemplateError):
    """An expression uses an operator that section 2.2 reserves for future
    extensions (``=``, ``,``, ``!``, ``@``, ``|``): it validates as
    ``URI-Template``, but no expansion is defined for it."""


class ExpansionError(TemplateError):
    """A value the expression cannot expand: a prefix modifier on a list or
    an associative array (section 2.4.1), or a number too large to write."""
