"""Scheme profiles: URIs of one scheme (``urn``, ``http``, ``file``, ...)
checked against that scheme's own RFC grammar and prose, and parsed into
typed values.

Layers, each importing those below: ``_value`` (``SchemeURI``, the value
a profile returns), ``_profile`` (``Profile`` and ``Requirement``),
``_registry`` (``SCHEMES``, ``register_scheme``, ``parse_scheme``), then
one module per scheme, which the registry imports on first lookup.  The
grammars are the shipped layer's (``urigrammar.shipped``).
"""

from __future__ import annotations

from ._profile import Profile, Requirement
from ._registry import SCHEMES, Schemes, parse_scheme, register_scheme
from ._value import SchemeURI

__all__ = [
    "SCHEMES",
    "Profile",
    "Requirement",
    "SchemeURI",
    "Schemes",
    "parse_scheme",
    "register_scheme",
]
