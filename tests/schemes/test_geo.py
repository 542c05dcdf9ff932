"""The ``geo`` profile (RFC 5870): every geo URI of the RFC as a vector
(``tests/vectors/schemes/rfc5870.json``), section 3.3's parameter order,
the WGS-84 coordinates and section 3.4.2's ranges, and ``abnf``'s reading
of the same grammars, with ``decimal`` for the ranges, as the oracle."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from _languages import agree, damaged
from _trees import values
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, parse_scheme, validate
from urigrammar.engine import Backend
from urigrammar.schemes import GeoValue
from urigrammar.shipped import RFC5870, RFC5870_WGS84
from urigrammar.strategies import from_rule

VECTORS = vectors("rfc5870.json")
VALID = VECTORS["valid"]
GEO = SCHEMES["geo"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_geo_uri(row: dict[str, Any], backend: Backend) -> None:
    assert GEO.validate(row["text"], backend=backend)
    value = GEO.parse(row["text"], backend=backend)
    assert isinstance(value, GeoValue)
    assert str(value) == row["text"]
    fields = value.as_dict()
    fields["parameters"] = [list(pair) for pair in fields["parameters"]]
    assert fields == row["fields"]


def test_numbers_read_as_decimals() -> None:
    value = parse_scheme("geo:48.2010,16.3695,183;u=40.5")
    assert isinstance(value, GeoValue)
    assert (value.latitude, value.longitude, value.altitude) == (
        Decimal("48.2010"),
        Decimal("16.3695"),
        Decimal(183),
    )
    assert value.u == Decimal("40.5")
    assert value.is_wgs84
    other = parse_scheme("geo:1,2;crs=other")
    assert isinstance(other, GeoValue)
    assert (other.altitude, other.u, other.is_wgs84) == (None, None, False)


def _keeps_the_prose(tree: Any) -> bool:
    """Sections 3.3 and 3.4.2 read from abnf's tree of RFC 5870's
    geo-URI: no parameter named crs or u; in WGS-84 the coordinates are
    RFC5870_WGS84's and within range."""
    for parameter in values(tree, "parameter"):
        if parameter[1:].partition("=")[0].lower() in ("crs", "u"):
            return False
    labels = values(tree, "crslabel")
    if labels and labels[0].lower() != "wgs84":
        return True
    coordinates = values(tree, "coordinates")[0]
    if RFC5870_WGS84.abnf_parse("coordinates", coordinates) is None:
        return False
    latitude, longitude = (Decimal(part) for part in coordinates.split(",")[:2])
    return abs(latitude) <= 90 and abs(longitude) <= 180


GEO_TEXTS = st.one_of(
    from_rule("geo-URI", RFC5870),
    st.builds(
        "geo:{},{}{}".format,
        st.decimals(-200, 200, places=2).map(str),
        st.decimals(-200, 200, places=3).map(str),
        st.lists(
            st.sampled_from([";crs=wgs84", ";crs=WGS84", ";crs=x", ";u=5", ";U=1", ";a=b", ";c"]),
            max_size=3,
        ).map("".join),
    ),
    st.text(alphabet="-0123456789.,;=crsuwg84%A", max_size=24).map(lambda t: "geo:" + t),
)


@given(GEO_TEXTS)
def test_the_verdict_is_rfc_3986_abnf_and_the_prose(text: str) -> None:
    tree = RFC5870.abnf_parse("geo-URI", text)
    expected = validate("URI", text) and tree is not None and _keeps_the_prose(tree)
    assert GEO.validate(text) is expected


@given(GEO_TEXTS)
def test_fields_agree_with_abnfs_tree(text: str) -> None:
    if not GEO.validate(text):
        return
    value = GEO.parse(text)
    tree = RFC5870.abnf_parse("geo-URI", text)
    assert [value.coord_a, value.coord_b] == values(tree, "coord-a") + values(tree, "coord-b")
    assert [value.coord_c] == (values(tree, "coord-c") or [None])
    assert [value.crs] == (values(tree, "crslabel") or [None])
    assert [value.uncertainty] == (values(tree, "uval") or [None])
    assert [name + ("" if v is None else "=" + v) for name, v in value.parameters] == [
        p[1:] for p in values(tree, "parameter")
    ]


#: Labels near the reserved names and "wgs84": one character off, one
#: shorter or longer, in either case.
_NEAR = st.sampled_from(
    ["crs", "CRS", "cr", "crsx", "xrs", "cxs", "crx", "u", "U", "v", "uu", "wgs84", "WGS84",
     "wgs8", "wgs840", "xgs84", "wxs84", "wgx84", "wgs94", "wgs85", "w-s84", "-"]
)  # fmt: skip
_NEAR_TEXTS = st.builds(
    lambda a, b, params: f"geo:{a},{b}" + "".join(params),
    st.sampled_from(["90", "90.0", "90.01", "-090", "0089.9", "91", "1", "100", "-0"]),
    st.sampled_from(["180", "180.000", "180.1", "179.99", "0180", "181", "-1", "1000"]),
    st.lists(
        st.one_of(
            st.builds(";crs={}".format, _NEAR),
            st.builds(";{}=1".format, _NEAR),
            st.builds(";{}".format, _NEAR),
            st.just(";u=5"),
        ),
        max_size=3,
    ),
)


@given(damaged(st.one_of(GEO_TEXTS, _NEAR_TEXTS, from_rule("geo-URI", RFC5870)), ";=,.-09crsuw"))
def test_the_requirement_languages_are_the_requirements(text: str) -> None:
    # grammar/rfc5870-requirements.abnf says what each predicate says, for
    # every geo-URI; the native one-DFA verdict is the pure one.
    agree(GEO, text)
