"""urigrammar in Spark, on a local SparkSession: the recipes of docs/guide/columns.md.

``mapInArrow`` hands ``valid_column`` and ``parsed_columns`` each
partition's rows as Arrow record batches, which ``validate_array`` and
``parse_array`` read in C; ``rlike`` runs ``regex(rule, "java")`` in
``java.util.regex``, and ``regexp_extract`` the groups of
``field_regex(rule, "java")``.  The texts are the URL corpus sample
(``tests/data/real-urls.txt``), strings drawn from each rule, each with
one character inserted, deleted or replaced, nulls and an empty string;
each row must give what ``validate``, ``parse`` (``parse_iri`` for
``IRI``) give for its text.

Needs ``pyspark`` (with pyarrow and pandas) and a JDK on PATH or in
JAVA_HOME: ``tox -e spark``, an opt-in env (a JVM's start and Spark's
jobs take over a minute); the other envs skip it.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark")
pa = pytest.importorskip("pyarrow")

from pyspark import cloudpickle  # noqa: E402
from pyspark.sql import DataFrame, SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql.types import LongType, StringType, StructField, StructType  # noqa: E402

import urigrammar  # noqa: E402
from _edits import damaged, drawn  # noqa: E402
from urigrammar.arrow import PARSED_FIELDS, parse_array, validate_array  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / "tests" / "data" / "real-urls.txt").read_text("utf-8").splitlines()
# What damage puts in: every component's delimiters, percent signs, hex
# digits, a space and controls, non-ASCII letters, a non-BMP character.
DAMAGE = ":/?#[]@%-._~aZ09fF \t\x00\x7f\u00e9\u4e00\U0001f600{}|\\"
RULES = ("URI-reference", "IPv6address", "IRI")
PARSE_RULES = ("URI-reference", "IRI")


# --- the columns guide's recipes, verbatim (a test holds the two to each other) ---
RECIPES_START = "\n\n\ndef valid_column("
RECIPES_END = "\n\n\n# --- the session"


def valid_column(
    batches: Iterator[pa.RecordBatch], rule: str = "URI-reference"
) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        yield batch.append_column("valid", pa.array(validate_array(batch["url"], rule)))


def parsed_columns(
    batches: Iterator[pa.RecordBatch], rule: str = "URI-reference"
) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        yield batch.append_column("parsed", pa.array(parse_array(batch["url"], rule)))


REFERENCE = StructType([StructField(field, StringType()) for field in PARSED_FIELDS])
PARSED = StructType().add("reference", REFERENCE).add("error_offset", LongType())


def checked(frame: DataFrame, rule: str = "URI-reference") -> DataFrame:
    # New lists: StructType keeps the list it is given, and add appends to it.
    valid = frame.mapInArrow(
        functools.partial(valid_column, rule=rule),
        StructType([*frame.schema.fields]).add("valid", "boolean"),
    )
    return valid.mapInArrow(
        functools.partial(parsed_columns, rule=rule),
        StructType([*valid.schema.fields]).add("parsed", PARSED),
    ).select("*", "parsed.reference.*", "parsed.error_offset")


def components(frame: DataFrame, rule: str = "URI-reference") -> DataFrame:
    found = urigrammar.field_regex(rule, "java")
    index = {group: i for i, (group, _) in enumerate(found.regex.groups, 1)}
    # At most one of a component's groups takes part, and the others give
    # "": their concatenation is the component ("" when absent or empty).
    return frame.select(
        "*",
        *(
            F.concat(
                *(F.regexp_extract("url", found.pattern, index[group]) for group in groups),
                F.lit(""),
            ).alias(field)
            for field, groups in found.fields.items()
        ),
    )


# --- the session and the texts ---------------------------------------------------


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    if shutil.which("java") is None and "JAVA_HOME" not in os.environ:
        pytest.skip("no java on PATH and no JAVA_HOME")
    module = sys.modules[__name__]
    # The Python workers import neither this module (its functions travel
    # by value) nor anything but what this interpreter has installed.
    cloudpickle.register_pickle_by_value(module)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PYSPARK_PYTHON", sys.executable)
        session = (
            SparkSession.builder.master("local[2]")
            .appName("urigrammar-tests")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate()
        )
        session.sparkContext.setLogLevel("ERROR")
        try:
            yield session
        finally:
            session.stop()
            cloudpickle.unregister_pickle_by_value(module)


@functools.cache
def texts(rule: str) -> tuple[str | None, ...]:
    generated = drawn(rule, 60)
    sample = [*CORPUS, *generated, *damaged([*CORPUS[::10], *generated], rule, DAMAGE), ""]
    # Spark's strings are UTF-8, which cannot carry a lone surrogate.
    kept: list[str | None] = [t for t in sample if not any("\ud800" <= c <= "\udfff" for c in t)]
    kept[::500] = [None] * len(kept[::500])
    return tuple(kept)


def frame_of(spark: SparkSession, rule: str) -> DataFrame:
    rows = list(enumerate(texts(rule)))
    return spark.createDataFrame(rows, "id long, url string").repartition(2)


def collected(frame: DataFrame) -> list[dict[str, Any]]:
    return [row.asDict(recursive=True) for row in frame.orderBy("id").collect()]


def _reference(rule: str, text: str) -> urigrammar.URIReference | urigrammar.IRIReference | int:
    """The parse of ``text``, or the offset where it stops matching."""
    try:
        if rule in urigrammar.PARSE_RULES:
            return urigrammar.parse(text, rule)
        return urigrammar.parse_iri(text, rule, allow_bidi=True)
    except urigrammar.URISyntaxError as exc:
        return exc.offset


def _fields(ref: urigrammar.URIReference | urigrammar.IRIReference) -> dict[str, str | None]:
    return {f: getattr(ref, "port_text" if f == "port" else f) for f in PARSED_FIELDS}


# --- the tests ---------------------------------------------------------------------


def test_the_columns_guide_shows_the_recipes_tested_here() -> None:
    page = (ROOT / "docs" / "guide" / "columns.md").read_text(encoding="utf-8")
    source = Path(__file__).read_text(encoding="utf-8")
    recipes = source.split(RECIPES_START, 1)[1].split(RECIPES_END, 1)[0]
    assert "def components(" in recipes
    assert "def valid_column(" + recipes + "\n" in page


@pytest.mark.parametrize("rule", RULES)
def test_map_in_arrow_and_rlike_agree_with_validate(spark: SparkSession, rule: str) -> None:
    texts_frame = frame_of(spark, rule)
    frame = texts_frame.mapInArrow(
        functools.partial(valid_column, rule=rule),
        StructType([*texts_frame.schema.fields]).add("valid", "boolean"),
    )
    pattern = urigrammar.regex(rule, "java").pattern
    rows = collected(frame.withColumn("matched", F.col("url").rlike(pattern)))
    assert [row["url"] for row in rows] == list(texts(rule))
    want = [None if t is None else urigrammar.validate(rule, t) for t in texts(rule)]
    assert [(r["url"], r["valid"]) for r in rows if r["valid"] != want[r["id"]]][:5] == []
    assert [(r["url"], r["matched"]) for r in rows if r["matched"] != want[r["id"]]][:5] == []
    # Both answers occur, so the agreement says something.
    assert {True, False, None} <= set(want)


@pytest.mark.parametrize("rule", PARSE_RULES)
def test_map_in_arrow_parse_agrees_with_parse(spark: SparkSession, rule: str) -> None:
    rows = collected(checked(frame_of(spark, rule), rule))
    assert [row["url"] for row in rows] == list(texts(rule))
    wrong = []
    for row in rows:
        text = row["url"]
        want: dict[str, Any] = {"valid": None, "error_offset": None, **dict.fromkeys(PARSED_FIELDS)}
        if text is not None:
            ref = _reference(rule, text)
            want["valid"] = urigrammar.validate(rule, text)
            if isinstance(ref, int):
                want["error_offset"] = ref
            else:
                want |= _fields(ref)
        got = {key: row[key] for key in want}
        if got != want:
            wrong.append((text, got, want))
    assert wrong[:5] == []


@pytest.mark.parametrize("rule", PARSE_RULES)
def test_regexp_extract_gives_the_components(spark: SparkSession, rule: str) -> None:
    rows = collected(components(frame_of(spark, rule), rule))
    wrong = []
    for row in rows:
        text = row["url"]
        if text is None:
            want: dict[str, str | None] = dict.fromkeys(PARSED_FIELDS)
        else:
            ref = _reference(rule, text)
            # regexp_extract gives "" for a group that takes no part, and
            # for every group of a text the regex does not match.
            fields = {} if isinstance(ref, int) else _fields(ref)
            want = {f: fields.get(f) or "" for f in PARSED_FIELDS}
        got = {f: row[f] for f in PARSED_FIELDS}
        if got != want:
            wrong.append((text, got, want))
    assert wrong[:5] == []
