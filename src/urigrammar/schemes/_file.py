"""The ``file`` scheme: RFC 8089, with Appendix E.2's drive letters and E.3.2's
UNC strings (``grammar/rfc8089-appendix-e3-2.abnf``'s ``file-URI``).

The grammar is section 2's, with the two nonstandard variations of Appendix
E that name Windows files and that RFC 3986 accepts:

* E.2, a drive letter with no slash before it: ``file:c:/path/to/file``
  (``file:///c:/path`` and ``file:/c:/path`` are section 2's own);
* E.3.2, a whole UNC string after an empty authority:
  ``file:////host/share/path`` and ``file://///host/share/path``
  (``file://host/share/path``, E.3.1's mapping, is section 2's own).

It leaves out E.1 (user information: section 2's ``file-auth`` is a host
only, and RFC 3986 section 3.2.1 deprecates a password) and E.2.2 (the
vertical line ``file:///c|/path``: RFC 3986 forbids ``|``, and E.2.2 says
such URIs are to be updated to ``:``; ``urigrammar.shipped.RFC8089_E2_2``
reads them).  The profile's verdict is RFC 3986's ``URI`` and that rule.

``FileValue.to_path`` and ``FileValue.from_path`` map between URIs and
``pathlib`` paths, POSIX or Windows (RFC 8089 Appendix D), and refuse,
with a ``FilePathError`` (a ``URIError``), every URI whose path would read
as a different path, and every path no file URI names.
"""

from __future__ import annotations

import os
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import TypeVar

from .._errors import URIError
from ..shipped import RFC8089_E2, RFC8089_E3_2, percent_decode, userinfo_secret
from ._profile import Profile
from ._value import SchemeURI

__all__ = ["FILE", "FilePathError", "FileValue", "NonLocalFileError"]

_P = TypeVar("_P", PurePosixPath, PureWindowsPath)


class FilePathError(URIError):
    """A file URI that names no path of the flavour asked for
    (``FileValue.to_path``), or a path that no file URI names
    (``FileValue.from_path``).  ``offset`` is where the URI goes wrong, or
    ``None`` for a path."""


class NonLocalFileError(FilePathError):
    """A non-local file URI (RFC 8089 section 3) asked for as a POSIX path:
    POSIX has no path for a file on another host."""


#: "localhost" is section 2's file-auth literal; ABNF compares a quoted
#: string without case (RFC 5234 section 2.3), so "LOCALHOST" matches it.
_LOCALHOST = "localhost"


def _triplet(char: str) -> str:
    """The percent-encoding of one character that no path segment admits
    (RFC 3986 section 2.1), as ``percent_encode`` writes it."""
    from ..uri import percent_encode

    return percent_encode(char, "segment")


