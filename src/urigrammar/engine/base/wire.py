"""The wire: what every value read back from a file goes through.

Compiled grammars and programs are kept as data (JSON, and the packed
tables of ``automata.tables``), never as pickles, so reading one runs no
code.  Each reader checks the shape of what it is given with the
functions here, which raise ``ValueError`` naming what was expected; the
caller then compiles from the grammar text, so a damaged file costs time,
never a wrong answer.

A headed file (``with_head``, ``headed``) is one line of JSON, the header,
then a body of pieces; the header carries the fields a reader expects (its
format, urigrammar's version, the grammar texts it came from) and, for
each piece, where it lies and its sha256 (``piece``), so that a piece
damaged in place is told from a good one when it is read.  A file read
from a path (``headed_file``) is read to its header, and each piece from
the file when it is used (``FileBody``): a first call reads the few pieces
it needs, not every program of the grammar and of its imports.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .later import later

if TYPE_CHECKING:
    import json
else:
    # Imported when something is written, or read where json's C scanner
    # is missing: importing json compiles its regexes, a fifth of the
    # Python calls of a first parse, and a reader needs none of them.
    json = later(globals(), "json")

_make_scanner: Any
try:
    import _json
except ImportError:  # an interpreter without json's C scanner: json.loads
    _make_scanner = None
else:
    _make_scanner = _json.make_scanner

__all__ = [
    "Body",
    "FileBody",
    "Place",
    "boolean",
    "compact_json",
    "digest",
    "headed",
    "headed_file",
    "integer",
    "integers",
    "listed",
    "loads",
    "pairs",
    "piece",
    "record",
    "span",
    "text",
    "texts",
    "with_head",
]


def _fail(what: str) -> ValueError:
    return ValueError(f"not the expected data: {what}")


class FileBody:
    """The body of a headed file, after its header line, read from the
    file a piece at a time (``piece`` slices it).  Each read opens the file
    afresh: nothing stays open, any thread may read, and a file replaced
    or cut short since its header was read gives a piece whose digest
    does not match, or ``ValueError``, never a wrong one."""

    __slots__ = ("_length", "_path", "_start")

    def __init__(self, path: str | os.PathLike[str], start: int, length: int) -> None:
        self._path = path
        self._start = start
        self._length = length

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, where: slice) -> bytes:
        if not isinstance(where, slice) or where.step not in (None, 1):
            msg = "a file's body is read by contiguous slices"
            raise TypeError(msg)
        start, stop, _ = where.indices(self._length)
        want = max(0, stop - start)
        try:
            with open(self._path, "rb") as file:
                file.seek(self._start + start)
                found = file.read(want)
        except OSError as exc:
            raise _fail(f"a piece unreadable ({exc.strerror})") from None
        if len(found) != want:
            raise _fail("a piece cut short (the file is shorter than its header says)")
        return found


#: A headed file's body: in memory (``headed``), or on disk (``headed_file``).
Body = memoryview | FileBody

#: Where a piece of a headed file lies: the file's body and the piece's
#: ``[offset, length, digest]``, read by ``piece`` when it is used.
Place = tuple[Body, object]


def record(data: object, keys: set[str]) -> dict[str, Any]:
    """``data`` when it is a JSON object with exactly the fields ``keys``."""
    if not isinstance(data, dict) or set(data) != keys:
        raise _fail("a record with other fields")
    return data


def listed(data: object) -> list[Any]:
    """``data`` when it is a list."""
    if not isinstance(data, list):
        raise _fail("a list expected")
    return data


def text(data: object) -> str:
    """``data`` when it is a string."""
    if not isinstance(data, str):
        raise _fail("a string expected")
    return data


def texts(data: object) -> tuple[str, ...]:
    """``data`` when it is a list of strings, as a tuple."""
    values = listed(data)
    # map, not a generator: one check per item, with no call of Python's.
    if not set(map(type, values)) <= {str}:
        raise _fail("strings expected")
    return tuple(values)


def boolean(data: object) -> bool:
    """``data`` when it is a boolean."""
    if not isinstance(data, bool):
        raise _fail("a boolean expected")
    return data


def integer(data: object, lo: int = -1, hi: int = 0x10FFFF + 1) -> int:
    """``data`` when it is an integer (not a boolean) from ``lo`` to ``hi``."""
    if not isinstance(data, int) or isinstance(data, bool) or not lo <= data <= hi:
        raise _fail("an integer in range expected")
    return data


def integers(data: object, lo: int = -1, hi: int = 0x10FFFF + 1) -> tuple[int, ...]:
    """``data`` when it is a list of integers from ``lo`` to ``hi``."""
    values = listed(data)
    # The types as a set, not a loop: integers, booleans refused.
    if not set(map(type, values)) <= {int} or (
        values and not lo <= min(values) <= max(values) <= hi
    ):
        raise _fail("integers in range expected")
    return tuple(values)


def pairs(data: object) -> list[tuple[Any, Any]]:
    """``data`` when it is a list of two-item lists, as pairs."""
    out = []
    for item in listed(data):
        pair = listed(item)
        if len(pair) != 2:
            raise _fail("a pair expected")
        out.append((pair[0], pair[1]))
    return out


def span(data: object, size: int) -> tuple[int, int]:
    """``data`` when it is an ``[offset, length]`` inside ``size`` bytes."""
    pair = listed(data)
    if (
        len(pair) != 2
        or not all(type(n) is int for n in pair)
        or pair[0] < 0
        or pair[1] < 0
        or pair[0] + pair[1] > size
    ):
        raise _fail("a span outside the file")
    return pair[0], pair[1]


def _constant(name: str) -> object:
    msg = f"{name} is not a JSON value"
    raise ValueError(msg)


class _Plain:
    """What json's C scanner reads of a decoder: plain JSON, no hooks,
    and ``NaN`` or ``Infinity`` refused."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_constant)


