"""validate's C entry: on the native back end ``validate`` is
the extension's ``Entry``, a callable that answers ``validate(spelling,
text)`` for a rule spelling already seen and a ``str`` by running the
rule's matcher straight from C, and calls the Python ``validate`` for
everything else.

Every fallback is checked against what the Python function does with the
same arguments (the entry's ``__wrapped__``, which is what ``validate`` is
on the pure back end), on each back end: unknown spellings, wrong types,
keyword arguments, the ``abnf`` engine, a table emptied under threads; and
what a user sees of ``urigrammar.validate``: pickling, ``help``,
``inspect.signature`` and its metadata, and binding as a method.  Then the
periodic walks the runner follows with its rows fixed, against the regex
engine, on texts long enough to be watched.
"""

from __future__ import annotations

import copy
import inspect
import os
import pickle
import pydoc
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

import urigrammar as u
from _backends import On
from urigrammar.engine import NATIVE, PURE, default_backend, front, inline_rule
from urigrammar.engine.automata.dfa import build_tables
from urigrammar.shipped import shipped_rule
from urigrammar.uri._api import Method, api

native = pytest.mark.skipif(NATIVE is None, reason="the extension is not built")


def outcome(call: Callable[[], object]) -> tuple[str, object]:
    """What a call gives: its value and type, or its exception's type and text."""
    try:
        value = call()
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return type(value).__name__, value


def python_validate(on: On) -> Callable[..., bool]:
    """The Python function behind ``on.validate`` (the entry wraps it)."""
    function: Callable[..., bool] = inspect.unwrap(on.validate)
    return function


def table(on: On) -> dict[str, Callable[[str], object | None]]:
    """``on.validate``'s table of rule spellings and matchers."""
    return on.api._validate_table


# Calls and what the Python function answers them: the entry must agree,
# first call (the table empty) and repeated (the spelling in the table).
CALLS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "fast-true": (("URI-reference", "http://a/b?c#d"), {}),
    "fast-false": (("URI-reference", "http://a/b c"), {}),
    "other-spelling": (("uri-REFERENCE", "http://a/"), {}),
    "iri": (("IRI-reference", "http://\u00e9/\U00010000"), {}),
    "lone-surrogate": (("IRI-reference", "http://a/\ud800"), {}),
    "core-rule": (("CRLF", "\r\n"), {}),
    "str-subclass-text": (("URI", type("S", (str,), {})("http://a")), {}),
    "str-subclass-rule": ((type("R", (str,), {})("URI"), "http://a"), {}),
    "unknown-rule": (("URL", "http://a"), {}),
    "int-text": (("URI", 1), {}),
    "bytes-text": (("URI", b"http://a"), {}),
    "none-rule": ((None, "http://a"), {}),
    "bytes-rule": ((b"URI", "http://a"), {}),
    "keyword-automata": (("URI", "http://a"), {"method": "automata"}),
    "keyword-abnf": (("URI", "http://a"), {"method": "abnf"}),
    "keyword-bad-method": (("URI", "http://a"), {"method": "nope"}),
    "keyword-text": (("URI",), {"text": "http://a"}),
    "keyword-rule-and-text": ((), {"rule": "URI", "text": "http://a"}),
    "unknown-keyword": (("URI", "http://a"), {"speed": 1}),
    "one-argument": (("URI",), {}),
    "three-arguments": (("URI", "http://a", "automata"), {}),
    "no-arguments": ((), {}),
}


@pytest.mark.parametrize("filled", [False, True], ids=["empty-table", "filled-table"])
@pytest.mark.parametrize("case", list(CALLS))
def test_every_call_answers_as_the_python_function(on: On, case: str, filled: bool) -> None:
    args, kwargs = CALLS[case]
    function = python_validate(on)
    expected = outcome(lambda: function(*args, **kwargs))
    table(on).clear()
    if filled:  # every spelling above known: only the other checks decide
        for spelling in ("URI", "URI-reference", "uri-REFERENCE", "IRI-reference", "CRLF"):
            function(spelling, "x")
    assert outcome(lambda: on.validate(*args, **kwargs)) == expected
    assert outcome(lambda: on.validate(*args, **kwargs)) == expected  # the table filled now


def test_the_abnf_engine_keyword_is_not_taken_for_the_fast_path(on: On) -> None:
    # The fast path would say True; the abnf engine refuses the length.
    text = "http://a/" + "b" * u.ABNF_MAX_LENGTH
    assert on.validate("URI", text) is True
    with pytest.raises(u.InputTooLongError):
        on.validate("URI", text, method="abnf")


