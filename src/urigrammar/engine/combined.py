"""The minimal DFA of a combination of named rules, built once and kept as
data: the first rule's language, intersected with each rule marked kept
and with each rule marked taken out removed (``automata.product``).

Building one costs tens of milliseconds in Python, paid by every process
on its first use; so a file may hold the tables of the combinations a
package ships (``PackageStore``), written ahead of time (``encode``, of
the combinations made while ``recording``) and read at first use::

    {"format": 3, "urigrammar": "0.1.0",
     "tables": [[key, offset, length, sha256], ...]}
    <each combination's tables, as ``automata.tables`` lays them out>...

A combination's ``key`` is the sha256 of its parts: each rule's name, how
it takes part, and the lineage of its grammar (``Grammar.lineage``: the
sha256 of the grammar's text and its imports').  A changed grammar file
changes the key, so tables built from the old text are never found, and
the combination is built afresh; so is one the file does not hold (a
user's own).  A file of another format or version, or damaged, is not
read at all (the reason is logged on ``urigrammar.cache``).  Nothing in
it runs code when read, and the tables are checked when decoded
(``Tables.from_bytes``).
"""

from __future__ import annotations

import contextlib
import hashlib
from _thread import allocate_lock
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._version import VERSION
from .automata.tables import Tables
from .base import wire
from .base.later import later
from .base.wire import compact_json
from .grammar import Grammar
from .program.store import Store, log

if TYPE_CHECKING:
    from .automata import product
else:
    # Imported when a combination is built: one the file holds is only read.
    product = later(globals(), ".automata.product")

__all__ = ["FORMAT", "Part", "combination", "encode_combinations", "key", "recording"]

#: The layout of the file; a reader takes only its own.
FORMAT = 3

#: A rule of a combination: its grammar, its name, and whether its language
#: is taken out (``True``) or kept (``False``).
Part = tuple[Grammar, str, bool]

#: The combinations made while ``recording``, by key, if it is.
_MADE: list[dict[str, Tables]] = []
#: Per file read, its pieces by key (``None``: the file is not usable).
_READ: dict[str, dict[str, wire.Place] | None] = {}
_LOCK = allocate_lock()


def key(parts: Sequence[Part]) -> str:
    """The key of a combination: the sha256 of its rules, how each takes
    part, and their grammars' lineages."""
    named = [[name, out, [list(pair) for pair in grammar.lineage]] for grammar, name, out in parts]
    return hashlib.sha256(compact_json(named)).hexdigest()


def combination(parts: Sequence[Part], store: Store | None = None) -> Tables | None:
    """The minimal DFA of ``parts`` (the first kept), from ``store`` when
    it holds it for these grammar texts, else built; ``None`` when a rule
    has no DFA or the product is over ``automata.product``'s caps."""
    if not parts or parts[0][2]:
        msg = "a combination starts with a rule it keeps"
        raise ValueError(msg)
    wanted = key(parts)
    found = None if store is None else _from_store(store, wanted)
    if found is None:
        found = _build(parts)
    if found is not None and _MADE:
        with _LOCK:
            for made in _MADE:
                made[wanted] = found
    return found


@contextlib.contextmanager
def recording() -> Iterator[dict[str, Tables]]:
    """Within the block, every combination made, by key (for ``encode``);
    outside one, none is kept but by its caller."""
    made: dict[str, Tables] = {}
    with _LOCK:
        _MADE.append(made)
    try:
        yield made
    finally:
        with _LOCK:
            _MADE.remove(made)


def _build(parts: Sequence[Part]) -> Tables | None:
    tables: Tables | None = None
    for grammar, name, out in parts:
        dfa = grammar.program(name).dfa
        if dfa is None:
            return None
        if tables is None:
            tables = dfa
        elif out:
            tables = product.difference(tables, dfa)
        elif not product.included(tables, dfa):
            # A kept language that holds all of the product so far changes
            # nothing: the inclusion walk, which stops at the first string
            # it finds outside, spares the product and its minimization.
            tables = product.intersection(tables, dfa)
        if tables is None:
            return None
    return tables


def _from_store(store: Store, wanted: str) -> Tables | None:
    name = str(store)
    if name not in _READ:
        data = store.read()
        read = None if data is None else _pieces(data)
        if isinstance(read, str):
            log().info("urigrammar: building combinations again: %s is %s", store, read)
            read = None
        with _LOCK:
            _READ.setdefault(name, read)
    pieces = _READ[name]
    place = None if pieces is None else pieces.get(wanted)
    if place is None:
        return None
    try:
        return Tables.from_bytes(wire.piece(*place))
    except ValueError as exc:
        log().info("urigrammar: building a combination again: %s holds %s", store, exc)
        return None


def _pieces(data: bytes) -> dict[str, wire.Place] | str:
    """Each combination's place in a file ``encode_combinations`` wrote
    (the body, and its index entry's [offset, length, digest]), or why the
    file cannot be used."""
    read = wire.headed(data, {"format": FORMAT, "urigrammar": VERSION})
    if isinstance(read, str):
        return read
    found, body = read
    index = found.get("tables")
    if not isinstance(index, list):
        return "damaged (no index)"
    pieces: dict[str, wire.Place] = {}
    for item in index:
        if not isinstance(item, list) or len(item) != 4 or not isinstance(item[0], str):
            return "damaged (an index entry of another shape)"
        pieces[item[0]] = (body, item[1:])
    return pieces


def encode_combinations(combinations: Mapping[str, Tables]) -> bytes:
    """The file of ``combinations``, by key (``recording``)."""
    index: list[list[Any]] = []
    pieces: list[bytes] = []
    offset = 0
    for wanted in sorted(combinations):
        piece = combinations[wanted].to_bytes()
        index.append([wanted, offset, len(piece), wire.digest(piece)])
        pieces.append(piece)
        offset += len(piece)
    body = b"".join(pieces)
    return wire.with_head({"format": FORMAT, "urigrammar": VERSION, "tables": index}, body)
