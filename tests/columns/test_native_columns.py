"""The C columns on what could crash them: empty arrays and streams, huge
offsets, capsules used twice or of the wrong kind, and memory over many
columns (what a release callback forgets to free stays in the process)."""

from __future__ import annotations

import gc
import os
import struct
import sys
from pathlib import Path

import _crafted
import pytest

from urigrammar.arrow import parse_array, validate_array
from urigrammar.engine import NATIVE, Backend, column_array, column_job, column_stream

pa = pytest.importorskip("pyarrow")

pytestmark = pytest.mark.skipif(NATIVE is None, reason="the C extension was not built")


def _rows(made: object) -> list[object]:
    if hasattr(made, "__arrow_c_array__"):
        return pa.array(made).to_pylist()  # type: ignore[no-any-return]
    return pa.chunked_array(made).to_pylist()  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", ["string", "large_string", "string_view"])
def test_empty_arrays_and_streams(backend: Backend, kind: str) -> None:
    empty = pa.array([], getattr(pa, kind)())
    assert _rows(validate_array(empty, backend=backend)) == []
    assert _rows(parse_array(empty, backend=backend)) == []
    nothing = pa.chunked_array([], getattr(pa, kind)())
    assert _rows(validate_array(nothing, backend=NATIVE)) == []
    nulls = pa.array([None, None], getattr(pa, kind)())
    assert _rows(validate_array(nulls, backend=backend)) == [None, None]


def test_offsets_past_two_to_the_31(tmp_path: Path) -> None:
    # A sparse file: 2 GiB of data buffer that costs neither memory nor disk.
    at = 2**31 + 5
    path = tmp_path / "sparse"
    with path.open("wb") as file:
        file.seek(at)
        file.write(b"http://h:1/\xc3\xa9")
    data = pa.memory_map(str(path)).read_buffer()
    offsets = pa.py_buffer(
        pa.array([at, at + 11, at + 13, at + 13], pa.int64()).buffers()[1].to_pybytes()
    )
    column = pa.Array.from_buffers(pa.large_string(), 3, [None, offsets, data])
    assert _rows(validate_array(column, backend=NATIVE)) == [True, False, True]
    assert _rows(validate_array(column, "IRI-reference", backend=NATIVE)) == [True, True, True]
    got = _rows(parse_array(column, "IRI-reference", backend=NATIVE))
    assert got[0]["reference"]["port"] == "1"  # type: ignore[index]
    assert got[1]["reference"]["path"] == "é"  # type: ignore[index]


def test_capsules_of_the_wrong_kind_and_used_twice() -> None:
    assert NATIVE is not None
    from urigrammar.shipped import RFC3986

    job = column_job(NATIVE, RFC3986.program("URI"))
    assert job is not None
    column = pa.array(["a:b"])
    schema, array = column.__arrow_c_array__()
    with pytest.raises(ValueError, match="incorrect name"):
        column_array(job, array, array)
    with pytest.raises(ValueError, match="incorrect name"):
        column_array(schema, schema, array)
    stream = pa.chunked_array([column]).__arrow_c_stream__()
    made = column_stream(job, stream)
    with pytest.raises(ValueError, match="taken"):
        column_stream(job, stream)
    del made  # released unread


def test_a_runner_with_otherwise_is_refused() -> None:
    # The rows run the DFA alone, so a runner's otherwise would go unasked.
    from urigrammar.engine.backend import _native
    from urigrammar.shipped import RFC3986

    tables = RFC3986.program("scheme").dfa
    assert tables is not None
    runner = _native.Runner(tables.to_bytes(), otherwise=lambda text: True)
    with pytest.raises(TypeError, match="without otherwise"):
        _native.column_job(runner, None, (), "")
    assert _native.column_job(_native.Runner(tables.to_bytes()), None, (), "") is not None


def _job_of_slots(count: int) -> object:
    # The URI rule's tagger with a plan of `count` slots: the last gives the
    # scheme, the others nothing.
    from urigrammar.shipped import RFC3986
    from urigrammar.uri._visitor import CAPTURES, LEAVES

    tagged = RFC3986.program("URI", CAPTURES, LEAVES)
    assert tagged.names[0] == "scheme"
    plan = (*((None, ()) for _ in range(count - 1)), (None, ((0, None),)))
    fields = (("first", 0), ("last", count - 1))
    assert NATIVE is not None
    return column_job(NATIVE, RFC3986.program("URI"), tagged, plan, fields)


class _Capsules:
    def __init__(self, pair: tuple[object, object]) -> None:
        self.pair = pair

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]:
        return self.pair


@pytest.mark.parametrize("count", [2, 256, 1000])
def test_a_tagger_of_any_number_of_slots_gives_the_fields_slots(count: int) -> None:
    # A row reads only the slots its fields keep, however many the plan has.
    job = _job_of_slots(count)
    assert job is not None
    made = column_array(job, *pa.array(["http://a/b", "no"]).__arrow_c_array__())
    assert pa.array(_Capsules(made)).to_pylist() == [
        {"reference": {"first": None, "last": "http"}, "error_offset": None},
        {"reference": None, "error_offset": 2},
    ]


