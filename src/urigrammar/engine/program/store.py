"""The per-user cache of compiled user grammars: a directory nobody else
can write, files written whole or not at all.

Where: ``URIGRAMMAR_CACHE_DIR`` when set, else the platform's user cache
directory (``$XDG_CACHE_HOME/urigrammar`` or ``~/.cache/urigrammar`` on
Linux and other POSIX systems, ``~/Library/Caches/urigrammar`` on macOS,
``%LOCALAPPDATA%\\urigrammar\\Cache`` on Windows).

Trust.  A compiled grammar decides what a program accepts, so a file that
another user could have written must never be read.  Each use opens the
directory once (created with mode 0700 when missing), without following
a symbolic link, and checks it through that descriptor: a directory,
owned by the current user and not writable by group or others.  Every
read, write, rename and removal then names its file relative to that
descriptor (``dir_fd``), so the directory checked is the one used.  Files
are opened without following symbolic links (``O_NOFOLLOW``), without
waiting on a FIFO (``O_NONBLOCK``), and checked the same way through the
open descriptor: a regular file, owned by this user.  A file is written to
a new temporary file in the same directory (created exclusively, mode
0600) and renamed over the old one, so a reader sees the old file or the
new one, never half of either, and two writers leave one of their files.  Anything that fails a
check is ignored, never trusted: the reason is logged on the
``urigrammar.cache`` logger, and the grammar is compiled from its text.

The files hold data only (``artifact``): nothing in them can run code.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..base import wire

if TYPE_CHECKING:
    import logging
    from pathlib import Path

__all__ = [
    "CacheStore",
    "PackageStore",
    "Store",
    "cache_dir",
    "clear",
    "log",
    "problem",
    "read",
    "write",
]


def log() -> logging.Logger:
    """The ``urigrammar.cache`` logger, where every refusal is said:
    ``logging`` is imported only when there is something to say (it costs
    as much to import as a first ``validate``)."""
    import logging

    return logging.getLogger("urigrammar.cache")


_SUFFIX = ".json"


def cache_dir() -> Path:
    """The cache directory, whether or not it exists yet: ``URIGRAMMAR_CACHE_DIR``
    when set, else the platform's user cache directory.

    >>> import urigrammar
    >>> print("cache:", urigrammar.cache_dir())
    cache: ...
    """
    # pathlib, imported for the cache alone: a process that reads shipped
    # grammars never imports it.
    from pathlib import Path

    chosen = os.environ.get("URIGRAMMAR_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "urigrammar" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "urigrammar"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "urigrammar"


def _unsafe(info: os.stat_result, what: str) -> str | None:
    """Why a file or directory with this ``stat`` cannot be trusted."""
    getuid = getattr(os, "getuid", None)
    if getuid is not None and info.st_uid != getuid():
        return f"{what} is owned by user {info.st_uid}, not by this user ({getuid()})"
    if getuid is not None and info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{what} is writable by group or others (mode {stat.filemode(info.st_mode)})"
    return None


# Every operation on the cache goes through one descriptor of its
# directory, opened without following a symbolic link and checked through
# that descriptor (fstat): a path checked, then resolved again to use, could
# meanwhile lead elsewhere (another user who can write the directory's
# parent can swap it for a link).  Where the platform has no dir_fd
# (Windows), paths are used, after the same checks.
_DIR_FD = os.open in os.supports_dir_fd and os.scandir in os.supports_fd
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class _Directory:
    """The cache directory, open: ``fd`` (or ``None`` without dir_fd) and
    the path, for messages and the platforms without dir_fd."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self.fd = fd

    def at(self, name: str) -> str:
        """``name`` as the calls below take it: relative to ``fd``, or a path."""
        return name if self.fd is not None else os.fspath(self.path / name)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


def _create(directory: Path) -> str | None:
    if os.path.lexists(directory):
        return None
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        directory.mkdir(mode=0o700)
    except FileExistsError:
        pass  # made by another process meanwhile: checked when opened
    except OSError as exc:
        return f"cannot create {directory}: {exc.strerror or exc}"
    return None


def _open(directory: Path, *, create: bool = True) -> _Directory | str:
    """The cache directory, open and checked, or why it cannot be used;
    created (mode 0700) when missing and ``create``."""
    reason = _create(directory) if create else None
    if reason is not None:
        return reason
    if not _DIR_FD:
        reason = _path_problem(directory)
        return reason if reason is not None else _Directory(directory, None)
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW
    try:
        fd = os.open(directory, flags)
    except OSError as exc:  # ELOOP: a symbolic link; ENOTDIR: no directory
        if os.path.islink(directory):
            return f"{directory} is a symbolic link"
        if os.path.lexists(directory) and not os.path.isdir(directory):
            return f"{directory} is not a directory"
        return f"{directory}: {exc.strerror or exc}"
    info = os.fstat(fd)
    reason = (
        f"{directory} is not a directory"
        if not stat.S_ISDIR(info.st_mode)
        else _unsafe(info, str(directory))
    )
    if reason is not None:
        os.close(fd)
        return reason
    return _Directory(directory, fd)


def _path_problem(directory: Path) -> str | None:
    try:
        info = os.lstat(directory)
    except OSError as exc:
        return f"{directory}: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return f"{directory} is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return f"{directory} is not a directory"
    return _unsafe(info, str(directory))


