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

The native back end's records are ``_native.Record`` and ``_native.Field``
(C): the same interface, with the numbers packed into the object.
``record_types`` gives the pair a class should derive from; this module is
the pair used without the extension, or with ``URIGRAMMAR_PURE`` set.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

__all__ = ["Field", "Record", "record_types"]

_T = TypeVar("_T")


class Record:
    """A text and the spans of its slots; ``str()`` is the text.
    Immutable: every slot is read through a ``Field``."""

    __slots__ = ("_consts_", "_spans_", "_text_")

    _text_: str
    _consts_: tuple[Any, ...]
    _spans_: tuple[int, ...]

    @classmethod
    def _make(cls: type[_R], text: str, consts: tuple[Any, ...], spans: tuple[int, ...]) -> _R:
        """A record of ``cls`` over ``text``; see the module docstring for
        ``spans``.  Checked against the text's length; nothing is sliced."""
        if type(text) is not str or type(consts) is not tuple or type(spans) is not tuple:
            msg = "_make takes a str, a tuple and a tuple"
            raise TypeError(msg)
        if len(spans) % 2:
            msg = "spans: two numbers per slot"
            raise ValueError(msg)
        length = len(text)
        for start, end in zip(spans[::2], spans[1::2], strict=True):
            valid = (
                0 <= start <= end <= length
                if start >= 0
                else end == -1
                if start == -1
                else end == 0 and -2 - start < len(consts)
            )
            if not valid:
                msg = "spans: a slot outside the text or the constants"
                raise ValueError(msg)
        record = object.__new__(cls)
        _set_text(record, text)
        _set_consts(record, consts)
        _set_spans(record, spans)
        return record

    @property
    def _text(self) -> str:
        """The text the slots are spans of."""
        return self._text_

    @property
    def _consts(self) -> tuple[Any, ...]:
        """The constants a slot may hold."""
        return self._consts_

    def _spans(self) -> tuple[int, ...]:
        """The numbers ``_make`` took: two per slot."""
        return self._spans_

    def _values(self) -> tuple[Any, ...]:
        """Every slot's value, in order."""
        spans = self._spans_
        return tuple(_value(self, i) for i in range(len(spans) // 2))

    def __str__(self) -> str:
        return self._text_

    def __setattr__(self, name: str, value: object) -> None:
        msg = "the value is immutable"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = "the value is immutable"
        raise AttributeError(msg)


_R = TypeVar("_R", bound=Record)

# The slots' own setters: Record.__setattr__ refuses every assignment.
_set_text = Record.__dict__["_text_"].__set__
_set_consts = Record.__dict__["_consts_"].__set__
_set_spans = Record.__dict__["_spans_"].__set__


def _value(record: Record, index: int) -> Any:
    spans = record._spans_
    start = spans[2 * index]
    if start >= 0:
        return record._text_[start : spans[2 * index + 1]]
    if start == -1:
        return None
    return record._consts_[-2 - start]


class Field(Generic[_T]):
    """A descriptor that reads slot ``index`` of a ``Record``."""

    def __init__(self, index: int, doc: str | None = None) -> None:
        if index < 0:
            msg = "a slot index is not negative"
            raise ValueError(msg)
        self.index = index
        self.__doc__ = doc

    @overload
    def __get__(self, record: None, owner: type[Any] | None = None) -> Field[_T]: ...
    @overload
    def __get__(self, record: Record, owner: type[Any] | None = None) -> _T: ...
    def __get__(self, record: Record | None, owner: type[Any] | None = None) -> Field[_T] | _T:
        if record is None:
            return self
        if not isinstance(record, Record):
            msg = "a Field reads a Record"
            raise TypeError(msg)
        if 2 * self.index >= len(record._spans_):
            msg = "the record has no such slot"
            raise AttributeError(msg)
        found: _T = _value(record, self.index)
        return found

    def __set__(self, record: Record, value: object) -> None:
        msg = "the value is immutable"
        raise AttributeError(msg)


def record_types() -> tuple[type[Record], type[Field[Any]]]:
    """The ``Record`` and ``Field`` of the default back end: the C ones on
    the native back end, this module's otherwise.  Decided once, as the
    back end is."""
    from ._backend import NATIVE_RECORD, default_backend

    if NATIVE_RECORD is not None and default_backend().native:
        return NATIVE_RECORD
    return Record, Field
