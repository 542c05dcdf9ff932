"""The ``tel`` profile (RFC 3966): every tel URI of the RFC as a vector
(``tests/vectors/schemes/rfc3966.json``), the requirements of sections 3
and 5.3 on parameters, the grammar's one correction, and ``abnf``'s
reading of the same grammar as the oracle."""

from __future__ import annotations

from typing import Any

import pytest
from _languages import agree, damaged
from _vectors import ids, vectors
from hypothesis import given
from hypothesis import strategies as st

from urigrammar import SCHEMES, GrammarError, URISyntaxError, load_grammar, validate
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


def _keeps_the_prose(text: str) -> bool:
    """The prose of sections 3 and 5.3, read independently of the profile:
    a ";" in a value is encoded, so the parameters are the pieces after
    each ";", each a parameter by ``abnf``'s reading, unique by name, in
    order, and not both ``isub`` and ``ext``."""
    pieces = text.split(";")[1:]
    if not all(
        RFC3966.abnf_parse("par", ";" + piece) or RFC3966.abnf_parse("context", ";" + piece)
        for piece in pieces
    ):
        return False
    names = [piece.partition("=")[0].lower() for piece in pieces]
    if len(set(names)) != len(names) or {"isub", "ext"} <= set(names):
        return False
    ranks = [
        (0, "") if n in ("isub", "ext") else (1, "") if n == "phone-context" else (2, n)
        for n in names
    ]
    return ranks == sorted(ranks)


def _expected(text: str) -> bool:
    """The verdict from RFC 3986, ``abnf``'s reading of the grammar, and
    the prose read independently."""
    return (
        validate("URI", text)
        and RFC3966.abnf_parse("telephone-uri", text) is not None
        and _keeps_the_prose(text)
    )


@given(TEL_TEXTS)
def test_the_verdict_is_rfc_3986_abnf_and_the_prose(text: str) -> None:
    assert TEL.validate(text) is _expected(text)


@given(damaged(from_rule("telephone-uri", RFC3966), ";=+0-.aexisubtphon%"))
def test_the_native_verdict_is_the_pure_one_and_the_languages_say_the_prose(text: str) -> None:
    agree(TEL, text)


# Parameters of every kind section 3 orders, each name twice in some
# spelling, names alone, and values with ";" that must be encoded: texts
# of several parameters, in and out of order, with isub and ext together
# (section 5.3) or not.
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
    ";EXT",
    ";isub",
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


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("tel:+1-201-555-0123;ext=1;isub=2", 25),
        ("tel:+1-201-555-0123;isub=2;ext=1", 26),
        ("tel:7042;ISUB=a;Ext=1;phone-context=example.com", 15),
        ("tel:+1;isub=a;ext=1;z=2", 13),
        ("tel:+1;EXT;isub=a", 10),  # names alone, ";" ending the first
        ("tel:+1;isub;ext", 11),
    ],
)
def test_isub_and_ext_never_appear_together(text: str, offset: int, backend: Backend) -> None:
    # Section 5.3: "At most, one of the 'isdn-subaddress' and 'extension'
    # parameters can appear in a 'tel' URI".  Section 3's order takes
    # both, either first.
    assert not TEL.validate(text, backend=backend)
    with pytest.raises(URISyntaxError) as raised:
        TEL.check(text, backend=backend)
    assert raised.value.offset == offset
    assert raised.value.rule == "par"
    assert "RFC 3966 section 5.3" in str(raised.value)
    assert "^" in str(raised.value)
    agree(TEL, text)


@pytest.mark.parametrize(
    "text",
    [
        "tel:+1-201-555-0123;ext=1",
        "tel:+1-201-555-0123;isub=2",
        "tel:+1-201-555-0123;isub=2;x-ext=1",
        "tel:+1-201-555-0123;exta=1;isubb=2",
        "tel:7042;ext=1;phone-context=example.com;isub-x=2",
        "tel:+1;isubx;z",
    ],
)
def test_either_alone_is_a_tel_uri(text: str, backend: Backend) -> None:
    assert TEL.validate(text, backend=backend)
    TEL.check(text, backend=backend)
    agree(TEL, text)


@pytest.mark.parametrize(
    "text",
    [
        "tel:+1;isub;phone-context=example.com;ext=1",
        "tel:+1;ext;a=1;ISUB",
        "tel:+1;ext=1;isub",
        "tel:+1;isubx;ext;x",
        "tel:+1;a=isub;ext=1",
    ],
)
def test_the_language_of_isub_and_ext_is_the_predicates(text: str) -> None:
    # Section 5.3's prohibition as a language (tel-isub-and-ext) matches
    # where its predicate says it breaks, out of order texts and names
    # alone included.
    agree(TEL, text)
