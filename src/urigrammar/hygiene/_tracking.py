"""The tracking parameters: ``tracking-parameters.txt`` beside this module,
one name or glob a line with who adds it and where they document it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

__all__ = ["tracking_parameters"]

_FILE = Path(__file__).with_name("tracking-parameters.txt")


@cache
def tracking_parameters() -> tuple[str, ...]:
    """The names and globs of the file, in its order."""
    names = []
    for line in _FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            names.append(line.partition("\t")[0])
    return tuple(names)
