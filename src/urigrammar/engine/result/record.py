"""``Record`` and ``Field``: a value over a text and the spans of its slots.

A parse finds where each captured rule matched.  A record keeps exactly
that: the text, and two numbers per slot, sliced only when a ``Field``
reads the slot.  Making one allocates no string, and a kept one costs its
two references and its numbers, not a string per slot.

Slot ``i`` is ``spans[2 * i : 2 * i + 2]``:

* ``(start, end)``, both at least 0: ``text[start:end]``;
* ``(-1, -1)``: ``None`` (the slot took no part);
* ``(-2 - k, 0)``: ``consts[k]`` (a value the parse names rather than
  slices, such as the rule that matched).

The native back end's records are the extension's ``Record`` and
``Field`` (``backend.native``): the same interface, with the numbers
packed into the object.  ``record_types`` gives the pair a class should
derive from; this module is the pair used without the extension, or with
``URIGRAMMAR_PURE`` set.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar, overload

from ..backend import native
from ..backend.backend import default_backend
from ..base.value import exact

__all__ = ["Field", "Record", "record_types", "untracked"]

_T = TypeVar("_T")


class Record:
    """A text and the spans of its slots; ``str()`` is the text.
    Immutable: every slot is read through a ``Field``.

    Python slices each slot once, when the record is made (a slice here
    costs what the reading would), and keeps the values beside the spans.
    ``_from_values`` makes a record from values alone, for a caller that
    has them already (the regex reader): its ``_spans()`` is ``None``."""

    __slots__ = ("_state_",)

    # (text, consts, spans or None, value of slot 0, value of slot 1, ...):
    # one flat tuple, the cheapest to build.
    _state_: tuple[Any, ...]

    #: Whether records of the class are read by their slots' spans
    #: (``_slot``): a parse then makes them by ``_make``; else from their
    #: values alone, by the two C calls of ``_raw_makers``
    #: (``backend.pure.reader``).
    _KEEPS_SPANS: ClassVar[bool] = False
    #: (``object.__new__``, the state's setter), set below.
    _raw_makers: ClassVar[tuple[Any, Any]]

    def __new__(cls, *args: object, **kwargs: object) -> Record:
        msg = "a Record is made by _make or by a parse"
        raise TypeError(msg)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # As for the C record, whose instances vary in size: a subclass may
        # have a __dict__, but no slots of its own.
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("__slots__"):
            msg = f"nonempty __slots__ not supported for subtype of {Record.__name__!r}"
            raise TypeError(msg)

    @classmethod
    def _make(cls: type[_R], text: str, consts: tuple[Any, ...], spans: tuple[int, ...]) -> _R:
        """A record of ``cls`` over ``text``; see the module docstring for
        ``spans``.  Checked against the text's length."""
        if (
            not isinstance(text, str)
            or not isinstance(consts, tuple)
            or not isinstance(spans, tuple)
        ):
            msg = "_make takes a str, a tuple and a tuple"
            raise TypeError(msg)
        # A str subclass's own methods must not become the record's.
        text = exact(text)
        consts = tuple(consts)
        if len(spans) % 2:
            msg = "spans: two numbers per slot"
            raise ValueError(msg)
        length = len(text)
        values: list[Any] = []
        for start, end in zip(spans[::2], spans[1::2], strict=True):
            if start >= 0 and start <= end <= length:
                values.append(text[start:end])
            elif start == -1 and end == -1:
                values.append(None)
            elif start < -1 and end == 0 and -2 - start < len(consts):
                values.append(consts[-2 - start])
            else:
                msg = "spans: a slot outside the text or the constants"
                raise ValueError(msg)
        record = _new(cls)
        _set_state(record, (text, consts, spans, *values))
        return record

    @classmethod
    def _from_values(cls: type[_R], text: str, values: tuple[Any, ...]) -> _R:
        """A record of ``cls`` over ``text`` whose slots hold ``values``,
        unchecked: the caller read them from the text."""
        record = _new(cls)
        _set_state(record, (text, (), None, *values))
        return record

    @property
    def _text(self) -> str:
        """The text the slots are spans of."""
        text: str = self._state_[0]
        return text

    @property
    def _consts(self) -> tuple[Any, ...]:
        """The constants a slot may hold."""
        consts: tuple[Any, ...] = self._state_[1]
        return consts

    def _spans(self) -> tuple[int, ...] | None:
        """The numbers ``_make`` took: two per slot (``None`` for a record
        made from its values)."""
        spans: tuple[int, ...] | None = self._state_[2]
        return spans

    def _slot(self, index: int) -> tuple[int, int]:
        """Slot ``index``'s two numbers, as ``_make`` took them."""
        spans = self._state_[2]
        if spans is None or not 0 <= index < len(spans) // 2:
            msg = "the record has no such slot"
            raise IndexError(msg)
        found: tuple[int, int] = spans[2 * index : 2 * index + 2]
        return found

    def _values(self) -> tuple[Any, ...]:
        """Every slot's value, in order."""
        return self._state_[3:]

    def __str__(self) -> str:
        text: str = self._state_[0]
        return text

    def __setattr__(self, name: str, value: object) -> None:
        msg = "the value is immutable"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = "the value is immutable"
        raise AttributeError(msg)


