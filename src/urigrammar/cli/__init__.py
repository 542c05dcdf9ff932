"""The command line, on top of the public API: ``urigrammar`` and
``python -m urigrammar``.  ``_cli`` builds the parser from the commands of
the ``_cmd_*`` modules; ``_batch`` runs texts in order, a batch at a time."""

from __future__ import annotations

from ._cli import main

__all__ = ["main"]