@pytest.mark.thread_unsafe  # it takes a spelling out of the table every thread reads
def test_answers_are_bools_and_the_table_learns_spellings(on: On) -> None:
    table(on).pop("uRi", None)
    assert on.validate("uRi", "http://a") is True
    assert on.validate("uRi", "http://a b") is False
    assert "uRi" in table(on)
    assert on.validate("uRi", "http://a") is True


@native
def test_each_back_ends_table_holds_its_own_matchers() -> None:
    # Both tables live side by side, filled in any order: neither ever
    # holds the other's matchers, and neither is emptied to switch.
    from urigrammar.engine.backend._native import Runner

    assert NATIVE is not None
    for backend in (NATIVE, PURE, NATIVE):
        on = On(backend)
        assert on.validate("URI-reference", "http://a/")
        owner = getattr(table(on)["URI-reference"], "__self__", None)
        assert isinstance(owner, Runner) is backend.native
        assert not on.validate("URI-reference", "http://a/ ")


@pytest.mark.thread_unsafe  # it adds a matcher to the table every thread reads
def test_a_matcher_in_the_table_is_called_and_its_errors_handled(on: On) -> None:
    # Matchers other than the runner's are called: their answer (None or
    # not) makes the bool; TypeError and KeyError send the call to the
    # Python function (which, for a spelling no grammar has, raises
    # UnknownRuleError), any other error propagates, as in the function.
    def fails(error: type[Exception]) -> Callable[[str], object]:
        def matcher(text: str) -> object:
            raise error(text)

        return matcher

    matchers: dict[str, Callable[[str], object]] = {
        "yes-rule": lambda text: text,
        "no-rule": lambda text: None,
        "typeerror-rule": fails(TypeError),
        "keyerror-rule": fails(KeyError),
        "runtime-rule": fails(RuntimeError),
    }
    function = python_validate(on)
    table(on).update(matchers)
    try:
        for name in matchers:
            expected = outcome(lambda name=name: function(name, "x"))
            assert outcome(lambda name=name: on.validate(name, "x")) == expected, name
        assert on.validate("yes-rule", "x") is True
        assert on.validate("no-rule", "x") is False
        with pytest.raises(u.UnknownRuleError):
            on.validate("typeerror-rule", "x")
        with pytest.raises(RuntimeError):
            on.validate("runtime-rule", "x")
    finally:
        for name in matchers:
            table(on).pop(name, None)


def test_spellings_taking_turns_each_answer_for_their_rule(on: On) -> None:
    # The entry remembers the last spelling it found: the same str object
    # again, an equal str made anew, and another rule's name, in turn.
    fresh = "".join(["IPv4", "address"])
    calls = [
        ("IPv4address", "1.2.3.4", True),
        ("reg-name", "1.2.3.4", True),
        (fresh, "1.2.3.4.5", False),
        ("reg-name", "1.2.3.4.5", True),
        ("IPv4address", "1.2.3.4.5", False),
        (fresh, "1.2.3.4", True),
        ("ipv4ADDRESS", "256.1.1.1", False),
    ]
    for _ in range(2):
        for rule, text, answer in calls:
            assert on.validate(rule, text) is answer, (rule, text)


def test_threads_agree_while_the_table_is_emptied(on: On) -> None:
    # Eight threads validate while the main thread empties the table again
    # and again: a matcher in use must stay alive, and every answer stay
    # right.
    texts = [("URI-reference", "http://a/b%20c?d#e"), ("URI", "a b"), ("IRI", "x:\u00e9")]
    expected = [on.validate(rule, text) for rule, text in texts]
    stop = threading.Event()
    wrong: list[tuple[str, str]] = []

    def work() -> None:
        while not stop.is_set():
            for (rule, text), answer in zip(texts, expected, strict=True):
                if on.validate(rule, text) is not answer:
                    wrong.append((rule, text))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    threads = [threading.Thread(target=work) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for _ in range(300):
            table(on).clear()
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        sys.setswitchinterval(interval)
    assert wrong == []


# --- what a user sees of the function --------------------------------------------


def test_pickles_and_copies_as_the_module_attribute() -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(u.validate, protocol)) is u.validate
    assert copy.copy(u.validate) is u.validate
    assert copy.deepcopy(u.validate) is u.validate


