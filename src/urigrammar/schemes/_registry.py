"""``Schemes``, the mapping the registry of scheme profiles is
(``_profile.SCHEMES``).

The shipped profiles are listed here by the module that defines each, and
imported when their scheme is first looked up: ``import urigrammar`` and
a lookup of ``urn`` never import the ``file`` profile's ``pathlib`` work.
The mapping knows a profile only by what it reads of one (its
``schemes``), so that it sits below the module that defines profiles.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator, Mapping
from typing import Protocol, TypeVar

from .._errors import URIError

__all__ = ["Schemes"]


class _Serves(Protocol):
    """What the mapping reads of a profile."""

    @property
    def schemes(self) -> tuple[str, ...]: ...


P = TypeVar("P", bound=_Serves)

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


class Schemes(Mapping[str, P]):
    """The scheme profiles by scheme name: a read-only mapping, looked up
    without case (RFC 3986 section 3.1), listing lowercase names.

    The shipped profiles are there from the start; ``register_scheme`` adds
    one of your own."""

    __slots__ = ("_lock", "_mine")

    def __init__(self) -> None:
        self._mine: dict[str, P] = {}
        self._lock = threading.Lock()

    def __getitem__(self, scheme: str) -> P:
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
        profile: P = getattr(importlib.import_module(module, __package__), name)
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

    def _register(self, profile: P, replace: bool) -> None:
        with self._lock:
            for name in profile.schemes:
                if not replace and (name in self._mine or name in _SHIPPED):
                    msg = (
                        f"scheme {name!r} has a profile already; "
                        "register_scheme(profile, replace=True) replaces it"
                    )
                    raise URIError(msg, rule=name)
            for name in profile.schemes:
                self._mine[name] = profile
