"""``Value``: the base of the engine's immutable value classes (the IR, the
tables, rules and programs) without ``dataclasses``, whose import (it brings
``inspect``, ``ast`` and ``tokenize``) costs a short process more than its
whole first ``validate``.

A subclass names its fields in ``__slots__`` and sets each once in
``__init__`` through ``_init``; the base gives equality and hashing by
type and fields, a ``repr``, pickling by the fields in slot order (so
``__init__`` takes them in that order), and refuses assignment."""

from __future__ import annotations

from typing import Any

__all__ = ["Value", "exact", "text_of"]


class Value:
    __slots__ = ()

    def _init(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = type(self).__slots__
        return names

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._names())

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"{type(self).__name__} is immutable"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = f"{type(self).__name__} is immutable"
        raise AttributeError(msg)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Value)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((type(self), self._fields()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._names())
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self._fields()


def exact(text: str) -> str:
    """``text`` as an exact ``str`` (a copy of a subclass's characters), so
    that a ``str`` subclass's own methods never become a value's."""
    return text if type(text) is str else str.__str__(text)


def text_of(text: object) -> str:
    """The characters a user's ``text`` holds, as an exact ``str``, or
    ``TypeError`` for anything but a ``str``.  A ``str`` subclass is read
    by its stored characters, as C reads it: its ``__len__``,
    ``__getitem__``, ``__iter__`` or methods may say otherwise, and a
    matcher in Python, a span or an error's excerpt must not see a text
    other than the one C matched."""
    if type(text) is str:
        return text
    if not isinstance(text, str):
        msg = f"text must be str, not {type(text).__name__}"
        raise TypeError(msg)
    return str.__str__(text)
