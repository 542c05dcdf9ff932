"""A parse's output, as data: which capture fills which slot of a record.

A ``Plan`` has one entry per output slot: the slot's default, and its
candidates, each a capture number (of a program's captures, numbered as
``Program.names``) and a constant to give instead of the capture's text
(``None``: the text).  The slot's value is that of its first candidate
that took part in the match, else its default.  Both back ends read a
plan alike (the C ``Tagger``, and ``pure``'s readers), and a record keeps
its slots as spans of the text or indexes into one tuple of constants
(``constants``), in the same order on both.
"""

from __future__ import annotations

__all__ = ["Plan", "constants", "each_capture"]

#: Per slot: (default, ((capture number, constant or None), ...)).
Plan = tuple[tuple[object, tuple[tuple[int, object], ...]], ...]


def each_capture(count: int) -> Plan:
    """A plan whose slot ``i`` is capture ``i``'s text, else ``None``."""
    return tuple((None, ((number, None),)) for number in range(count))


def constants(
    plan: Plan,
) -> tuple[tuple[object, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The plan's constants as a record holds them (every default that is
    not ``None``, in slot order, then every candidate's constant, each
    once), each slot's default's index (-1 for ``None``), and each
    candidate's constant's index (-1 for the capture's text)."""
    found: list[object] = []

    def index(value: object) -> int:
        for at, known in enumerate(found):
            if known == value:
                return at
        found.append(value)
        return len(found) - 1

    defaults = tuple(-1 if default is None else index(default) for default, _ in plan)
    candidates = tuple(
        tuple(-1 if constant is None else index(constant) for _, constant in cands)
        for _, cands in plan
    )
    return tuple(found), defaults, candidates
