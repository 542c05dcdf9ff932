"""Properties of URI Templates against independent oracles: the ``abnf``
engine on template validation (generated and mutated templates), the
match/expand round trip, and expansions that are URI references."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.strategies import from_rule
from urigrammar.template._sets import OPERATORS

# Characters that matter to the template syntax, for mutations.
_NOISE = list("{}{},:*'%=!@|$()+#./;?&0192aZ_ \"<>\\^`\x00\x7f\u00e9\ue000\ufffe\U0010fffd")


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = draw(from_rule("URI-Template"))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(("insert", "delete", "replace")))
        char = draw(st.sampled_from(_NOISE))
        if kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


@given(st.one_of(from_rule("URI-Template"), _mutated(), st.text(max_size=12)))
def test_validation_agrees_with_the_abnf_engine(text: str) -> None:
    expected = u.RFC6570.abnf_parse("URI-Template", text) is not None
    assert u.validate("URI-Template", text) is expected
    if not expected:
        with pytest.raises(u.URISyntaxError) as caught:
            u.URITemplate(text)
        assert caught.value.offset == u.RFC6570.viable_prefix("URI-Template", text)
        return
    try:
        template = u.URITemplate(text)
    except u.ReservedOperatorError:
        return  # section 2.2: the grammar allows what the processor refuses
    assert str(template) == text


# --- templates and values ---------------------------------------------------------

_NAMES = st.sampled_from(["a", "b", "c", "x.y", "v_1", "%41"])
_MODIFIERS = st.one_of(st.just(""), st.just("*"), st.integers(1, 9).map(lambda n: f":{n}"))


def _expression(operators: list[str]) -> st.SearchStrategy[str]:
    spec = st.tuples(_NAMES, _MODIFIERS).map("".join)
    return st.tuples(st.sampled_from(operators), st.lists(spec, min_size=1, max_size=3)).map(
        lambda parts: "{" + parts[0] + ",".join(parts[1]) + "}"
    )


_LITERALS = st.lists(from_rule("literals"), max_size=3).map("".join)
_TEMPLATES = st.lists(st.one_of(_LITERALS, _expression(sorted(OPERATORS))), max_size=5).map("".join)
# Templates built to be unambiguous more often: expressions apart, between
# literals that start with a character no expansion writes ("!", "$", ...),
# one variable per unnamed operator.
_APART = st.sampled_from(["!", "$", "(", ")", "*", "'", "!/x/", "$%41", "*\u00e9"])
_ONE = st.tuples(st.sampled_from(["", ".", "/"]), _NAMES, _MODIFIERS).map(
    lambda p: "{" + "".join(p) + "}"
)
_SEPARATED = st.lists(
    st.tuples(st.one_of(_ONE, _expression([";", "?", "&"])), _APART).map("".join),
    min_size=1,
    max_size=4,
).map("".join)
_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=6)
_SCALAR = st.one_of(_TEXT, st.integers(-50, 10**6), st.booleans())


def _values(template: u.URITemplate) -> st.SearchStrategy[dict[str, Any]]:
    text = str(template)
    strategies = {}
    for name in template.variables:
        if f"{name}:" in text:  # a prefix somewhere: strings only (2.4.1)
            strategies[name] = st.one_of(st.none(), _SCALAR)
        else:
            strategies[name] = st.one_of(
                st.none(),
                _SCALAR,
                st.lists(_TEXT, max_size=3),
                st.dictionaries(_TEXT, _TEXT, max_size=3),
            )
    return st.fixed_dictionaries(strategies)


@settings(suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data(), text=st.one_of(_SEPARATED, _TEMPLATES))
def test_match_undoes_expand(data: st.DataObject, text: str) -> None:
    # match's guarantee: a reading returned always expands back to the URI,
    # ambiguous template or not; for a template that is not ambiguous a
    # reading is found whenever one exists (here: the URI is an expansion).
    template = u.URITemplate(text)
    uri = template.expand(data.draw(_values(template)))
    found = template.match(uri)
    assert found is None or template.expand(found) == uri
    if not template.ambiguous:
        assert found is not None


# What a mutation inserts into an expansion: triplets in both cases, of
# unreserved and non-ASCII characters, and the separators expansion writes.
_INSERTS = st.sampled_from(["%41", "%7e", "%2F", "%2f", "%C3%A9", "%c3%a9", "=", ",", "&x=", "a"])


@settings(suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data(), text=st.one_of(_SEPARATED, _TEMPLATES))
def test_a_match_always_expands_back(data: st.DataObject, text: str) -> None:
    # Not only the expansions: any text match reads, it reads as values that
    # write that text again, or it returns None (ambiguous templates too).
    template = u.URITemplate(text)
    uri = template.expand(data.draw(_values(template)))
    at = data.draw(st.integers(0, len(uri)))
    uri = uri[:at] + data.draw(_INSERTS) + uri[at:]
    found = template.match(uri)
    assert found is None or template.expand(found) == uri


@given(data=st.data(), text=_TEMPLATES)
def test_match_finds_every_expansion(data: st.DataObject, text: str) -> None:
    # Ambiguous or not, an expansion is split somehow (level 1 of _match).
    template = u.URITemplate(text)
    assume(template.ambiguous)
    uri = template.expand(data.draw(_values(template)))
    assert template._compiled()._texts(uri)[0] is not None


# Templates whose literals and operators keep each character where a
# URI-reference allows it: an absolute path of segments (non-ASCII literals
# too) and path operators, then the query operators, then a fragment.
_SEGMENT = st.lists(st.one_of(from_rule("pchar"), from_rule("ucschar")), max_size=3).map("".join)
_PATH = st.lists(st.one_of(_SEGMENT.map(lambda s: "/" + s), _expression(["", ".", "/", ";"])))
_REFERENCES = st.tuples(
    # A first segment that is not empty: "/{a}/x" with no a is "//x", which
    # reads as an authority (RFC 3986 section 4.2).
    _PATH.map(lambda parts: "/p" + "".join(parts)),
    st.lists(_expression(["?", "&"]), max_size=2).map("".join),
    st.one_of(st.just(""), _expression(["#"])),
).map("".join)


@given(data=st.data(), text=_REFERENCES)
def test_expansions_are_uri_references(data: st.DataObject, text: str) -> None:
    template = u.URITemplate(text)
    # Section 3.2.4: "#" passes reserved characters, among them a second
    # "#": its values here are fragment text, or any text at all without
    # the reserved characters that a fragment cannot hold.
    values = data.draw(_values(template))
    if "{#" in text:
        fragment = st.one_of(
            from_rule("fragment"),
            st.text(st.characters(exclude_categories=("Cs",), exclude_characters="#[]")),
        )
        in_fragment = u.URITemplate(text[text.index("{#") :]).variables
        values.update(data.draw(st.fixed_dictionaries(dict.fromkeys(in_fragment, fragment))))
    uri = template.expand(values)
    assert u.validate("URI-reference", uri)
    assert u.validate("IRI-reference", uri)


@given(text=_TEMPLATES, uri=st.one_of(st.text(max_size=20), from_rule("URI-reference")))
def test_match_takes_any_text(text: str, uri: str) -> None:
    # Nothing but a dict or None comes back, whatever the text.
    found = u.URITemplate(text).match(uri)
    assert found is None or isinstance(found, dict)
