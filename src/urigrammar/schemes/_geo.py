"""The ``geo`` scheme: RFC 5870, ``grammar/rfc5870.abnf``'s ``geo-URI``.

Fields follow section 3.3: the coordinates as written (``coord_a``,
``coord_b``, ``coord_c``; in WGS-84 latitude, longitude and altitude,
section 3.4.2), ``crs`` and ``uncertainty`` (the ``crs`` and ``u``
parameters' values as written, ``None`` when absent), and ``parameters``,
every other parameter in order as (name, value) pairs, value ``None``
without "=".  ``latitude``, ``longitude``, ``altitude`` and ``u`` read
them as ``Decimal``.

The prose adds what the ABNF does not say, each a requirement:

* section 3.3: "crs" and "u" appear at most once each, before any other
  parameter, "crs" first.  The ABNF orders ``crsp`` before ``uncp`` before
  ``*parameter``, but a ``parameter`` named "crs" or "u" matches too, so
  the requirement is that no ``parameter`` has either name (section 3.3:
  parameter names are case-insensitive);
* section 3.3's second block: where the CRS is WGS-84 (no "crs", or
  "wgs84" in any case, section 3.4.1), the coordinates match
  ``grammar/rfc5870-wgs84.abnf``'s ``coordinates``;
* section 3.4.2: there, a latitude beyond -90..90 or a longitude beyond
  -180..180 "MUST be considered invalid".

Each requirement is also a language (``grammar/rfc5870-requirements.abnf``),
so that the native back end validates with one DFA.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from ..shipped import RFC5870, RFC5870_REQUIREMENTS, RFC5870_WGS84
from ._profile import Profile, Requirement
from ._value import SchemeURI

if TYPE_CHECKING:
    from ..engine import RuleMatch

__all__ = ["GEO", "GeoValue"]

_RESERVED = ("crs", "u")
_WGS84 = "wgs84"


def _is_wgs84(match: RuleMatch) -> bool:
    """Section 3.4.1: the CRS is WGS-84 without a crs parameter, or with
    "wgs84" (section 3.3: crs values are case-insensitive)."""
    label = match.group("crslabel")
    return label is None or label.lower() == _WGS84


def _reserved_name(match: RuleMatch) -> int | None:
    if match.span("parameter") is None:
        return None  # no other parameter; reading every occurrence costs a replay
    text = match.text
    for start, end in match.spans("parameter"):
        name = text[start + 1 : end].partition("=")[0]
        if name.lower() in _RESERVED:
            return start
    return None


def _not_wgs84_coordinates(match: RuleMatch) -> int | None:
    span = match.span("coordinates")
    if span is None or not _is_wgs84(match):
        return None
    start, end = span
    if RFC5870_WGS84.validate("coordinates", match.text[start:end]):
        return None
    return start


def _out_of_range(match: RuleMatch) -> int | None:
    if not _is_wgs84(match):
        return None
    for rule, limit in (("coord-a", 90), ("coord-b", 180)):
        span = match.span(rule)
        if span is not None and abs(Decimal(match.text[span[0] : span[1]])) > limit:
            return span[0]
    return None


class GeoValue(SchemeURI):
    """A geo URI (RFC 5870).  Equal by exact text (section 3.4.4's
    comparison, numbers compared as numbers, is not implemented)."""

    __slots__ = ()

    FIELDS = ("coord_a", "coord_b", "coord_c", "crs", "uncertainty", "parameters")

    @property
    def coord_a(self) -> str:
        """The first coordinate as written (WGS-84: the latitude)."""
        found = self._group("coord-a")
        assert found is not None
        return found

    @property
    def coord_b(self) -> str:
        """The second coordinate as written (WGS-84: the longitude)."""
        found = self._group("coord-b")
        assert found is not None
        return found

    @property
    def coord_c(self) -> str | None:
        """The third coordinate as written (WGS-84: the altitude), or
        ``None`` (section 3.4.2: unknown altitude is left out)."""
        return self._group("coord-c")

    @property
    def crs(self) -> str | None:
        """The crs parameter's value as written, or ``None`` (section
        3.4.1: the CRS is then WGS-84)."""
        return self._group("crslabel")

    @property
    def uncertainty(self) -> str | None:
        """The u parameter's value as written (meters, section 3.4.3), or
        ``None``."""
        return self._group("uval")

    @property
    def parameters(self) -> tuple[tuple[str, str | None], ...]:
        """Every parameter but crs and u, in order, (name, value) as
        written; the value is ``None`` without "=" (section 3.3)."""
        text = self.text
        found = []
        for start, end in self._match.spans("parameter"):
            name, equals, value = text[start + 1 : end].partition("=")
            found.append((name, value if equals else None))
        return tuple(found)

    @property
    def is_wgs84(self) -> bool:
        """Whether the CRS is WGS-84 (section 3.4.1)."""
        return _is_wgs84(self._match)

    @property
    def latitude(self) -> Decimal:
        """``coord_a`` as a number (section 3.4.2; "-0" is 0, section 3.3)."""
        return Decimal(self.coord_a)

    @property
    def longitude(self) -> Decimal:
        """``coord_b`` as a number (section 3.4.2)."""
        return Decimal(self.coord_b)

    @property
    def altitude(self) -> Decimal | None:
        """``coord_c`` as a number, or ``None`` (section 3.4.2)."""
        found = self.coord_c
        return None if found is None else Decimal(found)

    @property
    def u(self) -> Decimal | None:
        """``uncertainty`` as a number, or ``None`` (section 3.4.3)."""
        found = self.uncertainty
        return None if found is None else Decimal(found)


_NEEDS = ("parameter", "crslabel", "coordinates", "coord-a", "coord-b")

#: The ``geo`` profile: RFC 5870 section 3.3, and the prose of sections
#: 3.3 and 3.4.2.
GEO: Profile[GeoValue] = Profile(
    "geo",
    RFC5870,
    "geo-URI",
    value=GeoValue,
    fields={
        "coord_a": "coord-a",
        "coord_b": "coord-b",
        "coord_c": "coord-c",
        "crs": "crslabel",
        "uncertainty": "uval",
        "parameter": "parameter",
    },
    requirements=[
        Requirement(
            "RFC 5870 section 3.3",
            "parameter",
            "crs and u appear at most once each, before any other parameter",
            _reserved_name,
            needs=_NEEDS,
            language=(RFC5870_REQUIREMENTS, "geo-reserved-once"),
        ),
        Requirement(
            "RFC 5870 section 3.3",
            "coordinates",
            "in WGS-84, coordinates are latitude, longitude and altitude",
            _not_wgs84_coordinates,
            needs=_NEEDS,
            language=(RFC5870_REQUIREMENTS, "geo-wgs84-coordinates"),
        ),
        Requirement(
            "RFC 5870 section 3.4.2",
            "coordinates",
            "in WGS-84, the latitude is within -90 to 90 and the longitude within -180 to 180",
            _out_of_range,
            needs=_NEEDS,
            language=(RFC5870_REQUIREMENTS, "geo-in-range"),
        ),
    ],
    cite="RFC 5870 section 3.3",
)
