"""``Record`` and ``Field``: a text and the spans of its slots, in C
(``engine._native``) and in Python (``engine.result.record``), one interface
tested over both."""

from __future__ import annotations

import gc
import sys
import tracemalloc
import weakref
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _budget import examples
from urigrammar.engine.backend.native import record_types
from urigrammar.engine.result import record as _record

NATIVE_RECORD = record_types()

IMPLEMENTATIONS = [pytest.param((_record.Record, _record.Field), id="python")]
if NATIVE_RECORD is not None:
    IMPLEMENTATIONS.insert(0, pytest.param(NATIVE_RECORD, id="c"))

#: The implementations, and the C one's classes through ``untracked``.
KINDS = [pytest.param((*p.values[0], False), id=p.id) for p in IMPLEMENTATIONS]
if NATIVE_RECORD is not None:
    KINDS.insert(1, pytest.param((*NATIVE_RECORD, True), id="c-untracked"))

#: CPython's type flag of a class whose instances the collector tracks.
HAVE_GC = 1 << 14


def three_of(base: type[Any], field: type[Any]) -> type[Any]:
    class Three(base):  # type: ignore[misc, valid-type]
        __slots__ = ()
        first = field(0, "the first slot")
        second = field(1)
        third = field(2)

    return Three


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> tuple[type[Any], type[Any]]:
    """A record class with three fields, and the base pair it was made from."""
    base, field, untracked = request.param
    three = three_of(base, field)
    return (_record.untracked(three) if untracked else three), field


