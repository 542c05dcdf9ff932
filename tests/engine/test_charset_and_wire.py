"""Small pieces every program goes through: a character class as a Python
regex (``syntax.charset.CharSet.regex``), the JSON reader of the wire
(``base.wire.loads``), json's C scanner made strict, and a headed file
read from disk a slice at a time (``base.wire.headed_file``).  Each against
an independent oracle: ``re`` and membership for the first, ``json.loads``
for the second, slicing the file's bytes for the third."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urigrammar.engine.base import wire
from urigrammar.engine.syntax.charset import CharSet

LAST = 0x10FFFF

spans = st.lists(
    st.tuples(st.integers(-1, LAST), st.integers(0, 0x3000)).map(
        lambda p: (p[0], min(LAST, p[0] + p[1]))
    ),
    min_size=1,
    max_size=6,
)
# Around the edges of every interval, and anywhere.
probes = st.one_of(st.integers(0, LAST), st.integers(0, 0x300))


@given(spans, st.lists(probes, max_size=30))
def test_a_class_matches_exactly_its_members(
    found: list[tuple[int, int]], codes: list[int]
) -> None:
    chars = CharSet(found)
    pattern = re.compile(chars.regex())
    edges = [c for lo, hi in chars.spans for c in (lo - 1, lo, hi, hi + 1) if 0 <= c <= LAST]
    for code in [*codes, *edges]:
        if 0xD800 <= code <= 0xDFFF:
            continue  # not a str of its own on every platform's re
        assert (pattern.fullmatch(chr(code)) is not None) == (code in chars), hex(code)


def test_a_set_is_spelled_as_its_own_class() -> None:
    # Never as its complement: a negated class tests each range it lists
    # past U+FFFF for every character it matches.
    ucschar = CharSet([(0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF), (0x10000, 0x1FFFD)])
    assert not ucschar.regex().startswith("[^")
    assert CharSet([(-1, -1)]).regex() == "[^\\x00-\\U0010ffff]"  # no character at all


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_the_wire_reads_what_json_writes(value: object) -> None:
    assert wire.loads(wire.compact_json(value)) == value


@given(st.binary(max_size=40))
def test_the_wire_refuses_what_json_refuses(data: bytes) -> None:
    try:
        expected = json.loads(data.decode("ascii"))
    except (ValueError, RecursionError):
        with pytest.raises(ValueError, match="not the expected data"):
            wire.loads(data)
    else:
        # The wire takes no surrounding space, nor NaN and the infinities.
        if data.strip() == data and not re.search(rb"NaN|Infinity", data):
            assert wire.loads(data) == expected


@pytest.mark.parametrize(
    "data",
    [b"NaN", b"[Infinity]", b"-Infinity", b"[1] ", b" [1]", b"[1]x", b"", '["\xe9"]'.encode()],
)
def test_the_wire_refuses_json_that_compact_json_never_writes(data: bytes) -> None:
    with pytest.raises(ValueError, match="not the expected data"):
        wire.loads(data)


def test_the_wire_refuses_nesting_past_the_stack() -> None:
    with pytest.raises(ValueError, match="not the expected data"):
        wire.loads(b"[" * 100_000 + b"]" * 100_000)


def test_a_file_body_is_read_a_slice_at_a_time_as_bytes_slice(tmp_path: Path) -> None:
    # wire.headed_file reads the header line; the body, from the file on
    # each slice, gives what slicing the file's bytes gives.
    body = bytes(range(256)) * 3
    path = tmp_path / "headed"
    path.write_bytes(wire.with_head({"format": 1}, body))
    read = wire.headed_file(path, {"format": 1})
    assert not isinstance(read, str)
    assert read is not None
    head, lazy = read
    assert head == {"format": 1}
    assert len(lazy) == len(body)
    for where in (slice(0, 10), slice(700, 900), slice(5, 5), slice(9, 3), slice(-10, None)):
        assert lazy[where] == body[where]
    with pytest.raises(TypeError):
        lazy[0:10:2]
    assert wire.headed_file(path, {"format": 2}) == "written for another format (1, not 2)"
    assert wire.headed_file(tmp_path / "absent", {"format": 1}) is None
    path.write_bytes(b'{"format": 1}')
    assert wire.headed_file(path, {"format": 1}) == "truncated"


def test_a_file_body_cut_short_is_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "headed"
    path.write_bytes(wire.with_head({}, b"x" * 100))
    read = wire.headed_file(path, {})
    assert read is not None
    assert not isinstance(read, str)
    _, lazy = read
    path.write_bytes(path.read_bytes()[:-50])
    with pytest.raises(ValueError, match="cut short"):
        lazy[40:60]
    path.unlink()
    with pytest.raises(ValueError, match="unreadable"):
        lazy[0:1]
