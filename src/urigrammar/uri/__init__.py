"""The URI model, on the engine, bottom to top: the value
(``_components``), the shipped grammars (``urigrammar.shipped``), the rule ->
field map (``_visitor``), percent-encoding (``_encode``), parsing and
validation into a given class (``_api``), then the operations on values:
resolution (``_resolve``), normalization and comparison (``_normalize``),
building (``_build``), query pairs (``_query``), paths (``_path``) and
decoded views (``_views``); at the top ``URIReference`` and the public
functions that build it (``_reference``).  Each module imports only modules
below it.  The public names are re-exported by ``urigrammar``; this
package's own names are what the layers above read of the model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._api import TEXT, Api, api, host_lookup, text_front, validate
    from ._components import layout, port_number, recompose
    from ._encode import percent_decode, percent_encode
    from ._normalization import SCHEME_RULES, Normalization
    from ._normalize import (
        KeySteps,
        Origin,
        canonical_ipv6,
        decode_unreserved,
        lowercase_host,
        text_key,
    )
    from ._query import parameter_name
    from ._reference import (
        IRIReference,
        Reference,
        URIReference,
        as_iri,
        normalize,
        parse,
        parse_iri,
        resolve,
        to_uri,
    )
    from ._resolve import remove_dot_segments
    from ._views import HOST_DELIMITERS

__all__ = [
    "HOST_DELIMITERS",
    "SCHEME_RULES",
    "TEXT",
    "Api",
    "IRIReference",
    "KeySteps",
    "Normalization",
    "Origin",
    "Reference",
    "URIReference",
    "api",
    "as_iri",
    "canonical_ipv6",
    "decode_unreserved",
    "host_lookup",
    "layout",
    "lowercase_host",
    "normalize",
    "parameter_name",
    "parse",
    "parse_iri",
    "percent_decode",
    "percent_encode",
    "port_number",
    "recompose",
    "remove_dot_segments",
    "resolve",
    "text_front",
    "text_key",
    "to_uri",
    "validate",
]

#: What the layers above (the scheme profiles, the differential) read of
#: the model, by name, to the module that defines it: imported on first use
#: (PEP 562), so ``import urigrammar.uri`` stays as cheap as it was.
_LAZY: dict[str, str] = {
    "HOST_DELIMITERS": "._views",
    "SCHEME_RULES": "._normalization",
    "TEXT": "._api",
    "Api": "._api",
    "IRIReference": "._reference",
    "KeySteps": "._normalize",
    "Normalization": "._normalization",
    "Origin": "._normalize",
    "Reference": "._reference",
    "URIReference": "._reference",
    "api": "._api",
    "as_iri": "._reference",
    "canonical_ipv6": "._normalize",
    "decode_unreserved": "._normalize",
    "host_lookup": "._api",
    "layout": "._components",
    "lowercase_host": "._normalize",
    "normalize": "._reference",
    "parse": "._reference",
    "parameter_name": "._query",
    "parse_iri": "._reference",
    "percent_decode": "._encode",
    "percent_encode": "._encode",
    "port_number": "._components",
    "recompose": "._components",
    "remove_dot_segments": "._resolve",
    "resolve": "._reference",
    "text_front": "._api",
    "text_key": "._normalize",
    "to_uri": "._reference",
    "validate": "._api",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())
