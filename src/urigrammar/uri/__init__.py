"""The URI model, on the engine, bottom to top: the value
(``_components``), the shipped grammars (``urigrammar.shipped``), the rule ->
field map (``_visitor``), percent-encoding (``_encode``), parsing and
validation into a given class (``_api``), then the operations on values:
resolution (``_resolve``), normalization and comparison (``_normalize``),
building (``_build``), query pairs (``_query``), paths (``_path``) and
decoded views (``_views``); at the top ``URIReference`` and the public
functions that build it (``_reference``).  Each module imports only modules
below it.  The public names are re-exported by ``urigrammar``."""
