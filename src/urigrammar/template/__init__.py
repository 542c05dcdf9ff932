"""RFC 6570 URI Templates, on top of the URI model (``uri/``).

``_syntax`` reads a template into literals and expressions through the
grammar (``grammar/rfc6570.abnf`` with the erratum overlay), ``_sets`` holds
what each operator does (Appendix A's table) with the character sets read
off the grammar, ``_expand`` expands (section 3), ``_match`` finds where
each expression is in a URI and ``_read`` reads its variables back, and
``_template`` is the public ``URITemplate``.
"""

from __future__ import annotations

from ._errors import ExpansionError, ReservedOperatorError, TemplateError
from ._template import URITemplate

__all__ = ["ExpansionError", "ReservedOperatorError", "TemplateError", "URITemplate"]
