"""The URI model, on the engine, bottom to top: the value
(``_components``), the shipped grammars (``urigrammar.shipped``), the rule ->
field map (``_visitor``), percent-encoding (``_encode``), parsing and
validation into a given class (``_api``), then the operations on values:
resolution (``_resolve``), normalization and comparison (``_normalize``),
building (``_build``), query pairs (``_query``), paths (``_path``) and
decoded views (``_views``); at the top ``URIReference`` and the public
functions that build it (``_reference``).  Each module imports only modules
below it.  The public names are re-exported by ``urigrammar``."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._encode import percent_encode

__all__ = ["percent_encode"]


def __getattr__(name: str) -> object:
    # The layers above (schemes) reach this package through its __init__;
    # percent_encode is imported on first use, as urigrammar's own is.
    if name == "percent_encode":
        from ._encode import percent_encode

        return percent_encode
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)
