"""Batch use: texts one a line from stdin or files, JSON Lines out, in order,
streaming, optionally over several processes."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

import urigrammar as u
from urigrammar.cli import _batch
from urigrammar.cli._cli import main

CORPUS = Path(__file__).resolve().parents[1] / "data" / "real-urls.txt"
LINES = ["http://a/b?c#d", "a b", "", "//[::1]:80", "http://[fe80::1%25en0]/", "urn:x:y"]


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        status = main(argv, out, err)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_validate_from_stdin() -> None:
    status, out, err = run(["validate", "URI-reference", "--json", "-"], "\n".join(LINES) + "\n")
    assert status == 1
    got = records(out)
    assert [r["text"] for r in got] == LINES
    assert [r["valid"] for r in got] == [u.validate("URI-reference", t) for t in LINES]
    bad = got[1]
    assert bad["error"] == {
        "offset": 1,
        "message": (
            "not a valid URI-reference: unexpected ' ' at offset 1; a space is written %20 in a URI"
        ),
        "kind": "syntax",
    }
    assert got[4]["error"]["offset"] == 15  # type: ignore[index]
    assert err == ""  # no progress bar: stderr is not a terminal


def test_one_shape_whatever_the_source(tmp_path: Path) -> None:
    # Lines from stdin or a file give what the same texts as arguments give:
    # plain text by default, JSON Lines with --json; one line per text,
    # failures included.
    path = tmp_path / "in.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    for command in (["validate", "URI-reference"], ["parse"], ["normalize"], ["to-iri"]):
        for flags in ([], ["--json"]):
            given = run([*command, *flags, "--", *LINES])
            assert given[0] == 1
            assert len(given[1].splitlines()) == len(LINES)
            assert run([*command, *flags, "-"], "\n".join(LINES) + "\n") == given
            assert run([*command, *flags, "--file", str(path)]) == given


# Every command that takes many texts, but explain (a picture per text,
# each starting with its text), with the arguments before its texts.
LINE_COMMANDS = [
    ["validate", "URI-reference"],
    ["parse"],
    ["parse", "--iri"],
    ["resolve", "http://a/b/c"],
    ["relativize", "http://a/b/c"],
    ["normalize"],
    ["encode", "--rule", "segment", "--errors", "strict"],
    ["decode"],
    ["to-uri"],
    ["to-iri"],
    ["match", "{+x}"],
]
# Each fails for some command: a space, a lone "%", a lone surrogate (no
# UTF-8 to encode), a bidi control (section 4.1 of RFC 3987).
FAILING = ["http://a/ok", "a b", "%", "x\udcff", "http://a/\u202e", "HTTP://A/%7e"]


@pytest.mark.parametrize("command", LINE_COMMANDS, ids=" ".join)
def test_every_command_writes_a_line_per_text(command: list[str]) -> None:
    # 6 texts, some failing: 6 lines, whatever the source, and exit 1.
    stdin = "\n".join(FAILING) + "\n"
    for flags in ([], ["--json"]):
        status, out, err = run([*command, *flags, "-"], stdin)
        assert len(out.splitlines()) == len(FAILING), out
        assert status == 1
        if flags:
            got = records(out)
            assert [r["text"] for r in got] == FAILING
            assert len({tuple(r) for r in got}) == 1  # the same keys on every line
            assert any(r["valid"] is False for r in got)
        else:
            assert err  # the failures' messages


def test_validate_lines_are_verdicts() -> None:
    status, out, err = run(["validate", "URI-reference", "-"], "\n".join(LINES) + "\n")
    assert status == 1
    verdicts = ["valid" if u.validate("URI-reference", t) else "invalid" for t in LINES]
    assert out.splitlines() == [f"{v}\t{t}" for v, t in zip(verdicts, LINES, strict=True)]
    assert err.count("^") == verdicts.count("invalid")  # each error, with its caret


def test_all_valid_is_status_0() -> None:
    status, out, _ = run(["validate", "uri", "-"], "a:b\r\nhttp://x\r\n")
    assert status == 0
    assert out == "valid\ta:b\nvalid\thttp://x\n"


def test_parse_records_are_the_components(tmp_path: Path) -> None:
    path = tmp_path / "in.txt"
    path.write_text("\n".join(LINES), encoding="utf-8")  # no final newline
    status, out, _ = run(["parse", "--json", "--file", str(path)])
    assert status == 1
    got = records(out)
    # The same keys on every line, valid or not (components null on failure).
    assert {tuple(r) for r in got} == {("text", "valid", *_batch.COMPONENTS, "error")}
    for text, record in zip(LINES, got, strict=True):
        assert record["text"] == text
        if u.validate("URI-reference", text):
            ref = u.parse(text)
            assert record["valid"] is True
            assert record["error"] is None
            assert (record["host"], record["port"], record["path"]) == (
                ref.host,
                ref.port,
                ref.path,
            )
            assert record["query"] == ref.query
        else:
            assert record["valid"] is False
            assert record["error"]["kind"] == "syntax"  # type: ignore[index]
            assert all(record[key] is None for key in _batch.COMPONENTS)
    # Without --json: the components, or null for a text that fails.
    status, out, _ = run(["parse", "--file", str(path)])
    plain = [json.loads(line) for line in out.splitlines()]
    assert [p is None for p in plain] == [not u.validate("URI-reference", t) for t in LINES]


def test_bytes_that_are_not_utf8_are_invalid_lines(tmp_path: Path) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"http://a/\xff\nhttp://b/\n")
    status, out, _ = run(["validate", "URI", "--json", "--file", str(path)])
    assert status == 1
    first, second = records(out)
    assert first["valid"] is False
    assert first["error"]["offset"] == 9  # type: ignore[index]
    assert second == {"text": "http://b/", "valid": True, "error": None}


def test_json_flag_for_argument_texts() -> None:
    status, out, _ = run(["validate", "URI", "--json", "a:b", "x y"])
    assert status == 1
    assert [r["valid"] for r in records(out)] == [True, False]


def test_jobs_keep_the_order(tmp_path: Path) -> None:
    lines = [f"http://h{i}/{'x' * (i % 7)}" if i % 5 else f"bad {i}" for i in range(3000)]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one = run(["parse", "--json", "--file", str(path)])
    two = run(["parse", "--json", "--jobs", "3", "--file", str(path)])
    assert one == two
    assert [r["text"] for r in records(one[1])] == lines


def test_jobs_must_be_positive() -> None:
    assert run(["validate", "URI", "--jobs", "0", "-"], "a:b\n")[0] == 2


def test_input_is_read_as_it_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays constant: no more than one batch is read ahead of what
    has been written."""
    monkeypatch.setattr(_batch, "BATCH_LINES", 10)
    consumed = 0

    def lines() -> Iterator[str]:
        nonlocal consumed
        for i in range(100):
            consumed += 1
            yield f"http://h/{i}"

    class Watch(io.StringIO):
        def write(self, text: str) -> int:
            assert consumed <= self.getvalue().count("\n") + 1 + 10
            return super().write(text)

    out = Watch()
    work = _batch.worker("validate", "URI", "automata", True)
    assert _batch.run_texts(work, lines(), out, io.StringIO()) == 0
    assert out.getvalue().count("\n") == 100


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    times = iter(range(0, 1000))
    monkeypatch.setattr(_batch.time, "monotonic", lambda: float(next(times)))
    err = Terminal()
    _batch.run_texts(
        _batch.worker("validate", "URI", "automata", True), iter(["a:b"] * 3), io.StringIO(), err
    )
    assert "lines/s" in err.getvalue()
    quiet = io.StringIO()
    _batch.run_texts(
        _batch.worker("validate", "URI", "automata", True), iter(["a:b"] * 3), io.StringIO(), quiet
    )
    assert quiet.getvalue() == ""