_R = TypeVar("_R", bound=Record)

_new = object.__new__

# The slot's own setter: Record.__setattr__ refuses every assignment.
_set_state = Record.__dict__["_state_"].__set__

#: What a reader calls to make a Python record with its values, two C
#: calls: ``new(cls)``, then ``set_state(record, (text, (), None,
#: *values))`` (``_from_values`` without its frame).
Record._raw_makers = (_new, _set_state)


class Field(Generic[_T]):
    """A descriptor that reads slot ``index`` of a ``Record``."""

    def __init__(self, index: int, doc: str | None = None) -> None:
        if index < 0:
            msg = "a slot index is not negative"
            raise ValueError(msg)
        self.index = index
        self._at = 3 + index  # the value's place in the record's state
        self.__doc__ = doc

    @overload
    def __get__(self, record: None, owner: type[Any] | None = None) -> Field[_T]: ...
    @overload
    def __get__(self, record: Record, owner: type[Any] | None = None) -> _T: ...
    def __get__(self, record: Record | None, owner: type[Any] | None = None) -> Field[_T] | _T:
        if record is None:
            return self
        try:
            found: _T = record._state_[self._at]
        except AttributeError:
            msg = "a Field reads a Record"
            raise TypeError(msg) from None
        except IndexError:
            msg = "the record has no such slot"
            raise AttributeError(msg) from None
        return found

    def __set__(self, record: Record, value: object) -> None:
        msg = "the value is immutable"
        raise AttributeError(msg)


#: What a class's namespace holds that its copy must not take over.
_OWN = frozenset({"__dict__", "__weakref__", "__module__", "__qualname__", "__doc__"})


def untracked(cls: type[_R]) -> type[_R]:
    """``cls``, for records its parses make by the hundred thousand: on
    the native back end a subclass of the same name whose records the
    garbage collector does not track, freed as a ``_native.Record`` is
    (``Record._untracked``); a class statement gives every class the
    collector, whose allocation and release cost about a tenth of a
    parse.  ``cls`` itself for this module's records.

    For a class of the metaclass ``type``, without ``__del__``, whose
    records hold their text and constants that are strings (``_make``
    refuses others), which can be part of no reference cycle.  The
    subclass holds a copy of ``cls``'s namespace (``vars``, ``inspect``
    and ``help`` read it as the class statement's), and ``cls``, its base,
    is renamed ``_`` + its name."""
    make = getattr(cls, "_untracked", None)
    if make is None:
        return cls
    made: type[_R] = make()
    # __module__ first: setting it drops the class's __firstlineno__
    # (Python 3.13), which the copy then brings.
    made.__module__ = cls.__module__
    for name, value in list(vars(cls).items()):
        if name not in _OWN:
            setattr(made, name, value)
    made.__doc__ = cls.__doc__
    made.__name__, made.__qualname__ = cls.__name__, cls.__qualname__
    cls.__name__ = f"_{cls.__name__}"
    cls.__qualname__ = f"{cls.__qualname__.rpartition('.')[0]}._{made.__name__}".lstrip(".")
    return made


def record_types() -> tuple[type[Record], type[Field[Any]]]:
    """The ``Record`` and ``Field`` of the default back end: the C ones on
    the native back end, this module's otherwise.  Decided once, as the
    back end is."""
    found = native.record_types()
    if found is not None and default_backend().native:
        return found
    return Record, Field