def loads(data: bytes) -> Any:
    """The JSON value ``data`` spells (ASCII, as ``compact_json`` writes
    it, with nothing around it); ``ValueError`` naming what is wrong for
    anything else, a value nested too deeply included.  Read with the C
    scanner that ``json`` itself uses, made for this call alone."""
    try:
        text = data.decode("ascii")
        if _make_scanner is None:
            value, end = json.loads(text), len(text)
        else:
            value, end = _make_scanner(_Plain())(text, 0)
    except StopIteration:
        raise _fail("not JSON") from None
    except RecursionError:
        raise _fail("JSON nested too deeply") from None
    except ValueError as exc:
        raise _fail(f"not JSON ({exc})") from None
    if end != len(text):
        raise _fail("bytes after the JSON value")
    return value


def compact_json(value: object) -> bytes:
    """``value`` as JSON without spaces, in ASCII: one spelling per value."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def digest(data: bytes) -> str:
    """The sha256 of ``data``, in hex: what a header keeps of each piece."""
    return hashlib.sha256(data).hexdigest()


def with_head(head: Mapping[str, object], body: bytes) -> bytes:
    """A file of ``head`` as a JSON line, then ``body``: what ``headed``
    reads.  The head names the pieces of the body, each with its digest."""
    return compact_json(head) + b"\n" + body


def headed(data: bytes, expected: Mapping[str, object]) -> tuple[dict[str, Any], memoryview] | str:
    """The header and body of a file ``with_head`` wrote, when the header
    holds every field of ``expected`` with its value; else why the file
    cannot be used.  The body is a view of ``data``, not a copy: a reader
    copies only the pieces it reads (``piece``)."""
    end = data.find(b"\n")
    if end < 0:
        return "truncated"
    found = _header(data[:end], expected)
    return found if isinstance(found, str) else (found, memoryview(data)[end + 1 :])


#: A header line longer than this is no header urigrammar wrote (a shipped
#: grammar's is tens of kilobytes): ``headed_file`` reads no further.
_MAX_HEADER = 1 << 20


def headed_file(
    path: str | os.PathLike[str], expected: Mapping[str, object]
) -> tuple[dict[str, Any], FileBody] | str | None:
    """``headed`` of the file at ``path``, reading only its header line:
    the body's pieces are read from the file when they are used
    (``FileBody``).  ``None`` when there is no file to read."""
    try:
        with open(path, "rb") as file:
            line = file.readline(_MAX_HEADER)
            size = os.fstat(file.fileno()).st_size
    except OSError:
        return None
    if not line.endswith(b"\n"):
        return "truncated" if len(line) < _MAX_HEADER else "damaged (its header is too long)"
    found = _header(line[:-1], expected)
    if isinstance(found, str):
        return found
    return found, FileBody(path, len(line), size - len(line))


def _header(line: bytes, expected: Mapping[str, object]) -> dict[str, Any] | str:
    try:
        found = loads(line)
    except ValueError:
        return "damaged (its header is not JSON)"
    if not isinstance(found, dict):
        return "damaged (its header is not a record)"
    for field, value in expected.items():
        if found.get(field) != value:
            return f"written for another {field} ({found.get(field)!r}, not {value!r})"
    return found


def piece(body: bytes | Body, where: object) -> bytes:
    """The piece of ``body`` that ``where`` names, ``[offset, length,
    digest]``, when it is there and its digest matches: a piece damaged in
    place is told from a good one when it is read, and a process checks
    only what it reads."""
    entry = listed(where)
    if len(entry) != 3:
        raise _fail("a piece is [offset, length, digest]")
    start, length = span(entry[:2], len(body))
    found = bytes(body[start : start + length])
    if digest(found) != entry[2]:
        raise _fail("a piece damaged or truncated (its digest does not match)")
    return found
