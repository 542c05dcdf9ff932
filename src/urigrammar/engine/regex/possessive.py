"""Whether this Python's ``re`` takes possessive quantifiers (``*+``,
``++``, ``?+``, ``{m,n}+``): 3.11 on.  A program keeps its regex in both
forms, and reads this to pick the one ``re`` compiles, without importing
the emitter that wrote them."""

from __future__ import annotations

import sys

__all__ = ["POSSESSIVE"]

POSSESSIVE = sys.version_info >= (3, 11)