def test_fields_slice_spans_and_give_none_and_constants(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    record = three._make("hello world", ("K",), (0, 5, -1, -1, -2, 0))
    assert (record.first, record.second, record.third) == ("hello", None, "K")
    assert record._values() == ("hello", None, "K")
    assert record._spans() == (0, 5, -1, -1, -2, 0)
    assert record._consts == ("K",)
    assert type(record) is three


def test_str_is_the_text_itself(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    text = "".join(["a", "b:c"])
    record = three._make(text, (), (0, 1, 2, 3, 3, 4))
    assert str(record) is text
    assert record._text is text


def test_a_field_on_the_class_is_the_descriptor_with_its_doc(kind: tuple[type[Any], Any]) -> None:
    three, field = kind
    assert isinstance(three.first, field)
    assert three.first.__doc__ == "the first slot"
    assert three.first.index == 0
    assert three.second.__doc__ is None


def test_a_record_is_immutable(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    record = three._make("ab", (), (0, 1, 1, 2, -1, -1))
    with pytest.raises(AttributeError):
        record.first = "x"
    with pytest.raises(AttributeError):
        record.other = "x"
    assert record.first == "a"


def test_a_record_is_no_sequence(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    record = three._make("ab", (), (0, 1, 1, 2, -1, -1))
    with pytest.raises(TypeError):
        len(record)
    with pytest.raises(TypeError):
        record[0]
    with pytest.raises(TypeError):
        iter(record)


def test_a_subclass_keeps_its_class_and_may_add_attributes(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind

    class Four(three):  # type: ignore[misc, valid-type]
        __slots__ = ()

        @property
        def both(self) -> str:
            return f"{self.first}{self.second}"

    record = Four._make("ab", (), (0, 1, 1, 2, -1, -1))
    assert type(record) is Four
    assert record.both == "ab"


@pytest.mark.parametrize(
    ("spans", "consts"),
    [
        ((0, 3), ()),  # past the text's end
        ((2, 1), ()),  # end before start
        ((-1, 0), ()),  # absent, but an end
        ((-2, 0), ()),  # a constant that is not there
        ((-3, 0), ("K",)),
        ((-2, 1), ("K",)),  # a constant with an end
        ((0, 1, 0), ()),  # not two numbers per slot
    ],
)
def test_make_refuses_spans_outside_the_text_or_constants(
    kind: tuple[type[Any], Any], spans: tuple[int, ...], consts: tuple[str, ...]
) -> None:
    three, _ = kind
    with pytest.raises(ValueError, match="spans"):
        three._make("ab", consts, spans)


@pytest.mark.parametrize(
    "args", [(b"ab", (), (0, 1)), ("ab", [], (0, 1)), ("ab", (), [0, 1]), ("ab", ())]
)
def test_make_takes_a_str_and_two_tuples(kind: tuple[type[Any], Any], args: tuple[Any]) -> None:
    three, _ = kind
    with pytest.raises(TypeError):
        three._make(*args)


def test_a_field_past_the_slots_is_an_attribute_error(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    record = three._make("ab", (), (0, 1))
    assert record.first == "a"
    with pytest.raises(AttributeError):
        _ = record.third


def test_a_field_reads_only_records(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    with pytest.raises(TypeError):
        three.first.__get__(object(), object)


def test_fields_are_no_negative_slots(kind: tuple[type[Any], Any]) -> None:
    _, field = kind
    with pytest.raises(ValueError, match="slot"):
        field(-1)


@given(data=st.data())
@settings(max_examples=examples(100))
@pytest.mark.parametrize("kind_param", IMPLEMENTATIONS)
def test_both_implementations_read_the_same_values(
    kind_param: tuple[type[Any], type[Any]], data: st.DataObject
) -> None:
    text = data.draw(st.text(max_size=20))
    consts = tuple(data.draw(st.lists(st.text(max_size=3), max_size=3)))
    slots = []
    for _ in range(data.draw(st.integers(0, 6))):
        form = data.draw(st.sampled_from(["span", "none", "const"] if consts else ["span", "none"]))
        if form == "span":
            start = data.draw(st.integers(0, len(text)))
            slots.append((start, data.draw(st.integers(start, len(text)))))
        elif form == "none":
            slots.append((-1, -1))
        else:
            slots.append((-2 - data.draw(st.integers(0, len(consts) - 1)), 0))
    spans = tuple(n for slot in slots for n in slot)
    base, _ = kind_param
    record = base._make(text, consts, spans)
    expected = tuple(None if a == -1 else consts[-2 - a] if a < -1 else text[a:b] for a, b in slots)
    assert record._values() == expected
    assert record._spans() == spans
    assert str(record) == text


def test_a_record_is_made_only_by_make(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    with pytest.raises(TypeError):
        three()
    with pytest.raises(TypeError):
        three.__mro__[1]()


def test_a_text_that_is_a_str_subclass_is_kept_as_an_exact_str(
    kind: tuple[type[Any], Any],
) -> None:
    class Loud(str):
        def __hash__(self) -> int:
            return 1

    three, _ = kind
    record = three._make(Loud("abc"), ("K",), (0, 1, -1, -1, -2, 0))
    assert type(record._text) is str
    assert type(str(record)) is str
    assert type(record.first) is str
    assert record._values() == ("a", None, "K")


def test_a_number_past_any_text_is_refused_as_spans_outside_it(
    kind: tuple[type[Any], Any],
) -> None:
    three, _ = kind
    with pytest.raises(ValueError, match="spans"):
        three._make("ab", (), (0, 2**70))


def test_no_attribute_can_be_set_on_a_subclass_with_a_dict(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind

    class Open(three):  # type: ignore[misc, valid-type]
        pass

    record = Open._make("ab", (), (0, 1, 1, 2, -1, -1))
    with pytest.raises(AttributeError):
        record.extra = 1
    with pytest.raises((AttributeError, TypeError)):
        record.__class__ = three


def test_a_subclass_has_no_slots_of_its_own(kind: tuple[type[Any], Any]) -> None:
    three, _ = kind
    for slots in (("extra",), ("__weakref__",)):
        with pytest.raises(TypeError):
            type("Slotted", (three,), {"__slots__": slots})


def test_a_cycle_through_the_constants_is_collected(kind: tuple[type[Any], Any]) -> None:
    # A class statement gives the collector back to a subclass of an
    # untracked class.
    three = type("Tracked", (kind[0],), {"__slots__": ()})
    assert three.__flags__ & HAVE_GC

    class Box:
        record: object = None

    box = Box()
    alive = weakref.ref(box)
    box.record = three._make("abc", (box,), (-2, 0))
    del box
    gc.collect()
    assert alive() is None


def test_untracked_keeps_the_class_and_its_names_on_python_records() -> None:
    three = three_of(_record.Record, _record.Field)
    assert _record.untracked(three) is three


@pytest.mark.skipif(NATIVE_RECORD is None, reason="the extension is not built")
def test_an_untracked_class_is_a_subclass_of_the_same_names_without_the_collector() -> None:
    assert NATIVE_RECORD is not None
    three = three_of(*NATIVE_RECORD)
    names = {name: getattr(three, name) for name in ("__name__", "__qualname__", "__module__")}
    made = _record.untracked(three)
    assert made is not three
    assert made.__bases__ == (three,)
    assert {name: getattr(made, name) for name in names} == names
    assert made.__doc__ == three.__doc__
    # The class statement's namespace is the made class's own; its class
    # is the base, under a private name.
    assert {"first", "second", "third", "__slots__"} <= set(vars(made))
    assert three.__name__ == "_Three"
    assert three.__qualname__ == names["__qualname__"].replace(".Three", "._Three")
    assert three.__flags__ & HAVE_GC
    assert not made.__flags__ & HAVE_GC
    record = made._make("abc", ("K",), (0, 1, -1, -1, -2, 0))
    assert type(record) is made
    assert isinstance(record, three)
    assert not gc.is_tracked(record)
    assert sys.getsizeof(record) < sys.getsizeof(three._make("abc", ("K",), (0, 1, -1, -1, -2, 0)))


@pytest.mark.skipif(NATIVE_RECORD is None, reason="the extension is not built")
def test_records_of_an_untracked_class_and_its_subclasses_are_freed() -> None:
    assert NATIVE_RECORD is not None
    made = _record.untracked(three_of(*NATIVE_RECORD))
    sub = type("Sub", (made,), {"__slots__": ()})
    text = "".join(["ab", "c"])
    consts = ("K",)
    before = sys.getrefcount(text), sys.getrefcount(consts)
    tracemalloc.start()
    try:
        for cls in (made, sub, made):
            records = [cls._make(text, consts, (0, 1, -1, -1, -2, 0)) for _ in range(10_000)]
            assert sys.getrefcount(text) == before[0] + 10_000
            start = tracemalloc.get_traced_memory()[0]
            del records
            assert tracemalloc.get_traced_memory()[0] < start - 10_000 * 40
    finally:
        tracemalloc.stop()
    assert (sys.getrefcount(text), sys.getrefcount(consts)) == before


@pytest.mark.skipif(NATIVE_RECORD is None, reason="the extension is not built")
def test_only_a_class_of_plain_records_is_made_untracked() -> None:
    # Plain records, no finalizer (their release calls none), the
    # metaclass type (the only one a type made from a spec has).
    assert NATIVE_RECORD is not None
    base, _ = NATIVE_RECORD

    class Meta(type):
        pass

    refused = {
        "more than a Record": type("WithDict", (base,), {}),
        "finalizer": type("WithDel", (base,), {"__slots__": (), "__del__": lambda self: None}),
        "metaclass": Meta("WithMeta", (base,), {"__slots__": ()}),
    }
    for why, cls in refused.items():
        with pytest.raises(TypeError, match=why):
            _record.untracked(cls)


@pytest.mark.skipif(NATIVE_RECORD is None, reason="the extension is not built")
def test_records_the_collector_does_not_track_hold_str_constants_only() -> None:
    # Else a constant that refers back to its record would make a cycle the
    # collector cannot see; with the collector, any constant.
    assert NATIVE_RECORD is not None
    base, field = NATIVE_RECORD
    tracked = three_of(base, field)
    made = _record.untracked(three_of(base, field))
    for cls in (base, made):
        with pytest.raises(TypeError, match="constants"):
            cls._make("ab", ("K", 1), (0, 1))
        assert cls._make("ab", ("K",), (-2, 0))._values() == ("K",)
    assert tracked._make("ab", ("K", 1), (-3, 0))._values() == (1,)
