"""A reference as a value: its text plus where each component lies in it.
Not a sequence; read by name or with ``match``; immutable; a subclass
keeps its class through every method that makes a new reference."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings

import urigrammar as u
from _backends import C_RECORDS, On
from _budget import examples
from _references import FIELDS, fields
from urigrammar.strategies import uri_references

TEXT = "https://user:secret@example.com:8443/a/b?q=1#frag"


class MyRef(u.URIReference):
    """A user's subclass, with a property of its own."""

    __slots__ = ()

    @property
    def secure(self) -> bool:
        return self.scheme == "https"


def test_a_reference_is_no_sequence(on: On) -> None:
    ref = on.parse(TEXT)
    assert not isinstance(ref, tuple)
    with pytest.raises(TypeError):
        len(ref)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ref[0]  # type: ignore[index]
    with pytest.raises(TypeError):
        iter(ref)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        ref + ref  # type: ignore[operator]
    with pytest.raises(TypeError):
        _scheme, *_ = ref  # type: ignore[misc]


def test_match_reads_the_fields_by_position_and_by_name(on: On) -> None:
    match on.parse(TEXT):
        case u.URIReference(scheme, userinfo, host, port, path, query, fragment, kind, text):
            assert (scheme, userinfo, host, port) == ("https", "user:secret", "example.com", 8443)
            assert (path, query, fragment, kind, text) == (
                "/a/b",
                "q=1",
                "frag",
                "reg-name",
                "8443",
            )
        case _:
            pytest.fail("a URIReference matches its own class pattern")
    match on.parse("mailto:a@b"):
        case u.URIReference(scheme="https"):
            pytest.fail("the scheme is mailto")
        case u.URIReference(scheme="mailto", host=None, path=path):
            assert path == "a@b"
        case _:
            pytest.fail("keywords match the fields")


def test_fields_are_read_only(on: On) -> None:
    ref = on.parse(TEXT)
    for name in (*FIELDS, "port", "authority"):
        with pytest.raises(AttributeError):
            setattr(ref, name, "x")
    with pytest.raises(AttributeError):
        ref.extra = 1  # type: ignore[attr-defined]
    assert str(ref) == TEXT


@given(text=uri_references())
@settings(max_examples=examples(50))
def test_both_back_ends_make_equal_values_with_equal_hashes(text: str) -> None:
    from urigrammar.engine import BACKENDS
    from urigrammar.uri._api import api

    made = [api(backend).parser_for(u.URIReference)(text) for backend in BACKENDS]
    made.append(u.parse(text, method="abnf"))
    for ref in made:
        assert str(ref) == text
        assert ref == made[0]
        assert hash(ref) == hash(made[0])
        assert fields(ref) == fields(made[0])


def test_a_value_made_from_components_equals_the_parsed_one(on: On) -> None:
    built = u.URIReference(
        scheme="https",
        userinfo="user:secret",
        host="example.com",
        port=8443,
        path="/a/b",
        query="q=1",
        fragment="frag",
    )
    parsed = on.parse(TEXT)
    assert built == parsed
    assert hash(built) == hash(parsed)
    assert str(built) == TEXT
    assert fields(built) == fields(parsed)


def test_a_subclass_keeps_its_class() -> None:
    ref = MyRef(scheme="https", host="example.com", path="/a/b")
    assert type(ref) is MyRef
    assert ref.secure
    made = [
        ref.resolve("../c"),
        ref.normalize(),
        ref.replace(query="x"),
        ref.joinpath("d"),
        ref.add_param("k", "v"),
        MyRef.build(scheme="http", host="h"),
        pickle.loads(pickle.dumps(ref)),
        copy.copy(ref),
        copy.deepcopy(ref),
    ]
    for value in made:
        assert type(value) is MyRef
    assert str(made[0]) == "https://example.com/c"
    assert pickle.loads(pickle.dumps(ref)) == ref


def test_a_subclass_equals_only_its_own_class() -> None:
    mine = MyRef(scheme="https", host="example.com")
    theirs = u.URIReference(scheme="https", host="example.com")
    assert str(mine) == str(theirs)
    assert mine != theirs
    assert theirs != mine


def test_repr_hides_the_password_and_evaluates_back(on: On) -> None:
    ref = on.parse("http://a:b@h/p")
    assert "b@" not in repr(ref)
    assert ":****" in repr(ref)
    clean = on.parse("http://a@h:80/p?q#f")
    assert eval(repr(clean), {"URIReference": u.URIReference}) == clean


def test_a_str_subclass_reads_as_the_same_exact_str(on: On) -> None:
    class Loud(str):
        def __hash__(self) -> int:
            return 1

    ref = on.parse(Loud(TEXT))
    assert type(str(ref)) is str
    assert type(ref.host) is str
    assert ref == on.parse(TEXT)
    assert hash(ref) == hash(on.parse(TEXT))


def test_a_reference_keeps_its_class() -> None:
    with pytest.raises((AttributeError, TypeError)):
        u.parse("http://a").__class__ = u.IRIReference  # type: ignore[assignment]


@pytest.mark.skipif(not C_RECORDS, reason="Python cannot refuse object.__new__")
def test_a_c_reference_has_no_empty_form() -> None:
    with pytest.raises(TypeError):
        object.__new__(u.URIReference)
