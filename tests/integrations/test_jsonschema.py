"""``urigrammar.jsonschema``: the five URI-family formats through the real
``jsonschema.validate``, against the RFC answers of
``vectors/json_schema_formats.json`` and against ``abnf``'s own
transcriptions of RFC 3986 and RFC 3987 (an independent oracle).

Needs ``jsonschema`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

jsonschema = pytest.importorskip("jsonschema")

import urigrammar as u  # noqa: E402
from urigrammar.jsonschema import (  # noqa: E402
    FORMAT_CHECKER,
    FORMATS,
    format_checker,
    register,
)
from urigrammar.strategies import from_rule  # noqa: E402

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "json_schema_formats.json").read_text(
        "utf-8"
    )
)
CASES = VECTORS["cases"]


def _verdict(instance: object, fmt: str, checker: object = FORMAT_CHECKER) -> bool:
    try:
        jsonschema.validate(instance, {"format": fmt}, format_checker=checker)
    except jsonschema.ValidationError:
        return False
    return True


def test_the_vectors_cover_every_format_and_both_answers() -> None:
    seen = {(fmt, valid) for _, fmt, _, valid in CASES}
    assert seen == {(fmt, valid) for fmt in FORMATS for valid in (True, False)}
    assert len({(case_id, fmt) for case_id, fmt, _, _ in CASES}) == len(CASES)


@pytest.mark.parametrize(
    ("fmt", "instance", "valid"),
    [pytest.param(fmt, text, valid, id=f"{fmt}:{case_id}") for case_id, fmt, text, valid in CASES],
)
def test_rfc_answer(fmt: str, instance: str, valid: bool) -> None:
    assert _verdict(instance, fmt) is valid
    # The same answer from a validator class, as most programs call it.
    validator = jsonschema.Draft202012Validator(
        {"type": "string", "format": fmt}, format_checker=FORMAT_CHECKER
    )
    assert validator.is_valid(instance) is valid


@pytest.mark.parametrize(
    ("fmt", "instance"),
    [
        pytest.param(fmt, text, id=f"{fmt}:{case_id}")
        for case_id, fmt, text, valid in CASES
        if not valid
    ],
)
def test_failure_carries_the_syntax_error(fmt: str, instance: str) -> None:
    with pytest.raises(jsonschema.ValidationError) as caught:
        jsonschema.validate(instance, {"format": fmt}, format_checker=FORMAT_CHECKER)
    cause = caught.value.cause
    assert isinstance(cause, u.URISyntaxError)
    rule = FORMATS[fmt]
    if rule in u.IRI_PARSE_RULES:
        # check() admits bidi characters; parse_iri, as the format, refuses them.
        with pytest.raises(u.URISyntaxError) as direct:
            u.parse_iri(instance, rule)
    else:
        with pytest.raises(u.URISyntaxError) as direct:
            u.check(rule, instance)
    assert (cause.rule, cause.offset) == (direct.value.rule, direct.value.offset)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("instance", [5, 2.5, None, True, [], {}, ["a b"], {"a b": 1}])
def test_non_strings_pass(fmt: str, instance: object) -> None:
    # A format constrains strings only (JSON Schema Validation section 7.1).
    assert _verdict(instance, fmt)


def test_formats_name_the_rfc_rules() -> None:
    assert FORMATS == {
        "uri": "URI",
        "uri-reference": "URI-reference",
        "iri": "IRI",
        "iri-reference": "IRI-reference",
        "uri-template": "URI-Template",
    }


def test_register_puts_exactly_the_five_on_a_checker() -> None:
    empty = jsonschema.FormatChecker(formats=())
    assert register(empty) is empty
    assert set(empty.checkers) == set(FORMATS)
    # On a checker that has jsonschema's own uri check, ours replaces it.
    mine = register(jsonschema.FormatChecker())
    assert not _verdict("http://[::ffff:192.168.0.01]/", "uri", mine)
    assert _verdict("http://[::1]/", "uri", mine)


def test_ready_checker_keeps_jsonschema_formats() -> None:
    assert set(FORMATS) <= set(FORMAT_CHECKER.checkers)
    # jsonschema's own formats stay: ipv4 is checked by jsonschema itself.
    assert "ipv4" in FORMAT_CHECKER.checkers
    assert not _verdict("1.2.3", "ipv4")
    fresh = format_checker()
    assert fresh is not FORMAT_CHECKER
    assert set(fresh.checkers) == set(FORMAT_CHECKER.checkers)


def test_schema_with_nested_formats() -> None:
    schema = {
        "type": "object",
        "properties": {
            "self": {"type": "string", "format": "uri"},
            "links": {"type": "array", "items": {"type": "string", "format": "iri-reference"}},
        },
    }
    good = {"self": "https://example.com/a", "links": ["b\u00e4", "/c", "#d"]}
    jsonschema.validate(good, schema, format_checker=FORMAT_CHECKER)
    bad = {"self": "https://example.com/a", "links": ["b\u00e4", "c d"]}
    errors = list(
        jsonschema.Draft202012Validator(schema, format_checker=FORMAT_CHECKER).iter_errors(bad)
    )
    assert [list(error.absolute_path) for error in errors] == [["links", 1]]


@pytest.mark.parametrize("fmt", ["iri", "iri-reference"])
@pytest.mark.parametrize("char", sorted(u.BIDI_FORMATTING))
def test_iri_formats_refuse_bidi_characters(fmt: str, char: str) -> None:
    # RFC 3987 section 4.1's MUST, as parse_iri and pydantic fields apply it;
    # the ABNF, and so validate(), admits them.
    text = f"http://a/b{char}c"
    assert u.validate(fmt.upper(), text)
    assert _verdict(text, fmt) is False
    with pytest.raises(jsonschema.ValidationError) as caught:
        jsonschema.validate(text, {"format": fmt}, format_checker=FORMAT_CHECKER)
    cause = caught.value.cause
    assert isinstance(cause, u.URISyntaxError)
    assert cause.offset == 10
    assert "section 4.1" in cause.message
    assert _verdict("http://a/b\u00e4c", fmt) is True


# --- Differential: abnf's own transcriptions of RFC 3986 and RFC 3987 are
# --- the oracle for the four formats they cover.  Short texts: abnf is slow.

_ORACLE_RULES = {"uri": ("rfc3986", "URI"), "uri-reference": ("rfc3986", "URI-reference")}
_ORACLE_RULES |= {"iri": ("rfc3987", "IRI"), "iri-reference": ("rfc3987", "IRI-reference")}


def _oracle(fmt: str, text: str) -> bool:
    import importlib

    from abnf import ParseError

    module, rule = _ORACLE_RULES[fmt]
    if module == "rfc3987" and any(c in u.BIDI_FORMATTING for c in text):
        return False  # the ABNF admits them; RFC 3987 section 4.1 does not
    grammar = importlib.import_module(f"abnf.grammars.{module}")
    try:
        grammar.Rule(rule).parse_all(text)
    except ParseError:
        return False
    return True


_GENERATED = {fmt: from_rule(FORMATS[fmt]) for fmt in _ORACLE_RULES}
_INSERTED = st.sampled_from([" ", "[", "%", "\u00e4", "\ue000", "#", ":", "0", "V", "."])


@settings(max_examples=60)
@given(st.sampled_from(sorted(_ORACLE_RULES)), st.data())
def test_agrees_with_abnf_transcriptions(fmt: str, data: st.DataObject) -> None:
    # A generated text, cut short (abnf's time grows quadratically), and
    # sometimes damaged by one character: the oracle decides either way.
    text = data.draw(_GENERATED[fmt])[:40]
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(_INSERTED) + text[at:]
    assert _verdict(text, fmt) is _oracle(fmt, text)
