"""``SCHEMES``, the registry of scheme profiles, and ``parse_scheme``.

The shipped profiles are listed here by the module that defines each, and
imported when their scheme is first looked up: ``import urigrammar`` and
a lookup of ``urn`` never import the ``file`` profile's ``pathlib`` work.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .._errors import UnknownSchemeError
from ..shipped import RFC3986, userinfo_secret

if TYPE_CHECKING:
    from ..engine import Backend
    from ._profile import Profile
    from ._value import SchemeURI

__all__ = ["SCHEMES", "parse_scheme", "register_scheme"]

#: Each shipped scheme, lowercase, to the module (in this package) and the
#: name there of its profile.
_SHIPPED: dict[str, tuple[str, str]] = {
    "acct": ("._acct", "ACCT"),
    "data": ("._data", "DATA"),
    "did": ("._did", "DID"),
    "file": ("._file", "FILE"),
    "geo": ("._geo", "GEO"),
    "http": ("._http", "HTTP"),
    "https": ("._http", "HTTPS"),
    "mailto": ("._mailto", "MAILTO"),
    "ni": ("._ni", "NI"),
    "tag": ("._tag", "TAG"),
    "tel": ("._tel", "TEL"),
    "urn": ("._urn", "URN"),
    "ws": ("._ws", "WS"),
    "wss": ("._ws", "WSS"),
}


class Schemes(Mapping[str, "Profile[Any]"]):
    """The scheme profiles by scheme name: a read-only mapping, looked up
    without case (RFC 3986 section 3.1), listing lowercase names.

    The shipped profiles are there from the start; ``register_scheme`` adds
    one of your own."""

    __slots__ = ("_lock", "_mine")

    def __init__(self) -> None:
        self._mine: dict[str, Profile[Any]] = {}
        self._lock = threading.Lock()

    def __getitem__(self, scheme: str) -> Profile[Any]:
        if not isinstance(scheme, str):
            raise KeyError(scheme)
        key = scheme.lower()
        found = self._mine.get(key)
        if found is not None:
            return found
        where = _SHIPPED.get(key)
        if where is None:
            raise KeyError(scheme)
        module, name = where
        profile: Profile[Any] = getattr(importlib.import_module(module, __package__), name)
        with self._lock:
            return self._mine.setdefault(key, profile)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*_SHIPPED, *self._mine}))

    def __len__(self) -> int:
        return len({*_SHIPPED, *self._mine})

    def __contains__(self, scheme: object) -> bool:
        return isinstance(scheme, str) and scheme.lower() in {*_SHIPPED, *self._mine}

    def __repr__(self) -> str:
        return f"<urigrammar.SCHEMES: {', '.join(self)}>"

    def _register(self, profile: Profile[Any], replace: bool) -> None:
        with self._lock:
            for name in profile.schemes:
                if not replace and (name in self._mine or name in _SHIPPED):
                    msg = (
                        f"scheme {name!r} has a profile already; "
                        "register_scheme(profile, replace=True) replaces it"
                    )
                    raise ValueError(msg)
            for name in profile.schemes:
                self._mine[name] = profile


#: The scheme profiles, by lowercase scheme name.
SCHEMES = Schemes()


def register_scheme(profile: Profile[Any], *, replace: bool = False) -> None:
    """Add ``profile`` to ``SCHEMES`` under each of its schemes.  A scheme
    that has a profile already (shipped or yours) raises ``ValueError``
    unless ``replace``."""
    from ._profile import Profile

    if not isinstance(profile, Profile):
        msg = f"register_scheme takes a Profile, not {type(profile).__name__}"
        raise TypeError(msg)
    SCHEMES._register(profile, replace)


def parse_scheme(text: str, *, backend: Backend | None = None) -> SchemeURI:
    """The typed value of ``text`` by the profile of its scheme
    (``SCHEMES``).  ``URISyntaxError`` when it is no RFC 3986 ``URI`` or its
    profile rejects it; ``UnknownSchemeError`` (a ``URIError``) when no
    profile serves its scheme."""
    if not isinstance(text, str):
        msg = f"text must be str, not {type(text).__name__}"
        raise TypeError(msg)
    colon = text.find(":")
    scheme = text[:colon] if colon > 0 else ""
    if not scheme or not RFC3986.validate("scheme", scheme):
        RFC3986.check("URI", text)  # raises: no scheme, no URI
    try:
        profile = SCHEMES[scheme]
    except KeyError:
        known = ", ".join(SCHEMES)
        msg = f"no profile for the scheme {scheme!r}; urigrammar.SCHEMES has {known}"
        raise UnknownSchemeError(
            msg, rule="scheme", text=text, offset=0, secrets=userinfo_secret
        ) from None
    value: SchemeURI = profile.parse(text, backend=backend)
    return value
