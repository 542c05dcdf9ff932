"""The scheme profiles' vectors: ``tests/vectors/schemes/<file>.json``,
each row with an ``id`` that names the section it comes from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[1] / "vectors" / "schemes"


def vectors(file_name: str) -> dict[str, Any]:
    """The vectors of one file."""
    found: dict[str, Any] = json.loads((FOLDER / file_name).read_text(encoding="utf-8"))
    return found


def ids(rows: list[dict[str, Any]]) -> list[str]:
    """The rows' ids, for ``pytest.mark.parametrize``."""
    return [row["id"] for row in rows]
