"""The ``ni`` profile (RFC 6920): every ni URI of the RFC as a vector
(``tests/vectors/schemes/rfc6920.json``), section 3's base64url and
section 9.4's lengths, section 2's comparison, and ``abnf``'s reading of
the same grammar, ``hashlib`` and ``base64`` as the oracles."""

from __future__ import annotations

import base64
import hashlib
import pickle
from typing import Any

import pytest
from _languages import agree, damaged
from _trees import values
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, parse_scheme, validate
from urigrammar.engine import Backend
from urigrammar.schemes import NiValue
from urigrammar.shipped import RFC6920
from urigrammar.strategies import from_rule

VECTORS = vectors("rfc6920.json")
VALID = VECTORS["valid"]
NI = SCHEMES["ni"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_an_ni_uri(row: dict[str, Any], backend: Backend) -> None:
    assert NI.validate(row["text"], backend=backend)
    value = NI.parse(row["text"], backend=backend)
    assert isinstance(value, NiValue)
    assert str(value) == row["text"]
    assert value.as_dict() == row["fields"]
    assert value.digest.hex() == row["digest"]


def test_hello_world_is_its_sha_256() -> None:
    # Section 8.1: the name of the 12 characters "Hello World!".
    value = parse_scheme("ni:///sha-256;f4OxZX_x_FO5LcGBSKHWXfwtSx-j1ncoSt3SABJtkGk")
    assert isinstance(value, NiValue)
    assert value.digest == hashlib.sha256(b"Hello World!").digest()
    # Section 2's truncation: the leftmost bits, as Figure 6's sha-256-32.
    short = parse_scheme("ni:///sha-256-32;f4OxZQ?ct=text/plain")
    assert isinstance(short, NiValue)
    assert short.digest == value.digest[:4]


def test_equal_when_algorithm_and_digest_are() -> None:
    # Section 2: the authority and the parameters do not count.
    plain = parse_scheme("ni:///sha-256;f4OxZX_x_FO5LcGBSKHWXfwtSx-j1ncoSt3SABJtkGk")
    other = parse_scheme("ni://example.com/sha-256;f4OxZX_x_FO5LcGBSKHWXfwtSx-j1ncoSt3SABJtkGk?a=b")
    assert plain == other
    assert hash(plain) == hash(other)
    assert plain != parse_scheme("ni:///sha-256;UyaQV-Ev4rdLoHyJJWCi11OHfrYv9E1aGQAlMO2X_-Q")
    assert pickle.loads(pickle.dumps(other)) == plain


_LENGTHS = {"sha-256": 32, "sha-256-128": 16, "sha-256-32": 4}


def _keeps_section_3(val: str, alg: str) -> bool:
    """Section 3 read with the stdlib's urlsafe decoder, which needs the
    padding back and skips characters outside its alphabet: the value is
    base64url's output when it encodes back to itself, and has the
    registry's length."""
    try:
        digest = base64.urlsafe_b64decode(val + "=" * (-len(val) % 4))
    except ValueError:
        return False
    if base64.urlsafe_b64encode(digest).decode().rstrip("=") != val:
        return False
    wanted = _LENGTHS.get(alg.lower())
    return wanted is None or len(digest) == wanted


NI_TEXTS = st.one_of(
    from_rule("NI-URI", RFC6920),
    st.builds(
        "ni://{}/{};{}{}".format,
        st.sampled_from(["", "example.com", "a:1"]),
        st.sampled_from(["sha-256", "sha-256-32", "sha-256-128", "x"]),
        st.one_of(
            st.binary(max_size=33).map(lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")),
            st.text(alphabet="aZ09-_.~", max_size=10),
        ),
        st.sampled_from(["", "?ct=text/plain", "?a=%20"]),
    ),
)


@given(NI_TEXTS)
def test_the_verdict_is_rfc_3986_abnf_and_section_3(text: str) -> None:
    tree = RFC6920.abnf_parse("NI-URI", text)
    expected = (
        validate("URI", text)
        and tree is not None
        and _keeps_section_3(values(tree, "val")[0], values(tree, "alg")[0])
    )
    assert NI.validate(text) is expected


#: Section 9.4's names and names one character off them, any case.
_NAMES = st.sampled_from(
    ["sha-256", "SHA-256", "sha-256-128", "sha-256-120", "sha-256-96", "sha-256-64",
     "sha-256-32", "sha-255", "sha_256", "shb-256", "sha-256-", "sha-256-12", "sha-256-129",
     "sha-256-100", "sha-256-97", "sha-256-65", "sha-256-33", "sha-256-1280", "xha-256-32",
     "sha-256x96", "sha-2566", "sha-25", "s"]
)  # fmt: skip
_DIGESTS = st.builds(
    "ni:///{};{}".format,
    _NAMES,
    st.one_of(
        st.sampled_from([4, 8, 12, 15, 16, 32, 31, 33]).flatmap(
            lambda n: st.binary(min_size=n, max_size=n).map(
                lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")
            )
        ),
        st.text(alphabet="AQgwBbz09-_.~", min_size=1, max_size=8),
    ),
)


@given(damaged(st.one_of(NI_TEXTS, _DIGESTS), "AQgwBz0-_.~;/?"))
def test_the_requirement_languages_are_the_requirements(text: str) -> None:
    # grammar/rfc6920-requirements.abnf says what each predicate says, for
    # every NI-URI; the native one-DFA verdict is the pure one.
    agree(NI, text)
