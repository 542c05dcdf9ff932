"""Types of the optional C extension (its sources: ``_native_c/``): a DFA
runner and a tagged DFA over classes of code points, built from the bytes
of ``engine.automata.tables``, the C entry in front of validate and parse,
the records parse makes (``engine.result.record`` is their Python twin),
and both DFAs run over Arrow string columns (``columns``; the capsules are
the Arrow PyCapsule interface's)."""

from collections.abc import Callable
from typing import Any, Generic, Literal, TypeVar, final, overload

from typing_extensions import Self

_T = TypeVar("_T")

@final
class Runner:
    def __new__(
        cls, tables: bytes, *, otherwise: Callable[[str], object] | None = None
    ) -> Runner: ...
    def fullmatch(self, text: str, /) -> Literal[True] | None: ...
    def accepts(self, text: str, /) -> bool: ...
    def viable(self, text: str, /) -> int: ...

@final
class Tagger:
    def __new__(
        cls,
        tables: bytes,
        plan: tuple[tuple[object, tuple[tuple[int, object], ...]], ...],
        into: type[Record] | None = None,
    ) -> Tagger: ...
    def parse(self, text: str, /) -> Any: ...
    def tags(self, text: str, /) -> list[int] | None: ...
    def spans(self, text: str, /) -> tuple[int, ...] | None: ...
    @property
    def consts(self) -> tuple[Any, ...]: ...

class Record:
    @classmethod
    def _make(cls, text: str, consts: tuple[Any, ...], spans: tuple[int, ...], /) -> Self: ...
    @property
    def _text(self) -> str: ...
    @property
    def _consts(self) -> tuple[Any, ...]: ...
    def _spans(self) -> tuple[int, ...]: ...
    def _values(self) -> tuple[Any, ...]: ...
    def _slot(self, index: int, /) -> tuple[int, int]: ...

@final
class Field(Generic[_T]):
    index: int
    def __init__(self, index: int, doc: str | None = None) -> None: ...
    @overload
    def __get__(self, record: None, owner: type[Any] | None = None) -> Field[_T]: ...
    @overload
    def __get__(self, record: Record, owner: type[Any] | None = None) -> _T: ...
    def __set__(self, record: Record, value: object) -> None: ...

@final
class Entry:
    def __new__(
        cls,
        table: dict[Any, Any],
        fallback: Callable[..., object],
        default: str | None = None,
        text_only: bool = False,
        by_identity: bool = False,
    ) -> Entry: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

def column_job(
    runner: Runner,
    tagger: Tagger | None,
    fields: tuple[tuple[str, int], ...],
    forbidden: str,
    /,
) -> object: ...
def column_array(job: object, schema: object, array: object, /) -> tuple[object, object]: ...
def column_stream(job: object, stream: object, /) -> object: ...
def array_stream(schema: object, array: object, /) -> object: ...
def normalize_uri(
    record: object,
    slots: tuple[int, ...],
    decode: bytes,
    default_port: int | None,
    empty_path_is_root: bool,
    scheme_based: bool,
    /,
) -> str | None: ...
def uri_normalizer(
    parse: Callable[[str], object],
    slots: bytes,
    decode: bytes,
    rules: dict[str, Any],
    flags: int,
    rule_type: type[Any],
    /,
) -> Callable[[str], Any]: ...
def uri_key(
    parse: Callable[[str], object],
    slots: bytes,
    decode: bytes,
    rules: dict[str, Any],
    flags: int,
    rule_type: type[Any],
    exact: frozenset[str],
    prefixes: tuple[bytes, ...],
    /,
) -> Callable[[str], str | None]: ...
def host_lookup(
    parse: Callable[[str], object], slot: int, table: dict[str, Any], /
) -> Callable[[str], Any]: ...
def key_column(
    key: Callable[[str], str | None], schema: object, array: object, /
) -> tuple[object, object]: ...