def test_signature_doc_and_names_are_the_functions() -> None:
    function = inspect.unwrap(u.validate)
    assert inspect.signature(u.validate) == inspect.signature(function)
    assert str(inspect.signature(u.validate)).startswith("(rule: ")
    assert "method" in inspect.signature(u.validate).parameters
    assert u.validate.__doc__ == function.__doc__
    assert u.validate.__doc__
    assert "case-insensitive" in u.validate.__doc__
    assert u.validate.__name__ == u.validate.__qualname__ == "validate"
    assert u.validate.__module__ == "urigrammar.uri._api"
    assert inspect.unwrap(api(PURE).validate) is api(PURE).validate
    assert inspect.signature(api(PURE).validate) == inspect.signature(function)
    assert callable(u.validate)


def test_help_shows_the_signature_and_the_doc() -> None:
    text = pydoc.render_doc(u.validate, renderer=pydoc.plaintext)
    # Python 3.13's pydoc puts a long signature's parameters one a line:
    # compared without white space.
    signature = f"validate{inspect.signature(inspect.unwrap(u.validate))}"
    assert "".join(signature.split()) in "".join(text.split())
    assert "Whether all of" in text


def test_binds_as_a_method_as_a_function_does() -> None:
    class Holder:
        entry = u.validate
        function = inspect.unwrap(u.validate)

    assert Holder.entry is u.validate
    holder = Holder()
    assert outcome(lambda: holder.entry("http://a")) == outcome(lambda: holder.function("http://a"))
    assert holder.entry.__self__ is holder  # type: ignore[attr-defined]


def test_the_entry_is_validate_on_the_native_back_end_only(on: On) -> None:
    if on.backend.native:
        from urigrammar.engine.backend._native import Entry

        assert type(on.validate) is Entry
    else:
        assert inspect.isfunction(on.validate)
        assert inspect.unwrap(on.validate) is on.validate
    assert u.validate is api(default_backend()).validate


def test_entry_returns_the_function_on_the_pure_back_end() -> None:
    def fallback(rule: str, text: str) -> bool:
        return True

    assert front(PURE, {}, fallback) is fallback
    assert front(PURE, {}, fallback, "URI-reference") is fallback


def test_forcing_the_pure_engine_gives_the_python_function() -> None:
    code = (
        "import types, pickle, urigrammar as u; "
        "print(type(u.validate) is types.FunctionType, u.validate('URI', 'a:b'), "
        "pickle.loads(pickle.dumps(u.validate)) is u.validate)"
    )
    environ = {k: v for k, v in os.environ.items() if k != "URIGRAMMAR_PURE"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environ | {"URIGRAMMAR_PURE": "1"},
        check=True,
    )
    assert done.stdout.split() == ["True", "True", "True"]


# --- the Entry type on its own ---------------------------------------------------


@native
def test_entry_passes_every_other_call_through_unchanged() -> None:
    from urigrammar.engine.backend._native import Entry

    def fallback(*args: object, **kwargs: object) -> object:
        return ("fallback", args, kwargs)

    grammar, name = shipped_rule("URI")
    matcher = grammar.matcher(name, backend=NATIVE)
    entry = Entry({"r": matcher}, fallback)
    assert entry("r", "http://a") is True
    assert entry("r", "http://a b") is False
    assert entry("s", "x") == ("fallback", ("s", "x"), {})
    assert entry("r", "x", method="abnf") == ("fallback", ("r", "x"), {"method": "abnf"})
    assert entry("r", 1) == ("fallback", ("r", 1), {})
    assert entry("r") == ("fallback", ("r",), {})
    assert entry() == ("fallback", (), {})
    assert entry("r", "x", "y") == ("fallback", ("r", "x", "y"), {})
    with pytest.raises(TypeError):
        Entry([], fallback)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Entry({}, 1)  # type: ignore[arg-type]


@native
def test_a_text_only_entry_answers_one_text_alone() -> None:
    from urigrammar.engine.backend._native import Entry

    def fallback(*args: object, **kwargs: object) -> object:
        return ("fallback", args, kwargs)

    def matcher(text: str) -> object:
        return None if text == "none" else ("matched", text)

    entry = Entry({"d": matcher}, fallback, "d", text_only=True)
    assert entry("x") == ("matched", "x")
    assert entry("none") == ("fallback", ("none",), {})  # None: the fallback answers
    assert entry("x", "d") == ("fallback", ("x", "d"), {})  # never a name
    assert entry("x", options=1) == ("fallback", ("x",), {"options": 1})
    assert entry(1) == ("fallback", (1,), {})
    with pytest.raises(TypeError, match="take a default"):
        Entry({}, fallback, text_only=True)


