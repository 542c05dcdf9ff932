"""Types of the optional C extension (``_native.c``): a DFA runner over
classes of code points, from ``_dfa``'s tables (see ``_runner.pack``)."""

from collections.abc import Callable
from typing import Any, Literal, final

@final
class Runner:
    def __new__(
        cls,
        ascii: bytes,
        starts: bytes,
        classes: bytes,
        moves: bytes,
        accepting: bytes,
        nclasses: int,
        start: int,
    ) -> Runner: ...
    def fullmatch(self, text: str, /) -> Literal[True] | None: ...
    def accepts(self, text: str, /) -> bool: ...
    def viable(self, text: str, /) -> int: ...

@final
class Entry:
    def __new__(
        cls, table: dict[str, Callable[[str], object | None]], fallback: Callable[..., object]
    ) -> Entry: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
