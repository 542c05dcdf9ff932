"""A ``str`` subclass is read by the characters it holds at every entry of
a ``Grammar``, on each back end: C reads those, and so must the Python
that runs beside it (the pure back end's automata, the abnf engine, the
error's offset and excerpt).  A subclass whose ``__len__``,
``__getitem__`` and ``__iter__`` (or methods) say it holds another text
gets the answer its characters get, never a bare ``ValueError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from _liars import lying, outcome
from urigrammar import RFC3986, Grammar, RuleMatch, load_grammar
from urigrammar.engine import Backend

USER = load_grammar('word = 1*3"a" ["-" num]\nnum = 1*DIGIT\nnest = "(" *( nest / "x" ) ")"\n')


class Subject:
    """A rule, the texts to read, what the liar claims they hold (a text
    the rule matches, of another length), and captures to ask for."""

    def __init__(
        self, grammar: Grammar, rule: str, texts: list[str], fake: str, captures: list[str]
    ) -> None:
        self.grammar = grammar
        self.rule = rule
        self.texts = texts
        self.fake = fake
        self.captures = captures


SUBJECTS = {
    "URI": Subject(
        RFC3986,
        "URI",
        ["http://a/b", "http://example.com/a/b/c/d/e?q#f", "http://a b/", "", "http://bü/"],
        "http://evil.example:8080/x/y/z?q#f",
        ["host", "segment"],
    ),
    "regular": Subject(USER, "word", ["aa-12", "a", "aa-x", "aaaa"], "aaa-1234567", ["num"]),
    "recursive": Subject(USER, "nest", ["((x)x)", "(x)", "(x", ")"], "((x)(x)(x))", ["nest"]),
}


def _match(found: RuleMatch) -> tuple[object, ...]:
    return (found.rule, found.text, *((name, found.spans(name)) for name in found.captures))


def _error(subject: Subject, text: str, backend: Backend) -> tuple[object, ...]:
    error = subject.grammar.syntax_error(subject.rule, text)
    return (str(error), error.offset, error.text)


def _tree(subject: Subject, text: str, backend: Backend) -> object:
    tree = subject.grammar.abnf_parse(subject.rule, text)
    return None if tree is None else (tree.name, tree.value)


Entry = Callable[[Subject, str, Backend], Any]

ENTRIES: dict[str, Entry] = {
    "validate": lambda s, text, b: s.grammar.validate(s.rule, text, backend=b),
    "check": lambda s, text, b: s.grammar.check(s.rule, text, backend=b),
    "parse": lambda s, text, b: _match(s.grammar.parse(s.rule, text, backend=b)),
    "parse-captures": lambda s, text, b: _match(
        s.grammar.parse(s.rule, text, captures=s.captures, backend=b)
    ),
    "matcher": lambda s, text, b: s.grammar.matcher(s.rule, backend=b)(text) is not None,
    "syntax_error": _error,
    "abnf_parse": _tree,
}
REGULAR_ENTRIES: dict[str, Entry] = {
    "viable_prefix": lambda s, text, b: s.grammar.viable_prefix(s.rule, text, backend=b),
}

CASES = [
    pytest.param(subject, entry, id=f"{subject}-{entry}")
    for subject in SUBJECTS
    for entry in [*ENTRIES, *(REGULAR_ENTRIES if subject != "recursive" else ())]
]


@pytest.mark.parametrize("methods", [False, True], ids=["len-item-iter", "and-methods"])
@pytest.mark.parametrize(("subject", "entry"), CASES)
def test_a_lying_str_subclass_reads_as_the_characters_it_holds(
    subject: str, entry: str, methods: bool, backend: Backend
) -> None:
    chosen = SUBJECTS[subject]
    call = {**ENTRIES, **REGULAR_ENTRIES}[entry]
    for text in chosen.texts:
        liar = lying(text, chosen.fake, methods=methods)
        assert outcome(call, chosen, liar, backend) == outcome(call, chosen, text, backend), text


def test_a_longer_lie_is_no_bare_value_error_from_the_spans(backend: Backend) -> None:
    # The subclass claims more characters than it holds: spans read from
    # the claim would fall outside the text the match is made over.
    liar = lying("http://a", "http://example.com/a/b/c?q#f")
    for captures in (None, ["segment"], ["host", "segment"]):
        found = RFC3986.parse("URI", liar, captures=captures, backend=backend)
        assert found == RFC3986.parse("URI", "http://a", captures=captures, backend=backend)
        assert type(found.text) is str


def test_what_a_text_is_not_stays_a_type_error(backend: Backend) -> None:
    for call in (
        lambda: RFC3986.validate("URI", b"http://a", backend=backend),  # type: ignore[arg-type]
        lambda: RFC3986.parse("URI", None, backend=backend),  # type: ignore[arg-type]
        lambda: RFC3986.check("URI", 5, backend=backend),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError, match="text must be str"):
            call()
