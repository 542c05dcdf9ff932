"""The ``file`` profile (RFC 8089 section 2 with Appendices E.2 and E.3.2):
every example file URI of the RFC as a vector
(``tests/vectors/schemes/rfc8089.json``) with the POSIX and Windows paths it
names, the refusals ``to_path`` and ``from_path`` make rather than name
another file, and the profile against its oracles: ``abnf``'s reading of
the same grammar, RFC 3986's ``URI``, ``pathlib`` (``as_uri``, and
``Path.from_uri`` on Python 3.13 and later), ``urllib.request.url2pathname``
and ``nturl2path.url2pathname``.  Where the stdlib reads a URI otherwise
than RFC 8089 does, the difference is asserted, case by case."""

from __future__ import annotations

import nturl2path
import os
import pathlib
import pickle
import string
import sys
import urllib.request
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import unquote

import pytest
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, URIError, parse_scheme, validate
from urigrammar.engine import Backend
from urigrammar.schemes import FilePathError, FileValue, NonLocalFileError
from urigrammar.shipped import RFC8089, RFC8089_E2_2, RFC8089_E3_2

VECTORS = vectors("rfc8089.json")
VALID = VECTORS["valid"]
INVALID = VECTORS["invalid"]
PATHS = VECTORS["paths"]
FILE = SCHEMES["file"]
ERRORS: dict[str, type[URIError]] = {
    "FilePathError": FilePathError,
    "NonLocalFileError": NonLocalFileError,
}


