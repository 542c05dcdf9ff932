"""What each row of a column must give: ``validate``, ``parse`` and
``parse_iri`` on the same back end, a text at a time."""

from __future__ import annotations

from typing import Any

from urigrammar import IRI_PARSE_RULES, IRIReference, URIReference, URISyntaxError
from urigrammar.arrow import PARSED_FIELDS
from urigrammar.engine import Backend
from urigrammar.uri._api import api


def validated(backend: Backend, rule: str, texts: list[str | None]) -> list[bool | None]:
    validate = api(backend).validate
    return [None if text is None else validate(rule, text) for text in texts]


def parsed(backend: Backend, rule: str, texts: list[str | None]) -> list[dict[str, Any]]:
    cls = IRIReference if rule in IRI_PARSE_RULES else URIReference
    parse = api(backend).parser_for(cls)
    rows: list[dict[str, Any]] = []
    for text in texts:
        if text is None:
            rows.append({"reference": None, "error_offset": None})
            continue
        try:
            ref = parse(text, rule)
        except URISyntaxError as exc:
            rows.append({"reference": None, "error_offset": exc.offset})
            continue
        values = {f: getattr(ref, "port_text" if f == "port" else f) for f in PARSED_FIELDS}
        rows.append({"reference": values, "error_offset": None})
    return rows
