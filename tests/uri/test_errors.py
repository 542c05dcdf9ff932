"""The exception hierarchy: data on every error, a caret under the offset,
and pickling to equal objects."""

from __future__ import annotations

import pickle
import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import urigrammar as u
from _backends import On
from _budget import backend_settings, examples
from urigrammar.strategies import from_rule


def _error(on: On, rule: str, text: str) -> u.URISyntaxError:
    with pytest.raises(u.URISyntaxError) as info:
        on.check(rule, text)
    return info.value


#: The ABNF engine's errors, about any grammar: none is a URI error.
GENERIC = (
    u.GrammarError,
    u.RuleMatchError,
    u.UnknownRuleError,
    u.InputTooLongError,
    u.RegexExportError,
    u.MissingExtraError,
)


def test_hierarchy() -> None:
    assert issubclass(u.UrigrammarError, ValueError)
    assert issubclass(u.URIError, u.UrigrammarError)
    for error in GENERIC:
        assert issubclass(error, u.UrigrammarError)
        assert not issubclass(error, u.URIError), error
    # A text the URI family's grammars refuse is both.
    assert issubclass(u.URISyntaxError, u.RuleMatchError)
    assert issubclass(u.URISyntaxError, u.URIError)
    assert issubclass(u.UnknownRuleError, LookupError)
    assert issubclass(u.UnknownSchemeError, u.URIError)
    assert issubclass(u.UnknownSchemeError, LookupError)


def test_every_public_error_has_the_one_root() -> None:
    errors = [getattr(u, name) for name in u.__all__ if name.endswith("Error")]
    assert len(errors) > 10
    assert all(issubclass(error, u.UrigrammarError) for error in errors)


def test_a_user_grammar_refusal_is_no_uri_error() -> None:
    grammar = u.load_grammar('greeting = "hi"\n')
    with pytest.raises(u.RuleMatchError) as info:
        grammar.parse("greeting", "ho")
    assert not isinstance(info.value, u.URIError)


def test_message_names_rule_offset_and_shows_caret(on: On) -> None:
    error = _error(on, "URI", "http://a b/")
    first, text_line, caret_line = str(error).splitlines()
    assert "URI" in first
    assert "offset 8" in first
    assert "' '" in first
    assert text_line == "  http://a b/"
    assert caret_line == "  " + " " * 8 + "^"


def test_end_of_text_is_said_as_such(on: On) -> None:
    error = _error(on, "URI", "http://[::1")
    assert error.offset == len("http://[::1")
    assert "ends" in str(error).splitlines()[0]
    assert str(error).splitlines()[2].endswith(" " * len("http://[::1") + "^")


@pytest.mark.parametrize("bad", ["\t", "\x00", "\u00e9", "\U0001f600", "\ud800"])
def test_caret_stays_aligned_with_unprintable_characters(on: On, bad: str) -> None:
    text = f"a\u00e9b:{bad}"  # the first non-ASCII character is at 1
    error = _error(on, "scheme", text)
    assert error.offset == 1
    _, text_line, caret_line = str(error).splitlines()
    assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in text_line)
    text_line.encode("utf-8")  # printable: no lone surrogate left
    assert caret_line.index("^") == 3


