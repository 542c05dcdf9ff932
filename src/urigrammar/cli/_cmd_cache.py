"""``urigrammar cache dir`` and ``urigrammar cache clear``: the per-user
cache where ``--grammar`` files are kept compiled."""

from __future__ import annotations

import argparse
from typing import TextIO

import urigrammar

from ._cmd import EXIT_OK, EXIT_USAGE, Command

__all__ = ["COMMANDS"]


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=("dir", "clear"),
        help="dir: print the cache directory (URIGRAMMAR_CACHE_DIR, else the platform's "
        "user cache directory) and whether it can be used; clear: remove what it holds",
    )


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.action == "dir":
        print(urigrammar.cache_dir(), file=out)
        problem = urigrammar.cache_problem()
        if problem is not None:
            print(f"urigrammar: the cache is not used: {problem}", file=err)
            return EXIT_USAGE
        return EXIT_OK
    try:
        removed = urigrammar.clear_cache()
    except OSError as exc:
        print(f"urigrammar: the cache was not cleared: {exc}", file=err)
        return EXIT_USAGE
    print(
        f"removed {removed} file{'' if removed == 1 else 's'} from {urigrammar.cache_dir()}",
        file=out,
    )
    return EXIT_OK


COMMANDS = {
    "cache": Command(
        help="the per-user cache of compiled --grammar files: its directory, or clear it",
        configure=_configure,
        run=_run,
    ),
}
