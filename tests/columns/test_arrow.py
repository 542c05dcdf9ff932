"""``urigrammar.arrow``: each row of a column gives what ``validate`` and
``parse`` give for its text, on both back ends, whatever the column's
layout (nulls, offsets, chunks, large and view strings, streams) and
whoever made it (pyarrow, polars, DuckDB, nanoarrow)."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from _oracle import parsed, validated
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import URIError
from urigrammar.arrow import parse_array, validate_array
from urigrammar.engine import Backend, load_grammar
from urigrammar.strategies import from_rule

pa = pytest.importorskip("pyarrow")

TEXTS: list[str | None] = [
    "http://example.com/a?b#c",
    None,
    "",
    "ht tp://x",
    "//user:pw@[::1]:8080/p",
    "http://h:/",  # a port there and empty
    "http://h:000000000000000000000080/",  # a port no int64 holds
    "mailto:a@b",
    "http://é.example/ü?q=ß#ñ",  # not a URI; an IRI
    "http://\u200eexample/",  # an IRI's grammar admits it; parse_iri does not
    "?#",
    "a:" + "%41" * 1500,  # longer than the C runner's read chunk
    "http://例え.テスト/" + "パス" * 1200 + "/#x",
    "\U0001f600",
    "http://a/%zz",
]
RULES = ("URI-reference", "URI", "absolute-URI", "relative-ref", "IRI-reference", "IRI")


def rows(result: Any) -> list[Any]:
    if hasattr(result, "__arrow_c_array__"):
        return pa.array(result).to_pylist()  # type: ignore[no-any-return]
    return pa.chunked_array(result).to_pylist()  # type: ignore[no-any-return]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("kind", ["string", "large_string", "string_view"])
def test_rows_agree_with_validate_and_parse(backend: Backend, rule: str, kind: str) -> None:
    column = pa.array(TEXTS, getattr(pa, kind)())
    assert rows(validate_array(column, rule, backend=backend)) == validated(backend, rule, TEXTS)
    assert rows(parse_array(column, rule, backend=backend)) == parsed(backend, rule, TEXTS)


def test_the_parsed_type(backend: Backend) -> None:
    fields = [("scheme", "userinfo", "host", "port", "path", "query", "fragment")]
    made = pa.array(parse_array(pa.array(["a:b"]), backend=backend))
    assert made.type.names == ["reference", "error_offset"]
    assert made.type.field("reference").type.names == list(fields[0])
    assert made.type.field("error_offset").type == pa.int64()
    assert all(f.type == pa.string() for f in made.type.field("reference").type)
    large = pa.array(parse_array(pa.array(["a:b"], pa.large_string()), backend=backend))
    assert all(f.type == pa.large_string() for f in large.type.field("reference").type)
    assert pa.array(validate_array(pa.array(["a:b"]), backend=backend)).type == pa.bool_()


@pytest.mark.parametrize(
    ("start", "stop"), [(0, 0), (1, 1), (3, 9), (5, len(TEXTS)), (0, len(TEXTS))]
)
def test_sliced_arrays(backend: Backend, start: int, stop: int) -> None:
    column = pa.array(TEXTS).slice(start, stop - start)
    texts = TEXTS[start:stop]
    assert rows(validate_array(column, backend=backend)) == validated(
        backend, "URI-reference", texts
    )
    assert rows(parse_array(column, "IRI-reference", backend=backend)) == parsed(
        backend, "IRI-reference", texts
    )


def test_chunked_arrays_and_streams(backend: Backend) -> None:
    chunked = pa.chunked_array([TEXTS[:4], [], TEXTS[4:9], TEXTS[9:]], pa.string())
    made = validate_array(chunked, backend=backend)
    assert not hasattr(made, "__arrow_c_array__")
    assert rows(made) == validated(backend, "URI-reference", TEXTS)
    # A stream made anew from the column each time it is read.
    assert rows(made) == validated(backend, "URI-reference", TEXTS)
    batches = [pa.record_batch({"u": pa.array(TEXTS[i : i + 3])}) for i in range(0, 15, 3)]
    reader = pa.RecordBatchReader.from_batches(batches[0].schema, batches)
    out = pa.RecordBatchReader.from_stream(parse_array(reader, "URI", backend=backend))
    got = [row for batch in out for row in batch.to_struct_array().to_pylist()]
    assert got == parsed(backend, "URI", TEXTS)


def test_a_table_of_one_column_and_its_nulls(backend: Backend) -> None:
    inner = pa.array(["a:b", "::", None, "c:d"])
    table = pa.StructArray.from_arrays(
        [inner], names=["u"], mask=pa.array([False, False, False, True])
    )
    assert rows(validate_array(table.slice(1), backend=backend)) == [False, None, None]
    two = pa.StructArray.from_arrays([inner, inner], names=["u", "v"])
    with pytest.raises(TypeError, match="strings"):
        validate_array(two, backend=backend)


ILL_FORMED = [
    (b"http://a/\xff", 9),  # a byte no UTF-8 has
    (b"a:\xc0\xaf", 2),  # an overlong "/"
    (b"a:\xed\xa0\x80", 2),  # a surrogate
    (b"a:b\xe2\x82", 3),  # cut short
    (b"\xf4\x90\x80\x80", 0),  # past U+10FFFF
    (b":a\xff", 0),  # stops matching before the ill-formed byte
]


@pytest.mark.parametrize(("raw", "offset"), ILL_FORMED)
def test_ill_formed_utf8_is_a_row_that_does_not_match(
    backend: Backend, raw: bytes, offset: int
) -> None:
    column = pa.array([raw, b"a:b"], pa.binary()).view(pa.string())
    assert rows(validate_array(column, backend=backend)) == [False, True]
    got = rows(parse_array(column, backend=backend))
    assert got[0] == {"reference": None, "error_offset": offset}
    assert got[1]["reference"]["scheme"] == "a"


def test_other_types_and_rules_are_refused(backend: Backend) -> None:
    with pytest.raises(TypeError, match="strings"):
        validate_array(pa.array([1, 2]), backend=backend)
    with pytest.raises(TypeError, match="PyCapsule"):
        validate_array(["a:b"], backend=backend)  # type: ignore[arg-type]
    with pytest.raises(URIError, match="parse_array takes a rule among"):
        parse_array(pa.array(["a"]), "host", backend=backend)
    nested = load_grammar('nested = "(" *( "a" / nested ) ")"\n')
    with pytest.raises(URIError, match="regular"):
        validate_array(pa.array(["(a)"]), "nested", grammar=nested, backend=backend)


def test_any_grammar_validates(backend: Backend) -> None:
    grammar = load_grammar('word = 1*ALPHA "!"\n')
    made = validate_array(
        pa.array(["ab!", "a", None, "é!"]), "word", grammar=grammar, backend=backend
    )
    assert rows(made) == [True, False, None, False]


def test_a_grammar_of_many_classes(backend: Backend) -> None:
    # 140 characters, each allowed at one place only: a DFA of 142 classes
    # of code points, past ASCII, which the native lanes read as bytes
    # past ASCII and run again decoded.
    chars = [chr(0x100 + 2 * i) for i in range(140)]
    grammar = load_grammar("long = " + " ".join(f"%x{ord(c):X}" for c in chars) + ' "!"\n')
    whole = "".join(chars) + "!"
    texts = [whole, whole[:-1], whole[1:], None, "!", whole * 2, whole]
    made = validate_array(pa.array(texts), "long", grammar=grammar, backend=backend)
    assert rows(made) == [True, False, False, None, False, False, True]


def test_an_array_result_is_read_more_than_once(backend: Backend) -> None:
    made = validate_array(pa.array(["a:b", "::"]), backend=backend)
    assert rows(made) == rows(made) == [True, False]
    assert pa.chunked_array(made).to_pylist() == [True, False]  # as a stream


@given(
    st.lists(st.one_of(st.none(), from_rule("URI-reference"), st.text(max_size=30)), max_size=20)
)
def test_property_uri_reference(texts: list[str | None]) -> None:
    from urigrammar.engine import BACKENDS

    column = pa.array(texts, pa.string())
    for backend in BACKENDS:
        assert rows(validate_array(column, backend=backend)) == validated(
            backend, "URI-reference", texts
        )
        assert rows(parse_array(column, backend=backend)) == parsed(backend, "URI-reference", texts)


@given(st.lists(st.one_of(from_rule("IRI"), st.text(max_size=30)), max_size=20))
def test_property_iri(texts: list[str | None]) -> None:
    from urigrammar.engine import BACKENDS

    texts = [t.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for t in texts if t]
    column = pa.array(texts, pa.large_string())
    for backend in BACKENDS:
        assert rows(validate_array(column, "IRI", backend=backend)) == validated(
            backend, "IRI", texts
        )
        assert rows(parse_array(column, "IRI", backend=backend)) == parsed(backend, "IRI", texts)


def _verdict(backend: Backend, rule: str, raw: bytes) -> bool:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False  # ill-formed UTF-8 matches no rule
    return validated(backend, rule, [text])[0] is True


# A byte or character put into a row: ill-formed UTF-8 (0xFF and 0xFE are
# never in it, 0x80 never starts a character), a character past ASCII.
_INSERTS = st.sampled_from([b"\xff", b"\xfe", b"\x80", "é".encode(), "\U0001f600".encode(), b" "])


@given(
    st.lists(
        st.tuples(from_rule("IRI-reference"), st.none() | st.tuples(st.integers(0), _INSERTS)),
        max_size=24,
    ),
    st.sampled_from(["string", "large_string", "string_view"]),
    st.integers(0, 3),
)
def test_property_rows_of_any_bytes(
    rows_made: list[tuple[str, tuple[int, bytes] | None]], kind: str, cut: int
) -> None:
    # Natively, rows run four at a time, a word of eight bytes a step:
    # rows of every length, bytes past ASCII anywhere in a word, and rows
    # at the very end of the column's buffer (a slice's last rows).
    from urigrammar.engine import BACKENDS

    raws = []
    for text, insert in rows_made:
        raw = text.encode("utf-8", "surrogatepass")
        if insert is not None:
            at, piece = insert[0] % (len(raw) + 1), insert[1]
            raw = raw[:at] + piece + raw[at:]
        raws.append(raw)
    binary = pa.array(raws, pa.large_binary() if kind == "large_string" else pa.binary())
    if kind == "string_view":
        column = pa.array(raws, pa.binary()).cast(pa.binary_view()).view(pa.string_view())
    else:
        column = binary.view(pa.large_string() if kind == "large_string" else pa.string())
    column = column.slice(0, max(0, len(raws) - cut))
    kept = raws[: len(column)]
    parses = []
    for backend in BACKENDS:
        for rule in ("URI-reference", "IRI-reference"):
            assert rows(validate_array(column, rule, backend=backend)) == [
                _verdict(backend, rule, raw) for raw in kept
            ]
        # Where a parse stops, the bytes past ASCII decoded as they come.
        parses.append(rows(parse_array(column, "IRI-reference", backend=backend)))
    assert all(parsed == parses[0] for parsed in parses)


def test_the_corpus_and_its_damaged_copies(backend: Backend) -> None:
    from pathlib import Path

    corpus = (Path(__file__).parents[1] / "data" / "real-urls.txt").read_text(encoding="utf-8")
    texts: list[str | None] = []
    for n, line in enumerate(corpus.splitlines()[:600]):
        texts.append(line)
        texts.append(line[: n % (len(line) + 1)] + " é[]%"[n % 5] + line[n % (len(line) + 1) :])
        if n % 7 == 0:
            texts.append(None)
    column = pa.array(texts, pa.large_string())
    for rule in ("URI-reference", "IRI-reference", "absolute-URI"):
        assert rows(validate_array(column, rule, backend=backend)) == validated(
            backend, rule, texts
        )
    assert rows(parse_array(column, backend=backend)) == parsed(backend, "URI-reference", texts)


def test_a_column_long_enough_to_be_shared_among_threads(backend: Backend) -> None:
    # Natively, a column of 65,536 rows or more is validated in shares of
    # at least 32,768 rows on threads of their own; a share's first row is
    # a multiple of 8 from the output's start, which a slice at an odd
    # offset shifts against the input's validity bitmap.
    texts = (TEXTS * 5_000)[3 : 3 + 140_001]
    column = pa.array([None, *texts], pa.string()).slice(1)
    answers = dict(zip(TEXTS, validated(backend, "URI-reference", TEXTS), strict=True))
    expected = [answers[text] for text in texts]
    assert rows(validate_array(column, backend=backend)) == expected
    chunked = pa.chunked_array([column.slice(0, 70_001), column.slice(70_001)])
    assert rows(validate_array(chunked, backend=backend)) == expected


@pytest.mark.parametrize("kind", ["string", "large_string", "string_view"])
def test_a_column_long_enough_to_be_shared_parses_as_each_row_does(
    backend: Backend, kind: str
) -> None:
    # Natively, the rows of a parse are shared among threads as a
    # validation's are, each share writing columns of its own that are
    # joined in row order: every field, the nulls and the error offsets
    # land on their rows, through a slice at an odd offset.
    texts = (TEXTS * 5_000)[5 : 5 + 70_001]
    column = pa.array([None, *texts], getattr(pa, kind)()).slice(1)
    answers = dict(zip(TEXTS, parsed(backend, "IRI-reference", TEXTS), strict=True))
    assert rows(parse_array(column, "IRI-reference", backend=backend)) == [
        answers[text] for text in texts
    ]


@pytest.mark.parametrize("kind", ["string", "large_string", "string_view"])
def test_a_stream_of_no_batch(backend: Backend, kind: str) -> None:
    # A chunked array of no chunk, a table of no batch: a valid stream,
    # whose type is in its schema.
    empty = pa.chunked_array([], getattr(pa, kind)())
    assert rows(validate_array(empty, backend=backend)) == []
    made = pa.chunked_array(parse_array(empty, backend=backend))
    assert made.to_pylist() == []
    wide = kind != "string"
    assert made.type.field("reference").type.field("host").type == (
        pa.large_string() if wide else pa.string()
    )
    table = pa.table({"u": pa.array([], getattr(pa, kind)())}).slice(0, 0)
    assert rows(validate_array(table.combine_chunks().to_reader(), backend=backend)) == []
    with pytest.raises(TypeError, match="strings"):
        rows(validate_array(pa.chunked_array([], pa.int64()), backend=backend))


def test_a_stream_is_pulled_batch_by_batch(backend: Backend) -> None:
    # Each output batch is made when the consumer asks for it, from one
    # input batch pulled then: never the whole stream ahead.
    pulled: list[int] = []

    def batches() -> Any:
        for number in range(4):
            pulled.append(number)
            yield pa.record_batch({"u": pa.array([f"http://h/{number}", "a b"])})

    schema = pa.schema({"u": pa.string()})
    for make in (validate_array, parse_array):
        pulled.clear()
        reader = pa.RecordBatchReader.from_batches(schema, batches())
        capsule = make(reader, backend=backend).__arrow_c_stream__()
        got = []
        for chunk in _chunks(capsule):
            got.append(chunk)
            assert len(pulled) <= len(got) + 1
        assert len(got) == 4
        assert pulled == [0, 1, 2, 3]


def _chunks(capsule: object) -> Any:
    """The batches of a stream capsule, one at a time (nanoarrow reads a
    stream of any type lazily; pyarrow only one of record batches)."""
    na = pytest.importorskip("nanoarrow")

    class Holder:
        def __arrow_c_stream__(self, requested_schema: object = None) -> object:
            return capsule

    with na.ArrayStream(Holder()) as stream:
        yield from stream


def test_a_stream_released_unread_leaves_nothing_behind(backend: Backend) -> None:
    from urigrammar.arrow import _cstream

    column = pa.chunked_array([["a:b"], ["c d"]])
    # A stream an earlier test dropped in a reference cycle would otherwise
    # be collected in the middle of this one, and be counted as released here.
    gc.collect()
    before = (len(_cstream._STATES), len(_cstream._STRUCTS))
    stream = validate_array(column, backend=backend)
    capsule = stream.__arrow_c_stream__()
    del capsule
    assert (len(_cstream._STATES), len(_cstream._STRUCTS)) == before
    assert rows(validate_array(column, backend=backend)) == [True, False]
    assert (len(_cstream._STATES), len(_cstream._STRUCTS)) == before
