"""Running the command line's texts: reading lines from files and standard
input, and writing one result per text, in input order.

Memory stays constant whatever the input's length: lines are read lazily
and handled in batches of ``BATCH_LINES`` (times the number of jobs), each
written out before the next is read.  ``--jobs N`` hands each batch to a
pool of N processes (``Pool.map`` keeps the order); the work functions are
picklable for that.

Lines: a source is decoded as UTF-8 and split on ``\\n``, ``\\r\\n`` and a
lone ``\\r`` (universal newlines, as ``str.splitlines`` splits on those
three), and a byte order mark at its very start is dropped (a BOM is
nothing of a URI; editors on Windows write one).  Bytes that are not UTF-8
are read with ``surrogateescape``: such a line is an invalid text, not a
crash, and the JSON output escapes it.
"""

from __future__ import annotations

import codecs
import functools
import io
import itertools
import json
import os
import re
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

import urigrammar
from urigrammar import UrigrammarError

from ._cmd import (
    Outcome,
    UsageError,
    Verdict,
    exit_status,
    grammar_from,
    json_line,
    shown,
    verdict_of,
)

#: Which grammar ``validate`` works in: ``--grammar`` and its ``--import``
#: files, as paths (so that a worker process can load it), or ``None`` for
#: RFC 3986.
GrammarFiles = tuple[str, tuple[str, ...]] | None

__all__ = [
    "BATCH_LINES",
    "COMPONENTS",
    "Progress",
    "components",
    "parse_outcome",
    "read_lines",
    "run_texts",
    "split_lines",
    "texts",
    "validate_outcome",
]

BATCH_LINES = 5000

# Characters read at a time: a line longer than this is gathered in parts.
_CHUNK = 1 << 16

_BREAK = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


def split_lines(chunks: Iterable[str]) -> Iterator[str]:
    """The lines of the text made of ``chunks``, without their line ends,
    split on ``\\r\\n``, ``\\r`` and ``\\n`` (a ``\\r\\n`` split across two
    chunks is one line end); a BOM that starts the text is dropped, and a
    last line with no line end is still a line."""
    pending: list[str] = []  # the parts of a line that crosses chunks
    after_cr = False  # the last chunk ended in "\r": a "\n" next is its pair
    first = True
    for read in chunks:
        chunk = read
        if first and chunk:
            chunk = chunk.removeprefix(_BOM)
            first = False
        if after_cr and chunk.startswith("\n"):
            chunk = chunk[1:]
        after_cr = False  # paired or not, that "\r" is behind us now
        if not chunk:
            continue
        after_cr = chunk.endswith("\r")
        pieces = _BREAK.split(chunk)
        if len(pieces) > 1:
            pending.append(pieces[0])
            yield "".join(pending)
            yield from pieces[1:-1]
            pending = []
        if pieces[-1]:
            pending.append(pieces[-1])
    if pending:
        yield "".join(pending)


def _read_text(stream: TextIO) -> Iterator[str]:
    while chunk := stream.read(_CHUNK):
        yield chunk


#: Seconds a read waits for bytes before it looks for a Ctrl-C.
_WAKE = 0.25


def _bytes(stream: io.BufferedIOBase) -> Iterator[bytes]:
    """The bytes of a stream as they arrive.  CPython raises a Ctrl-C
    between bytecodes, so one that lands as a blocking read begins waits
    with it until more bytes come (a pipe that nobody writes: forever).  On
    POSIX the file descriptor is read only once ``select`` says bytes are
    there, and ``select`` returns every ``_WAKE`` seconds, so a Ctrl-C is
    raised within that.  Elsewhere, or for a stream with no descriptor,
    ``read1`` (one read of the file a call) where the stream has it."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation: a stream in memory
        fd = -1
    if fd < 0 or os.name != "posix":
        read = getattr(stream, "read1", stream.read)
        while chunk := read(_CHUNK):
            yield chunk
        return
    while True:
        while not select.select([fd], [], [], _WAKE)[0]:
            pass
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return
        yield chunk


def _read(stream: io.BufferedIOBase) -> Iterator[str]:
    """The text of a stream of bytes, decoded as it arrives (``_bytes``)."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
    for chunk in _bytes(stream):
        if text := decoder.decode(chunk):
            yield text
    if text := decoder.decode(b"", final=True):
        yield text


