"""validate's C entry (issue 14): ``urigrammar.validate`` is the extension's
``Entry`` when the native engine is built, a callable that answers
``validate(spelling, text)`` for a rule spelling already seen and a ``str``
by running the rule's matcher straight from C, and calls the Python
``validate`` for everything else.

Every fallback is checked against what the Python function does with the
same arguments (``_api._validate``, which is what ``urigrammar.validate``
is on the pure wheel): unknown spellings, wrong types, keyword arguments,
the ``abnf`` engine, engine switches, threads; and what a user sees of the
function: pickling, ``help``, ``inspect.signature`` and its metadata, and
binding as a method.  Then the periodic walks the runner follows with its
rows fixed, against the regex engine, on texts long enough to be watched.
"""

from __future__ import annotations

import copy
import inspect
import os
import pickle
import pydoc
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import urigrammar as u
from urigrammar.engine import _runner
from urigrammar.engine._compile import _inline
from urigrammar.engine._dfa import build_tables
from urigrammar.engine._ir import Ref
from urigrammar.uri import _api
from urigrammar.shipped import shipped_rule

native = pytest.mark.skipif(not _runner.NATIVE_AVAILABLE, reason="the extension is not built")


def outcome(call: Callable[[], object]) -> tuple[str, object]:
    """What a call gives: its value and type, or its exception's type and text."""
    try:
        value = call()
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return type(value).__name__, value


