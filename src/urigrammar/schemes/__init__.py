"""Scheme profiles: URIs of one scheme (``urn``, ``http``, ``file``, ...)
checked against that scheme's own RFC grammar and prose, and parsed into
typed values.

Layers, each importing those below: ``_registry`` (``Schemes``, the
mapping of scheme names to profiles), ``_profile`` (``Profile`` and
``Requirement``, and the registry ``SCHEMES`` with ``register_scheme``),
``_value`` (``SchemeURI``, the value a profile returns, and
``parse_scheme``), then one module per scheme, which the registry imports
on first lookup, and so does a lookup of its value class here.  The grammars are the shipped
layer's (``urigrammar.shipped``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ._profile import SCHEMES, Profile, Requirement, register_scheme
from ._registry import Schemes
from ._value import SchemeURI, parse_scheme

if TYPE_CHECKING:
    from ._acct import AcctValue
    from ._data import DataValue
    from ._did import DIDValue
    from ._file import FilePathError, FileValue, NonLocalFileError
    from ._geo import GeoValue
    from ._http import HttpValue, http_profile
    from ._mailto import MailtoValue
    from ._ni import NiValue
    from ._tag import TagValue
    from ._tel import TelValue
    from ._urn import URNValue
    from ._ws import WsValue

__all__ = [
    "SCHEMES",
    "AcctValue",
    "DIDValue",
    "DataValue",
    "FilePathError",
    "FileValue",
    "GeoValue",
    "HttpValue",
    "MailtoValue",
    "NiValue",
    "NonLocalFileError",
    "Profile",
    "Requirement",
    "SchemeURI",
    "Schemes",
    "TagValue",
    "TelValue",
    "URNValue",
    "WsValue",
    "http_profile",
    "parse_scheme",
    "register_scheme",
]

#: Each scheme's value class, to the module that defines it: imported on
#: first use (PEP 562), as the registry imports the profile.
_LAZY: dict[str, str] = {
    "TelValue": "._tel",
    "DIDValue": "._did",
    "URNValue": "._urn",
    "MailtoValue": "._mailto",
    "DataValue": "._data",
    "FileValue": "._file",
    "FilePathError": "._file",
    "NonLocalFileError": "._file",
    "HttpValue": "._http",
    "WsValue": "._ws",
    "http_profile": "._http",
    "AcctValue": "._acct",
    "GeoValue": "._geo",
    "NiValue": "._ni",
    "TagValue": "._tag",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())