@native
def test_an_identity_entry_looks_its_second_argument_up_by_identity() -> None:
    from urigrammar.engine.backend._native import Entry

    def fallback(*args: object, **kwargs: object) -> object:
        return ("fallback", args)

    options, equal = [1], [1]
    table: dict[int, Any] = {
        id(None): (None, lambda text: ("default", text)),
        id(options): (options, lambda text: ("options", text)),
    }
    entry = Entry(table, fallback, "d", by_identity=True)
    assert entry("x") == ("default", "x")
    assert entry("x", None) == ("default", "x")
    assert entry("x", options) == ("options", "x")
    assert entry("x", equal) == ("fallback", ("x", equal))  # equal is not the same
    table[id(equal)] = (options, lambda text: "wrong")  # an id whose value is another
    assert entry("x", equal) == ("fallback", ("x", equal))
    table[id(equal)] = (equal, None)  # None: the fallback's alone
    assert entry("x", equal) == ("fallback", ("x", equal))
    table[id(None)] = "not a pair"
    assert entry("x") == ("fallback", ("x",))


# --- periodic walks, followed with rows fixed in long texts ------------------------

# Units whose walk through URI-reference's DFA repeats with periods of 2 to
# 9 characters (9: longer than the runner follows, so it walks it step by
# step), some with a loop inside the period.
UNITS = ["%41", "%4a%4B", "u:p%20", "a%2F/", "ab%20", "a%20b%3C", "xy%20z%41", "!$%2a;"]


@native
@pytest.mark.parametrize("unit", UNITS)
def test_periodic_walks_stop_exactly_where_the_text_stops_being_viable(unit: str) -> None:
    from urigrammar.engine.backend import _native

    grammar, name = shipped_rule("URI-reference")
    tables = build_tables(inline_rule(grammar.rules, name))
    assert tables is not None
    assert tables == grammar.program(name).dfa
    runner = _native.Runner(tables.to_bytes())
    pattern = re.compile(grammar.program(name).source)
    text = "http://" + unit * (5000 // len(unit)) + "@h/"
    assert runner.accepts(text)
    # Offsets in rounds followed in the first read chunk, on either side of
    # its seam with the second (2048), further on, and at the text's end.
    for at in [*range(100, 112), *range(2044, 2060), 4000, len(text) - 4, len(text) - 1]:
        for bad in (" ", "%"):
            broken = text[:at] + bad + text[at + 1 :]
            assert runner.accepts(broken) is (pattern.fullmatch(broken) is not None)
            assert runner.viable(broken) == grammar.viable_prefix(name, broken)


# --- help() and pydoc on the public functions, on either back end ---------------

_HELP_SCRIPT = """
import inspect, pydoc, typing, urigrammar as u
for name, returns in (("parse", u.URIReference), ("validate", bool), ("parse_iri", u.IRIReference)):
    function = getattr(u, name)
    text = pydoc.render_doc(function, renderer=pydoc.plaintext)
    first = function.__doc__.strip().splitlines()[0].strip()
    assert first in text, (name, first, text)
    assert "RefT" not in text, text
    assert "'str'" not in text and "'Method'" not in text, text  # types, not names
    assert "Literal['automata', 'abnf']" in text, text
    assert "-> " + inspect.formatannotation(returns) in text, text
    assert typing.get_type_hints(function)["return"] is returns
print(u.BACKEND)
"""


@pytest.mark.parametrize("pure", ["", "1"], ids=["default", "URIGRAMMAR_PURE"])
def test_help_shows_each_function_with_its_doc_and_types(pure: str) -> None:
    env = {key: value for key, value in os.environ.items() if key != "URIGRAMMAR_PURE"}
    if pure:
        env["URIGRAMMAR_PURE"] = pure
    done = subprocess.run(
        [sys.executable, "-c", _HELP_SCRIPT], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("pure" if pure or NATIVE is None else "native")


def test_the_parse_functions_annotations_are_their_types(on: On) -> None:
    import typing

    hints = typing.get_type_hints(on.parse)
    assert hints == {"text": str, "rule": str, "method": Method, "return": u.URIReference}
    assert typing.get_type_hints(on._iri)["return"] is u.IRIReference
    signature = inspect.signature(on.parse)
    assert signature.return_annotation is u.URIReference
    assert signature == inspect.signature(inspect.unwrap(on.parse))
    assert typing.get_type_hints(on.validate)["return"] is bool
    assert "RefT" not in pydoc.render_doc(on.parse, renderer=pydoc.plaintext)