# --- the RFC's examples --------------------------------------------------------


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_file_uri(row: dict[str, Any], backend: Backend) -> None:
    assert FILE.validate(row["text"], backend=backend)
    value = FILE.parse(row["text"], backend=backend)
    assert isinstance(value, FileValue)
    assert str(value) == row["text"]
    assert value.as_dict() == row["fields"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
@pytest.mark.parametrize("windows", [False, True], ids=["posix", "windows"])
def test_each_example_names_its_path(row: dict[str, Any], windows: bool) -> None:
    value = FILE.parse(row["text"])
    expected = row["windows" if windows else "posix"]
    if isinstance(expected, dict):
        with pytest.raises(ERRORS[expected["error"]]) as raised:
            value.to_path(windows)
        assert raised.value.offset is not None
        assert "^" in str(raised.value)
        return
    path = value.to_path(windows)
    assert type(path) is (PureWindowsPath if windows else PurePosixPath)
    assert str(path) == expected


VERTICAL = [row for row in INVALID if "updated" in row]


@pytest.mark.parametrize("row", VERTICAL, ids=ids(VERTICAL))
def test_the_vertical_line_is_e_2_2s_and_its_update_names_the_same_file(
    row: dict[str, Any],
) -> None:
    # E.2.2's grammar reads the old form; section 2 and RFC 3986 do not.
    assert RFC8089_E2_2.validate("file-URI", row["text"])
    assert not RFC8089.validate("file-URI", row["text"])
    assert not validate("URI", row["text"])
    # "To update such an old URI, replace the vertical line with a colon."
    assert row["updated"] == row["text"].replace("|", ":")
    assert FILE.parse(row["updated"]).to_path(windows=True) == PureWindowsPath("C:\\path\\to\\file")


@pytest.mark.parametrize("row", PATHS, ids=ids(PATHS))
def test_the_rfc_maps_these_paths(row: dict[str, Any]) -> None:
    windows = "windows" in row
    path = PureWindowsPath(row["windows"]) if windows else PurePosixPath(row["posix"])
    value = FileValue.from_path(path)
    assert str(value) == row["uri"]
    assert FILE.parse(row["uri"]).to_path(windows) == path


def test_a_value_is_registered_pickles_and_stays_immutable() -> None:
    value = parse_scheme("file://///host.example.com/share/a")
    assert isinstance(value, FileValue)
    again = pickle.loads(pickle.dumps(value))
    assert again == value
    assert again.unc_host == "host.example.com"
    with pytest.raises(AttributeError):
        value.host = "other"  # type: ignore[misc]


def test_the_default_flavour_is_the_running_systems() -> None:
    value = FILE.parse("file:///c:/a")
    flavour = PureWindowsPath if os.name == "nt" else PurePosixPath
    assert type(value.to_path()) is flavour
    root = "C:\\" if os.name == "nt" else "/"
    assert FileValue.from_path(root).to_path() == flavour(root)
    # A pure path keeps its own flavour, whatever the system.
    assert str(FileValue.from_path(PureWindowsPath("C:/a"))) == "file:///C:/a"
    assert str(FileValue.from_path(PurePosixPath("/C:/a"))) == "file:///C:/a"
    assert FileValue.from_path("C:\\a", windows=True).to_path(True) == PureWindowsPath("C:/a")


# --- what to_path refuses rather than name another file --------------------------


@pytest.mark.parametrize(
    ("text", "windows", "offset"),
    [
        ("file:///a%00b", False, 9),  # NUL ends a name for the system's calls
        ("file:///c:/a%00b", True, 12),
        ("file:///a%2Fb", False, 9),  # "%2F" would split the name "a/b" in two
        ("file:///c:/a%2fb", True, 12),
        ("file:///c:/a%5Cb", True, 12),  # "\" is a Windows separator too
        ("file:///a%E9", False, 9),  # not UTF-8 (section 4): a URIError
        ("file:///c:/%C3", True, 11),
    ],
)
def test_a_name_that_would_read_otherwise_is_refused(text: str, windows: bool, offset: int) -> None:
    value = FILE.parse(text)
    with pytest.raises(FilePathError) as raised:
        value.to_path(windows)
    assert isinstance(raised.value, URIError)
    assert not isinstance(raised.value, UnicodeError)
    assert raised.value.offset == offset
    assert raised.value.text == text


def test_a_backslash_is_a_name_on_posix() -> None:
    assert FILE.parse("file:///a%5Cb").to_path(False) == PurePosixPath("/a\\b")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("file:///a/b", "no drive letter"),  # "\a\b" is relative to the current drive
        ("file:/a/b", "no drive letter"),
        ("file:///c:bar/baz.txt", "no drive letter"),  # E.2.1: "might not be accepted"
        ("file://host.example.com/", "share"),  # a UNC path names a share
        ("file:////%3F/C:/a", "Win32"),  # \\?\C:\a: Appendix C maps no namespace
        ("file:////./pipe/x", "Win32"),  # \\.\pipe\x
        ("file://////h/p", "names a host"),  # E.3.2 with an empty file-host
    ],
)
def test_windows_refuses_a_uri_that_names_no_windows_path(text: str, why: str) -> None:
    with pytest.raises(FilePathError, match=why):
        FILE.parse(text).to_path(windows=True)


def test_a_bare_drive_is_the_root_of_the_drive() -> None:
    # Section 2: the path is absolute; "C:" alone would be drive-relative.
    path = FILE.parse("file:///c:").to_path(windows=True)
    assert str(path) == "c:\\"
    assert path.is_absolute()


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("file:c:/path", "c:\\path"),  # E.2
        ("file:C:/path", "C:\\path"),
        ("file:///c:/a", "c:\\a"),
        ("file:/C:/a", "C:\\a"),
        ("file://localhost/c:/a", "c:\\a"),
        ("file:///c:", "c:\\"),
        ("file:///%63:/a", "c:\\a"),  # "%63" is "c" (RFC 3986 section 2.3)
    ],
)
def test_a_drive_letter_keeps_its_case(text: str, path: str, backend: Backend) -> None:
    # Section 2: the scheme retains the case as given; E.2 says drive
    # letters compare without case, and that some usages upcase them, which
    # no requirement asks for.  pathlib keeps the case too, and compares
    # without it.
    found = FILE.parse(text, backend=backend).to_path(windows=True)
    assert str(found) == path == str(PureWindowsPath(path))
    assert found == PureWindowsPath(path.swapcase())