def problem(directory: Path, *, create: bool = True) -> str | None:
    """Why ``directory`` cannot be used as the cache, or ``None`` when it
    can; created (mode 0700) when missing and ``create``."""
    opened = _open(directory, create=create)
    if isinstance(opened, str):
        return opened
    opened.close()
    return None


def _checked(directory: Path) -> _Directory | None:
    opened = _open(directory)
    if isinstance(opened, str):
        log().warning("urigrammar: not using the cache: %s", opened)
        return None
    return opened


def read(directory: Path, name: str) -> bytes | None:
    """The file ``name`` of the cache, or ``None`` (missing, or refused:
    the reason is logged)."""
    opened = _checked(directory)
    if opened is None:
        return None
    try:
        return _read(opened, name + _SUFFIX)
    finally:
        opened.close()


def _read(opened: _Directory, name: str) -> bytes | None:
    path = opened.path / name
    # O_NONBLOCK: a FIFO planted under the name opens at once (a plain open
    # would wait for a writer forever), and fstat then refuses it.
    flags = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(opened.at(name), flags, dir_fd=opened.fd)
    except FileNotFoundError:
        return None
    except OSError as exc:  # ELOOP: a symbolic link
        log().warning("urigrammar: not reading %s: %s", path, exc.strerror or exc)
        return None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        reason = (
            f"{path} is not a regular file"
            if not stat.S_ISREG(info.st_mode)
            else _unsafe(info, str(path))
        )
        if reason is not None:
            log().warning("urigrammar: not reading the cache: %s", reason)
            return None
        return file.read()


def write(directory: Path, name: str, data: bytes) -> bool:
    """Put ``data`` in the cache as ``name``, atomically; whether it was."""
    opened = _checked(directory)
    if opened is None:
        return False
    try:
        return _write(opened, name + _SUFFIX, data)
    finally:
        opened.close()


def _write(opened: _Directory, name: str, data: bytes) -> bool:
    # A new file of a name nobody else made (O_EXCL), mode 0600, renamed
    # over the old one: a reader sees one file or the other, never half.
    temporary = f".tmp-{os.urandom(8).hex()}{_SUFFIX}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
    try:
        fd = os.open(opened.at(temporary), flags, 0o600, dir_fd=opened.fd)
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(
            opened.at(temporary), opened.at(name), src_dir_fd=opened.fd, dst_dir_fd=opened.fd
        )
    except OSError as exc:
        log().warning("urigrammar: cannot write to the cache: %s", exc.strerror or exc)
        with contextlib.suppress(OSError):
            os.unlink(opened.at(temporary), dir_fd=opened.fd)
        return False
    return True


def clear(directory: Path) -> int:
    """Remove the cache's files (compiled grammars and leftover temporary
    files); how many.  A directory that fails the checks is left alone:
    ``OSError`` with the reason."""
    if not os.path.lexists(directory):
        return 0
    opened = _open(directory, create=False)
    if isinstance(opened, str):
        raise OSError(opened)
    removed = 0
    try:
        with os.scandir(opened.fd if opened.fd is not None else directory) as entries:
            names = [
                entry.name
                for entry in entries
                if entry.name.endswith(_SUFFIX) and entry.is_file(follow_symlinks=False)
            ]
        for name in names:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(opened.at(name), dir_fd=opened.fd)
                removed += 1
    finally:
        opened.close()
    return removed


class Store:
    """Where one grammar's compiled form (``artifact``) is kept."""

    #: Whether new programs are written back.
    writable = False

    def read(self) -> bytes | None:
        """The file's bytes, or ``None`` when there is none to be trusted."""
        raise NotImplementedError

    def headed(
        self, expected: Mapping[str, object]
    ) -> tuple[dict[str, Any], wire.Body] | str | None:
        """The file's header, checked against ``expected``, and its body
        (``wire.headed``); why it cannot be used; or ``None`` when there is
        no file to be trusted."""
        data = self.read()
        return None if data is None else wire.headed(data, expected)

    def write(self, data: bytes) -> bool:
        """Keep ``data`` as the file; whether it was kept."""
        return False


class PackageStore(Store):
    """A file shipped inside the package, computed when the wheel was built
    (``hatch_build.py``): read only."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path

    def __str__(self) -> str:
        return os.fspath(self.path)

    def read(self) -> bytes | None:
        try:
            with open(self.path, "rb") as file:
                return file.read()
        except OSError:
            return None  # not built (a source checkout): compiled on use

    def headed(
        self, expected: Mapping[str, object]
    ) -> tuple[dict[str, Any], wire.Body] | str | None:
        # The header only: a shipped grammar's file holds every program of
        # its rules (a megabyte), and a process reads the few it runs.
        return wire.headed_file(self.path, expected)


class CacheStore(Store):
    """An entry of the per-user cache: read and written."""

    writable = True

    def __init__(self, directory: Path, name: str) -> None:
        self.directory = directory
        self.name = name

    def __str__(self) -> str:
        return str(self.directory / (self.name + _SUFFIX))

    def read(self) -> bytes | None:
        return read(self.directory, self.name)

    def write(self, data: bytes) -> bool:
        return write(self.directory, self.name, data)
