"""The URI model, on the engine, bottom to top: the value
(``_components``), the shipped grammars (``urigrammar.shipped``), the rule ->
field map (``_visitor``), percent-encoding (``_encode``), parsing and
validation into a given class (``_api``), then the operations on values:
resolution (``_resolve``), normalization and comparison (``_normalize``),
building (``_build``), query pairs (``_query``), paths (``_path``) and
decoded views (``_views``); at the top ``URIReference`` and the public
functions that build it (``_reference``).  Each module imports only modules
below it.  The public names are re-exported by ``urigrammar``."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._components import port_number
    from ._encode import percent_encode
    from ._normalize import Origin, decode_unreserved, lowercase_host

__all__ = ["Origin", "decode_unreserved", "lowercase_host", "percent_encode", "port_number"]

#: What the layers above (the scheme profiles) read of the model, by name,
#: to the module that defines it: imported on first use (PEP 562), so
#: ``import urigrammar.uri`` stays as cheap as it was.
_LAZY: dict[str, str] = {
    "Origin": "._normalize",
    "decode_unreserved": "._normalize",
    "lowercase_host": "._normalize",
    "percent_encode": "._encode",
    "port_number": "._components",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
