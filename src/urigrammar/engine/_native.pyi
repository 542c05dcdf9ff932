"""Types of the optional C extension (``_native.c``): a DFA runner over
classes of code points, from ``_dfa``'s tables (see ``_runner.pack``)."""

from typing import Literal, final

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