@pytest.mark.parametrize(
    "text",
    [
        "file://host.example.com/a",
        "file:////host.example.com/a",
        "file://///host.example.com/a",
        "file://127.0.0.1/a",
        "file://[::1]/a",
    ],
)
def test_posix_refuses_a_non_local_uri(text: str) -> None:
    value = FILE.parse(text)
    assert not value.is_local
    with pytest.raises(NonLocalFileError) as raised:
        value.to_path(windows=False)
    assert isinstance(raised.value, FilePathError)
    assert isinstance(raised.value, ValueError)
    assert text[raised.value.offset :].lstrip("/").startswith(("host", "127", "["))


def test_a_unc_host_is_decoded() -> None:
    assert FILE.parse("file:////%5B::1%5D/s/p").to_path(True) == PureWindowsPath("\\\\[::1]\\s\\p")
    assert FILE.parse("file://h%C3%A9/s").to_path(True) == PureWindowsPath("\\\\hé\\s")


# --- what from_path refuses --------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "windows"),
    [
        ("a/b", False),
        ("a\\b", True),
        ("\\a", True),  # rooted, no drive: relative to the current drive
        ("C:a", True),  # drive-relative
        ("//a/b", False),  # POSIX leaves it to the system; file:////a is E.3.2's UNC
        ("\\\\?\\C:\\a", True),  # a Win32 file namespace (Appendix C)
        ("\\\\.\\pipe\\x", True),  # a Win32 device namespace
        ("/a/\udcff", False),  # not Unicode text (section 4)
    ],
)
def test_from_path_refuses_a_path_no_file_uri_names(path: str, windows: bool) -> None:
    with pytest.raises(FilePathError) as raised:
        FileValue.from_path(path, windows=windows)
    assert isinstance(raised.value, ValueError)


def test_from_path_takes_text_paths_only() -> None:
    with pytest.raises(TypeError):
        FileValue.from_path(b"/a")  # type: ignore[arg-type]


def test_a_unc_path_on_localhost_is_written_as_e_3_2s_unc_string() -> None:
    # file://localhost/s/a is a local URI (section 2): the path \s\a.
    path = PureWindowsPath("\\\\localhost\\s\\a")
    value = FileValue.from_path(path)
    assert str(value) == "file:////localhost/s/a"
    assert not value.is_local
    assert value.to_path(True) == path


# --- against pathlib -----------------------------------------------------------------

POSIX_NAMES = st.text(
    st.characters(exclude_categories=("Cs",), exclude_characters="/\0"), min_size=1, max_size=6
).filter(lambda name: name != ".")
WINDOWS_NAMES = st.text(
    st.characters(exclude_categories=("Cs",), exclude_characters="/\\\0"),
    min_size=1,
    max_size=6,
).filter(lambda name: name != ".")
POSIX_PATHS = st.lists(POSIX_NAMES, max_size=4).map(
    lambda names: PurePosixPath("/" + "/".join(names))
)
DRIVES = st.sampled_from(string.ascii_letters).map(lambda letter: letter + ":")
HOSTS = st.from_regex(r"\A[A-Za-z0-9-]{1,8}(\.[A-Za-z0-9-]{1,8}){0,2}\Z").filter(
    lambda host: host.lower() != "localhost"
)
WINDOWS_PATHS = st.one_of(
    st.builds(
        lambda drive, names: PureWindowsPath(drive + "\\" + "\\".join(names)),
        DRIVES,
        st.lists(WINDOWS_NAMES, max_size=4),
    ),
    st.builds(
        lambda host, share, names: PureWindowsPath(f"\\\\{host}\\{share}\\" + "\\".join(names)),
        HOSTS,
        WINDOWS_NAMES,
        st.lists(WINDOWS_NAMES, max_size=3),
    ),
)


@given(POSIX_PATHS)
def test_posix_paths_round_trip(path: PurePosixPath) -> None:
    value = FileValue.from_path(path)
    assert FILE.validate(str(value))
    assert value.is_local
    back = value.to_path(windows=False)
    assert back == path
    assert str(back) == str(path)