def _source_chunks(source: str) -> Iterator[str]:
    if source != "-":
        with open(source, "rb") as stream:
            yield from _read(stream)
        return
    stdin = sys.stdin
    if stdin is None:  # started with stdin closed (`<&-`)
        raise UsageError("cannot read the texts: standard input is closed")
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:  # a replaced stdin (tests): already text
        yield from _read_text(stdin)
        return
    # Decode the bytes ourselves: stdin's own encoding follows the locale.
    # Nothing else reads standard input, so its descriptor holds every byte.
    yield from _read(buffer)


def read_lines(sources: Iterable[str]) -> Iterator[str]:
    """Each line of each source (a path, or ``-`` for standard input),
    read lazily; see the module docstring for line ends and the BOM."""
    for source in sources:
        yield from split_lines(_source_chunks(source))


def texts(args: Any) -> Iterator[str]:
    """The texts of a command built with ``add_text_input``: each argument
    (``-`` standing for the lines of stdin) in order, then the lines of each
    ``--file``."""
    for text in args.text:
        if text == "-":
            yield from read_lines(["-"])
        else:
            yield text
    yield from read_lines(args.file)


def components(ref: urigrammar.Reference) -> dict[str, Any]:
    """The JSON object ``urigrammar parse`` prints for one reference (its
    keys are ``COMPONENTS``)."""
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


def json_port(ref: urigrammar.Reference) -> int | str | None:
    """The port for JSON: its value, or its digits as a string when it has
    more than 640 of them (``int`` to ``str`` refuses more than
    ``sys.get_int_max_str_digits()``, which is at least 640; CVE-2020-10735)."""
    if ref.port_text is not None and len(ref.port_text.lstrip("0")) > 640:
        return ref.port_text.lstrip("0")
    return ref.port


def _check(files: GrammarFiles, rule: str, text: str, method: Any) -> None:
    if files is None:
        urigrammar.check(rule, text, method=method)
        return
    grammar = grammar_from(*files)
    if method == "abnf":
        name = grammar.canonical(rule)
        if grammar.abnf_parse(name, text) is None:
            raise grammar.syntax_error(name, text)
    else:
        grammar.check(rule, text)


def validate_outcome(
    rule: str,
    method: Any,
    as_json: bool,
    text: str,
    *,
    files: GrammarFiles = None,
    mask: bool = False,
) -> Outcome:
    """``urigrammar validate`` on one text: a verdict line (``valid``,
    ``invalid`` or ``too long for the abnf method``, a tab, the text) and the
    error on stderr, or with ``as_json`` its JSON Lines record; ``mask``
    shows the text with its password masked."""
    try:
        _check(files, rule, text, method)
    except UrigrammarError as exc:
        if as_json:
            return Outcome(verdict_of(exc), json_line(shown(text, mask, rule), {}, exc))
        verdict = verdict_of(exc)
        said = "invalid" if verdict == "invalid" else "too long for the abnf method"
        return Outcome(verdict, f"{said}\t{shown(text, mask, rule)}", str(exc))
    if as_json:
        return Outcome("valid", json_line(shown(text, mask, rule), {}))
    return Outcome("valid", f"valid\t{shown(text, mask, rule)}")


#: The components ``parse`` writes, in this order (``components``).
COMPONENTS = (
    "scheme",
    "authority",
    "userinfo",
    "host",
    "host_kind",
    "port",
    "path",
    "query",
    "fragment",
)


def parse_outcome(
    rule: str, method: Any, as_json: bool, text: str, *, iri: bool = False, mask: bool = False
) -> Outcome:
    """``urigrammar parse`` on one text: the components as one JSON object,
    or ``null`` and the error on stderr; with ``as_json`` its JSON Lines
    record, which has the components too (``null`` for a text that
    failed).  With ``iri`` the text is parsed as an IRI (``parse_iri``);
    ``mask`` shows the text, its userinfo and its authority with the
    password masked."""
    try:
        ref = (urigrammar.parse_iri if iri else urigrammar.parse)(text, rule, method=method)
    except UrigrammarError as exc:
        if as_json:
            line = json_line(shown(text, mask), dict.fromkeys(COMPONENTS), exc)
            return Outcome(verdict_of(exc), line)
        return Outcome(verdict_of(exc), "null", str(exc))
    parts = components(ref)
    if mask:
        for part in ("userinfo", "authority"):
            value = parts[part]
            if isinstance(value, str):
                parts[part] = urigrammar.mask_password(value, part)
    if as_json:
        return Outcome("valid", json_line(shown(text, mask), parts))
    return Outcome("valid", json.dumps(parts, ensure_ascii=False))


