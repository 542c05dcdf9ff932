"""The fuzz invariant, after h11's ``fuzz/README``.

    Given any ``str`` at all -- lone surrogates, NUL, control characters,
    non-characters, a megabyte of junk -- every function of urigrammar that
    reads text either returns normally or raises one of its documented
    errors, all subclasses of ``UrigrammarError``:

    * ``URISyntaxError`` when the text does not match the rule, with an
      offset inside the text;
    * ``UnknownRuleError`` when the rule name is in neither RFC 3986
      Appendix A nor RFC 5234 Appendix B;
    * ``InputTooLongError`` when the ``abnf`` engine is given more than
      ``ABNF_MAX_LENGTH`` characters;
    * ``URIError`` for the rest: a relative base, a target no reference
      reaches, a malformed percent-encoding, a rule ``parse`` does not take.

    An argument that is not a ``str`` (bytes, ``None``, a number, a list)
    raises ``TypeError`` and nothing else.  The command line never lets an
    exception out of ``main``: it returns 0, 1 or 2 and prints no traceback.

Anything else -- ``IndexError``, ``RecursionError``, ``UnicodeError``, a
bare ``ValueError`` -- is a bug.  The targets in ``fuzz/`` check the same
sentence with a coverage-guided fuzzer, and the C back end against the
pure one (``tox -e fuzz``).

Where it is cheap, a success is also checked for what it promises
(``str(parse(t)) == t``, ``resolve`` after ``relativize`` gives the target
back, ``normalize`` is idempotent), so a wrong answer cannot pass as a
normal return.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from _references import reads_back
from urigrammar.cli._cli import main
from urigrammar.engine import default_backend
from urigrammar.strategies import from_rule, uri_references

# --- Strategies --------------------------------------------------------------

#: Every code point.  Hypothesis leaves the surrogates (category Cs) out
#: unless told, and even then ``st.text`` draws them about once in 300
#: examples; so surrogates and control characters (Cc: NUL, DEL, C1) get
#: strategies of their own, and texts are lists of such characters joined.
ANY_CHAR = st.one_of(
    st.characters(exclude_categories=()),
    st.characters(categories=("Cs",)),
    st.characters(categories=("Cc",)),
)


def junk(max_size: int | None = None, min_size: int = 0) -> st.SearchStrategy[str]:
    """Text of any code points at all."""
    return st.lists(ANY_CHAR, min_size=min_size, max_size=max_size).map("".join)


any_text = junk()

#: Pieces of URIs and of junk, to reach deeper than random characters do.
PIECES = (
    ":",
    "//",
    "/",
    "?",
    "#",
    "@",
    "[",
    "]",
    "%",
    "%4",
    "%41",
    "%e9",
    "%ED%A0%80",
    "%C3%A9",
    "%FF",
    ".",
    "..",
    "::",
    "v1.",
    "1.2.3.4",
    "256.1.1.1",
    "[::1]",
    "[v7.x]",
    "[::ffff:1.2.3.4]",
    "0",
    "65536",
    "+",
    "=",
    "&",
    "http:",
    "\x00",
    "\ud800",
    "\udcff",
    " ",
    "\r\n",
    "\t",
    "\x7f",
    "\u00e9",
    "\U0001f600",
    "\ufffe",
)
piece = st.one_of(
    st.sampled_from(PIECES),
    from_rule("scheme"),
    from_rule("reg-name"),
    from_rule("segment"),
    from_rule("IPv6address"),
    from_rule("query"),
    junk(3),
)
uri_like = st.lists(piece, max_size=12).map("".join)


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A valid URI-reference with up to three pieces of junk put in."""
    text = draw(from_rule("URI-reference"))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(piece) + text[at:]
    return text


texts = st.one_of(any_text, uri_like, damaged(), from_rule("URI-reference"))
bases = st.one_of(texts, from_rule("URI"))

MB = 1_000_000
HEADS = ("", "http://", "http://a/", "http://a/?", "//h:", "a:/", "http://[v1.", "http://[::")