@given(WINDOWS_PATHS)
def test_windows_paths_round_trip(path: PureWindowsPath) -> None:
    value = FileValue.from_path(path)
    assert FILE.validate(str(value))
    assert value.is_local is (path.drive[1:] == ":")
    assert value.to_path(windows=True) == path


@given(POSIX_PATHS)
def test_pathlib_as_uri_reads_back_on_posix(path: PurePosixPath) -> None:
    value = FILE.parse(path.as_uri())
    assert value.to_path(windows=False) == path


@given(WINDOWS_PATHS)
def test_pathlib_as_uri_reads_back_on_windows(path: PureWindowsPath) -> None:
    value = FILE.parse(path.as_uri())
    assert value.to_path(windows=True) == path


def test_pathlib_writes_a_double_slash_posix_path_as_a_unc_string() -> None:
    # Asserted difference: pathlib keeps POSIX's implementation-defined "//"
    # root and writes file:////a/b, which E.3.2 reads as the UNC string \\a\b.
    path = PurePosixPath("//a/b")
    assert path.as_uri() == "file:////a/b"
    value = FILE.parse(path.as_uri())
    assert value.unc_host == "a"
    with pytest.raises(NonLocalFileError):
        value.to_path(windows=False)
    assert value.to_path(windows=True) == PureWindowsPath("\\\\a\\b")


def test_pathlib_writes_a_unc_path_on_localhost_as_a_local_uri() -> None:
    # Asserted difference: pathlib writes \\localhost\s\a as
    # file://localhost/s/a, which section 2 reads as the local path \s\a,
    # a path with no drive on Windows.
    path = PureWindowsPath("\\\\localhost\\s\\a")
    assert path.as_uri() == "file://localhost/s/a"
    value = FILE.parse(path.as_uri())
    assert value.is_local
    with pytest.raises(FilePathError, match="no drive letter"):
        value.to_path(windows=True)
    assert FileValue.from_path(path).to_path(windows=True) == path


def test_pathlib_writes_a_win32_namespace_path_as_a_host() -> None:
    # Asserted difference: pathlib writes \\?\C:\a as file://%3F/C%3A/a;
    # Appendix C defines no mapping for it, and to_path refuses the host "?".
    path = PureWindowsPath("\\\\?\\C:\\a")
    assert path.as_uri() == "file://%3F/C%3A/a"
    with pytest.raises(FilePathError, match="Win32"):
        FILE.parse(path.as_uri()).to_path(windows=True)


NEEDS_FROM_URI = pytest.mark.skipif(
    sys.version_info < (3, 13) or os.name == "nt",
    reason="pathlib.Path.from_uri is new in Python 3.13 (compared on POSIX systems)",
)


@NEEDS_FROM_URI
@given(POSIX_PATHS)
def test_path_from_uri_agrees_on_local_posix_paths(path: PurePosixPath) -> None:
    text = str(FileValue.from_path(path))
    after = text[len("file://") :][2:3]  # the character after "/x"
    # Asserted difference: from_uri takes "/x:" for a DOS drive on every
    # system and then finds the path relative; 3.13.0 also does when the
    # path is "/" or "/x" (its test `path[2:3] in ':|'` holds for "").
    if after == ":" or (after == "" and sys.version_info[:3] == (3, 13, 0)):
        with pytest.raises(ValueError, match="not absolute"):
            pathlib.Path.from_uri(text)  # type: ignore[attr-defined]
        return
    assert pathlib.Path.from_uri(text) == pathlib.Path(str(path))  # type: ignore[attr-defined]


@NEEDS_FROM_URI
@pytest.mark.parametrize(
    ("text", "theirs"),
    [
        ("file:///ab%2Fc", "/ab/c"),  # the "/" from %2F splits the name
        ("file:///ab%00c", "/ab\0c"),  # NUL kept in the name
        ("file://host/ab", "//host/ab"),  # a host becomes POSIX's "//" root
        ("file:////host/ab", "//host/ab"),  # and E.3.2's UNC string too
    ],
)
def test_path_from_uri_reads_these_as_paths_to_path_refuses(text: str, theirs: str) -> None:
    assert pathlib.Path.from_uri(text) == pathlib.Path(theirs)  # type: ignore[attr-defined]
    with pytest.raises(FilePathError):
        FILE.parse(text).to_path(windows=False)


