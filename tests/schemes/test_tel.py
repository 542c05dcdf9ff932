"""The ``tel`` profile (RFC 3966): every tel URI of the RFC as a vector
(``tests/vectors/schemes/rfc3966.json``), section 3's requirements on
parameters, the grammar's one correction, and ``abnf``'s reading of the
same grammar as the oracle."""

from __future__ import annotations

from typing import Any

import pytest
from _languages import agree, damaged
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, GrammarError, load_grammar, validate
from urigrammar.engine import Backend
from urigrammar.schemes import TelValue
from urigrammar.shipped import RFC3966, grammar_text
from urigrammar.strategies import from_rule

VECTORS = vectors("rfc3966.json")
VALID = VECTORS["valid"]
TEL = SCHEMES["tel"]


@pytest.mark.parametrize("row", VALID, ids=ids(VALID))
def test_each_example_is_a_tel_uri(row: dict[str, Any], backend: Backend) -> None:
    assert TEL.validate(row["text"], backend=backend)
    value = TEL.parse(row["text"], backend=backend)
    assert isinstance(value, TelValue)
    assert str(value) == row["text"]
    fields = value.as_dict()
    fields["parameters"] = [list(pair) for pair in fields["parameters"]]
    assert fields == row["fields"]


def test_the_published_rule_is_unreadable_and_the_correction_only_adds_a_space() -> None:
    published = grammar_text("rfc3966.abnf")
    kept = [line[2:] for line in published.splitlines() if line.startswith(";    *phonedigit")]
    assert kept == ['   *phonedigit-hex (HEXDIG / "*" / "#")*phonedigit-hex']
    with pytest.raises(GrammarError):
        load_grammar("local-number-digits  =\n" + kept[0] + "\n")
    corrected = [
        line
        for line in grammar_text("rfc3966-errata.abnf").splitlines()
        if line.startswith("   *phonedigit")
    ]
    assert corrected == [kept[0].replace(")*", ") *")]


def test_parameters_keep_their_case_and_decode_on_demand() -> None:
    value = SCHEMES["tel"].parse("tel:+1;Foo=%41b")
    assert isinstance(value, TelValue)
    assert value.parameters == (("Foo", "%41b"),)
    assert value.decoded_parameters == (("foo", "Ab"),)
    assert value.parameter("FOO") == "%41b"
    assert value.parameter("bar") is None


TEL_TEXTS = st.one_of(
    from_rule("telephone-uri", RFC3966),
    st.text(alphabet="+0123456789-.;=abcextisubphon-contxm", max_size=30).map(lambda t: "tel:" + t),
)


def _keeps_section_3(text: str) -> bool:
    """Section 3's prose, read independently of the profile: a ";" in a
    value is encoded, so the parameters are the pieces after each ";",
    each a parameter by ``abnf``'s reading, unique by name and in order."""
    pieces = text.split(";")[1:]
    if not all(
        RFC3966.abnf_parse("par", ";" + piece) or RFC3966.abnf_parse("context", ";" + piece)
        for piece in pieces
    ):
        return False
    names = [piece.partition("=")[0].lower() for piece in pieces]
    if len(set(names)) != len(names):
        return False
    ranks = [
        (0, "") if n in ("isub", "ext") else (1, "") if n == "phone-context" else (2, n)
        for n in names
    ]
    return ranks == sorted(ranks)


def _expected(text: str) -> bool:
    """The verdict from RFC 3986, ``abnf``'s reading of the grammar, and
    section 3 read independently."""
    return (
        validate("URI", text)
        and RFC3966.abnf_parse("telephone-uri", text) is not None
        and _keeps_section_3(text)
    )


@given(TEL_TEXTS)
def test_the_verdict_is_rfc_3986_abnf_and_section_3(text: str) -> None:
    assert TEL.validate(text) is _expected(text)


@given(damaged(from_rule("telephone-uri", RFC3966), ";=+0-.aexisubtphon%"))
def test_the_native_verdict_is_the_pure_one_and_the_languages_say_the_prose(text: str) -> None:
    agree(TEL, text)


# Parameters of every kind section 3 orders, each name twice in some
# spelling, and values with ";" that must be encoded: texts of several
# parameters, in and out of order.
PARAMETERS = [
    ";isub=a",
    ";ISUB=b",
    ";isub=a;b",
    ";isub=%3b",
    ";ext=1",
    ";Ext=2",
    ";phone-context=example.com",
    ";phone-context=+1",
    ";a=b",
    ";A",
    ";z=1",
    ";isubx=1",
    ";exta",
]
SEVERAL = st.builds(
    lambda number, chosen: "tel:" + number + "".join(chosen),
    st.sampled_from(["+1-201-555-0123", "7042", "+0", "12a"]),
    st.lists(st.sampled_from(PARAMETERS), max_size=4),
)


@given(SEVERAL)
def test_texts_of_several_parameters(text: str) -> None:
    assert TEL.validate(text) is _expected(text)
    agree(TEL, text)
