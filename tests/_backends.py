"""The public functions whose answers depend on the back end, bound to one
(the ``on`` fixture of ``conftest.py``)."""

from __future__ import annotations

from urigrammar import IRIReference, URIReference
from urigrammar.engine import Backend
from urigrammar.engine.backend.native import record_types
from urigrammar.uri._api import Method, api

NATIVE_RECORD = record_types()

#: Whether references are C records (``engine._native.Record``), which the
#: native tagger makes in C: with the extension, unless URIGRAMMAR_PURE
#: made the Python record the default.
C_RECORDS = NATIVE_RECORD is not None and issubclass(URIReference, NATIVE_RECORD[0])


class On:
    """``validate``, ``check``, ``parse`` and ``parse_iri`` on ``backend``,
    with the signatures of the top-level functions."""

    def __init__(self, backend: Backend) -> None:
        functions = api(backend)
        self.backend = backend
        self.api = functions
        self.validate = functions.validate
        self.check = functions.check
        self.parse = functions.parser_for(URIReference)
        self._iri = functions.parser_for(IRIReference)
        self._iri_unscreened = functions.parser_for(IRIReference, screen=False)

    def __repr__(self) -> str:
        return f"On({self.backend.name})"

    def parse_iri(
        self,
        text: str,
        rule: str = "IRI-reference",
        *,
        method: Method = "automata",
        allow_bidi: bool = False,
    ) -> IRIReference:
        parse = self._iri_unscreened if allow_bidi else self._iri
        return parse(text, rule, method=method)
