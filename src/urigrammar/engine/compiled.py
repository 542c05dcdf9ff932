"""A grammar's compiled form, kept in a store (``program.store``): the
rules and programs of ``program.artifact``'s file, read back for the same
grammar texts, and written again as programs are built.

``Grammar`` holds one ``CompiledForm`` when it has a store: the rules come
from it when its header names the texts' lineage (else from the text, by
``abnf``, and written), and a program is decoded from its piece on first
use, or built and written back when the store is writable.
"""

from __future__ import annotations

from _thread import allocate_lock
from collections.abc import Callable, Sequence

from .base import wire
from .program.artifact import Lineage, decode_headed, encode, expected, program_from
from .program.program import Key, Program
from .program.store import Store, log
from .syntax.reader import RuleText, read_rules
from .syntax.table import RuleTable, adopt_core, core

__all__ = ["CompiledForm", "read_table"]


def read_table(label: str, text: str, imports: Sequence[RuleTable]) -> RuleTable:
    """The rule table of an ABNF text, read by ``abnf``."""
    return RuleTable(label, read_rules(text), imports)


class CompiledForm:
    """One grammar's file in a store."""

    def __init__(self, store: Store, label: str, lineage: Callable[[], Lineage]) -> None:
        self.store = store
        self._label = label
        self._lineage = lineage
        #: Programs as the store holds them (their places in its file),
        #: decoded on first use; and, for a store that is written, every
        #: program's bytes: what it writes.
        self._places: dict[Key, wire.Place] = {}
        self._pieces: dict[Key, bytes] = {}
        self._own: list[RuleText] = []
        self._lock = allocate_lock()

    def table(self, text: Callable[[], str], imports: Sequence[RuleTable]) -> RuleTable:
        """The rules, from the store when it holds them for these grammar
        texts, else read from the text (and stored)."""
        read = self.store.headed(expected(self._lineage()))
        if read is not None:
            found = decode_headed(read)
            if isinstance(found, str):
                log().info(
                    "urigrammar: compiling %s again: %s is %s", self._label, self.store, found
                )
            else:
                own, core_rules, self._places = found
                adopt_core(core_rules)
                self._own = own
                return RuleTable(self._label, own, imports, checked=False)
        table = read_table(self._label, text(), imports)
        self._own = list(table.own.values())
        if self.store.writable:
            self.store.write(self._file())
        return table

    def program(self, key: Key) -> Program | None:
        """The store's program for ``key``, decoded; ``None`` when it has
        none, or one that fails its checks (the reason is logged)."""
        stored = self._places.get(key)
        if stored is None:
            return None
        if not self.store.writable:
            self._places.pop(key, None)  # read once: nothing writes it back
        try:
            found = program_from(stored)
        except ValueError as exc:
            log().warning("urigrammar: compiling %s's %s again: %s", self._label, key[0], exc)
            return None
        if found.key != key:
            log().warning(
                "urigrammar: compiling %s's %s again: a program of another rule",
                self._label,
                key[0],
            )
            return None
        return found

    def keep(self, program: Program) -> None:
        """Write ``program`` back with the others, when the store takes it."""
        if not self.store.writable:
            return
        with self._lock:
            self._pieces[program.key] = program.to_bytes()
        self.store.write(self._file())

    def forget(self) -> None:
        """Drop the programs not yet decoded, unless they are written back."""
        if not self.store.writable:
            self._places.clear()

    def _file(self) -> bytes:
        with self._lock:
            pieces = dict(self._pieces)
            places = dict(self._places)
        for key, (body, where) in places.items():
            if key not in pieces:
                try:
                    pieces[key] = wire.piece(body, where)
                except ValueError:
                    continue  # damaged: compiled again when asked for
        return encode(self._lineage(), self._own, list(core().values()), pieces)


def artifact(lineage: Lineage, table: RuleTable, programs: Sequence[Program]) -> bytes:
    """A grammar's compiled form as a file: its rules, and ``programs``."""
    pieces = {program.key: program.to_bytes() for program in programs}
    return encode(lineage, list(table.own.values()), list(core().values()), pieces)
