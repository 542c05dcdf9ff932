"""The URL function family over columns (``host_array``,
``component_array``, ``registrable_domain_array``, ``parameter_array``,
``canonicalize_array``, ``surt_array``, ``lint_array``...): each row gives
what the row function gives for the reference the row's text parses to,
on the same back end, and a null for a null row or one that does not
parse; whatever the column's layout (chunks, streams, large strings)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from urigrammar import (
    CRAWL_KEY,
    IRI_PARSE_RULES,
    IRIReference,
    URIReference,
    URISyntaxError,
    canonicalize,
    lint,
    normalize,
    surt,
)
from urigrammar import arrow as ua
from urigrammar.engine import BACKENDS, Backend
from urigrammar.strategies import from_rule
from urigrammar.uri._api import api

pa = pytest.importorskip("pyarrow")

TEXTS: list[str | None] = [
    "HTTP://WWW.Ex%41mple.co.uk:80/a/../b?utm_source=x&q=1&q=2#f",
    None,
    "ht tp://not a reference",
    "http://B%C3%BCcher.Example/?%71=%E2%82%AC&q",
    "http://Bücher.EXAMPLE/ü?q=ß#ñ",
    "https://[::A:0:0:1]:443/?q=%FF",
    "http://192.0.2.1/x",
    "http://%31.2.3.4/",
    "mailto:a@b",
    "//user:pw@host.example:/p?a=1&&b",
    "?q=1",
    "",
    "http://h.example./?utm_campaign=a&gclid=b",
    # Hosts written as above, under another scheme or none: a host's
    # normal form is its text's alone.
    "ftp://B%C3%BCcher.Example/x",
    "//Bücher.EXAMPLE",
    "HTTP://[::A:0:0:1]/",
]

Row = Callable[[Any], object]


def rows(result: Any) -> list[Any]:
    if hasattr(result, "__arrow_c_array__"):
        return pa.array(result).to_pylist()  # type: ignore[no-any-return]
    return pa.chunked_array(result).to_pylist()  # type: ignore[no-any-return]


def row_answers(backend: Backend, rule: str, texts: list[str | None], row: Row) -> list[object]:
    """The oracle: the row function, a text at a time, on ``backend``."""
    cls = IRIReference if rule in IRI_PARSE_RULES else URIReference
    parse = api(backend).parser_for(cls)
    answers: list[object] = []
    for text in texts:
        try:
            ref = None if text is None else parse(text, rule)
        except URISyntaxError:
            ref = None
        answers.append(None if ref is None else row(ref))
    return answers


#: Each function of the family with its row function.
FAMILY: dict[str, tuple[Callable[..., Any], Row]] = {
    "host": (ua.host_array, lambda ref: normalize(ref).host),
    "port": (lambda c, r, **k: ua.component_array(c, "port", r, **k), lambda ref: ref.port_text),
    "query": (lambda c, r, **k: ua.component_array(c, "query", r, **k), lambda ref: ref.query),
    "scheme": (lambda c, r, **k: ua.component_array(c, "scheme", r, **k), lambda ref: ref.scheme),
    "parameter": (
        lambda c, r, **k: ua.parameter_array(c, "q", r, **k),
        lambda ref: ref.get_param("q", errors="replace"),
    ),
    "parameter names": (
        ua.parameter_names_array,
        lambda ref: [name for name, _ in ref.query_pairs(errors="replace")],
    ),
    "canonical key": (
        lambda c, r, **k: ua.canonicalize_array(c, CRAWL_KEY, r, **k),
        lambda ref: canonicalize(ref, CRAWL_KEY),
    ),
    "surt": (lambda c, r, **k: ua.surt_array(c, None, r, **k), surt),
    "lint codes": (ua.lint_array, lambda ref: [finding.code for finding in lint(ref)]),
}

RULES = ("IRI-reference", "URI-reference", "URI")


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", sorted(FAMILY))
def test_each_function_agrees_with_its_row_function(backend: Backend, name: str, rule: str) -> None:
    function, row = FAMILY[name]
    made = rows(function(pa.array(TEXTS, pa.string()), rule, backend=backend))
    assert made == row_answers(backend, rule, TEXTS, row)


@pytest.mark.parametrize("count", [1, 4, 5, 12])
def test_hosts_that_normalize_reads_are_each_read_from_a_row_of_their_own(
    backend: Backend, count: int
) -> None:
    # A host of ASCII without "%" only changes case; any other is read by
    # normalize from a row holding it, found one host at a time or for all
    # at once: either way each row gets its own host's normal form.
    spelled = ["B%C3%BCcher", "Bücher", "%41bc", "Xn--Bcher-Kva", "Ñandú", "A%2eb"]
    hosts = [f"{spelled[i % 6]}{i}.Example" for i in range(count)]
    texts: list[str | None] = [
        f"http://{hosts[(7 * i) % count]}/{i}" if i % 3 else f"http://Plain{i % 5}.EXAMPLE/"
        for i in range(40)
    ]
    texts[5] = None
    expected = row_answers(backend, "IRI-reference", texts, lambda ref: normalize(ref).host)
    assert rows(ua.host_array(pa.array(texts), backend=backend)) == expected


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_chunks_streams_and_large_strings_give_the_same_rows(backend: Backend, name: str) -> None:
    function, row = FAMILY[name]
    expected = row_answers(backend, "IRI-reference", TEXTS * 2, row)
    chunked = pa.chunked_array([TEXTS, TEXTS], pa.large_string())
    assert rows(function(chunked, "IRI-reference", backend=backend)) == expected
    table = pa.table({"u": chunked})
    assert rows(function(table.to_reader(max_chunksize=5), "IRI-reference", backend=backend)) == (
        expected
    )


@given(
    st.lists(
        st.one_of(st.none(), from_rule("IRI-reference"), from_rule("URI"), st.text(max_size=20)),
        max_size=12,
    )
)
@example(["http://%41%e2%82%ac.%43om/", "http://Ab.C/", "http://[V1.A]/"])
def test_property_every_function_on_both_back_ends(texts: list[str | None]) -> None:
    texts = [
        None if t is None else t.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        for t in texts
    ]
    column = pa.array(texts, pa.string())
    for backend in BACKENDS:
        for function, row in FAMILY.values():
            made = rows(function(column, "IRI-reference", backend=backend))
            assert made == row_answers(backend, "IRI-reference", texts, row)


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.name)
def test_a_process_that_imported_only_pyarrow_runs_every_function(backend: Backend) -> None:
    # In this process some other test has imported pyarrow.compute long
    # ago; a user's process may have imported pyarrow alone, and no pandas
    # (which imports pyarrow.compute): pandas is kept out here.
    code = (
        "import sys\n"
        "class NoPandas:\n"
        "    def find_spec(self, name, *args):\n"
        "        if name.partition('.')[0] == 'pandas':\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, NoPandas())\n"
        "import pyarrow as pa\n"
        "from urigrammar import arrow as ua\n"
        "from urigrammar.engine import BACKENDS\n"
        f"backend = next(b for b in BACKENDS if b.name == {backend.name!r})\n"
        "column = pa.array(['HTTP://WWW.Example.COM:80/a?b=1#c', None, 'a b'])\n"
        "print(pa.array(ua.host_array(column, backend=backend)).to_pylist())\n"
        "print(pa.array(ua.component_array(column, 'port', backend=backend)).to_pylist())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["['www.example.com', None, None]", "['80', None, None]"]


def test_other_components_and_types_are_refused() -> None:
    with pytest.raises(ValueError, match="component must be one of"):
        ua.component_array(pa.array(["a:b"]), "authority")
    with pytest.raises(TypeError, match="Arrow column of strings"):
        rows(ua.host_array(pa.array([1, 2])))
    with pytest.raises(TypeError, match="PyCapsule"):
        ua.host_array(["http://a/"])


class TestPublicSuffixes:
    """The suffix functions, which need the Public Suffix List."""

    @pytest.fixture(autouse=True)
    def _psl(self) -> None:
        pytest.importorskip("publicsuffixlist")

    @pytest.mark.parametrize("private", [True, False])
    def test_they_agree_with_the_row_functions(self, backend: Backend, private: bool) -> None:
        from urigrammar import public_suffix, registrable_domain

        column = pa.array(TEXTS, pa.string())
        for function, row in (
            (ua.registrable_domain_array, registrable_domain),
            (ua.public_suffix_array, public_suffix),
        ):
            made = rows(function(column, private=private, backend=backend))
            assert made == row_answers(
                backend, "IRI-reference", TEXTS, lambda ref, r=row: r(ref, private=private)
            )

    def test_every_corpus_host_as_the_row_function_reads_it(self, backend: Backend) -> None:
        from urigrammar import registrable_domain

        corpus = (Path(__file__).parents[1] / "data" / "real-urls.txt").read_text("utf-8")
        texts: list[str | None] = list(corpus.splitlines()[::4])
        made = rows(ua.registrable_domain_array(pa.array(texts), backend=backend))
        assert made == row_answers(backend, "IRI-reference", texts, registrable_domain)
        assert sum(name is not None for name in made) > len(texts) * 0.9


def test_keys_read_every_string_layout(backend: Backend) -> None:
    # The native back end writes keys straight from the column's buffers:
    # offsets of a slice, large offsets, views, nulls.
    texts = TEXTS * 3
    _, row = FAMILY["canonical key"]
    for kind in (pa.string(), pa.large_string(), pa.string_view()):
        column = pa.array(texts, kind)
        for start in (0, 3):
            made = rows(ua.canonicalize_array(column.slice(start), CRAWL_KEY, backend=backend))
            assert made == row_answers(backend, "IRI-reference", texts[start:], row)


def test_the_key_column_takes_a_c_key_only(backend: Backend) -> None:
    from urigrammar.engine import key_column
    from urigrammar.hygiene import c_key

    key = c_key(CRAWL_KEY, backend)
    if key is None:
        pytest.skip("the pure back end writes keys in Python")
    column = pa.array(["HTTP://A:80/?b&a#f", "http://ä/", None])
    made = pa.array(ua.ArrowColumn(lambda: key_column(key, *column.__arrow_c_array__()), None))
    assert made.to_pylist() == ["http://a/?a&b", None, None]  # the IRI is Python's
    with pytest.raises(TypeError, match="key function"):
        key_column(str.upper, *column.__arrow_c_array__())


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_rows_of_ill_formed_utf8_are_nulls(backend: Backend, name: str) -> None:
    # A row whose UTF-8 is ill-formed is no text: it matches no rule, so
    # each function gives a null there, as parse_array does, and no error.
    function, row = FAMILY[name]
    raws = [b"\xff", b"http://a/?q=1", b"http://\xc3\xa4/", b"http://a/\xff", None]
    column = pa.array(raws, pa.binary()).view(pa.string())
    texts = [None if raw is None or b"\xff" in raw else raw.decode() for raw in raws]
    made = rows(function(column, "IRI-reference", backend=backend))
    assert made == row_answers(backend, "IRI-reference", texts, row)
