"""Types of the optional C extension (its sources: ``_native_c/``): a DFA
runner and a tagged DFA over classes of code points, from ``_dfa``'s and
``_tagged``'s tables (see ``_backend.pack`` and ``pack_tagged``), and the C
entry in front of validate and parse."""

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
class Tagger:
    def __new__(
        cls,
        ascii: bytes,
        starts: bytes,
        classes: bytes,
        nclasses: int,
        moves: bytes,
        recs: bytes,
        rec_first: bytes,
        rec_source: bytes,
        rec_tagset: bytes,
        keeps: bytes,
        set_first: bytes,
        set_tags: bytes,
        finals: bytes,
        start_tags: bytes,
        ntags: int,
        plan: tuple[tuple[object, tuple[tuple[int, object], ...]], ...],
        into: type[tuple[object, ...]] | None = None,
    ) -> Tagger: ...
    def parse(self, text: str, /) -> tuple[object, ...] | None: ...
    def tags(self, text: str, /) -> list[int] | None: ...

@final
class Entry:
    def __new__(
        cls,
        table: dict[str, Callable[[str], object | None]],
        fallback: Callable[..., object],
        default: str | None = None,
    ) -> Entry: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
