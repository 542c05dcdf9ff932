"""Batch use of the command line: texts from files or standard input, one a
line, results as JSON Lines in input order.

Memory stays constant whatever the input's length: lines are read lazily
and handled in batches of ``BATCH_LINES`` (times the number of jobs), each
written out before the next is read.  ``--jobs N`` hands each batch to a
pool of N processes (``Pool.map`` keeps the order); the work functions are
module-level so they pickle.  Bytes that are not UTF-8 are read with
``surrogateescape``: such a line is an invalid text, not a crash, and the
JSON output escapes it.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from ._api import check, parse
from ._errors import InputTooLongError, URIError, URISyntaxError
from ._reference import URIReference

__all__ = ["BATCH_LINES", "Progress", "components", "parse_record", "read_lines", "run_batch"]

BATCH_LINES = 5000


def components(ref: URIReference) -> dict[str, Any]:
    """The JSON object ``urigrammar parse`` prints for one reference."""
    return {
        "scheme": ref.scheme,
        "authority": ref.authority,
        "userinfo": ref.userinfo,
        "host": ref.host,
        "host_kind": ref.host_kind,
        "port": json_port(ref),
        "path": ref.path,
        "query": ref.query,
        "fragment": ref.fragment,
    }


def json_port(ref: URIReference) -> int | str | None:
    """The port for JSON: its value, or its digits as a string when it has
    more than 640 of them (``int`` to ``str`` refuses more than
    ``sys.get_int_max_str_digits()``, which is at least 640; CVE-2020-10735)."""
    if ref.port_text is not None and len(ref.port_text.lstrip("0")) > 640:
        return ref.port_text.lstrip("0")
    return ref.port


def _error(exc: URIError) -> dict[str, Any]:
    return {"offset": exc.offset, "message": exc.message}


def validate_record(rule: str, engine: Any, text: str) -> dict[str, Any]:
    """One JSON Lines record of ``urigrammar validate``."""
    try:
        check(rule, text, engine=engine)
    except (URISyntaxError, InputTooLongError) as exc:
        return {"text": text, "valid": False, "error": _error(exc)}
    return {"text": text, "valid": True}


def parse_record(rule: str, engine: Any, text: str) -> dict[str, Any]:
    """One JSON Lines record of ``urigrammar parse``."""
    try:
        ref = parse(text, rule, engine=engine)
    except (URISyntaxError, InputTooLongError) as exc:
        return {"text": text, "valid": False, "error": _error(exc)}
    return {"text": text, "valid": True, **components(ref)}


def _open(source: str) -> TextIO:
    if source == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a replaced stdin (tests): already text
            return sys.stdin
        return io.TextIOWrapper(buffer, encoding="utf-8", errors="surrogateescape", newline="")
    return open(source, encoding="utf-8", errors="surrogateescape", newline="")


def read_lines(sources: Iterable[str]) -> Iterator[str]:
    """Each line of each source (a path, or ``-`` for standard input),
    without its line ending, read lazily."""
    for source in sources:
        stream = _open(source)
        try:
            for line in stream:
                if line.endswith("\r\n"):
                    yield line[:-2]
                elif line.endswith("\n"):
                    yield line[:-1]
                else:
                    yield line
        finally:
            if source != "-":
                stream.close()


class Progress:
    """Lines per second on ``stream``, at most five times a second, and only
    when that stream is a terminal (so logs and pipes stay clean)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.enabled = stream.isatty()
        self.start = self.shown = time.monotonic()
        self.count = 0

    def advance(self, lines: int) -> None:
        self.count += lines
        now = time.monotonic()
        if self.enabled and now - self.shown >= 0.2:
            self.shown = now
            rate = self.count / max(now - self.start, 1e-9)
            self.stream.write(f"\r{self.count:,} lines, {rate:,.0f} lines/s")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.count:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _batches(lines: Iterator[str], size: int) -> Iterator[list[str]]:
    while batch := list(itertools.islice(lines, size)):
        yield batch


def run_batch(
    work: Callable[[str], dict[str, Any]],
    lines: Iterator[str],
    out: TextIO,
    err: TextIO,
    jobs: int = 1,
) -> bool:
    """Write one JSON line per input line, in order; whether all were valid."""
    all_valid = True
    progress = Progress(err)
    pool = multiprocessing.get_context().Pool(jobs) if jobs > 1 else None
    try:
        for batch in _batches(lines, BATCH_LINES * jobs):
            if pool is None:
                records = [work(text) for text in batch]
            else:
                records = pool.map(work, batch, chunksize=max(1, len(batch) // (jobs * 4)))
            for record in records:
                all_valid = all_valid and record["valid"]
                out.write(json.dumps(record) + "\n")
            progress.advance(len(batch))
    finally:
        progress.close()
        if pool is not None:
            pool.close()
            pool.join()
    return all_valid


def worker(kind: str, rule: str, engine: Any) -> Callable[[str], dict[str, Any]]:
    """The picklable per-line function for ``validate`` or ``parse``."""
    record = validate_record if kind == "validate" else parse_record
    return functools.partial(record, rule, engine)
