"""The readers ``diff`` compares: RFC 3986 (urigrammar), the URL Standard
(Ada), and the Python parsers people chain, each checked by one library
and fetched by another: ``urllib.parse`` (the standard library), urllib3
(so requests), httpx, yarl (so aiohttp) and pydantic (rust-url, through
``pydantic_core``).

Each reader gives a ``Reading`` of a text: scheme, host, port and path as
the library reads them, or the error it raises.  Every library but the
standard library is optional: an extra (``urigrammar[urllib3]``,
``[httpx]``, ``[yarl]``, ``[pydantic]``), imported on the reader's first
use, so that naming readers costs nothing until they read; a reader whose
library is missing raises ``MissingExtraError``.  A reader reports its
library's version (``version``), which findings carry.

A reading against a base is the library's own joining where it has one
(``urljoin``, ``URL.join``); urllib3 and pydantic have none, and read the
text alone.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import platform
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from .._errors import HIDDEN, MissingExtraError, URIError
from ..uri import parse, resolve
from ._findings import Reading
from ._whatwg import whatwg_parse, whatwg_reading

__all__ = [
    "READERS",
    "Read",
    "Reader",
    "chosen_readers",
    "hidden_in",
    "reader",
    "spellings",
    "versions",
]


@dataclass(frozen=True, slots=True)
class Reader:
    """A reader: its name, the distribution whose version it reports (or
    ``None``: the running Python's), the extra that installs it, and the
    function that reads a text against a base (``None``: no base), giving
    the reading and the password the library reads."""

    name: str
    distribution: str | None
    extra: str | None
    read_secret: Callable[[str, str | None], Read]

    def read(self, text: str, base: str | None) -> Reading:
        """The reading of ``text`` against ``base`` (``None``: no base)."""
        return self.read_secret(text, base)[0]

    @property
    def version(self) -> str:
        """The reader's library version (Python's for ``urllib``)."""
        return _version(self.distribution)


@cache
def _version(distribution: str | None) -> str:
    if distribution is None:
        return platform.python_version()
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@cache
def _module(name: str, extra: str) -> Any:
    """The library ``name``, imported on a reader's first use: the readers
    are optional, and ``import urigrammar.differential`` imports none
    (kept once imported; a failed import is not)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        msg = f"the {name} reader needs {name}: pip install 'urigrammar[{extra}]'"
        raise MissingExtraError(msg) from None


def _port(value: object) -> str | None:
    return None if value is None or value == "" else str(value)


#: A reader's answer: its reading, and the password it reads in the text
#: (``None`` where it reads none), which no output may show.
Read = tuple[Reading, "str | None"]


def _failed(exc: BaseException) -> Read:
    """A library's error as a reading: its class and first line, which may
    quote the text; ``diff`` masks the passwords in every reading."""
    if isinstance(exc, MemoryError):
        raise exc
    first = str(exc).strip().splitlines()
    return Reading(error=f"{type(exc).__name__}: {first[0] if first else ''}"), None


def _rfc3986(text: str, base: str | None) -> Read:
    try:
        ref = parse(text)
        if base is not None:
            ref = resolve(parse(base), ref)
    except URIError as exc:
        return Reading(error=exc.message), None
    if ref.scheme is None:
        return Reading(error="a relative reference, which RFC 3986 reads only against a base"), None
    userinfo = ref.userinfo
    secret = None if userinfo is None or ":" not in userinfo else userinfo.partition(":")[2]
    found = Reading(
        scheme=ref.scheme, host=ref.host, host_kind=ref.host_kind, port=ref.port_text, path=ref.path
    )
    return found, secret


def _whatwg(text: str, base: str | None) -> Read:
    base_url = None if base is None else whatwg_parse(base, None)
    if base is not None and base_url is None:
        return whatwg_reading(None), None
    url = whatwg_parse(text, base_url)
    return whatwg_reading(url), None if url is None else url.password or None


# A library's failure on a text, whatever its exception (each raises its own
# kinds, and some an IndexError on what they do not expect), is its
# reading: it refuses the text.  MemoryError alone goes on (_failed).


def _urllib(text: str, base: str | None) -> Read:
    try:
        joined = text if base is None else urllib.parse.urljoin(base, text)
        split = urllib.parse.urlsplit(joined)
        port = split.port  # raises for a port that is no number in 0-65535
        secret = split.password
    except Exception as exc:  # the library's refusal (above)
        return _failed(exc)
    if not split.scheme:
        return Reading(error="no scheme"), secret
    found = Reading(scheme=split.scheme, host=split.hostname, port=_port(port), path=split.path)
    return found, secret