class FileValue(SchemeURI):
    """A file URI (RFC 8089).  ``==`` and ``hash`` are the text's."""

    __slots__ = ()

    FIELDS = ("host", "path", "unc_host", "is_local")

    @property
    def host(self) -> str | None:
        """The authority's host as written: ``None`` when the URI has no
        authority (``file:/a``), ``""`` when it is empty (``file:///a``, and
        E.3.2's ``file:////host/share``, whose authority is empty too:
        ``unc_host`` has that host).  ``localhost`` stays ``localhost``: it
        is section 2's name for the local machine, which ``is_local`` says,
        and the text keeps it as written."""
        if self._group("auth-path") is None:
            return None
        return self._group("file-auth") or ""

    @property
    def path(self) -> str:
        """The path as written, percent-encoded: RFC 3986's path component,
        everything after the authority (``"c:/a"`` for E.2's ``file:c:/a``,
        ``"//host/share/a"`` for E.3.2's ``file:////host/share/a``)."""
        auth_path = self._group("auth-path")
        if auth_path is None:
            local = self._group("local-path")
            assert local is not None
            return local
        return auth_path[len(self._group("file-auth") or "") :]

    @property
    def unc_host(self) -> str | None:
        """The host of the UNC string an E.3.2 URI carries in its path, as
        written (``"host"`` for ``file:////host/share``), or ``None``."""
        return self._group("file-host")

    @property
    def is_local(self) -> bool:
        """Section 3: the URI has no file-auth, or it is "localhost" (in any
        case, RFC 5234 section 2.3), and (Appendix E.3.2) its path is no UNC
        string.  A host name is never looked up, so the name of this
        machine counts as non-local."""
        if self._group("file-host") is not None:
            return False
        host = self.host
        return not host or host.lower() == _LOCALHOST

    # --- to a path ------------------------------------------------------------

    def _segments(self, windows: bool) -> list[tuple[str, int]]:
        """Each segment of the path-absolute, percent-decoded as UTF-8
        (RFC 8089 section 4), with its offset in the text.  A decoded
        segment that holds NUL, or a separator of the flavour that came from
        a percent-encoding (``%2F``; ``%5C`` on Windows), would read as a
        different path (RFC 8089 section 5): ``FilePathError`` at it."""
        span = self._span("path-absolute")
        assert span is not None
        text = self.text
        banned = ("\0", "/", "\\") if windows else ("\0", "/")
        out: list[tuple[str, int]] = []
        offset = span[0] + 1
        for raw in text[offset : span[1]].split("/"):
            try:
                segment = percent_decode(raw)
            except URIError as exc:
                raise self._error(
                    f"the path is not UTF-8 (RFC 8089 section 4): {exc.message}",
                    offset + (exc.offset or 0),
                ) from None
            for char in banned:
                if char in segment:
                    where = raw.upper().find(_triplet(char))
                    flavour = "Windows" if windows else "POSIX"
                    raise self._error(
                        f"the segment decodes to {char!r}, which a {flavour} path cannot "
                        "hold in a name: it would read as a different path "
                        "(RFC 8089 section 5)",
                        offset + where,
                    )
            out.append((segment, offset))
            offset += len(raw) + 1
        return out

    def _error(
        self, message: str, offset: int, cls: type[FilePathError] = FilePathError
    ) -> FilePathError:
        return cls(
            message,
            rule="file-URI",
            text=self.text,
            offset=offset,
            secrets=userinfo_secret,
        )

    def to_path(self, windows: bool | None = None) -> PurePosixPath | PureWindowsPath:
        """The path this URI names: a ``PureWindowsPath`` when ``windows``,
        a ``PurePosixPath`` when not, and for ``None`` the running system's
        flavour (``os.name == "nt"``).

        The path is percent-decoded as UTF-8 (section 4).  On Windows a
        drive letter (``file:///c:/a``, ``file:/c:/a``, E.2's ``file:c:/a``)
        gives ``c:\\a``, the letter in the case written (section 2: the
        scheme retains the case as given; E.2: drive letters compare
        without case, as ``PureWindowsPath`` compares them), and a
        non-local host (``file://host/share/a``, E.3.2's
        ``file:////host/share/a``) gives the UNC path
        ``\\\\host\\share\\a``.  On POSIX, E.2's ``file:c:/a`` is
        ``/c:/a``, the path of ``file:///c:/a`` that E.2 says it stands for.

        ``FilePathError`` (a ``URIError``) for a URI that names no path of
        the flavour, rather than a path that names another file:

        * a decoded NUL, or a ``/`` (or on Windows ``\\``) decoded from
          ``%2F`` (``%5C``): the name would split, or end, elsewhere;
        * octets that are not UTF-8 (section 4);
        * on Windows, a local path without a drive letter (``\\a`` is
          relative to the current drive; section 2 says the path is
          absolute), a UNC path without a host or a share, or one that
          would be a Win32 namespace (``\\\\?\\``, ``\\\\.\\``: Appendix C
          defines no mapping);
        * on POSIX, ``NonLocalFileError`` for a non-local URI: POSIX has no
          path for a file on another host, and treating it as local is the
          security problem of section 5 (section 3: only a local URI
          translates to a local path).
        """
        if windows is None:
            windows = os.name == "nt"
        segments = self._segments(windows)
        if windows:
            return self._windows_path(segments)
        if not self.is_local:
            raise self._error(
                "a non-local file URI names no POSIX path (RFC 8089 section 3)",
                self._host_offset(),
                NonLocalFileError,
            )
        names = [name for name, _ in segments]
        drive = self._group("drive-letter")
        if drive is not None:
            names.insert(0, drive)
        return self._checked(PurePosixPath("/" + "/".join(names)), ("/",), names)

    def _host_offset(self) -> int:
        span = self._span("file-host") or self._span("file-auth")
        assert span is not None
        return span[0]

    def _windows_path(self, segments: list[tuple[str, int]]) -> PureWindowsPath:
        names = [name for name, _ in segments]
        start = segments[0][1] - 1
        if self.is_local:
            drive = self._group("drive-letter")
            if drive is None and RFC8089_E2.validate("drive-letter", names[0]):
                drive = names.pop(0)
            if drive is None:
                raise self._error(
                    "the path has no drive letter: on Windows it would be relative to "
                    "the current drive, and a file URI's path is absolute (RFC 8089 "
                    "section 2, Appendix D.2)",
                    start,
                )
            anchor = drive[0] + ":\\"
            return self._checked(PureWindowsPath(anchor + "\\".join(names)), (anchor,), names)
        host = self._unc_host_name()
        if not names[0]:
            raise self._error("a UNC path names a share after its host (Appendix E.3)", start)
        anchor = f"\\\\{host}\\{names[0]}\\"
        rest = names[1:]
        return self._checked(PureWindowsPath(anchor + "\\".join(rest)), (anchor,), rest)

    def _unc_host_name(self) -> str:
        """The host of the UNC path, percent-decoded (E.3.2's inline-IP
        ``%5B...%5D`` is the bracketed literal)."""
        written = self.unc_host
        if written is None:
            written = self.host or ""
        offset = self._host_offset()
        try:
            host = percent_decode(written)
        except URIError as exc:
            raise self._error(
                f"the host is not UTF-8: {exc.message}", offset + (exc.offset or 0)
            ) from None
        if not host:
            raise self._error("a UNC path names a host (Appendix E.3)", offset)
        if host in ("?", ".") or any(char in host for char in "\0/\\"):
            raise self._error(
                f"the host {host!r} would not read as a host of a UNC path: a Win32 "
                "namespace or another name (RFC 8089 Appendix C, section 5)",
                offset,
            )
        return host

    def _checked(self, path: _P, anchor: tuple[str, ...], names: list[str]) -> _P:
        """``path``, if pathlib reads it as ``anchor`` and ``names`` (less
        the empty and "." names, which name the same directory); else the
        path would name another file, and ``FilePathError``."""
        expected = (*anchor, *(name for name in names if name not in ("", ".")))
        if path.parts != expected:
            span = self._span("path-absolute")
            assert span is not None
            raise self._error(
                f"the path would read as {str(path)!r}, a different path (RFC 8089 section 5)",
                span[0],
            )
        return path

    # --- from a path ----------------------------------------------------------

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], *, windows: bool | None = None) -> FileValue:
        """The file URI of the absolute ``path``: ``file:///a/b`` for a
        POSIX path, ``file:///C:/a`` for a Windows path with a drive letter
        (Appendix D.2, as written: E.2 says drive letters compare without
        case), ``file://host/share/a`` for a UNC path (Appendix E.3.1).
        ``windows`` picks the flavour: ``None`` is the path's own for a
        ``PurePosixPath`` or ``PureWindowsPath``, else the running
        system's (``os.name == "nt"``).

        Each name is encoded as UTF-8 (section 4) and percent-encoded where
        RFC 3986's ``segment`` (the host: ``reg-name``) does not admit a
        character.  ``from_path(p).to_path()`` is ``p``.

        ``FilePathError`` (a ``URIError``, so a ``ValueError``) for a
        relative path; a name that is not Unicode text (a lone surrogate);
        a POSIX path that begins with exactly two slashes (POSIX leaves its
        meaning to the system, and ``file:////a`` is E.3.2's UNC string
        ``\\\\a``); a Windows drive that is not a letter; a Win32 namespace
        path (``\\\\?\\``, ``\\\\.\\``: Appendix C defines no mapping).  A
        UNC path on the host ``localhost`` is written in E.3.2's form,
        ``file:////localhost/share/a``, since ``file://localhost/...`` is a
        local URI (section 2).
        """
        if windows is None:
            if isinstance(path, PureWindowsPath):
                windows = True
            elif isinstance(path, PurePosixPath):
                windows = False
            else:
                windows = os.name == "nt"
        raw = os.fspath(path)
        if not isinstance(raw, str):
            msg = f"path must be str or os.PathLike[str], not {type(raw).__name__}"
            raise TypeError(msg)
        flavour: PurePath = PureWindowsPath(raw) if windows else PurePosixPath(raw)
        if not flavour.is_absolute():
            raise FilePathError(f"a relative path has no file URI (RFC 8089 section 2): {raw!r}")
        text = _windows_uri(flavour) if windows else _posix_uri(flavour)
        return FILE.parse(text)


