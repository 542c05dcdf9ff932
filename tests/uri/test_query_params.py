"""One query parameter: ``add_param``, ``set_param`` and ``remove_param``
change the pieces of one name and leave every other piece of the query as
written; ``get_param`` and ``get_params`` read them, decoded.  Each new
reference reads back (``parse(str(x)) == x``).  The whole query as a list
of pairs: test_query_pairs.py."""

from __future__ import annotations

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

import urigrammar as u
from _references import TEXT, reads_back
from urigrammar.strategies import uri_references


def test_add_keeps_every_other_byte() -> None:
    ref = u.parse("http://h/?flag&q=a+b")
    assert str(ref.add_param("x", "1")) == "http://h/?flag&q=a+b&x=1"
    assert str(u.parse("http://h/").add_param("x", "1")) == "http://h/?x=1"
    assert str(u.parse("http://h/?").add_param("x", "1")) == "http://h/?x=1"
    assert str(u.parse("http://h/?a&").add_param("x", "1")) == "http://h/?a&x=1"
    assert str(u.parse("http://h/").add_param("a&b", "c=d e")) == "http://h/?a%26b=c%3Dd%20e"
    assert str(u.parse("http://h/").add_param("a", "b c", form=True)) == "http://h/?a=b+c"


def test_set_replaces_every_value_at_the_first_place() -> None:
    ref = u.parse("http://h/?a=1&b=2&a=3&c")
    assert str(ref.set_param("a", "9")) == "http://h/?a=9&b=2&c"
    assert str(ref.set_param("z", "9")) == "http://h/?a=1&b=2&a=3&c&z=9"
    assert str(u.parse("?%61=1&a=2").set_param("a", "x")) == "?%61=x"  # name as written
    assert str(u.parse("?q+x=1").set_param("q x", "2", form=True)) == "?q+x=2"


def test_remove_and_get() -> None:
    ref = u.parse("http://h/?a=1&&b=2&a=3&c")
    assert str(ref.remove_param("a")) == "http://h/?&b=2&c"
    assert str(u.parse("http://h/?a=1").remove_param("a")) == "http://h/"
    assert ref.remove_param("zz") is ref
    assert ref.get_param("a") == "1"
    assert ref.get_params("a") == ["1", "3"]
    assert ref.get_param("c") == ""
    assert ref.get_param("zz") is None
    assert ref.get_param("zz", "dflt") == "dflt"
    assert u.parse("?q=a+b").get_param("q") == "a+b"
    assert u.parse("?q=a+b").get_param("q", form=True) == "a b"
    # Another piece that is not UTF-8 does not get in the way.
    assert u.parse("?x=%FF&a=%C3%A9").get_param("a") == "é"
    with pytest.raises(u.URIError):
        u.parse("?x=%FF").get_param("x")
    assert u.parse("?x=%FF").get_param("x", errors="replace") == "\ufffd"
    with pytest.raises(u.URIError):
        u.parse("?x=1").get_param("x", errors="bogus")


def test_param_names_and_values_must_be_str() -> None:
    ref = u.parse("?a=1")
    for call in (
        lambda: ref.add_param(1, "a"),  # type: ignore[arg-type]
        lambda: ref.set_param("a", 1),  # type: ignore[arg-type]
        lambda: ref.remove_param(None),  # type: ignore[arg-type]
        lambda: ref.get_param(b"a"),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()


NAMES = st.text(st.sampled_from("ab=&+% é"), min_size=1, max_size=4)


@given(uri_references(), NAMES, TEXT, st.booleans())
def test_set_then_get(text: str, name: str, value: str, form: bool) -> None:
    ref = u.parse(text)
    try:
        ref.get_params(name, form=form)
    except u.URIError:
        assume(False)  # a value of that name is not UTF-8
    changed = reads_back(ref.set_param(name, value, form=form))
    assert changed.get_params(name, form=form) == [value]
    assert changed.get_param(name, form=form) == value
    removed = reads_back(changed.remove_param(name, form=form))
    assert removed.get_params(name, form=form) == []
    added = reads_back(ref.add_param(name, value, form=form))
    assert added.get_params(name, form=form)[-1] == value
    assert (added.path, added.fragment, added.authority) == (ref.path, ref.fragment, ref.authority)


@example("?x", "x")
@given(uri_references(), NAMES)
def test_other_pieces_stay_as_written(text: str, name: str) -> None:
    ref = u.parse(text)
    pieces = ref.query.split("&") if ref.query is not None else []
    removed = ref.remove_param(name)
    # A query whose every piece went is dropped, "?" and all.
    left = removed.query.split("&") if removed.query is not None else []
    gone = [p for p in pieces if p not in left]
    # Only pieces of that name went, and nothing else was rewritten.
    assert all(u.percent_decode(p.partition("=")[0], errors="replace") == name for p in gone)
    assert set(left) <= set(pieces)
