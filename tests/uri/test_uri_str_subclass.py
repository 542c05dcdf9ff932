"""A ``str`` subclass is read by the characters it holds at every entry of
the URI model that takes a text: the parse on each back end, the abnf
method, the conversions, the path and percent-encoding helpers and the
builders.  A subclass whose ``__len__``, ``__getitem__`` and ``__iter__``
(or methods) say it holds another text gets the answer its characters
get: the same value, or the same error with the same offset, excerpt and
masked password."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import urigrammar as u
from _backends import On
from _liars import lying, outcome

TEXTS = [
    "http://user:secret@example.com:80/a/./b/../c?q=1#f",
    "http://a b/",
    "http://bücher.example/ü",
    "http://a/b\u200ec",
    "http://user:secret@h/\u202e",
    "%41%zz",
    "%C3%A9/x",
    "a/b/../c",
    "",
]
#: What the liar claims each text holds: a valid URI of another length.
FAKE = "http://evil.example:8080/x/y/z?q=2#g"


def _tree(node: Any) -> tuple[object, ...]:
    return (node.name, node.value, tuple(_tree(child) for child in node.children))


ON: dict[str, Callable[[On, str], object]] = {
    "validate": lambda on, text: on.validate("URI-reference", text),
    "check": lambda on, text: on.check("URI", text),
    "parse": lambda on, text: repr(on.parse(text)),
    "parse-as-URI": lambda on, text: repr(on.parse(text, "URI")),
    "parse_iri": lambda on, text: repr(on.parse_iri(text)),
    "validate-abnf": lambda on, text: on.validate("URI", text, method="abnf"),
    "parse-abnf": lambda on, text: repr(on.parse(text, method="abnf")),
}

ANY: dict[str, Callable[[str], object]] = {
    "parse_tree": lambda text: _tree(u.parse_tree("URI-reference", text)),
    "normalize": lambda text: str(u.normalize(text)),
    "equivalent": lambda text: u.equivalent(text, "http://user:secret@example.com/a/c?q=1#f"),
    "resolve-ref": lambda text: str(u.resolve("http://h/a/b", text)),
    "resolve-base": lambda text: str(u.resolve(text, "../z")),
    "relativize": lambda text: str(u.relativize("http://user:secret@example.com:80/", text)),
    "remove_dot_segments": u.remove_dot_segments,
    "percent_encode": u.percent_encode,
    "percent_encode-path": lambda text: u.percent_encode(text, "path", keep_escapes=True),
    "percent_decode": lambda text: u.percent_decode(text, errors="replace"),
    "percent_decode-strict": u.percent_decode,
    "percent_decode_bytes": u.percent_decode_bytes,
    "to_iri": lambda text: str(u.to_iri(text)),
    "to_uri": lambda text: str(u.to_uri(text)),
    "build-host": lambda text: str(u.build(scheme="http", host=text)),
    "build-path": lambda text: str(u.build(scheme="http", host="h", path="/" + text)),
    "joinpath": lambda text: str(u.parse("http://h/a/").joinpath(text)),
    "set_param": lambda text: str(u.parse("http://h/a").set_param("k", text)),
    "get_param": lambda text: (
        u.parse("http://h/").with_query_pairs([(str.__str__(text), "v")]).get_param(text)
    ),
    "display_width": u.display_width,
}

LIES = pytest.mark.parametrize("methods", [False, True], ids=["len-item-iter", "and-methods"])


def _alike(call: Callable[[str], object], methods: bool) -> None:
    for text in TEXTS:
        liar = lying(text, FAKE, methods=methods)
        assert outcome(call, liar) == outcome(call, text), text


@LIES
@pytest.mark.parametrize("entry", ON)
def test_a_lying_str_subclass_parses_as_the_characters_it_holds(
    entry: str, methods: bool, on: On
) -> None:
    _alike(lambda text: ON[entry](on, text), methods)


@LIES
@pytest.mark.parametrize("entry", ANY)
def test_a_lying_str_subclass_is_read_as_the_characters_it_holds(entry: str, methods: bool) -> None:
    _alike(ANY[entry], methods)


class _Discreet(str):
    """A str subclass whose ``rfind`` never finds: a finder of passwords
    that asked it would find no userinfo."""

    def rfind(self, *args: object) -> int:
        return -1


def test_a_str_subclass_never_unmasks_the_password(on: On) -> None:
    text = _Discreet("http://user:secret@a b/")
    for call in (lambda: on.parse(text), lambda: on.check("URI", text)):
        with pytest.raises(u.URISyntaxError) as raised:
            call()
        assert "secret" not in str(raised.value)
        assert "secret" not in repr(raised.value)
        assert type(raised.value.text) is str