def _encoded(name: str, rule: str) -> str:
    from ..uri import percent_encode

    try:
        return percent_encode(name, rule)
    except URIError as exc:
        msg = f"a name of the path is not Unicode text (RFC 8089 section 4): {exc.message}"
        raise FilePathError(msg) from None


def _posix_uri(path: PurePath) -> str:
    if path.root == "//":
        msg = (
            f"POSIX leaves a path that begins with two slashes to the system, and "
            f"file:////... is a UNC string (RFC 8089 Appendix E.3.2): {str(path)!r}"
        )
        raise FilePathError(msg)
    return "file:///" + "/".join(_encoded(name, "segment") for name in path.parts[1:])


def _windows_uri(path: PurePath) -> str:
    drive, names = path.drive, path.parts[1:]
    encoded = "/".join(_encoded(name, "segment") for name in names)
    if not drive.startswith("\\\\"):
        if not RFC8089_E2.validate("drive-letter", drive):
            msg = f"the drive is no letter (RFC 8089 Appendix E.2): {str(path)!r}"
            raise FilePathError(msg)
        return f"file:///{drive}/{encoded}"
    host, _, share = drive[2:].partition("\\")
    if not host or not share or host in ("?", "."):
        msg = (
            "a UNC path has a host and a share, and a Win32 namespace path has no "
            f"file URI (RFC 8089 Appendices C, E.3): {str(path)!r}"
        )
        raise FilePathError(msg)
    rest = f"{_encoded(share, 'segment')}/{encoded}" if names else _encoded(share, "segment")
    if host.lower() == _LOCALHOST:
        return f"file:////{_encoded(host, 'reg-name')}/{rest}"
    return f"file://{_encoded(host, 'reg-name')}/{rest}"


#: The ``file`` profile: RFC 8089 section 2 with Appendices E.2 and E.3.2.
FILE: Profile[FileValue] = Profile(
    "file",
    RFC8089_E3_2,
    "file-URI",
    value=FileValue,
    fields={
        "file_auth": "file-auth",
        "auth_path": "auth-path",
        "local_path": "local-path",
        "drive_letter": "drive-letter",
        "unc_host": "file-host",
        "path_absolute": "path-absolute",
    },
    cite="RFC 8089 section 2, Appendices E.2 and E.3.2",
)