def test_non_ascii_text_is_shown_as_typed(on: On) -> None:
    error = _error(on, "URI", "http://\u4f8b\u3048.jp/")
    _, text_line, caret_line = str(error).splitlines()
    assert text_line == "  http://\u4f8b\u3048.jp/"
    assert caret_line == "  " + " " * 7 + "^"


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        ("http://\u4f8b\u3048.jp/a b", 7 + 4 + 5),  # wide characters take two
        ("http://\uff21.jp/a b", 7 + 2 + 5),  # so does a fullwidth one
        ("http://e\u0301x/a b", 7 + 2 + 2),  # a combining mark takes none
        ("http://a\u200db/a b", 7 + 2 + 2),  # nor does a format character
    ],
)
def test_caret_is_placed_by_terminal_columns(on: On, text: str, columns: int) -> None:
    error = _error(on, "IRI", text)
    assert text[error.offset] == " "
    _, text_line, caret_line = str(error).splitlines()
    assert text_line == "  " + text
    assert caret_line == "  " + " " * columns + "^"


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x00", "\\x00"),
        ("\x7f", "\\x7f"),
        ("\x85", "\\x85"),  # C1
        ("\u2028", "\\u2028"),  # a line separator
        ("\u202e", "\\u202e"),  # bidi formatting: would reorder the line
        ("\u2067", "\\u2067"),
        ("\u061c", "\\u061c"),
        ("\u200f", "\\u200f"),
        ("\udc80", "\\udc80"),  # a lone surrogate cannot be printed
    ],
)
def test_only_control_characters_are_escaped(char: str, shown: str) -> None:
    from urigrammar._errors import caret_excerpt

    text_line, caret_line = caret_excerpt(f"\u00e9{char}x", 2).splitlines()
    assert text_line == f"  \u00e9{shown}x"
    assert caret_line == "  " + " " * (1 + len(shown)) + "^"


_ASCII_HINT = (
    "a URI is ASCII: urigrammar.to_uri() turns an IRI into one, "
    "or read it as an IRI with parse_iri()"
)


@pytest.mark.parametrize(
    ("rule", "text", "hint"),
    [
        ("URI", "http://a b/", "a space is written %20 in a URI"),
        ("URI-reference", "/a b", "a space is written %20 in a URI"),
        ("URI", "http://a/{x}", "write it percent-encoded: %7B"),
        ("query", 'a"b', "write it percent-encoded: %22"),
        ("relative-ref", "a|b", "write it percent-encoded: %7C"),
        ("absolute-URI", "http://a/\x00", "write it percent-encoded: %00"),
        ("URI", "http://\u4f8b\u3048.jp/", _ASCII_HINT),
        ("segment", "caf\u00e9", _ASCII_HINT),
    ],
)
def test_a_known_fix_is_hinted(on: On, rule: str, text: str, hint: str) -> None:
    error = _error(on, rule, text)
    first = str(error).splitlines()[0]
    assert first.startswith(f"not a valid {rule}: unexpected {text[error.offset]!r} at offset")
    assert first.endswith(f"; {hint}")
    assert error.message == first


def test_parse_hints_too(on: On) -> None:
    with pytest.raises(u.URISyntaxError) as info:
        on.parse("http://a b/")
    assert info.value.message.endswith("; a space is written %20 in a URI")


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        ("URI", "http://[fe80::1%25en0]/"),  # no fix known for a zone ID
        ("scheme", "a b"),  # no escape is allowed in a scheme
        ("URI", "http://a:8a/"),
        ("URI", "http://[::1"),  # the text ends early
        ("IRI", "http://a b/"),  # not a URI
    ],
)
def test_no_hint_where_no_fix_is_known(on: On, rule: str, text: str) -> None:
    assert ";" not in _error(on, rule, text).message


def test_no_hint_for_a_character_of_the_password(on: On) -> None:
    error = _error(on, "URI", "http://user:se cret@host/")
    assert ";" not in error.message
    assert "%20" not in str(error)


def test_no_hint_for_a_user_grammar() -> None:
    grammar = u.load_grammar('URI = 1*ALPHA ":" 1*ALPHA\n')
    with pytest.raises(u.RuleMatchError) as info:
        grammar.check("URI", "http:a b")
    assert not isinstance(info.value, u.URISyntaxError)
    assert info.value.message == "not a valid URI: unexpected ' ' at offset 6"


def test_long_text_is_shown_as_a_window(on: On) -> None:
    text = "http://a/" + "x" * 10_000 + " " + "y" * 10_000
    error = _error(on, "URI", text)
    _, text_line, caret_line = str(error).splitlines()
    assert len(text_line) < 100
    assert text_line.startswith("  ...")
    assert text_line.endswith("...")
    assert text_line[caret_line.index("^")] == " "


