"""The errors of URI Templates, in urigrammar's one hierarchy (``URIError``).

A template that does not match ``URI-Template`` raises ``URISyntaxError``
like any other rule; these are what the grammar allows but a template
processor refuses (RFC 6570 sections 2.2 and 2.4.1).
"""

from __future__ import annotations

from .._errors import URIError

__all__ = ["ExpansionError", "ReservedOperatorError", "TemplateError"]


class TemplateError(URIError):
    """A template the grammar accepts but that cannot be used as it is.

    >>> import urigrammar
    >>> try: urigrammar.URITemplate("{=x}")
    ... except urigrammar.TemplateError as error: print(type(error).__name__, error.offset)
    ReservedOperatorError 1
    """


class ReservedOperatorError(TemplateError):
    """An expression uses an operator that section 2.2 reserves for future
    extensions (``=``, ``,``, ``!``, ``@``, ``|``): it validates as
    ``URI-Template``, but no expansion is defined for it.

    >>> import urigrammar
    >>> try: urigrammar.URITemplate("{=x}")
    ... except urigrammar.ReservedOperatorError as error: print(error)
    operator '=' at offset 1 is reserved for future extensions ...
      {=x}
       ^
    """


class ExpansionError(TemplateError):
    """A value the expression cannot expand: a prefix modifier on a list or
    an associative array (section 2.4.1), or a number too large to write.

    >>> import urigrammar
    >>> template = urigrammar.URITemplate("{x:3}")
    >>> try: template.expand(x=["a", "b"])
    ... except urigrammar.ExpansionError as error: print(error.message)
    variable 'x' is a list: a prefix modifier applies only to strings (RFC 6570 section 2.4.1)
    """


# Named by the package users import them from, as urigrammar's other
# public errors are (see urigrammar._errors).
for _public in (TemplateError, ReservedOperatorError, ExpansionError):
    _public.__module__ = "urigrammar"
del _public
