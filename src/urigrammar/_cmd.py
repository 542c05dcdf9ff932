"""What every command-line command is made of (see ``_cli``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from ._errors import InputTooLongError, URISyntaxError

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "Command", "each_text"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True)
class Command:
    """One subcommand: ``configure`` adds its arguments to its parser, ``run``
    does the work and returns the exit status."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO, TextIO], int]


def each_text(
    texts: Iterable[str],
    work: Callable[[str], object],
    out: TextIO,
    err: TextIO,
    errors: tuple[type[Exception], ...] = (URISyntaxError, InputTooLongError),
) -> int:
    """Print ``work(text)`` for each text, or the error (with its caret) on
    ``err`` for a text it rejects, and go on; the exit status says whether
    every text passed."""
    status = EXIT_OK
    for text in texts:
        try:
            result = work(text)
        except errors as exc:
            print(exc, file=err)
            status = EXIT_INVALID
        else:
            print(result, file=out)
    return status
