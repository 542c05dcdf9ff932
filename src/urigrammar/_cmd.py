"""What every command-line command is made of (see ``_cli``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "Command"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True)
class Command:
    """One subcommand: ``configure`` adds its arguments to its parser, ``run``
    does the work and returns the exit status."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO, TextIO], int]