@pytest.mark.parametrize(
    "make",
    [
        lambda on: _error(on, "URI", "http://a b/"),
        lambda on: u.URIError("plain"),
        lambda on: u.UnknownRuleError("unknown rule 'x'", rule="x"),
        lambda on: u.InputTooLongError("too long", rule="URI", text="abc", offset=2),
    ],
)
def test_errors_pickle_to_equal_objects(on: On, make: Callable[[On], u.URIError]) -> None:
    error = make(on)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert copy == error
    assert str(copy) == str(error)
    assert (copy.rule, copy.text, copy.offset) == (error.rule, error.text, error.offset)


# --- No password in a message (RFC 3986 section 3.2.1) ---------------------


def test_password_is_masked_and_text_kept(on: On) -> None:
    text = "http://user:s3cret@exa mple.com/"
    error = _error(on, "URI", text)
    assert "s3cret" not in str(error)
    assert "s3cret" not in error.message
    assert error.text == text  # programs keep the raw text
    assert error.offset == text.index(" ")
    _, line, caret = str(error).splitlines()
    # The caret is under the same character it was under before masking.
    assert line[caret.index("^")] == " "
    assert "user:****@exa" in line
    assert pickle.loads(pickle.dumps(error)) == error
    assert "s3cret" not in str(pickle.loads(pickle.dumps(error)))


def test_an_empty_password_leaves_the_message_alone(on: On) -> None:
    # An empty password masks nothing: no ":" of the message becomes
    # ":****", on raising or on unpickling.
    with pytest.raises(u.URISyntaxError) as info:
        on.check("URI-reference", " A://:@")
    assert info.value.message == (
        "not a valid URI-reference: unexpected ' ' at offset 0; a space is written %20 in a URI"
    )
    assert pickle.loads(pickle.dumps(info.value)) == info.value


def test_caret_inside_the_password_points_at_the_mask(on: On) -> None:
    error = _error(on, "URI", "http://user:se cret@host/")
    assert "cret" not in str(error)
    assert "unexpected ' '" not in str(error)  # the character is the password's
    _, line, caret = str(error).splitlines()
    assert line[caret.index("^") :].startswith("****")


@pytest.mark.parametrize(
    ("text", "rule", "password"),
    [
        ("http://u:pw@h/", None, (9, 11)),
        ("//u:pw@h", None, (4, 6)),
        ("http://u:p@w@h/x@y", None, (9, 12)),  # up to the last "@" of the authority
        ("http://u@h:1/", None, None),  # no ":" in the userinfo
        ("http://h/u:p@h", None, None),  # an "@" in the path
        ("a/b:c//u:p@h", None, None),  # no scheme before "//"
        ("u:pw", "userinfo", (2, 4)),
        ("x y://u:p@h", None, (8, 9)),  # an invalid scheme still has one
        ("http://u:@h/", None, None),  # an empty password: nothing to hide
        (" A://:@", None, None),
    ],
)
def test_password_span(text: str, rule: str | None, password: tuple[int, int] | None) -> None:
    from urigrammar.shipped import password_span

    assert password_span(text, rule) == password


_PASSWORD = st.text(
    alphabet=st.sampled_from("abcXYZ019-._~!$&'()*+,;=:%@ <>\"\\\u00e9\x00"), min_size=4
)


def _raised(calls: list[Callable[[], object]]) -> list[u.URIError]:
    found: list[u.URIError] = []
    for call in calls:
        try:
            call()
        except u.URIError as exc:
            found.append(exc)
    return found


def _entry_points(on: On, text: str) -> list[Callable[[], object]]:
    return [
        lambda: on.check("URI", text),
        lambda: on.parse(text),
        lambda: on.parse(text, "absolute-URI"),
        lambda: u.resolve(text, "../g"),
        lambda: u.resolve("http://b/", text),
        lambda: u.relativize(text, "http://b/"),
        lambda: u.relativize("http://b/", text),
        lambda: u.normalize(text),
    ]


