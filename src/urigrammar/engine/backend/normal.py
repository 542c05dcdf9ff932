"""RFC 3986's normalization of a reference's text (section 6), in C on the
native back end (``_native_c/normal.c``, and ``canonical.c`` for the keys
built on it); the URI model's Python is the pure back end's, and the C
one's reference in the tests.  The model says which slot of its records
holds which component, which octets are decoded (the grammar's
``unreserved``) and what each scheme's rule is.

Three ways in: ``uri_normalizer`` normalizes a record's text under any
options; ``text_normalizer`` makes a function that parses a text,
normalizes it and parses the result, under options fixed when it is made
(what it reads the text with is a ``TextReading``);
``text_key`` one that writes a text's key (``urigrammar.canonicalize``).
Beside them, ``host_lookup`` reads a text's host in C to look a value up
by it (``_native_c/lookup.c``).
The made functions answer ``None`` wherever Python must: a text that is no
URI-reference, a scheme rule C does not read, an IPv6 host whose RFC 5952
form is asked for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from . import native
from .backend import Backend

__all__ = [
    "KeySteps",
    "NormalizeUri",
    "TextReading",
    "host_lookup",
    "key_column",
    "text_key",
    "text_normalizer",
    "uri_normalizer",
]

# The options of a made function, as the bits C reads (normal.h,
# canonical.c): section 6.2.3's steps; an IPv6 host left to Python (RFC
# 5952's form); the key's fragment dropped, query sorted, empty query
# dropped.
_SCHEME_BASED = 1
_IPV6_CANONICAL = 2
_DROP_FRAGMENT = 4
_SORT_QUERY = 8
_DROP_EMPTY_QUERY = 16


class NormalizeUri(Protocol):
    """``normalize_uri(record, slots, decode, default_port,
    empty_path_is_root, scheme_based)``: the normal text of an ASCII
    record, else ``None``."""

    def __call__(
        self,
        record: object,
        slots: tuple[int, ...],
        decode: bytes,
        default_port: int | None,
        empty_path_is_root: bool,
        scheme_based: bool,
        /,
    ) -> str | None: ...


def _module(backend: Backend) -> Any:
    """The extension where ``backend`` runs C, else ``None``."""
    return native.MODULE if backend.native else None


def uri_normalizer(backend: Backend) -> NormalizeUri | None:
    """The C normalization on ``backend``, or ``None`` where it runs in
    Python (the pure back end)."""
    module = _module(backend)
    if module is None:
        return None
    found: NormalizeUri = module.normalize_uri
    return found


@dataclass(frozen=True, slots=True)
class TextReading:
    """What a made function reads a text with: ``parse`` is the C parse of
    URI-reference into a record class (``slots`` names the slots of its
    seven components), ``decode`` the octets decoded (128 bytes),
    ``rules`` the scheme rules, looked up on each call (a rule of
    ``rule_type``, an immutable type, that they hold when the function is
    made is read then); ``scheme_based`` and ``ipv6_canonical`` are
    ``Normalization``'s."""

    parse: Callable[[str], Any]
    slots: bytes
    decode: bytes
    rules: dict[str, Any]
    rule_type: type[Any]
    scheme_based: bool
    ipv6_canonical: bool

    def arguments(self, steps: KeySteps | None = None) -> tuple[Any, ...]:
        """The arguments C's makers take first, the flags with ``steps``'s."""
        flags = (_SCHEME_BASED if self.scheme_based else 0) | (
            _IPV6_CANONICAL if self.ipv6_canonical else 0
        )
        if steps is not None:
            flags |= (
                (_DROP_FRAGMENT if steps.drop_fragment else 0)
                | (_SORT_QUERY if steps.sort_query else 0)
                | (_DROP_EMPTY_QUERY if steps.drop_empty_query else 0)
            )
        return self.parse, self.slots, self.decode, self.rules, flags, self.rule_type


def text_normalizer(backend: Backend, reading: TextReading) -> Callable[[str], Any] | None:
    """A function from a text to the record of its normal form, or
    ``None`` where Python must answer.  ``None`` on the pure back end."""
    module = _module(backend)
    if module is None:
        return None
    made: Callable[[str], Any] = module.uri_normalizer(*reading.arguments())
    return made


def text_key(
    backend: Backend, reading: TextReading, steps: KeySteps
) -> Callable[[str], str | None] | None:
    """``text_normalizer``'s function for a key: the normal text, then
    ``steps``.  ``None`` on the pure back end."""
    module = _module(backend)
    if module is None:
        return None
    prefixes = tuple(prefix.encode("ascii") for prefix in steps.prefixes)
    made: Callable[[str], str | None] = module.uri_key(
        *reading.arguments(steps), steps.exact, prefixes
    )
    return made


def host_lookup(
    backend: Backend, parse: Callable[[str], Any], slot: int, table: dict[str, Any]
) -> Callable[[str], Any] | None:
    """A function from a text to ``table[text]``, else ``table[host]`` with
    ``host`` the text of slot ``slot`` of ``parse``'s record of it (a C
    parse), else ``None``: a value kept by host, read in C.  ``None`` on
    the pure back end."""
    module = _module(backend)
    if module is None:
        return None
    made: Callable[[str], Any] = module.host_lookup(parse, slot, table)
    return made


def key_column(
    key: Callable[[str], str | None], schema: object, array: object
) -> tuple[object, object]:
    """The keys ``key`` (a function ``text_key`` made) writes for the rows
    of an Arrow string array given as its two capsules: the capsules of a
    string array, null for a null row and for each row ``key`` answers
    ``None`` for (in C, with no Python object per row)."""
    assert native.MODULE is not None
    made: tuple[object, object] = native.MODULE.key_column(key, schema, array)
    return made


@dataclass(frozen=True, slots=True)
class KeySteps:
    """A key's steps after the normal form, as C takes them: the fragment
    dropped; the query's pieces whose percent-decoded name is one of
    ``exact`` or starts with one of ``prefixes`` (ASCII, both) dropped;
    the pieces sorted by name; an empty query dropped."""

    drop_fragment: bool
    sort_query: bool
    drop_empty_query: bool
    exact: frozenset[str]
    prefixes: tuple[str, ...]