def test_a_stream_read_in_part_then_dropped() -> None:
    chunks = [pa.array(["a:b"] * 10) for _ in range(5)]
    reader = pa.RecordBatchReader.from_stream(parse_array(pa.chunked_array(chunks), backend=NATIVE))
    assert reader.read_next_batch().num_rows == 10
    del reader


def _rss() -> int:
    with open(f"/proc/{os.getpid()}/statm") as file:
        return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _sanitized() -> bool:
    """Whether AddressSanitizer runs in this process (tox's ``asan`` env):
    it holds freed memory in quarantine, so resident memory grows anyway."""
    maps = Path("/proc/self/maps")
    return maps.exists() and "libasan" in maps.read_text(encoding="utf-8", errors="replace")


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads /proc")
@pytest.mark.skipif(_sanitized(), reason="AddressSanitizer keeps freed memory resident")
def test_no_memory_kept_over_many_columns() -> None:
    column = pa.array(["http://example.com/a/b?c=d#e", "x y", None, "//é"] * 5_000)
    chunked = pa.chunked_array([column] * 3)

    def once() -> None:
        pa.array(validate_array(column, backend=NATIVE))
        pa.array(parse_array(column, "IRI-reference", backend=NATIVE))
        pa.chunked_array(parse_array(chunked, backend=NATIVE))
        validate_array(column, backend=NATIVE)  # made, never read

    for _ in range(5):
        once()
    gc.collect()
    before = _rss()
    for _ in range(40):
        once()
    gc.collect()
    # Each round makes about 5 MB of Arrow buffers: a leak shows as 200 MB.
    assert _rss() - before < 20 * 2**20


def test_the_stream_of_an_array_gives_its_schema_each_time() -> None:
    na = pytest.importorskip("nanoarrow")
    made = parse_array(pa.array(["a:b", None]), backend=NATIVE)
    stream = na.c_array_stream(made)
    first, second = stream.get_schema(), stream.get_schema()
    assert first.format == second.format == "+s"
    assert [child.name for child in second.child(0).children][3] == "port"
    assert sum(batch.length for batch in stream) == 2


def test_threads_pulling_streams_at_once() -> None:
    from concurrent.futures import ThreadPoolExecutor

    texts = ["http://a/b", "x y", None, "//é", "a:" + "b" * 5000] * 200
    chunked = pa.chunked_array([texts[i : i + 97] for i in range(0, len(texts), 97)])
    expected = pa.chunked_array(parse_array(chunked, backend=NATIVE)).to_pylist()
    verdicts = pa.chunked_array(validate_array(chunked, backend=NATIVE)).to_pylist()

    def pull(_: int) -> tuple[list[object], list[object]]:
        return (
            pa.chunked_array(parse_array(chunked, backend=NATIVE)).to_pylist(),
            pa.chunked_array(validate_array(chunked, backend=NATIVE)).to_pylist(),
        )

    with ThreadPoolExecutor(4) as pool:
        for parsed_rows, valid_rows in pool.map(pull, range(16)):
            assert parsed_rows == expected
            assert valid_rows == verdicts


def _verdicts(made: object) -> list[object]:
    return [
        _rows(validate_array(made, backend=NATIVE)),
        [row["error_offset"] for row in _rows(parse_array(made, backend=NATIVE))],  # type: ignore[index]
    ]


def test_a_view_past_its_buffer_is_a_row_that_does_not_match() -> None:
    # The views' buffer sizes are the one length the interface carries:
    # a view reaching past its buffer's is refused, not read.
    views = struct.pack("<iIii", 2**30, 0, 0, 0) + struct.pack("<iIii", 20, 0, 5, 0)
    column = pa.Array.from_buffers(
        pa.string_view(), 2, [None, pa.py_buffer(views), pa.py_buffer(b"http://example.com/a/b")]
    )
    assert _verdicts(column) == [[False, False], [0, 0]]


def test_struct_schema_without_its_child_is_refused() -> None:
    child = _crafted.column(b"u", 1, [None, _crafted.int32s(0, 3), _crafted.raw(b"a:b")])
    made = _crafted.column(b"+s", 1, [None], child=child, child_schema=False)
    with pytest.raises(ValueError, match="without its one child"):
        validate_array(made, backend=NATIVE)


def test_offsets_where_no_buffer_is() -> None:
    # A null data buffer under rows that are not empty, and offsets that
    # decrease or are negative: ill-formed rows, never a read.
    offsets = _crafted.int32s(0, 0, 4, 2, -5, 1)
    made = _crafted.column(b"u", 5, [None, offsets, None])
    assert _verdicts(made) == [[True, False, False, False, False], [None, 0, 0, 0, 0]]


