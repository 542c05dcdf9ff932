"""Fuzz the Arrow columns: ``validate_array``, ``parse_array``,
``canonicalize_array`` (whose keys C writes from the rows) and
``host_array`` (whose job captures the host alone, each distinct host
once) over every layout of a string column (string, large_string,
string_view, sliced, chunked, with nulls), rows of any bytes.

Each input chooses what it checks (the rows' verdicts and parses, the
keys, or the hosts) as it chooses the rule, the layout and the rows:
libFuzzer's coverage then tells each check's paths apart, and an input
costs one check's columns, not all three's.  For any rows and layout:
each row of the C column is what the Python column gives, and what
``validate`` and ``parse`` on the pure back end give for the row's text
(null for a null row; a row of ill-formed UTF-8 matches no rule, and does
not parse); each key and each host is the pure back end's.

    python fuzz/fuzz_columns.py -max_total_time=60 fuzz/seeds/columns
"""

from __future__ import annotations

from typing import Any

import atheris
import pyarrow as pa

import urigrammar as u
from _harness import BACKENDS, PURE, run, same
from urigrammar.arrow import (
    PARSED_FIELDS,
    canonicalize_array,
    host_array,
    parse_array,
    validate_array,
)
from urigrammar.uri._api import api

RULES = (*u.PARSE_RULES, *u.IRI_PARSE_RULES)
LAYOUTS = ("string", "large_string", "string_view")
PURE_API = api(PURE)


def rows(result: Any) -> list[Any]:
    if hasattr(result, "__arrow_c_array__"):
        return pa.array(result).to_pylist()  # type: ignore[no-any-return]
    return pa.chunked_array(result).to_pylist()  # type: ignore[no-any-return]


def column_of(raws: list[bytes | None], layout: str, start: int, chunks: int) -> Any:
    """The rows as a column of ``layout``, from row ``start`` on, in
    ``chunks`` pieces (a chunked array when more than one)."""
    binary = pa.array(raws, pa.large_binary() if layout == "large_string" else pa.binary())
    if layout == "string_view":
        column = pa.array(raws, pa.binary()).cast(pa.binary_view()).view(pa.string_view())
    else:
        column = binary.view(pa.large_string() if layout == "large_string" else pa.string())
    column = column.slice(start)
    if chunks <= 1 or len(column) < 2:
        return column
    size = -(-len(column) // chunks)
    return pa.chunked_array([column.slice(at, size) for at in range(0, len(column), size)])


def oracle(rule: str, raw: bytes | None) -> tuple[object, object]:
    """The pure back end's verdict and parse of one row."""
    if raw is None:
        return None, None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False, "ill-formed"
    parse = PURE_API.parser_for(u.IRIReference if rule in u.IRI_PARSE_RULES else u.URIReference)
    try:
        ref = parse(text, rule)
    except u.URISyntaxError as exc:
        return PURE_API.validate(rule, text), {"reference": None, "error_offset": exc.offset}
    fields = {f: getattr(ref, "port_text" if f == "port" else f) for f in PARSED_FIELDS}
    return PURE_API.validate(rule, text), {"reference": fields, "error_offset": None}


def check_rows(column: Any, rule: str, layout: str, kept: list[bytes | None]) -> None:
    """``validate_array`` and ``parse_array`` on each back end, against
    the pure back end a row at a time."""
    expected = [oracle(rule, raw) for raw in kept]
    for backend in BACKENDS:
        verdicts = rows(validate_array(column, rule, backend=backend))
        same(f"{backend.name} {layout} verdicts of {kept!r}", verdicts, [v for v, _ in expected])
        parsed = rows(parse_array(column, rule, backend=backend))
        for row, (_, reading), raw in zip(parsed, expected, kept, strict=True):
            if reading is None:
                same("a null row", row, {"reference": None, "error_offset": None})
            elif isinstance(reading, dict):
                same(f"{backend.name} {layout} parse of {raw!r}", row, reading)
            elif row["reference"] is not None:
                raise AssertionError(f"{backend.name} parsed {raw!r}, which is not UTF-8")


def check_keys(column: Any, rule: str, layout: str, kept: list[bytes | None]) -> None:
    """``canonicalize_array``: the C keys are the pure back end's."""
    keys = [rows(canonicalize_array(column, u.CRAWL_KEY, backend=b)) for b in BACKENDS]
    for backend, found in zip(BACKENDS, keys, strict=True):
        same(f"{backend.name} {layout} keys of {kept!r}", found, keys[-1])


def check_hosts(column: Any, rule: str, layout: str, kept: list[bytes | None]) -> None:
    """``host_array``: the C job's hosts are the pure back end's."""
    hosts = [rows(host_array(column, rule, backend=b)) for b in BACKENDS]
    for backend, found in zip(BACKENDS, hosts, strict=True):
        same(f"{backend.name} {layout} hosts of {kept!r}", found, hosts[-1])


CHECKS = (check_rows, check_keys, check_hosts)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    check = CHECKS[fdp.ConsumeIntInRange(0, len(CHECKS) - 1)]
    rule = RULES[fdp.ConsumeIntInRange(0, len(RULES) - 1)]
    layout = LAYOUTS[fdp.ConsumeIntInRange(0, len(LAYOUTS) - 1)]
    start = fdp.ConsumeIntInRange(0, 2)
    chunks = fdp.ConsumeIntInRange(1, 3)
    raws: list[bytes | None] = []
    for _ in range(fdp.ConsumeIntInRange(0, 9)):
        null = fdp.ConsumeIntInRange(0, 7) == 0
        raws.append(None if null else fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 48)))
    check(column_of(raws, layout, start, chunks), rule, layout, raws[start:])


def warm_up() -> None:
    raws: list[bytes | None] = [b"http://a/b?c#d", None, b"a b", b"\xff", "é".encode()]
    for rule in RULES:
        for layout in LAYOUTS:
            column = column_of(raws, layout, 1, 2)
            for backend in BACKENDS:
                rows(validate_array(column, rule, backend=backend))
                rows(parse_array(column, rule, backend=backend))
                rows(canonicalize_array(column, u.CRAWL_KEY, backend=backend))
                rows(host_array(column, rule, backend=backend))


if __name__ == "__main__":
    run(test_one_input, warm_up)