@st.composite
def megabyte_texts(draw: st.DrawFn) -> str:
    """A megabyte of one fragment repeated, after a URI-ish head, with junk
    (maybe none) somewhere in it."""
    head = draw(st.sampled_from(HEADS))
    unit = draw(st.one_of(st.sampled_from(PIECES), uri_like)) or "a"
    body = (unit * (MB // len(unit) + 1))[:MB]
    at = draw(st.integers(0, MB))
    extra = draw(junk(2))
    return head + body[:at] + extra + body[at:]


def _spellings(name: str) -> st.SearchStrategy[str]:
    return st.sampled_from((name, name.upper(), name.lower(), name.swapcase()))


rule_names = st.one_of(
    st.sampled_from(u.RULE_NAMES).flatmap(_spellings),
    junk(20),
    st.tuples(st.sampled_from(u.RULE_NAMES), junk(3, min_size=1)).map("".join),
)

#: Arguments that are not text.
non_str = st.one_of(
    st.binary(max_size=20),
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.lists(st.text(max_size=3), max_size=2),
    st.binary(max_size=8).map(bytearray),
)

# --- Helpers -----------------------------------------------------------------

_KNOWN = frozenset(name.lower() for name in u.RULE_NAMES)

#: The default back end's functions, for what no back end changes: the
#: ``abnf`` engine's verdicts.
DEFAULT = On(default_backend())


def outcome(
    call: Callable[..., Any],
    *args: Any,
    allowed: tuple[type[u.UrigrammarError], ...],
    **kwargs: Any,
) -> Any:
    """``call``'s result, or the documented error it raised; any other
    exception propagates and fails the test.  A raised error must also
    render: a message that cannot be shown is a crash of its own."""
    try:
        return call(*args, **kwargs)
    except allowed as exc:
        str(exc)
        repr(exc)
        return exc


def _offset_in(error: u.UrigrammarError, text: str) -> None:
    assert error.offset is not None
    assert 0 <= error.offset <= len(text)


# --- validate and check ------------------------------------------------------


def _validate_and_check(on: On, text: str, rule: str, method: u.Method = "automata") -> None:
    valid = outcome(on.validate, rule, text, method=method, allowed=(u.InputTooLongError,))
    if isinstance(valid, u.InputTooLongError):
        assert method == "abnf"
        assert len(text) > u.ABNF_MAX_LENGTH
        return
    assert type(valid) is bool
    error = outcome(on.check, rule, text, method=method, allowed=(u.URISyntaxError,))
    if valid:
        assert error is None
    else:
        assert isinstance(error, u.URISyntaxError)
        assert (error.rule, error.text) == (rule, text)
        _offset_in(error, text)


@backend_settings(max_examples=examples(50))
@given(texts)
def test_every_rule_validates_any_text(on: On, text: str) -> None:
    for rule in u.RULE_NAMES:
        _validate_and_check(on, text, rule)


@given(st.one_of(any_text, uri_like).map(lambda t: t[:64]), st.sampled_from(u.RULE_NAMES))
def test_every_rule_validates_any_text_with_the_abnf_engine(text: str, rule: str) -> None:
    _validate_and_check(DEFAULT, text, rule, method="abnf")


@backend_settings(max_examples=examples(50))
@given(rule_names, texts)
def test_any_rule_name_is_a_rule_or_unknown(on: On, name: str, text: str) -> None:
    for call in (on.validate, on.check):
        result = outcome(
            call, name, text, allowed=(u.URISyntaxError, u.UnknownRuleError, u.InputTooLongError)
        )
        if isinstance(result, u.InputTooLongError):
            assert len(text) > u.ABNF_MAX_LENGTH
        elif isinstance(result, u.UnknownRuleError):
            assert name.lower() not in _KNOWN
            assert result.rule == name
        elif name.isascii():
            assert name.lower() in _KNOWN


# --- parse -------------------------------------------------------------------


@backend_settings(max_examples=examples(50))
@given(texts)
def test_parse_any_text_with_both_methods(on: On, text: str) -> None:
    for rule in u.PARSE_RULES:
        results = []
        for method in ("automata", "abnf"):
            ref = outcome(
                on.parse, text, rule, method=method, allowed=(u.URISyntaxError, u.InputTooLongError)
            )
            if isinstance(ref, u.InputTooLongError):
                assert method == "abnf"
                assert len(text) > u.ABNF_MAX_LENGTH
                continue
            if isinstance(ref, u.URISyntaxError):
                _offset_in(ref, text)
                assert not on.validate(rule, text)
                results.append(None)
            else:
                assert isinstance(ref, u.URIReference)
                assert str(ref) == text
                assert on.validate(rule, text)
                results.append(ref)
        assert len(set(results)) == 1, "the methods disagree"


@backend_settings(max_examples=examples(50))
@given(texts, rule_names)
def test_parse_any_rule_name(on: On, text: str, name: str) -> None:
    result = outcome(on.parse, text, name, allowed=(u.UrigrammarError,))
    if isinstance(result, u.URIReference):
        assert str(result) == text


# --- resolve, relativize, normalize, equivalent -----------------------------


@given(bases, texts, st.booleans())
def test_resolve_any_texts(base: str, ref: str, strict: bool) -> None:
    target = outcome(u.resolve, base, ref, strict=strict, allowed=(u.UrigrammarError,))
    if isinstance(target, u.URIReference):
        assert target.scheme is not None
        assert u.parse(str(target)) == target
        back = outcome(u.relativize, base, target, allowed=(u.UrigrammarError,))
        if isinstance(back, u.URIReference):
            assert u.resolve(base, back) == target


@given(bases, texts)
def test_relativize_any_texts(base: str, target: str) -> None:
    ref = outcome(u.relativize, base, target, allowed=(u.UrigrammarError,))
    if isinstance(ref, u.URIReference):
        assert u.resolve(base, ref) == u.parse(target)


@given(texts, st.booleans(), st.booleans())
def test_normalize_any_text(text: str, scheme_based: bool, ipv6_canonical: bool) -> None:
    options = {"scheme_based": scheme_based, "ipv6_canonical": ipv6_canonical}
    normal = outcome(u.normalize, text, **options, allowed=(u.URISyntaxError,))
    if isinstance(normal, u.URIReference):
        assert u.normalize(normal, **options) == normal
        assert u.parse(str(normal)) == normal
        assert u.equivalent(text, text, **options)


_HYGIENE_OPTIONS = st.sampled_from(
    [None, u.CRAWL_KEY, u.SURT_KEY, u.Canonicalization(drop_www=True, drop_parameters=("*",))]
)


@given(texts, _HYGIENE_OPTIONS)
def test_canonicalize_surt_and_lint_any_text(text: str, rules: u.Canonicalization | None) -> None:
    key = outcome(u.canonicalize, text, rules, allowed=(u.URISyntaxError,))
    if isinstance(key, str):
        assert u.canonicalize(key, rules) == key
        assert u.validate("URI-reference", key)
    found = outcome(u.surt, text, rules, allowed=(u.URISyntaxError,))
    assert isinstance(found, (str, u.URISyntaxError))
    findings = outcome(u.lint, text, allowed=(u.URISyntaxError,))
    if isinstance(findings, tuple):
        assert all(0 <= f.offset <= f.offset + f.length <= len(text) for f in findings)


@given(texts)
def test_registrable_domain_any_text(text: str) -> None:
    pytest.importorskip("publicsuffixlist")
    for find in (u.registrable_domain, u.public_suffix):
        answer = outcome(find, text, allowed=())
        assert answer is None or isinstance(answer, str)


@given(texts, texts)
def test_equivalent_any_texts(a: str, b: str) -> None:
    same = outcome(u.equivalent, a, b, allowed=(u.URISyntaxError,))
    assert isinstance(same, (bool, u.URISyntaxError))


# --- percent-decoding --------------------------------------------------------


@given(texts, st.sampled_from(("strict", "replace", "surrogateescape", "backslashreplace")))
def test_percent_decode_any_text(text: str, errors: str) -> None:
    decoded = outcome(u.percent_decode, text, errors=errors, allowed=(u.UrigrammarError,))
    if isinstance(decoded, u.UrigrammarError):
        _offset_in(decoded, text)
        assert text[decoded.offset] == "%"
    else:
        assert isinstance(decoded, str)
    octets = outcome(u.percent_decode_bytes, text, allowed=(u.UrigrammarError,))
    assert isinstance(octets, (bytes, u.UrigrammarError))


# --- The methods that return a new reference ---------------------------------


@given(uri_references(), st.text(), st.text())
def test_conveniences_raise_only_uri_errors(text: str, a: str, b: str) -> None:
    ref = u.parse(text)
    calls: list[Any] = [
        lambda: ref / a,
        lambda: ref.joinpath(a, b),
        lambda: ref.with_path_segments([a, b]),
        lambda: ref.with_path_segments(["", a]),
        lambda: ref.add_param(a, b),
        lambda: ref.set_param(a, b, form=True),
        lambda: ref.remove_param(a),
        lambda: ref.get_param(a),
        lambda: ref.get_params(a, errors=b),
        lambda: ref.decoded_segments,
        lambda: (ref.user, ref.password, ref.hostname),
        lambda: (ref.origin, ref.port_or_default()),
        lambda: u.percent_encode(a, "path"),
    ]
    for call in calls:
        try:
            result = call()
        except u.UrigrammarError:
            continue
        if isinstance(result, u.URIReference):
            reads_back(result)


# --- Megabyte texts ----------------------------------------------------------


@backend_settings(max_examples=4)
@given(megabyte_texts())
def test_megabyte_texts(on: On, text: str) -> None:
    # Every rule validates, a few locate their errors (each locate is a
    # linear scan; all fifty would make the example slow, not different).
    for rule in u.RULE_NAMES:
        found = outcome(on.validate, rule, text, allowed=(u.InputTooLongError,))
        assert isinstance(found, (bool, u.UrigrammarError))
    for rule in (*u.PARSE_RULES, "path-abempty", "query", "host"):
        _validate_and_check(on, text, rule)
    for rule in u.PARSE_RULES:
        ref = outcome(on.parse, text, rule, allowed=(u.URISyntaxError,))
        assert isinstance(ref, u.URISyntaxError) or str(ref) == text
        too_long = outcome(on.parse, text, rule, method="abnf", allowed=(u.InputTooLongError,))
        assert isinstance(too_long, u.InputTooLongError)
    outcome(u.normalize, text, allowed=(u.URISyntaxError,))
    outcome(u.resolve, "http://a/b/c", text, allowed=(u.URISyntaxError,))
    outcome(u.percent_decode, text, allowed=(u.UrigrammarError,))
    outcome(u.canonicalize, text, u.CRAWL_KEY, allowed=(u.URISyntaxError,))
    outcome(u.lint, text, allowed=(u.URISyntaxError,))


# --- Arguments that are not text ---------------------------------------------

#: What the back end answers: its validate, check and parse (the native
#: one's C entry point sees the argument first).
_NOT_TEXT_ON: dict[str, Callable[[On, Any], object]] = {
    "validate(x, text)": lambda on, x: on.validate(x, "a"),
    "validate(rule, x)": lambda on, x: on.validate("URI", x),
    "validate(rule, x, abnf)": lambda on, x: on.validate("URI", x, method="abnf"),
    "check(x, text)": lambda on, x: on.check(x, "a"),
    "check(rule, x)": lambda on, x: on.check("URI", x),
    "parse(x)": lambda on, x: on.parse(x),
    "parse(x, abnf)": lambda on, x: on.parse(x, method="abnf"),
    "parse(text, x)": lambda on, x: on.parse("a", x),
    "parse_iri(x)": lambda on, x: on.parse_iri(x),
    "parse_iri(text, x)": lambda on, x: on.parse_iri("a", x),
}

_NOT_TEXT: dict[str, Callable[[Any], object]] = {
    "parse_tree(x, text)": lambda x: u.parse_tree(x, "a"),
    "parse_tree(rule, x)": lambda x: u.parse_tree("URI", x),
    "resolve(x, ref)": lambda x: u.resolve(x, "g"),
    "resolve(base, x)": lambda x: u.resolve("http://a/b", x),
    "relativize(x, target)": lambda x: u.relativize(x, "http://a/g"),
    "relativize(base, x)": lambda x: u.relativize("http://a/b", x),
    "normalize(x)": u.normalize,
    "equivalent(x, b)": lambda x: u.equivalent(x, "a"),
    "equivalent(a, x)": lambda x: u.equivalent("a", x),
    "percent_decode(x)": u.percent_decode,
    "percent_decode_bytes(x)": u.percent_decode_bytes,
    "canonicalize(x)": u.canonicalize,
    "surt(x)": u.surt,
    "lint(x)": u.lint,
    "registrable_domain(x)": u.registrable_domain,
}


@pytest.mark.parametrize("call", _NOT_TEXT_ON.values(), ids=list(_NOT_TEXT_ON))
@backend_settings(max_examples=examples(50))
@given(value=non_str)
def test_non_str_arguments_raise_type_error_on(
    on: On, call: Callable[[On, Any], object], value: Any
) -> None:
    with pytest.raises(TypeError):
        call(on, value)


@pytest.mark.parametrize("call", _NOT_TEXT.values(), ids=list(_NOT_TEXT))
@given(value=non_str)
def test_non_str_arguments_raise_type_error(call: Callable[[Any], object], value: Any) -> None:
    with pytest.raises(TypeError):
        call(value)


# --- The command line --------------------------------------------------------

_TRACEBACK = "Traceback (most recent call last)"
_OPTIONS = {
    "parse": st.lists(
        st.one_of(st.just(["--method", "abnf"]), rule_names.map(lambda name: ["--rule", name])),
        max_size=2,
    ),
    "validate": st.lists(st.just(["--method", "abnf"]), max_size=1),
    "canonicalize": st.lists(st.sampled_from((["--crawl"], ["--drop-www"], ["--sort-query"]))),
    "surt": st.lists(st.sampled_from((["--with-scheme"], ["--trailing-comma"])), max_size=2),
    "lint": st.lists(st.just(["--json"]), max_size=1),
    "resolve": st.lists(st.just(["--non-strict"]), max_size=1),
    "normalize": st.lists(st.sampled_from((["--syntax-only"], ["--ipv6-canonical"])), max_size=2),
    "decode": st.lists(
        st.one_of(
            st.just(["--form"]),
            st.sampled_from(("strict", "replace", "backslashreplace")).map(
                lambda e: ["--errors", e]
            ),
        ),
        max_size=2,
    ),
}


def command_lines(inputs: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """``urigrammar COMMAND [OPTIONS] [--] [RULE | BASE] TEXT...`` with texts
    from ``inputs``; without ``--`` a text that starts with ``-`` is read as
    an option."""

    @st.composite
    def argv(draw: st.DrawFn) -> list[str]:
        command = draw(st.sampled_from(sorted(_OPTIONS)))
        line = [command]
        for option in draw(_OPTIONS[command]):
            line += option
        if draw(st.booleans()):
            line.append("--")
        if command == "validate":
            line.append(draw(rule_names))
        elif command == "resolve":
            line.append(draw(bases))
        return line + draw(st.lists(inputs, min_size=1, max_size=3))

    return argv()


def _run(argv: list[str], *, strict_utf8: bool = False) -> tuple[int, str]:
    """``main(argv)``'s status and everything written to stderr, argparse's
    messages included.

    By default ``out`` and ``err`` are ``StringIO`` (which holds any
    ``str``).  With ``strict_utf8`` main writes to the standard streams, set
    up as a terminal's are under a UTF-8 locale: stdout strict, stderr
    ``backslashreplace`` (as Python always makes it)."""
    if strict_utf8:
        out: Any = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
        err: Any = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
        streams: tuple[Any, Any] = (None, None)
    else:
        out, err = io.StringIO(), io.StringIO()
        streams = (out, err)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv, *streams)
        except BaseException as exc:
            pytest.fail(f"{type(exc).__name__} escaped main({argv!r}): {exc!r}")
    err.flush()
    text = err.buffer.getvalue().decode("utf-8") if strict_utf8 else err.getvalue()
    return status, text


@given(command_lines(texts))
def test_cli_never_raises(argv: list[str]) -> None:
    status, err = _run(argv)
    assert status in (0, 1, 2)
    assert _TRACEBACK not in err


@given(st.lists(st.one_of(st.sampled_from(sorted(_OPTIONS)), any_text, uri_like), max_size=5))
def test_cli_any_argv(argv: list[str]) -> None:
    status, err = _run(argv)
    assert status in (0, 1, 2)
    assert _TRACEBACK not in err


# A terminal's stdout under a UTF-8 locale (en_US.UTF-8, say) is strict, and
# an argument that is not UTF-8 reaches argv as a lone surrogate (PEP 383):
# the echo of `urigrammar validate URI $'\xff'` must not crash print().


@given(command_lines(st.one_of(any_text, damaged())))
def test_cli_output_survives_a_strict_utf8_stdout(argv: list[str]) -> None:
    status, err = _run(argv, strict_utf8=True)
    assert status in (0, 1, 2)
    assert _TRACEBACK not in err


@pytest.mark.parametrize("command", [["validate", "URI"], ["decode"]])
def test_cli_echoes_undecodable_argv_bytes(command: list[str]) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    argv = [sys.executable, "-m", "urigrammar", *command]
    done = subprocess.run(
        [*map(str.encode, argv), b"a\xff"], capture_output=True, env=env, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    assert _TRACEBACK.encode() not in done.stderr


def test_cli_text_too_long_for_abnf_is_a_per_text_error(tmp_path: Path) -> None:
    """A text the abnf engine refuses is that text's error (status 3, too
    long and so undecided, the texts after it still handled), not a usage
    error that ends the run."""
    long_text = "http://a/" + "b" * u.ABNF_MAX_LENGTH
    lines = tmp_path / "lines.txt"
    lines.write_text(f"{long_text}\nhttp://a/\n", encoding="utf-8")
    runs = {
        ("parse", long_text, "http://a/"): '"host": "a"',
        ("validate", "URI", long_text, "http://a/"): "valid\thttp://a/",
        ("parse", "--file", str(lines)): '"host": "a"',
        ("parse", "--json", "--file", str(lines)): '"host": "a"',
        ("validate", "URI", "--file", str(lines)): "valid\thttp://a/",
        ("validate", "URI", "--json", "--file", str(lines)): '"text": "http://a/", "valid": true',
    }
    for argv, last_output in runs.items():
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                status = main([*argv, "--method", "abnf"], out, err)
            except BaseException as exc:
                pytest.fail(f"{type(exc).__name__} escaped main: {exc!r}")
        assert status == 3, (argv[:2], err.getvalue())
        assert last_output in out.getvalue(), argv[:2]
        assert str(u.ABNF_MAX_LENGTH) in err.getvalue() or str(u.ABNF_MAX_LENGTH) in out.getvalue()


# --- Files, pipes and numbers JSON cannot hold ---------------------------------


def test_cli_parse_prints_a_port_of_5000_digits(tmp_path: Path) -> None:
    """``port = *DIGIT`` has no bound, and ``int`` to ``str`` refuses more than
    4300 digits (CVE-2020-10735): ``json.dumps`` of such a port raises
    ``ValueError``.  The reference parses (``test_long``), so its JSON must
    be printed too."""
    digits = "9" * 5000
    text = f"http://h:{digits}/"
    lines = tmp_path / "lines.txt"
    lines.write_text(text + "\n", encoding="utf-8")
    for argv in (["parse", text], ["parse", "--file", str(lines)]):
        status, err = _run(argv)
        assert status == 0, err
        assert _TRACEBACK not in err


@given(st.lists(st.binary(max_size=40), max_size=5))
def test_cli_reads_any_bytes_from_a_file(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "lines"
        path.write_bytes(b"\n".join(lines))
        for argv in (["parse", "--file", str(path)], ["validate", "URI", "--file", str(path)]):
            status, err = _run(argv, strict_utf8=True)
            assert status in (0, 1), err
            assert _TRACEBACK not in err


def test_cli_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.txt", tmp_path):  # no such file; a directory
        status, err = _run(["validate", "URI", "--file", str(path)])
        assert status == 2
        assert str(path) in err
        assert _TRACEBACK not in err


@pytest.mark.parametrize("command", [["normalize"], ["parse", "--file"]], ids=["args", "file"])
def test_cli_stops_quietly_when_the_reader_goes(tmp_path: Path, command: list[str]) -> None:
    """``urigrammar ... | head -1``: once the pipe's reader has gone, the
    command stops without a traceback (and without Python's "Exception
    ignored" complaint at exit), as ``cat`` and ``grep`` do."""
    lines = [f"http://example.com/{i}/{'x' * 60}" for i in range(20_000)]  # > a pipe's buffer
    if command[-1] == "--file":
        path = tmp_path / "lines.txt"
        path.write_text("\n".join(lines), encoding="utf-8")
        argv = [*command, str(path)]
    else:
        argv = [*command, *lines[:3000]]
    with subprocess.Popen(
        [sys.executable, "-m", "urigrammar", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read()
        process.wait()
    assert b"Traceback" not in stderr, stderr.decode(errors="replace")[-500:]
    assert b"BrokenPipeError" not in stderr
    assert process.returncode == 2  # output that cannot be written
