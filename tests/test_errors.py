"""The exception hierarchy: data on every error, a caret under the offset,
and pickling to equal objects."""

from __future__ import annotations

import pickle

import pytest

import urigrammar as u


def _error(rule: str, text: str) -> u.URISyntaxError:
    with pytest.raises(u.URISyntaxError) as info:
        u.check(rule, text)
    return info.value


def test_hierarchy() -> None:
    assert issubclass(u.URIError, ValueError)
    assert issubclass(u.URISyntaxError, u.URIError)
    assert issubclass(u.UnknownRuleError, u.URIError)
    assert issubclass(u.UnknownRuleError, LookupError)
    assert issubclass(u.InputTooLongError, u.URIError)


def test_message_names_rule_offset_and_shows_caret() -> None:
    error = _error("URI", "http://a b/")
    first, text_line, caret_line = str(error).splitlines()
    assert "URI" in first
    assert "offset 8" in first
    assert "' '" in first
    assert text_line == "  http://a b/"
    assert caret_line == "  " + " " * 8 + "^"


def test_end_of_text_is_said_as_such() -> None:
    error = _error("URI", "http://[::1")
    assert error.offset == len("http://[::1")
    assert "ends" in str(error).splitlines()[0]
    assert str(error).splitlines()[2].endswith(" " * len("http://[::1") + "^")


@pytest.mark.parametrize("bad", ["\t", "\x00", "\u00e9", "\U0001f600", "\ud800"])
def test_caret_stays_aligned_with_unprintable_characters(bad: str) -> None:
    text = f"a\u00e9b:{bad}"  # the first non-ASCII character is at 1
    error = _error("scheme", text)
    assert error.offset == 1
    _, text_line, caret_line = str(error).splitlines()
    assert text_line.isascii()
    assert caret_line.index("^") == 3


def test_long_text_is_shown_as_a_window() -> None:
    text = "http://a/" + "x" * 10_000 + " " + "y" * 10_000
    error = _error("URI", text)
    _, text_line, caret_line = str(error).splitlines()
    assert len(text_line) < 100
    assert text_line.startswith("  ...")
    assert text_line.endswith("...")
    assert text_line[caret_line.index("^")] == " "


@pytest.mark.parametrize(
    "make",
    [
        lambda: _error("URI", "http://a b/"),
        lambda: u.URIError("plain"),
        lambda: u.UnknownRuleError("unknown rule 'x'", rule="x"),
        lambda: u.InputTooLongError("too long", rule="URI", text="abc", offset=2),
    ],
)
def test_errors_pickle_to_equal_objects(make: object) -> None:
    assert callable(make)
    error = make()
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert copy == error
    assert str(copy) == str(error)
    assert (copy.rule, copy.text, copy.offset) == (error.rule, error.text, error.offset)