def _urllib3(text: str, base: str | None) -> Read:
    module = _module("urllib3", "urllib3")
    try:
        url = module.util.parse_url(text)
    except Exception as exc:  # the library's refusal (above)
        return _failed(exc)
    secret = None if not url.auth or ":" not in url.auth else url.auth.partition(":")[2]
    if not url.scheme:
        return Reading(error="no scheme"), secret
    found = Reading(scheme=url.scheme, host=url.host, port=_port(url.port), path=url.path or "")
    return found, secret


def _httpx(text: str, base: str | None) -> Read:
    module = _module("httpx", "httpx")
    try:
        url = module.URL(text) if base is None else module.URL(base).join(text)
        host, port, path = url.host, url.port, url.raw_path.decode("ascii").partition("?")[0]
        secret = url.password
    except Exception as exc:  # the library's refusal (above)
        return _failed(exc)
    if not url.scheme:
        return Reading(error="no scheme"), secret
    return Reading(scheme=url.scheme, host=host or None, port=_port(port), path=path), secret


def _yarl(text: str, base: str | None) -> Read:
    module = _module("yarl", "yarl")
    try:
        url = module.URL(text) if base is None else module.URL(base).join(module.URL(text))
        host, port, path = url.raw_host, url.explicit_port, url.raw_path
        secret = url.raw_password
    except Exception as exc:  # the library's refusal (above)
        return _failed(exc)
    if not url.scheme:
        return Reading(error="no scheme"), secret
    return Reading(scheme=url.scheme, host=host, port=_port(port), path=path), secret


def _pydantic(text: str, base: str | None) -> Read:
    module = _module("pydantic_core", "pydantic")
    try:
        url = module.Url(text)
        secret = url.password
    except Exception as exc:  # the library's refusal (above)
        return _failed(exc)
    found = Reading(scheme=url.scheme, host=url.host, port=_port(url.port), path=url.path or "")
    return found, secret


#: Every reader, by name, in the order findings name them.
READERS: dict[str, Reader] = {
    r.name: r
    for r in (
        Reader("rfc3986", "urigrammar", None, _rfc3986),
        Reader("whatwg", "can_ada", "whatwg", _whatwg),
        Reader("urllib", None, None, _urllib),
        Reader("urllib3", "urllib3", "urllib3", _urllib3),
        Reader("httpx", "httpx", "httpx", _httpx),
        Reader("yarl", "yarl", "yarl", _yarl),
        Reader("pydantic", "pydantic_core", "pydantic", _pydantic),
    )
}


def reader(name: object) -> Reader:
    """The reader named ``name`` (``URIError`` for another name)."""
    found = READERS.get(name) if isinstance(name, str) else None
    if found is None:
        msg = f"a reader is one of {', '.join(READERS)}, not {name!r}"
        raise URIError(msg)
    return found


def chosen_readers(readers: Iterable[str]) -> tuple[str, ...]:
    """The named readers, each once, in ``READERS``' order; ``URIError``
    for a name of no reader or fewer than two."""
    if isinstance(readers, str):
        msg = "readers takes names of readers, not one str"
        raise TypeError(msg)
    names = {reader(name).name for name in readers}
    if len(names) < 2:
        msg = f"diff compares two readers or more, among {', '.join(READERS)}"
        raise URIError(msg)
    return tuple(name for name in READERS if name in names)


def versions(names: tuple[str, str]) -> tuple[str, str]:
    """The library versions of a pair of readers."""
    return READERS[names[0]].version, READERS[names[1]].version


def spellings(secrets: set[str]) -> tuple[str, ...]:
    """Each password as written, percent-decoded and percent-encoded (the
    readers re-spell what they read), without the brackets, backslashes
    and tabs or newlines that some readers drop: longest first."""
    found = set()
    for secret in secrets:
        bare = secret.strip("[]\\").translate(_DROPPED)
        for spelled in (secret, bare):
            found |= {
                spelled,
                urllib.parse.unquote(spelled),
                urllib.parse.quote(spelled, safe=""),
                urllib.parse.quote(spelled, safe="!$&'()*+,;=:@"),
            }
    found.discard("")
    return tuple(sorted(found, key=len, reverse=True))


#: What the readers drop from a text before they read it.
_DROPPED = str.maketrans("", "", "\t\n\r")


def hidden_in(reading: Reading, secrets: tuple[str, ...]) -> Reading:
    """``reading`` with every one of ``secrets`` masked wherever it stands
    (another library's reading: a short password may hide more than
    itself, never less)."""
    if not secrets:
        return reading
    fields = {}
    for name in ("host", "path", "error"):
        value = getattr(reading, name)
        if value:
            for secret in secrets:
                value = value.replace(secret, HIDDEN)
            fields[name] = value
    return dataclasses.replace(reading, **fields)