# --- against urllib.request.url2pathname and nturl2path ------------------------------

# Names of a path segment: a few pchars, and the percent-encodings whose
# decoding is where RFC 8089 and the stdlib part.
PIECES = st.sampled_from(
    [
        *("a", "B", "z9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ","),
        *(";", "=", "@", "%20", "%C3%A9", "%25", "%2F", "%2f", "%5C", "%00", "%E9"),
    ]
)
SEGMENTS = st.lists(PIECES, min_size=1, max_size=4).map("".join)
PATH_ABSOLUTE = st.lists(SEGMENTS, min_size=1, max_size=4).map(lambda s: "/" + "/".join(s))


def _decodes_to(text: str, triplets: tuple[str, ...]) -> bool:
    return any(t in text.upper() for t in triplets)


@given(st.sampled_from(["file:", "file://", "file://localhost", "FILE://LocalHost"]), PATH_ABSOLUTE)
def test_posix_paths_against_url2pathname(prefix: str, path: str) -> None:
    text = prefix + path
    value = FILE.parse(text)
    theirs = urllib.request.url2pathname(value.path)  # POSIX: unquote, with "replace"
    if _decodes_to(path, ("%2F", "%00", "%E9")):
        # Asserted difference: url2pathname splits a name at a decoded "/",
        # keeps NUL, and puts U+FFFD for octets that are not UTF-8; to_path
        # refuses each (RFC 8089 sections 4 and 5).
        with pytest.raises(FilePathError):
            value.to_path(windows=False)
        if _decodes_to(path, ("%00",)):
            assert "\0" in theirs
        elif _decodes_to(path, ("%E9",)):
            assert "\ufffd" in theirs
        else:
            assert theirs.count("/") > path.count("/")
        return
    assert value.to_path(windows=False) == PurePosixPath(theirs)


def test_url2pathname_leaves_e_2s_drive_relative_on_posix() -> None:
    # Asserted difference: url2pathname of E.2's path "c:/a" is relative;
    # to_path reads it as file:///c:/a, which E.2 says it stands for.
    value = FILE.parse("file:c:/a")
    assert urllib.request.url2pathname(value.path) == "c:/a"
    assert value.to_path(windows=False) == PurePosixPath("/c:/a")


WINDOWS_URIS = st.one_of(
    st.builds(
        lambda prefix, drive, path: f"{prefix}{drive}{path}",
        st.sampled_from(["file:///", "file:/", "file://localhost/", "file:"]),
        DRIVES,
        PATH_ABSOLUTE,
    ),
    st.builds(
        lambda prefix, host, path: f"{prefix}{host}{path}",
        st.sampled_from(["file://", "file:////"]),
        HOSTS,
        PATH_ABSOLUTE,
    ),
)


def _nt_input(value: FileValue) -> str:
    """What nturl2path.url2pathname reads of a URI: the path component for
    a local URI, as urllib's FileHandler passes it (it keeps the host
    apart), and everything after "file:" for a non-local one, which it
    reads as a UNC string."""
    return value.path if value.is_local else value.text[len("file:") :]


@given(WINDOWS_URIS)
def test_windows_paths_against_nturl2path(text: str) -> None:
    value = FILE.parse(text)
    theirs = nturl2path.url2pathname(_nt_input(value))
    if _decodes_to(value.path, ("%2F", "%5C", "%00", "%E9")):
        # Asserted difference: nturl2path keeps NUL and U+FFFD in a name and
        # splits it at a decoded "\" (a "/" splits it in pathlib); to_path
        # refuses each (RFC 8089 sections 4 and 5).
        with pytest.raises(FilePathError):
            value.to_path(windows=True)
        if _decodes_to(value.path, ("%00",)):
            assert "\0" in theirs
        elif _decodes_to(value.path, ("%E9",)):
            assert "\ufffd" in theirs
        else:
            # nturl2path returns a path, but no Windows path has a name
            # holding "/" or "\\": the name the URI encodes is not in it.
            names = [unquote(segment) for segment in value.path.split("/")]
            split = [name for name in names if "/" in name or "\\" in name]
            assert split
            assert not set(split) & set(PureWindowsPath(theirs).parts[1:])
        return
    assert value.to_path(windows=True) == PureWindowsPath(theirs)


@pytest.mark.parametrize(
    ("text", "theirs", "ours"),
    [
        # A local path with no drive: nturl2path gives the drive-relative
        # "\a"; section 2's path is absolute, and to_path refuses it.
        ("file:///a/b", "\\a\\b", None),
        # A drive letter: nturl2path writes it in upper case; to_path keeps
        # the case as given (section 2), as pathlib does.
        ("file:///c:/a", "C:\\a", "c:\\a"),
        # A bare drive: nturl2path gives "C:", drive-relative; to_path gives
        # the root of the drive.
        ("file:///c:", "C:", "c:\\"),
        # E.2.1's drive followed by a name: nturl2path drops the name's
        # place; to_path refuses (not "accepted as dereferenceable").
        ("file:///c:bar/baz", "C:\\bar\\baz", None),
        # E.3.2's extra slash: nturl2path keeps three backslashes.
        ("file://///h/s/a", "\\\\\\h\\s\\a", "\\\\h\\s\\a"),
        # A second ":" in the path: nturl2path refuses ("Bad URL").
        ("file:///c:/a:b", OSError, "c:\\a:b"),
        # An encoded drive colon: nturl2path sees no drive.
        ("file:///c%3A/a", "\\c:\\a", "c:\\a"),
    ],
)
def test_nturl2path_differs_from_rfc_8089_here(
    text: str, theirs: str | type[Exception], ours: str | None
) -> None:
    value = FILE.parse(text)
    if isinstance(theirs, str):
        assert nturl2path.url2pathname(_nt_input(value)) == theirs
    else:
        with pytest.raises(theirs):
            nturl2path.url2pathname(_nt_input(value))
    if ours is None:
        with pytest.raises(FilePathError):
            value.to_path(windows=True)
    else:
        assert str(value.to_path(windows=True)) == ours


# --- the verdict against abnf's reading of the grammar ---------------------------------

FILE_TEXTS = st.builds(
    lambda scheme, middle, path, tail: f"{scheme}:{middle}{path}{tail}",
    st.sampled_from(["file", "FILE", "File", "fil", "http"]),
    st.sampled_from(
        [
            *("", "//", "///", "////", "/////", "//localhost", "//h.example", "//u@h", "//[::1]"),
            *("////%5B::1%5D", "////1.2.3.4", "c:", "c|", "/c:", "/c|", "cc:", "1:", "%63:"),
        ]
    ),
    st.one_of(st.just(""), PATH_ABSOLUTE, SEGMENTS),
    st.sampled_from(["", "?q", "#f", "|", " ", "%", "%zz", "\\"]),
)


@given(FILE_TEXTS)
def test_the_verdict_is_rfc_3986_and_the_rfc_8089_rule(text: str) -> None:
    expected = validate("URI", text) and RFC8089_E3_2.abnf_parse("file-URI", text) is not None
    assert FILE.validate(text) is expected


@given(st.one_of(FILE_TEXTS, WINDOWS_URIS), st.booleans())
def test_to_path_raises_only_uri_errors(text: str, windows: bool) -> None:
    if not FILE.validate(text):
        return
    value = FILE.parse(text)
    try:
        path = value.to_path(windows)
    except FilePathError:
        return
    # Whatever it returns is an absolute path of the flavour asked for.
    assert type(path) is (PureWindowsPath if windows else PurePosixPath)
    assert path.is_absolute()