@backend_settings(max_examples=examples(100))
@given(
    st.sampled_from(["http://", "//", "foo+x://", "x y://"]),
    st.text("abu", max_size=3),
    _PASSWORD,
    st.sampled_from(["host", "ho st", "[::1", "h:8a", "h:80"]),
    st.sampled_from(["", "/", "/a b", "?q#f", "/./a", "#%zz"]),
)
def test_no_error_shows_a_generated_password(
    on: On, head: str, user: str, password: str, host: str, tail: str
) -> None:
    assume(password.strip() and password not in "not a valid URI-reference absolute-URI")
    text = f"{head}{user}:{password}@{host}{tail}"
    for exc in _raised(_entry_points(on, text)):
        # Past the mask itself: a password of stars ("***@") is no leak
        # where it reads as the mask and what follows it.
        assert password not in str(exc).replace("****", "\0"), (text, str(exc))
        assert password not in exc.message.replace("****", "\0")


@settings(max_examples=examples(100))
@given(st.text("abu", max_size=3), _PASSWORD)
def test_build_and_replace_errors_hide_the_password(user: str, password: str) -> None:
    userinfo = f"{user}:{password}"
    calls: list[Callable[[], object]] = [
        lambda: u.parse("http://h/").replace(userinfo=userinfo),
        lambda: u.URIReference(userinfo=userinfo, host="h h"),
        lambda: u.URIReference(scheme="http", userinfo=userinfo, host="h", path="x"),
    ]
    for exc in _raised(calls):
        assert password not in str(exc).replace("****", "\0"), (userinfo, str(exc))


# --- passwords in errors that are not about a whole URI -----------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda on: on.check("authority", "alice:s3cretpw@exa mple.com"),
        lambda on: on.parse("http://alice:s3cretpw%E9@h/").password,
        lambda on: u.build(scheme="http", host="h", userinfo="alice:s3cretpw\udce9"),
        lambda on: on.check("userinfo", "alice:s3cretpw x"),
        # RFC 3987's counterparts name the same parts of an IRI.
        lambda on: on.check("iauthority", "alice:s3cretpw\u00e9@exa mple.com"),
        lambda on: on.check("iuserinfo", "alice:s3cretpw\u00e9 x"),
        lambda on: on.parse_iri("http://h\u00e9/").replace(userinfo="alice:s3cretpw\u00e9 x"),
        lambda on: u.IRIReference(userinfo="alice:s3cretpw\u00e9 x", host="h\u00e9"),
    ],
    ids=[
        "authority-rule",
        "password-view",
        "build-userinfo",
        "userinfo-rule",
        "iauthority-rule",
        "iuserinfo-rule",
        "iri-replace-userinfo",
        "iri-constructor-userinfo",
    ],
)
def test_no_password_in_errors_about_parts(on: On, call: Callable[[On], object]) -> None:
    with pytest.raises(u.URIError) as info:
        call(on)
    assert "s3cretpw" not in str(info.value)
    assert "****" in str(info.value)
    assert info.value.text is not None
    assert "s3cretpw" in info.value.text  # programs still get the raw text