@pytest.fixture(params=["native", "pure"], scope="module")
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each engine in turn (native only when built): a switch empties the
    caches, and rebuilds cost, so one switch per engine for the module."""
    if request.param == "native" and not _runner.NATIVE_AVAILABLE:
        pytest.skip("the extension is not built")
    before = _runner.engine()
    if before != request.param:
        _runner.use(request.param)
    try:
        yield request.param
    finally:
        if _runner.engine() != before:
            _runner.use(before)


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
    "keyword-compiled": (("URI", "http://a"), {"engine": "compiled"}),
    "keyword-abnf": (("URI", "http://a"), {"engine": "abnf"}),
    "keyword-bad-engine": (("URI", "http://a"), {"engine": "nope"}),
    "keyword-text": (("URI",), {"text": "http://a"}),
    "keyword-rule-and-text": ((), {"rule": "URI", "text": "http://a"}),
    "unknown-keyword": (("URI", "http://a"), {"speed": 1}),
    "one-argument": (("URI",), {}),
    "three-arguments": (("URI", "http://a", "compiled"), {}),
    "no-arguments": ((), {}),
}


@pytest.mark.parametrize("filled", [False, True], ids=["empty-table", "filled-table"])
@pytest.mark.parametrize("case", list(CALLS))
def test_every_call_answers_as_the_python_function(engine: str, case: str, filled: bool) -> None:
    args, kwargs = CALLS[case]
    expected = outcome(lambda: _api._validate(*args, **kwargs))
    _api._fast_validate.clear()
    if filled:  # every spelling above known: only the other checks decide
        for spelling in ("URI", "URI-reference", "uri-REFERENCE", "IRI-reference", "CRLF"):
            _api._validate(spelling, "x")
    assert outcome(lambda: u.validate(*args, **kwargs)) == expected
    assert outcome(lambda: u.validate(*args, **kwargs)) == expected  # the table filled now


def test_the_abnf_engine_keyword_is_not_taken_for_the_fast_path() -> None:
    # The fast path would say True; the abnf engine refuses the length.
    text = "http://a/" + "b" * u.ABNF_MAX_LENGTH
    assert u.validate("URI", text) is True
    with pytest.raises(u.InputTooLongError):
        u.validate("URI", text, engine="abnf")


def test_answers_are_bools_and_the_table_learns_spellings(engine: str) -> None:
    assert "uRi" not in _api._fast_validate
    assert u.validate("uRi", "http://a") is True
    assert u.validate("uRi", "http://a b") is False
    assert "uRi" in _api._fast_validate
    assert u.validate("uRi", "http://a") is True


@native
def test_the_table_holds_the_active_engines_matchers() -> None:
    from urigrammar.engine._native import Runner

    before = _runner.engine()
    try:
        for engine, kind in (("native", Runner), ("pure", None), ("native", Runner)):
            _runner.use(engine)
            assert u.validate("URI-reference", "http://a/")
            matcher = _api._fast_validate["URI-reference"]
            owner = getattr(matcher, "__self__", None)
            assert isinstance(owner, Runner) if kind else not isinstance(owner, Runner)
            assert not u.validate("URI-reference", "http://a/ ")
    finally:
        _runner.use(before)


def test_a_matcher_in_the_table_is_called_and_its_errors_handled() -> None:
    # Matchers other than the runner's are called: their answer (None or
    # not) makes the bool; TypeError and KeyError send the call to the
    # Python function (which, for a spelling no grammar has, raises
    # UnknownRuleError), any other error propagates, as in the function.
    def fails(error: type[Exception]) -> Callable[[str], object]:
        def matcher(text: str) -> object:
            raise error(text)

        return matcher

    table: dict[str, Callable[[str], object]] = {
        "yes-rule": lambda text: text,
        "no-rule": lambda text: None,
        "typeerror-rule": fails(TypeError),
        "keyerror-rule": fails(KeyError),
        "runtime-rule": fails(RuntimeError),
    }
    _api._fast_validate.update(table)
    try:
        for name in table:
            expected = outcome(lambda name=name: _api._validate(name, "x"))
            assert outcome(lambda name=name: u.validate(name, "x")) == expected, name
        assert u.validate("yes-rule", "x") is True
        assert u.validate("no-rule", "x") is False
        with pytest.raises(u.UnknownRuleError):
            u.validate("typeerror-rule", "x")
        with pytest.raises(RuntimeError):
            u.validate("runtime-rule", "x")
    finally:
        for name in table:
            _api._fast_validate.pop(name, None)


def test_threads_agree_while_the_table_is_emptied(engine: str) -> None:
    # Eight threads validate while the main thread empties the table again
    # and again (as a switch of engine does): a matcher in use must stay
    # alive, and every answer stay right.
    texts = [("URI-reference", "http://a/b%20c?d#e"), ("URI", "a b"), ("IRI", "x:\u00e9")]
    expected = [u.validate(rule, text) for rule, text in texts]
    stop = threading.Event()
    wrong: list[tuple[str, str]] = []

    def work() -> None:
        while not stop.is_set():
            for (rule, text), answer in zip(texts, expected, strict=True):
                if u.validate(rule, text) is not answer:
                    wrong.append((rule, text))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    threads = [threading.Thread(target=work) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for _ in range(300):
            _api._fast_validate.clear()
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
    function = _api._validate
    assert inspect.signature(u.validate) == inspect.signature(function)
    assert str(inspect.signature(u.validate)).startswith("(rule: ")
    assert "engine" in inspect.signature(u.validate).parameters
    assert u.validate.__doc__ == function.__doc__
    assert u.validate.__doc__
    assert "case-insensitive" in u.validate.__doc__
    assert u.validate.__name__ == u.validate.__qualname__ == "validate"
    assert u.validate.__module__ == "urigrammar.uri._api"
    assert inspect.unwrap(u.validate) is function
    assert callable(u.validate)


def test_help_shows_the_signature_and_the_doc() -> None:
    text = pydoc.render_doc(u.validate, renderer=pydoc.plaintext)
    assert f"validate{inspect.signature(_api._validate)}" in text
    assert "Whether all of" in text


def test_binds_as_a_method_as_a_function_does() -> None:
    class Holder:
        entry = u.validate
        function = _api._validate

    assert Holder.entry is u.validate
    holder = Holder()
    assert outcome(lambda: holder.entry("http://a")) == outcome(lambda: holder.function("http://a"))
    assert holder.entry.__self__ is holder  # type: ignore[attr-defined]


@native
def test_the_entry_is_validate_unless_the_pure_engine_is_forced() -> None:
    from urigrammar.engine._native import Entry

    if _runner._forced_pure:
        assert u.validate is _api._validate
    else:
        assert type(u.validate) is Entry


def test_fast_entry_returns_the_function_without_the_extension(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fallback(rule: str, text: str) -> bool:
        return True

    monkeypatch.setattr(_runner, "_ENTRY", None)
    assert _runner.fast_entry({}, fallback) is fallback


def test_fast_entry_returns_the_function_when_pure_is_forced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fallback(rule: str, text: str) -> bool:
        return True

    monkeypatch.setattr(_runner, "_forced_pure", True)
    assert _runner.fast_entry({}, fallback) is fallback


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
    from urigrammar.engine._native import Entry

    def fallback(*args: object, **kwargs: object) -> object:
        return ("fallback", args, kwargs)

    grammar, name = shipped_rule("URI")
    before = _runner.engine()
    _runner.use("native")
    try:
        matcher = grammar.matcher(name)
    finally:
        _runner.use(before)
    entry = Entry({"r": matcher}, fallback)
    assert entry("r", "http://a") is True
    assert entry("r", "http://a b") is False
    assert entry("s", "x") == ("fallback", ("s", "x"), {})
    assert entry("r", "x", engine="abnf") == ("fallback", ("r", "x"), {"engine": "abnf"})
    assert entry("r", 1) == ("fallback", ("r", 1), {})
    assert entry("r") == ("fallback", ("r",), {})
    assert entry() == ("fallback", (), {})
    assert entry("r", "x", "y") == ("fallback", ("r", "x", "y"), {})
    with pytest.raises(TypeError):
        Entry([], fallback)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Entry({}, 1)  # type: ignore[arg-type]


# --- periodic walks, followed with rows fixed in long texts ------------------------

# Units whose walk through URI-reference's DFA repeats with periods of 2 to
# 9 characters (9: longer than the runner follows, so it walks it step by
# step), some with a loop inside the period.
UNITS = ["%41", "%4a%4B", "u:p%20", "a%2F/", "ab%20", "a%20b%3C", "xy%20z%41", "!$%2a;"]


@native
@pytest.mark.parametrize("unit", UNITS)
def test_periodic_walks_stop_exactly_where_the_text_stops_being_viable(unit: str) -> None:
    from urigrammar.engine import _native

    grammar, name = shipped_rule("URI-reference")
    tables = build_tables(_inline(grammar, Ref(name), frozenset(), ()))
    assert tables is not None
    runner = _native.Runner(**_runner.pack(tables))
    pattern = grammar.compiled(name).pattern
    text = "http://" + unit * (5000 // len(unit)) + "@h/"
    assert runner.accepts(text)
    # Offsets in rounds followed in the first read chunk, on either side of
    # its seam with the second (2048), further on, and at the text's end.
    for at in [*range(100, 112), *range(2044, 2060), 4000, len(text) - 4, len(text) - 1]:
        for bad in (" ", "%"):
            broken = text[:at] + bad + text[at + 1 :]
            assert runner.accepts(broken) is (pattern.fullmatch(broken) is not None)
            assert runner.viable(broken) == grammar.viable_prefix(name, broken)