class Progress:
    """Lines per second on ``stream``, at most five times a second, and only
    when that stream is a terminal (so logs and pipes stay clean)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        try:
            self.enabled = stream.isatty()
        except ValueError:  # a closed stream
            self.enabled = False
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


def _ignore_interrupts() -> None:
    """A worker's initializer: Ctrl-C on a terminal signals the whole
    process group, and a worker that died of it would be replaced by the
    pool while its task was lost, so ``map`` waited forever.  The workers
    leave SIGINT to the parent, which stops them (``run_texts``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool(jobs: int) -> Any:
    """A pool of ``jobs`` workers that ignore SIGINT from their first
    instruction: started while the parent ignores it (a child inherits
    that, through fork and exec alike), since a Ctrl-C before a worker ran
    its initializer would kill it with a traceback; the initializer covers
    workers started later.  signal() works only in the main thread."""
    import multiprocessing  # only for --jobs: it costs a short run a tenth of its time

    context = multiprocessing.get_context()
    if threading.current_thread() is not threading.main_thread():
        return context.Pool(jobs, initializer=_ignore_interrupts)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return context.Pool(jobs, initializer=_ignore_interrupts)
    finally:
        signal.signal(signal.SIGINT, before)


#: Texts timed before ``--jobs`` starts its workers, and the time a text
#: must take for them to pay: sending a text to a worker and its outcome
#: back costs some tens of microseconds, more than validating or parsing it.
PROBE_TEXTS = 64
WORTH_A_WORKER = 50e-6


def _probe(
    work: Callable[[str], Outcome], batch: list[str]
) -> tuple[list[Outcome], list[str], float]:
    """The first texts' outcomes, the texts left, and the seconds a text took
    after the first (which pays for loading what the work needs)."""
    done = [work(text) for text in batch[:1]]
    start = time.perf_counter()
    done += [work(text) for text in batch[1 : PROBE_TEXTS + 1]]
    per_text = (time.perf_counter() - start) / max(1, len(done) - 1)
    return done, batch[PROBE_TEXTS + 1 :], per_text


def run_texts(
    work: Callable[[str], Outcome],
    texts: Iterable[str],
    out: TextIO,
    err: TextIO,
    jobs: int = 1,
    *,
    apart: bool = False,
) -> int:
    """Write each text's outcome, in input order; the exit status.  With
    ``apart`` a blank line separates outputs (multi-line pictures).  An
    exception (``KeyboardInterrupt`` above all) stops the workers at once
    and goes on up."""
    verdicts: set[Verdict] = set()
    progress = Progress(err)
    pool = None
    probed = jobs == 1
    written = False
    finished = False
    try:
        for texts_read in _batches(iter(texts), BATCH_LINES * jobs):
            outcomes: list[Outcome] = []
            batch = texts_read
            if not probed:
                # Workers cost each text a trip both ways: they start only
                # for work that takes longer than that, timed on a few texts.
                probed = True
                outcomes, batch, per_text = _probe(work, texts_read)
                if batch and per_text > WORTH_A_WORKER:
                    pool = _pool(jobs)
            if pool is None:
                outcomes += [work(text) for text in batch]
            elif batch:
                outcomes += pool.map(work, batch, chunksize=max(1, len(batch) // (jobs * 4)))
            for outcome in outcomes:
                verdicts.add(outcome.verdict)
                if outcome.out is not None:
                    out.write(("\n" if apart and written else "") + outcome.out + "\n")
                    written = True
                if outcome.err is not None:  # after its verdict line, as a reader expects
                    err.write(outcome.err + "\n")
            progress.advance(len(batch))
        finished = True
    finally:
        progress.close()
        if pool is not None:
            # close() lets the workers finish what is queued; after an
            # interruption nothing more is wanted, so terminate() them.
            if finished:
                pool.close()
            else:
                pool.terminate()
            pool.join()
    return exit_status(verdicts)


def worker(
    kind: str,
    rule: str,
    method: Any,
    as_json: bool,
    files: GrammarFiles = None,
    *,
    mask: bool = False,
) -> Callable[[str], Outcome]:
    """The picklable per-text function for ``validate``, ``parse`` or
    ``parse-iri``."""
    if kind == "validate":
        return functools.partial(validate_outcome, rule, method, as_json, files=files, mask=mask)
    return functools.partial(
        parse_outcome, rule, method, as_json, iri=kind == "parse-iri", mask=mask
    )
