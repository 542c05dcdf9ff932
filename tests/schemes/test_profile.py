"""What every scheme profile does, on a profile of a grammar written here
(as a user registers one): the verdict (RFC 3986 ``URI``, the rule, the
requirements), the errors, the registry and the typed value."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _budget import backend_settings, examples
from urigrammar import (
    SCHEMES,
    Profile,
    Requirement,
    RuleMatch,
    SchemeURI,
    UnknownSchemeError,
    URIError,
    URISyntaxError,
    load_grammar,
    parse_scheme,
    register_scheme,
)
from urigrammar.engine import Backend, Grammar

# A made-up scheme, "item:", with a shelf number and an optional secret.
ITEM_ABNF = """\
item-URI = "item:" shelf "/" code [ "?" ( secret / note ) ]
shelf    = 1*DIGIT
code     = 1*( ALPHA / DIGIT / "-" )
secret   = "key=" 1*ALPHA
note     = *pchar
"""
GRAMMAR = load_grammar(ITEM_ABNF, imports=[u.RFC3986], name="item")


def _shelf_zero(match: RuleMatch) -> int | None:
    found = match.span("shelf")
    assert found is not None
    return found[0] if match.text[found[0] : found[1]].lstrip("0") == "" else None


SHELF_NOT_ZERO = Requirement(
    "the item spec, section 1", "shelf", "shelf 0 does not exist", _shelf_zero, needs=("shelf",)
)


class ItemValue(SchemeURI):
    __slots__ = ()

    FIELDS = ("shelf", "code")

    @property
    def shelf(self) -> int:
        return int(self.field("shelf") or 0)

    @property
    def code(self) -> str | None:
        return self.field("code")


ITEM = Profile(
    ("item", "Item2"),
    GRAMMAR,
    "item-uri",
    value=ItemValue,
    fields={"shelf": "shelf", "code": "code"},
    requirements=[SHELF_NOT_ZERO],
)


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    # Registered for this module's tests, then taken out again: the
    # registry is the process's, and other tests (and the docs' examples,
    # which register an "item" scheme of their own) share the process.
    register_scheme(ITEM, replace=True)
    yield
    for name in ITEM.schemes:
        SCHEMES._mine.pop(name, None)


def test_the_profile_names_its_rule_as_the_grammar_spells_it() -> None:
    assert ITEM.rule == "item-URI"
    assert ITEM.schemes == ("item", "item2")
    assert set(ITEM.captures) == {"shelf", "code"}
    assert "item-URI" in repr(ITEM)


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("item:12/ab-3", True),
        ("ITEM:12/ab-3", True),  # ABNF strings are case-insensitive (RFC 5234 2.3)
        ("item:12/ab-3?note%20x", True),
        ("item:0/ab", False),  # the requirement
        ("item:00/ab", False),
        ("item:/ab", False),  # the rule
        ("item:12/ab?key=1", True),  # a note, "key=1" being no secret
        ("item:12/a b", False),  # no URI
        ("item2:12/ab", False),  # the rule spells "item:"
        ("", False),
    ],
)
def test_the_verdict(text: str, valid: bool, backend: Backend) -> None:
    assert ITEM.validate(text, backend=backend) is valid
    if valid:
        assert str(ITEM.parse(text, backend=backend)) == text
    else:
        with pytest.raises(URISyntaxError):
            ITEM.check(text, backend=backend)


def test_each_error_names_its_rule_and_offset() -> None:
    with pytest.raises(URISyntaxError) as raised:
        ITEM.check("item:12/a b")
    assert (raised.value.rule, raised.value.offset) == ("item-URI", 9)
    with pytest.raises(URISyntaxError) as raised:
        ITEM.check("item:x/ab")
    assert (raised.value.rule, raised.value.offset) == ("item-URI", 5)
    with pytest.raises(URISyntaxError) as raised:
        ITEM.check("item:000/ab")
    error = raised.value
    assert (error.rule, error.offset) == ("shelf", 5)
    assert "shelf 0 does not exist (the item spec, section 1)" in str(error)
    assert str(error).splitlines()[-1].index("^") == 2 + 5


def test_a_password_never_shows() -> None:
    grammar = load_grammar('pw-URI = "pw://" userinfo "@" host', imports=[u.RFC3986])
    profile = Profile("pw", grammar, "pw-URI", value=SchemeURI)
    value = profile.parse("pw://me:hunter2@host")
    assert "hunter2" not in repr(value)
    assert str(value) == "pw://me:hunter2@host"
    with pytest.raises(URISyntaxError) as raised:
        profile.check("pw://me:hunter2@ho st")
    assert "hunter2" not in str(raised.value)


def test_the_value() -> None:
    value = ITEM.parse("item:012/ab-3?note")
    assert isinstance(value, ItemValue)
    assert (value.scheme, value.shelf, value.code, value.text) == ("item", 12, "ab-3", value.text)
    assert value.fields == {"shelf": "012", "code": "ab-3"}
    assert value.as_dict() == {"shelf": 12, "code": "ab-3"}
    assert value.profile is ITEM
    assert value == ITEM.parse("item:012/ab-3?note")
    assert value != ITEM.parse("item:12/ab-3?note")  # equal by exact text unless the RFC says
    assert len({value, ITEM.parse("item:012/ab-3?note")}) == 1
    with pytest.raises(AttributeError):
        value.code = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ItemValue()
    assert pickle.loads(pickle.dumps(value)) == value  # through SCHEMES


def test_a_profile_is_immutable_and_checks_its_arguments() -> None:
    with pytest.raises(AttributeError):
        ITEM.rule = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="scheme name"):
        Profile("1tem", GRAMMAR, "item-URI", value=SchemeURI)
    with pytest.raises(ValueError, match="at least one"):
        Profile((), GRAMMAR, "item-URI", value=SchemeURI)
    with pytest.raises(u.UnknownRuleError):
        Profile("item", GRAMMAR, "no-such-rule", value=SchemeURI)
    with pytest.raises(u.UnknownRuleError):
        Profile("item", GRAMMAR, "item-URI", value=SchemeURI, fields={"x": "nothing"})
    with pytest.raises(TypeError):
        ITEM.validate(b"item:1/a")  # type: ignore[arg-type]


def test_the_registry() -> None:
    assert SCHEMES["ITEM"] is ITEM
    assert SCHEMES["item2"] is ITEM
    assert "Item" in SCHEMES
    assert "urn" in SCHEMES
    assert list(SCHEMES) == sorted(SCHEMES)
    assert len(SCHEMES) == len(list(SCHEMES))
    assert 3 not in SCHEMES
    with pytest.raises(KeyError):
        SCHEMES["no-such-scheme"]
    with pytest.raises(u.URIError, match="has a profile already"):
        register_scheme(ITEM)
    with pytest.raises(u.URIError, match="has a profile already"):
        register_scheme(Profile("urn", GRAMMAR, "item-URI", value=SchemeURI))
    with pytest.raises(TypeError):
        register_scheme("item")  # type: ignore[arg-type]
    register_scheme(ITEM, replace=True)
    assert SCHEMES["item"] is ITEM


def test_parse_scheme_dispatches_by_the_scheme() -> None:
    assert isinstance(parse_scheme("Item:1/a"), ItemValue)
    with pytest.raises(UnknownSchemeError) as raised:
        parse_scheme("nothing:here")
    assert isinstance(raised.value, URIError)
    assert isinstance(raised.value, LookupError)
    assert raised.value.offset == 0
    with pytest.raises(URISyntaxError):
        parse_scheme("no scheme")
    with pytest.raises(URISyntaxError):
        parse_scheme(":empty")
    with pytest.raises(TypeError):
        parse_scheme(None)  # type: ignore[arg-type]


def test_a_scheme_may_decide_alone_where_its_rfc_defines_more_than_rfc_3986() -> None:
    grammar = load_grammar('wide-URI = "wide:" 1*( ALPHA / SP )', imports=[u.RFC3986])
    within = Profile("wide", grammar, "wide-URI", value=SchemeURI)
    alone = Profile("wide", grammar, "wide-URI", value=SchemeURI, within_uri=False)
    assert not within.validate("wide:a b")
    assert alone.validate("wide:a b")


@given(st.text(alphabet="item:0123/ab-?%key=", max_size=20))
def test_the_verdict_is_uri_and_abnf_and_the_requirement(text: str) -> None:
    by_abnf = GRAMMAR.abnf_parse("item-URI", text) is not None
    expected = u.validate("URI", text) and by_abnf
    if expected:
        match = GRAMMAR.parse("item-URI", text, captures=["shelf"])
        expected = _shelf_zero(match) is None
    assert ITEM.validate(text) is expected
    try:
        ITEM.check(text)
    except URISyntaxError:
        assert not expected
    else:
        assert expected


# The same requirement said the two ways a language says one: what keeps
# it, and, for a prohibition, what breaks it.
LANGUAGES = load_grammar(
    'item-shelf-kept = "item:" *"0" %x31-39 *DIGIT "/" *OCTET\n'
    'item-shelf-zero = "item:" 1*"0" "/" *OCTET\n',
    name="item shelves",
)


# Where the requirement holds for certain, though not everywhere it holds:
# a shelf of one digit but 0.  Only texts outside it are read by ``breaks``.
SURE = load_grammar(
    'item-one-digit = "item:" %x31-39 "/" *OCTET\nitem-any-shelf = "item:" 1*DIGIT "/" *OCTET\n',
    name="item sure shelves",
)
# The same said as a wider rule with the shelves of zero taken out.
HOLDS = [
    {"holds_within": (SURE, "item-one-digit")},
    {"holds_within": (SURE, "item-any-shelf"), "holds_within_but": (LANGUAGES, "item-shelf-zero")},
]


def _item(requirement: Requirement) -> Profile:  # type: ignore[type-arg]
    return Profile("item", GRAMMAR, "item-uri", value=ItemValue, requirements=[requirement])


@pytest.mark.parametrize(
    "how",
    [{"language": (LANGUAGES, "item-shelf-kept")}, {"forbidden": (LANGUAGES, "item-shelf-zero")}],
    ids=["language", "forbidden"],
)
@pytest.mark.parametrize(
    ("text", "valid"),
    [("item:12/ab", True), ("item:0/ab", False), ("item:000/ab", False), ("item:010/a", True)],
)
def test_a_user_profiles_language_or_forbidden_language(
    how: dict[str, tuple[object, str]], text: str, valid: bool, backend: Backend
) -> None:
    # A profile of one's own builds its one DFA on first use.
    said = Requirement(
        "the item spec, section 1",
        "shelf",
        "shelf 0 does not exist",
        _shelf_zero,
        needs=("shelf",),
        **how,  # type: ignore[arg-type]
    )
    profile = _item(said)
    assert profile.validate(text, backend=backend) is valid
    assert ITEM.validate(text, backend=backend) is valid


@pytest.mark.parametrize(
    "how",
    [
        {"language": (LANGUAGES, "item-shelf-kept"), "forbidden": (LANGUAGES, "item-shelf-zero")},
        {"language": (LANGUAGES, "item-shelf-kept"), "holds_within": (SURE, "item-one-digit")},
        {"forbidden": (LANGUAGES, "item-shelf-zero"), "holds_within": (SURE, "item-one-digit")},
    ],
    ids=["language-forbidden", "language-holds", "forbidden-holds"],
)
def test_a_requirement_says_its_language_one_way_at_most(how: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="at most one"):
        Requirement(
            "the item spec, section 1",
            "shelf",
            "shelf 0 does not exist",
            _shelf_zero,
            **how,  # type: ignore[arg-type]
        )
    with pytest.raises(ValueError, match="holds_within, which is missing"):
        Requirement(
            "the item spec, section 1",
            "shelf",
            "shelf 0 does not exist",
            _shelf_zero,
            holds_within_but=(LANGUAGES, "item-shelf-zero"),
        )


def _shelf_zero_of_text(match: RuleMatch) -> int | None:
    """``_shelf_zero`` from the text alone (a requirement that needs no
    capture)."""
    shelf = match.text[5:].partition("/")[0]
    return 5 if shelf.lstrip("0") == "" else None


def _counted(
    breaks: Callable[[RuleMatch], int | None], read: list[str]
) -> Callable[[RuleMatch], int | None]:
    def counted(match: RuleMatch) -> int | None:
        read.append(match.text)
        return breaks(match)

    return counted


def _sure(how: dict[str, tuple[Grammar, str]], text: str) -> bool:
    grammar, rule = how["holds_within"]
    if not grammar.validate(rule, text):
        return False
    but = how.get("holds_within_but")
    return but is None or not but[0].validate(but[1], text)


@pytest.mark.parametrize("how", HOLDS, ids=["within", "within-but"])
@pytest.mark.parametrize(
    ("breaks", "needs"),
    [(_shelf_zero, ("shelf",)), (_shelf_zero_of_text, ())],
    ids=["parsed", "text"],
)
@backend_settings(max_examples=examples(100))
@given(text=st.text(alphabet="item:0123/ab-?%key=", max_size=20))
def test_a_requirement_is_read_outside_where_it_holds(
    backend: Backend,
    how: dict[str, tuple[Grammar, str]],
    breaks: Callable[[RuleMatch], int | None],
    needs: tuple[str, ...],
    text: str,
) -> None:
    read: list[str] = []
    said = Requirement(
        "the item spec, section 1",
        "shelf",
        "shelf 0 does not exist",
        _counted(breaks, read),
        needs=needs,
        **how,  # type: ignore[arg-type]
    )
    assert _item(said).validate(text, backend=backend) is ITEM.validate(text, backend=backend)
    if backend.native and _sure(how, text):
        assert read == []


def test_a_text_that_is_no_str_is_a_type_error_on_each_back_end(backend: Backend) -> None:
    said = Requirement(
        "the item spec, section 1", "shelf", "shelf 0 does not exist", _shelf_zero_of_text
    )
    for profile in (_item(said), u.SCHEMES["tel"]):
        with pytest.raises(TypeError, match="text must be str, not NoneType"):
            profile.validate(None, backend=backend)  # type: ignore[arg-type]


def test_a_requirement_where_it_holds_reads_the_texts_between(backend: Backend) -> None:
    read: list[str] = []
    said = Requirement(
        "the item spec, section 1",
        "shelf",
        "shelf 0 does not exist",
        _counted(_shelf_zero_of_text, read),
        holds_within=(SURE, "item-one-digit"),
    )
    profile = _item(said)
    assert profile.validate("item:7/a", backend=backend)
    assert profile.validate("item:12/a", backend=backend)
    assert not profile.validate("item:00/a", backend=backend)
    assert not profile.validate("item:0/a b", backend=backend)
    expected = ["item:12/a", "item:00/a"]
    assert read == (expected if backend.native else ["item:7/a", *expected])