@pytest.mark.parametrize("offset", [2**63 - 1, 2**63 - 2])
def test_an_offset_whose_sum_with_the_length_overflows(offset: int) -> None:
    data = [None, _crafted.int32s(0, 1, 2), _crafted.raw(b"ab")]
    with pytest.raises(ValueError, match="invalid length or offset"):
        validate_array(_crafted.column(b"u", 2, data, offset=offset), backend=NATIVE)
    outer = _crafted.column(
        b"+s", 2**62, [None], offset=offset, child=_crafted.column(b"u", 2, data)
    )
    with pytest.raises(ValueError, match="invalid length or offset"):
        parse_array(outer, backend=NATIVE)


@pytest.mark.parametrize("rows", [1, 70_001])
def test_a_field_whose_constant_is_no_str_is_refused_however_the_rows_are_shared(
    rows: int,
) -> None:
    # A plan may give a field a constant (a host's kind); a column holds
    # strings, so a constant of another type fails the job, with the
    # column cut into shares on threads or not, and leaves nothing behind.
    from urigrammar.shipped import RFC3986
    from urigrammar.uri._visitor import CAPTURES, LEAVES

    tagged = RFC3986.program("URI", CAPTURES, LEAVES)
    assert tagged.names[0] == "scheme"
    assert NATIVE is not None
    job = column_job(NATIVE, RFC3986.program("URI"), tagged, ((None, ((0, 7),)),), (("kind", 0),))
    assert job is not None
    column = pa.array(["no", *["http://a/"] * (rows - 1), "http://a/"])
    with pytest.raises(TypeError, match="a field's constant is not a str"):
        column_array(job, *column.__arrow_c_array__())


# --- distinct columns: a field dictionary encoded as it is written --------------


def _host_fields(column: object, *, distinct: bool) -> object:
    from urigrammar.uri._columns import parse_plan

    assert NATIVE is not None
    job = parse_plan("URI-reference", NATIVE, ("host",), distinct=distinct).job
    assert job is not None
    made = pa.array(_Capsules(column_array(job, *column.__arrow_c_array__())))  # type: ignore[attr-defined]
    return made.field("reference").field("host")


@pytest.mark.parametrize("kind", ["string", "large_string", "string_view"])
def test_a_distinct_field_holds_each_value_once_and_reads_as_the_plain_one(kind: str) -> None:
    # Enough rows for shares on threads (each with a dictionary of its own,
    # merged into the first's) and distinct hosts past the table's first
    # size, through a slice at an odd offset, with nulls and rows that do
    # not parse.
    texts = [
        None if i % 97 == 0 else "a b" if i % 89 == 0 else f"http://H{i % 3001}.Example/{i}"
        for i in range(70_001)
    ]
    column = pa.array([None, *texts], getattr(pa, kind)()).slice(1)
    plain = _host_fields(column, distinct=False)
    encoded = _host_fields(column, distinct=True)
    assert pa.types.is_dictionary(encoded.type)  # type: ignore[attr-defined]
    assert encoded.to_pylist() == plain.to_pylist()  # type: ignore[attr-defined]
    values = encoded.dictionary.to_pylist()  # type: ignore[attr-defined]
    assert sorted(values) == sorted(set(plain.to_pylist()) - {None})  # type: ignore[attr-defined]


def _bytes_hash(value: bytes) -> int:
    """arrow.c's bytes_hash, the hash of a distinct column's table."""
    mask, k = (1 << 64) - 1, 0x9E3779B97F4A7C15
    n = len(value)
    h = ((n + 1) * k) & mask
    if n >= 8:
        for i in range(0, n - 8, 8):
            h = ((h ^ int.from_bytes(value[i : i + 8], "little")) * k) & mask
            h ^= h >> 29
        word = int.from_bytes(value[n - 8 :], "little")
    elif n >= 4:
        word = (int.from_bytes(value[:4], "little") << 32) | int.from_bytes(value[-4:], "little")
    else:
        word = 0 if n == 0 else value[0] | value[n // 2] << 8 | value[n - 1] << 16
    h = ((h ^ word) * k) & mask
    h ^= h >> 32
    h = (h * 0xBF58476D1CE4E5B9) & mask
    return h ^ (h >> 29)


@pytest.mark.skipif(sys.byteorder != "little", reason="the hash reads words little-endian")
def test_values_whose_hashes_crowd_one_place_are_stored_again_not_searched_for() -> None:
    # Forty hosts whose hashes all ask for one place of the table (1,024
    # places, 32 probes a lookup at most): past the 32nd, a host is added
    # to the dictionary again each time it is met, so a lookup never runs
    # long, whatever an adversary's column holds; each row reads its own.
    by_place: dict[int, list[str]] = {}
    crowd: list[str] = []
    i = 0
    while not crowd:
        host = f"c{i}.example"
        same = by_place.setdefault((_bytes_hash(host.encode()) >> 32) & 1023, [])
        same.append(host)
        if len(same) == 40:
            crowd = same
        i += 1
    texts = [f"http://{host}/" for host in crowd * 2]
    encoded = _host_fields(pa.array(texts), distinct=True)
    assert encoded.to_pylist() == crowd * 2  # type: ignore[attr-defined]
    assert len(encoded.dictionary) > len(crowd)  # type: ignore[attr-defined]