def _uri_layer_error_calls_without_secrets() -> list[str]:
    """Every call in the URI family's layers that makes an error about a
    text (a ``text=`` argument) but names no ``secrets`` finder: such an
    error would show a userinfo's password."""
    import ast
    from pathlib import Path

    package = Path(u.__file__).resolve().parent
    found = []
    for layer in ("shipped", "uri", "template", "cli"):
        for path in sorted((package / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = (
                    func.id
                    if isinstance(func, ast.Name)
                    else func.attr
                    if isinstance(func, ast.Attribute)
                    else "type(...)"
                    if isinstance(func, ast.Call)
                    else ""
                )
                keywords = {k.arg for k in node.keywords}
                makes_error = name.endswith("Error") or name == "type(...)"
                if makes_error and "text" in keywords and "secrets" not in keywords:
                    found.append(f"{path.relative_to(package)}:{node.lineno} {name}")
    return found


def test_every_uri_layer_error_about_a_text_carries_the_secret_finder() -> None:
    assert _uri_layer_error_calls_without_secrets() == []


def test_a_users_grammar_errors_see_no_uri_logic() -> None:
    # A text shaped like a URI with a password, about a grammar of the
    # user's: nothing is masked, since no URI rule is involved.
    grammar = u.load_grammar('x = "a"\n')
    with pytest.raises(u.RuleMatchError) as info:
        grammar.check("x", "http://u:secretpw@h/")
    assert not isinstance(info.value, u.URISyntaxError)
    assert info.value.secrets is None
    assert "secretpw" in str(info.value)


# --- terminal columns: one count for carets and pictures ---------------------------


@given(
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
            blacklist_characters="\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
            "\u2066\u2067\u2068\u2069",
        ),
        max_size=30,
    )
)
def test_display_width_is_public_and_places_the_caret(text: str) -> None:
    # Text shown as typed (nothing escaped): the caret after it sits at its width.
    from urigrammar._errors import caret_excerpt

    assert "display_width" in u.__all__
    caret = caret_excerpt(text + "x", len(text)).splitlines()[1]
    assert caret == " " * (2 + u.display_width(text)) + "^"


def test_the_command_line_counts_columns_with_the_public_function() -> None:
    # explain's braces and the error excerpts' carets are placed by one
    # count: the command line has none of its own.
    import ast
    import inspect

    from urigrammar.cli import _cmd_explain

    tree = ast.parse(inspect.getsource(_cmd_explain))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert "unicodedata" not in imported
    assert "display_width" in imported
    assert _cmd_explain.display_width is u.display_width
    wide = "http://\u4f8b.\u6d4b\u8bd5/\u0301a"
    assert _cmd_explain.explain(wide).splitlines()[1].startswith("\\__/   \\")


# --- a password typed with an unencoded "/", "?" or "#" --------------------------


@pytest.mark.parametrize(
    ("text", "password"),
    [
        ("http://u:p/ss@h/", (9, 13)),
        ("http://u:p?ss@h/", (9, 13)),
        ("http://u:p#ss@h/", (9, 13)),
        ("//u:p/ss@h", (4, 8)),
        ("http://u:p/s?s#s@h/x?y#z", (9, 16)),
        ("http://u:p/ss@h/a@b", (9, 13)),  # the first "@" after it, and the host after that
        ("http://u:p/s@s@h/", (9, 14)),  # the last of a run of "@" (a host has none)
        ("http://u:p:q/s@h", (9, 14)),
        ("http://u:p/ss", None),  # no "@" at all: no userinfo
        # Texts a URI reads otherwise are not masked past its own reading:
        ("http://u:12/x@h/", None),  # host u, port 12, path /x@h/ (a valid URI)
        ("http://u:/x@h", None),  # an empty port
        ("http://[::1]/a@b", None),  # an IP-literal's ":"
        ("http://[v1.a:b]/c@d", None),
        ("http://h/u:p/s@h", None),  # the ":" is the path's
        ("http://u:p@s/x@h/", (9, 10)),  # a userinfo "u:p", and the path /x@h/
        ("http://{host}:{port}/a@b", None),  # a template expression may be a port
    ],
)
def test_password_span_past_a_delimiter(text: str, password: tuple[int, int] | None) -> None:
    from urigrammar.shipped import password_span

    assert password_span(text) == password


