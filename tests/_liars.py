"""``str`` subclasses that lie about the characters they hold, and the
outcome of a call in a form two calls compare by.

C reads a ``str`` by the characters it stores; Python code that takes
``len()``, slices, iterates or calls a method of a subclass gets what the
subclass says.  A liar here says it holds ``fake``: through ``__len__``,
``__getitem__`` and ``__iter__``, and, with ``methods``, through the
``str`` methods, ``==``, ``hash``, ``repr``, ``str()``, ``format`` and
``in`` as well.  Every urigrammar entry that takes a text must answer a
liar as it answers the exact ``str`` of its characters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["lying", "outcome"]

_METHODS = (
    "__contains__",
    "__eq__",
    "__format__",
    "__hash__",
    "__ne__",
    "__repr__",
    "__str__",
    "casefold",
    "count",
    "encode",
    "endswith",
    "find",
    "index",
    "isascii",
    "isdigit",
    "lower",
    "partition",
    "removeprefix",
    "replace",
    "rfind",
    "rpartition",
    "rsplit",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "translate",
    "upper",
)


def _as_fake(name: str, fake: str) -> Callable[..., Any]:
    def method(self: str, *args: Any, **kwargs: Any) -> Any:
        return getattr(fake, name)(*args, **kwargs)

    return method


def lying(real: str, fake: str, *, methods: bool = False) -> str:
    """``real`` as an instance of a ``str`` subclass that says it holds
    ``fake``."""
    namespace: dict[str, Any] = {
        "__len__": lambda self: len(fake),
        "__getitem__": lambda self, key: fake[key],
        "__iter__": lambda self: iter(fake),
    }
    if methods:
        namespace.update({name: _as_fake(name, fake) for name in _METHODS})
    liar: type[str] = type("Liar", (str,), namespace)
    return liar(real)


def _plain(value: object) -> object:
    # A str result as its exact characters and its class (a liar's own
    # __str__ or __eq__ must not make two results look alike).
    if isinstance(value, str):
        return (type(value).__name__, str.__str__(value))
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


def outcome(call: Callable[..., object], *args: object) -> tuple[object, ...]:
    """What ``call(*args)`` returns, or the class, message, offset and text
    of what it raises."""
    try:
        value = call(*args)
    except Exception as error:  # any error is an outcome to compare
        text = getattr(error, "text", None)
        return (
            "raises",
            type(error).__name__,
            str(error),
            getattr(error, "offset", None),
            _plain(text),
        )
    return ("returns", _plain(value))
