"""Everything urigrammar hands back pickles: references and every error.

A ``URIReference`` made in a worker process (multiprocessing, Dask, Spark,
Ray) and an error raised there both reach the parent by ``pickle``; they
must arrive as equal objects of the same type whose ``str()`` is the same,
under every protocol, and ``copy.deepcopy`` must give the same.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.strategies import from_rule

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def _round_trips(value: object) -> list[object]:
    return [pickle.loads(pickle.dumps(value, protocol)) for protocol in PROTOCOLS] + [
        copy.deepcopy(value),
        copy.copy(value),
    ]


def assert_reference_survives(ref: u.URIReference) -> None:
    for back in _round_trips(ref):
        assert type(back) is u.URIReference
        assert back == ref
        assert hash(back) == hash(ref)
        assert str(back) == str(ref)
        assert repr(back) == repr(ref)
        assert back.port_text == ref.port_text


def assert_error_survives(error: u.UrigrammarError) -> None:
    for back in _round_trips(error):
        assert type(back) is type(error)
        assert isinstance(back, u.UrigrammarError)
        assert back == error
        assert hash(back) == hash(error)
        assert str(back) == str(error)
        assert back.args == error.args
        assert (back.message, back.rule, back.text, back.offset) == (
            error.message,
            error.rule,
            error.text,
            error.offset,
        )


def raised(call: Callable[[], object]) -> u.UrigrammarError:
    with pytest.raises(u.UrigrammarError) as info:
        call()
    return info.value


# --- References --------------------------------------------------------------


@given(from_rule("URI-reference"))
def test_parsed_references_pickle(text: str) -> None:
    ref = u.parse(text)
    assert_reference_survives(ref)
    assert_reference_survives(u.normalize(ref, ipv6_canonical=True))


@given(from_rule("URI"), from_rule("URI-reference"))
def test_resolved_and_relativized_references_pickle(base: str, text: str) -> None:
    target = u.resolve(base, text)
    assert_reference_survives(target)
    assert_reference_survives(u.relativize(base, u.normalize(target)))


@pytest.mark.parametrize(
    "ref",
    [
        u.URIReference(),
        u.URIReference(path="/.//a"),  # built by hand
        u.URIReference(scheme="http", host="h", port=80),
        u.parse("http://a:/?#"),  # empty port, query and fragment
        u.parse("http://u:secret@h:0080/p"),  # repr hides the password
        u.parse("http://h:" + "9" * 5000 + "/"),  # a port past int()'s digit limit
        u.build(scheme="http", host="bücher.example", idna=True),
    ],
    ids=["empty", "hand-built", "port-only", "empties", "password", "huge-port", "idna"],
)
def test_reference_examples_pickle(ref: u.URIReference) -> None:
    assert_reference_survives(ref)


# --- Errors, each raised by the library --------------------------------------


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, str]:
    """A rule and a text that rule rejects: a valid text with junk put in."""
    rule = draw(st.sampled_from((*u.PARSE_RULES, "authority", "host", "path", "query")))
    text = draw(from_rule(rule))
    at = draw(st.integers(0, len(text)))
    junk = draw(st.sampled_from((" ", "\x00", "\ud800", "\u00e9", "[", "%", "#", "\U0001f600")))
    return rule, text[:at] + junk + text[at:]


@given(damaged())
def test_syntax_errors_pickle(case: tuple[str, str]) -> None:
    rule, text = case
    if u.validate(rule, text):
        return  # the junk happened to fit ("#" in a URI-reference, say)
    error = raised(lambda: u.check(rule, text))
    assert isinstance(error, u.URISyntaxError)
    assert_error_survives(error)


@given(st.text(min_size=1, max_size=30).filter(lambda name: name.lower() not in _NAMES))
def test_unknown_rule_errors_pickle(name: str) -> None:
    error = raised(lambda: u.validate(name, "x"))
    assert isinstance(error, u.UnknownRuleError)
    assert_error_survives(error)


_NAMES = frozenset(name.lower() for name in u.RULE_NAMES)

ERRORS: dict[str, Callable[[], object]] = {
    "syntax": lambda: u.check("URI", "http://a b/"),
    "syntax-at-end": lambda: u.check("URI", "http://[::1"),
    "syntax-long": lambda: u.parse("http://a/" + "x" * 100_000 + " "),
    "syntax-abnf": lambda: u.parse("http://a b/", method="abnf"),
    "syntax-core-rule": lambda: u.check("LWSP", "x"),
    "syntax-parse-tree": lambda: u.parse_tree("URI", "a b"),
    "unknown-rule": lambda: u.validate("URL", "x"),
    "unknown-rule-parse": lambda: u.parse("x", "nope"),
    "too-long": lambda: u.parse("a" * (u.ABNF_MAX_LENGTH + 1), method="abnf"),
    "too-long-core-rule": lambda: u.validate("CRLF", " " * (u.ABNF_MAX_LENGTH + 1), method="abnf"),
    "relative-base": lambda: u.resolve("a/b", "g"),
    "relative-base-no-offset": lambda: u.resolve("//h/a", "g"),
    "relativize-dot-segments": lambda: u.relativize("http://a/b", "http://a/./c"),
    "relativize-relative-target": lambda: u.relativize("http://a/b", "c"),
    "parse-rule": lambda: u.parse("a", "authority"),
    "method": lambda: u.validate("URI", "a", method="nope"),  # type: ignore[arg-type]
    "decode-malformed": lambda: u.percent_decode("a%zz"),
    "decode-not-utf8": lambda: u.percent_decode("a%FF"),
    "decode-bytes-surrogate": lambda: u.percent_decode_bytes("\ud800"),
    "encode-surrogate": lambda: u.percent_encode("a\ud800"),
    "encode-rule": lambda: u.percent_encode("a", "URI"),
    "build": lambda: u.build(scheme="1x"),
    "replace": lambda: u.parse("http://a/").replace(host="a b"),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=list(ERRORS))
def test_error_examples_pickle(call: Callable[[], object]) -> None:
    assert_error_survives(raised(call))


def test_every_error_type_is_covered() -> None:
    types = {type(raised(call)) for call in ERRORS.values()}
    assert types == {u.URIError, u.URISyntaxError, u.UnknownRuleError, u.InputTooLongError}


def test_an_error_pickles_inside_a_result() -> None:
    # As a map function's result comes back from a worker: mixed in a list.
    error = raised(lambda: u.check("URI", "http://a b/"))
    results = [u.parse("http://a/"), error, None]
    for back in _round_trips(results):
        assert back == results


# --- a pickle is a text: what unpickling makes is what the text reads as -----


def _edited(ref: u.Reference, old: bytes, new: bytes) -> bytes:
    data = pickle.dumps(ref)
    assert data.count(old) == 1
    assert len(old) == len(new)
    return data.replace(old, new)


def test_an_edited_pickle_gives_what_its_text_reads_as() -> None:
    # Fields put together by hand could make a value whose str() reads back
    # as another: a path "//b" with no authority reads as the host b.
    back = pickle.loads(_edited(u.parse("/b"), b"/b", b"//"))
    assert u.parse(str(back)) == back
    iri = pickle.loads(_edited(u.parse_iri("/b"), b"/b", b"//"))
    assert type(iri) is u.IRIReference
    assert u.parse_iri(str(iri)) == iri


def test_an_edited_pickle_whose_text_is_no_uri_is_refused() -> None:
    with pytest.raises(u.URISyntaxError):
        pickle.loads(_edited(u.parse("/b"), b"/b", b"%z"))


def test_a_bidi_iri_made_on_purpose_pickles() -> None:
    iri = u.parse_iri("http://a/\u202eb", allow_bidi=True)
    assert pickle.loads(pickle.dumps(iri)) == iri
