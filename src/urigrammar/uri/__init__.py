"""The URI model, on the engine: RFC 3986's shipped grammar, references
(``_reference``), the rule -> field map (``_visitor``), parsing and
validation (``_api``), resolution (``_resolve``), normalization and
comparison (``_normalize``), percent-encoding (``_encode``) and building
(``_build``).  The public names are re-exported by ``urigrammar``."""