def test_corpus_through_the_console(tmp_path: Path) -> None:
    with CORPUS.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "urigrammar", "validate", "URI-reference", "--json", "-"],
            stdin=stdin,
            capture_output=True,
            check=False,
        )
    lines = done.stdout.decode("utf-8").splitlines()
    texts = CORPUS.read_text("utf-8").splitlines()
    assert len(lines) == len(texts) == 2_018
    got = [json.loads(line) for line in lines]
    assert [r["text"] for r in got] == texts
    all_valid = all(r["valid"] for r in got)
    assert done.returncode == (0 if all_valid else 1)
    assert b"Traceback" not in done.stderr


# --- Ctrl-C -----------------------------------------------------------------
# A terminal's Ctrl-C sends SIGINT to the whole foreground process group: the
# command and its --jobs workers.  The command runs here in a session of its
# own, so that os.killpg does the same, and reads its lines from a FIFO:
# opening its other end succeeds once the command has opened it, so the
# command is running (its pool started) when the signal comes.

_POSIX_ONLY = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not hasattr(os, "killpg"), reason="FIFOs and process groups"
)


def _open_for_writing(fifo: Path, deadline: float) -> int:
    # O_NONBLOCK: fails (ENXIO) until a reader has the FIFO open, where a
    # plain open would wait forever for a command that died first.
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@contextlib.contextmanager
def _sigint_as_a_terminal_leaves_it() -> Iterator[None]:
    """A command started from a terminal has SIGINT at its default.  A test
    run started in the background by a script (``tox &``) ignores SIGINT, and
    a child inherits an ignored signal through exec, so the command would
    never see the Ctrl-C these tests send: the command is started with the
    default, as a terminal would start it."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield  # exec resets a handler to the default: nothing to do
        return
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _interrupted(argv: list[str], lines: str, tmp_path: Path, pause: float) -> tuple[int, str, int]:
    """The status and stderr of the command interrupted with Ctrl-C while it
    reads ``lines`` from a FIFO (the FIFO kept open, or closed after
    ``lines`` and ``pause`` seconds later interrupted mid-work), and how
    many lines it wrote."""
    fifo = tmp_path / "lines"
    os.mkfifo(fifo)
    command = [sys.executable, "-m", "urigrammar", *argv, "--file", str(fifo)]
    with _sigint_as_a_terminal_leaves_it():
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    try:
        writer = _open_for_writing(fifo, time.monotonic() + 10)
        with os.fdopen(writer, "wb") as stream:
            os.set_blocking(writer, True)
            stream.write(lines.encode())
            stream.flush()
            if pause:
                stream.close()  # the command reads to the end and works
                time.sleep(pause)
            os.killpg(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=10)
        return proc.returncode, err.decode(), out.count(b"\n")
    finally:
        # A failure leaves nothing running: not the command, not a worker.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@_POSIX_ONLY
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_while_reading_is_status_130_and_one_line(jobs: str, tmp_path: Path) -> None:
    status, err, _ = _interrupted(
        ["validate", "--jobs", jobs, "URI-reference"], "http://a/\n", tmp_path, pause=0
    )
    assert (status, err) == (130, "urigrammar: interrupted\n")


@_POSIX_ONLY
def test_ctrl_c_while_the_workers_work_is_status_130_and_one_line(tmp_path: Path) -> None:
    # Seconds of work for two workers (--method abnf is the slow one), cut
    # short: the pool must not replace the workers that SIGINT killed and
    # wait for their lost tasks forever.
    status, err, written = _interrupted(
        ["validate", "--jobs", "2", "--method", "abnf", "URI-reference"],
        "http://a/b/c/d/e/f/g?q=1#x\n" * 10_000,
        tmp_path,
        pause=0.3,
    )
    assert (status, err) == (130, "urigrammar: interrupted\n")
    assert written < 10_000  # cut short, not after the work queued


def test_ctrl_c_in_process_is_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*_args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(_batch, "run_texts", interrupt)
    monkeypatch.setattr("urigrammar.cli._cmd_core.run_texts", interrupt)
    assert run(["validate", "URI", "a:b"]) == (130, "", "urigrammar: interrupted\n")


# --- --jobs starts workers only for work that pays for them ---------------------


class _Pool:
    """A pool that records being made and maps in this process."""

    made: ClassVar[list[int]] = []

    def __init__(self, jobs: int) -> None:
        self.made.append(jobs)

    def map(self, work: object, batch: list[str], chunksize: int) -> list[object]:
        return [work(text) for text in batch]  # type: ignore[operator]

    def close(self) -> None:
        pass

    def terminate(self) -> None:
        pass

    def join(self) -> None:
        pass


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    made: list[int] = []
    monkeypatch.setattr(_Pool, "made", made)
    monkeypatch.setattr(_batch, "_pool", _Pool)
    return made


def _lines(count: int) -> str:
    return "".join(f"http://a/{n}\n" for n in range(count))


def test_jobs_leave_cheap_work_in_this_process(
    pools: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Work below the bar, whatever this machine's speed: no workers.
    monkeypatch.setattr(_batch, "WORTH_A_WORKER", float("inf"))
    status, out, _ = run(["validate", "--jobs", "2", "URI-reference", "-"], _lines(2000))
    assert (status, out.count("valid\t")) == (0, 2000)
    assert pools == []


def test_jobs_start_workers_for_work_that_takes_longer(
    pools: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_batch, "WORTH_A_WORKER", 0.0)
    status, out, _ = run(["validate", "--jobs", "2", "URI-reference", "-"], _lines(2000))
    assert (status, out.count("valid\t")) == (0, 2000)
    assert pools == [2]
    assert out.splitlines()[-1] == "valid\thttp://a/1999"  # in input order


def test_a_few_texts_never_start_workers(pools: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_batch, "WORTH_A_WORKER", 0.0)
    assert run(["validate", "--jobs", "2", "URI-reference", "-"], _lines(10))[0] == 0
    assert pools == []