@pytest.mark.parametrize("delimiter", "/?#")
def test_a_password_with_a_delimiter_is_hidden_with_the_caret_in_place(
    on: On, delimiter: str
) -> None:
    # The grammar stops at the first character no URI may have there,
    # which is in the password: the caret points at the mask.
    text = f"http://alice:s3c{delimiter}ret@example.com/"
    calls: list[Callable[[], object]] = [
        lambda: on.check("URI", text),
        lambda: on.check("URI-reference", text),
        lambda: on.parse(text),
        lambda: on.parse(text, "absolute-URI"),
        lambda: on.parse_iri(text),
    ]
    errors = _raised(calls)
    assert len(errors) == len(calls)
    for error in errors:
        shown = str(error)
        assert "ret" not in shown, shown
        assert f"unexpected {delimiter!r}" not in shown
        assert error.text == text  # programs keep the raw text
        _, line, caret = shown.splitlines()
        assert "alice:****@example.com/" in line
        assert line[caret.index("^") :].startswith("****")
        assert "ret" not in str(pickle.loads(pickle.dumps(error)))


@pytest.mark.parametrize("delimiter", "/?#")
def test_a_caret_after_such_a_password_stays_under_its_character(delimiter: str) -> None:
    from urigrammar.shipped import userinfo_secret

    text = f"http://alice:s3c{delimiter}ret@example.com/a b"
    error = u.URISyntaxError(
        "not a valid URI", rule="URI", text=text, offset=text.index(" "), secrets=userinfo_secret
    )
    _, line, caret = str(error).splitlines()
    assert "ret" not in line
    assert line[caret.index("^")] == " "
    assert line[caret.index("^") - 1 :].startswith("a b")


_TYPED_PASSWORD = st.text(
    alphabet=st.sampled_from("abcXYZ019-._~!$&'()*+,;=:% <>\"\\/?#\u00e9\x00"), min_size=4
)


def _reads_as_a_port(password: str) -> bool:
    # What comes before the first delimiter is a port ("*DIGIT", maybe
    # empty): such a text may be a valid URI, and is read as one.
    head = password
    for delimiter in "/?#":
        head = head.partition(delimiter)[0]
    return head.isascii() and (head == "" or head.isdigit())


@backend_settings(max_examples=examples(100))
@given(
    st.sampled_from(["http://", "//", "foo+x://", "x y://"]),
    st.text("abu", max_size=3),
    _TYPED_PASSWORD,
    st.sampled_from(["host", "ho st", "[::1", "h:8a", "h:80", "h\u00e9"]),
    st.sampled_from(["", "/", "/a b", "?q#f", "/./a", "#%zz", "/a@b", "?m@x"]),
)
def test_no_error_shows_a_typed_password_with_delimiters(
    on: On, head: str, user: str, password: str, host: str, tail: str
) -> None:
    assume(any(d in password for d in "/?#") and not _reads_as_a_port(password))
    assume(password.strip() and password not in "not a valid URI-reference absolute-URI")
    text = f"{head}{user}:{password}@{host}{tail}"
    calls = [*_entry_points(on, text), lambda: on.parse_iri(text)]
    for exc in _raised(calls):
        assert password not in str(exc).replace("****", "\0"), (text, str(exc))
        assert password not in exc.message.replace("****", "\0")


@settings(max_examples=examples(200))
@given(st.one_of(from_rule("URI-reference"), from_rule("IRI-reference")))
def test_a_valid_reference_is_masked_exactly_where_its_password_is(text: str) -> None:
    # The loose reading of invalid texts never reaches into a valid URI or
    # IRI: its mask is its own password, or nothing.
    from urigrammar.shipped import password_span

    ref = u.parse_iri(text, allow_bidi=True)
    expected = None
    if ref.userinfo is not None and ":" in ref.userinfo:
        begin = 0 if ref.scheme is None else len(ref.scheme) + 1
        start = begin + 2 + ref.userinfo.index(":") + 1
        end = begin + 2 + len(ref.userinfo)
        expected = None if start == end else (start, end)
    assert password_span(text) == expected


def test_a_template_hides_such_a_password_but_not_its_port_expression() -> None:
    assert repr(u.URITemplate("http://u:p/ss@h/{x}")) == "URITemplate('http://u:****@h/{x}')"
    text = "http://{host}:{port}/mail/{user}@{domain}"
    assert repr(u.URITemplate(text)) == f"URITemplate({text!r})"
