"""``normalize`` on each back end: the native one writes a URI's normal
text in C from the parse's offsets (``engine/backend/_native_c/normal.c``),
the pure one in Python (``uri._normalize.normal_text``), which is the
oracle here.  Every text C writes must be the Python one, for every
option; C leaves to Python only what it does not read (non-ASCII text,
records it did not make, RFC 5952's IPv6 form)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from _backends import C_RECORDS
from urigrammar import IRIReference, Normalization, SchemeRule, URIReference
from urigrammar.engine import BACKENDS, NATIVE, Backend
from urigrammar.strategies import from_rule
from urigrammar.uri._api import api
from urigrammar.uri._normalization import SCHEME_RULES
from urigrammar.uri._normalize import native_text, normal_text, text_normalizer

#: The two comparisons of C's text with Python's, which check that C
#: declines Python records rather than skip.
_DECLINING = ("test_the_c_text_is_the_python_text", "test_the_c_text_normalizer_is_the_python_one")


@pytest.fixture(autouse=True)
def _c_reads_the_records_c_makes(request: pytest.FixtureRequest) -> None:
    # With URIGRAMMAR_PURE set beside the extension, references are Python
    # records, which C leaves to Python: there is no C text to compare.
    if request.node.originalname in _DECLINING:
        return
    callspec = getattr(request.node, "callspec", None)
    chosen = callspec.params.values() if callspec is not None else ()
    if not C_RECORDS and NATIVE in chosen:
        pytest.skip("references are Python records (URIGRAMMAR_PURE is set)")


#: Pieces that exercise each step: case, every kind of percent-encoding,
#: dot segments (section 5.2.4's five cases), ports with leading zeros.
_PIECES = st.sampled_from(
    [
        "/",
        ".",
        "..",
        "./",
        "../",
        "/.",
        "/..",
        "%7e",
        "%7E",
        "%2f",
        "%2E",
        "%41",
        "%e2%82",
        "a",
        "B",
        ":",
    ]
)
_PATHS = st.lists(_PIECES, max_size=12).map("".join)
_SCHEMES = st.sampled_from(["http", "HTTPS", "ftp", "Ex", "ws"])
_PORTS = st.sampled_from(["", "0", "80", "0080", "443", "00443", "21", "8080", "000"])


@st.composite
def _assembled(draw: st.DrawFn) -> str:
    """A reference assembled from the pieces above, which the grammar may
    refuse (those are skipped)."""
    text = ""
    if draw(st.booleans()):
        text += draw(_SCHEMES) + ":"
    if draw(st.booleans()):
        text += (
            "//"
            + draw(st.sampled_from(["", "u%3a@", "U:P@"]))
            + draw(st.sampled_from(["Ex%41mple.COM", "[::A]", "1.2.3.4", "", "h%2e"]))
        )
        if draw(st.booleans()):
            text += ":" + draw(_PORTS)
        path = draw(_PATHS)
        text += path if path.startswith("/") or not path else "/" + path
    else:
        text += draw(_PATHS)
    if draw(st.booleans()):
        text += "?" + draw(_PATHS)
    if draw(st.booleans()):
        text += "#" + draw(_PATHS)
    return text


_OPTIONS = st.builds(
    Normalization,
    scheme_based=st.booleans(),
    ipv6_canonical=st.booleans(),
    schemes=st.sampled_from([None, {**SCHEME_RULES, "ex": SchemeRule(0, empty_path_is_root=True)}]),
)


def _check(backend: Backend, text: str, options: Normalization) -> None:
    functions = api(backend)
    try:
        ref = functions.parser_for(URIReference)(text)
    except ValueError:
        return
    made = native_text(ref, options, functions.normalize_uri)
    if functions.normalize_uri is None or not C_RECORDS:
        assert made is None  # Python only: the pure back end, or Python records
        return
    wanted = normal_text(ref, options)
    if options.ipv6_canonical and ref.host_kind == "IPv6address":
        assert made is None
    else:
        assert made == wanted, text


# The back ends as a parameter of their own (the `backend` fixture is
# function-scoped, which Hypothesis refuses beside @given).
@pytest.mark.parametrize("chosen", BACKENDS, ids=lambda b: b.name)
@given(st.one_of(from_rule("URI-reference"), _assembled()), _OPTIONS)
@example("HTTP://User%3a@WWW.Ex%41mple.COM:0080/a/./b/../%7e%2f?q=%7a%3B#F%2d", Normalization())
@example("foo:bar/./../..//baz", Normalization())
@example("//a:/", Normalization())
@example("a/b/../../..//c:d", Normalization())
@example("x:/..//y", Normalization())
@example("Ex://h:0", Normalization(schemes={"ex": SchemeRule(0, empty_path_is_root=True)}))
def test_the_c_text_is_the_python_text(chosen: Backend, text: str, options: Normalization) -> None:
    _check(chosen, text, options)


@pytest.mark.parametrize("size", [100, 2100, 70_000])
def test_long_texts_past_the_stack_buffer(backend: Backend, size: int) -> None:
    # The C way writes a text of under about 2 KB on the stack, a longer
    # one on the heap: both, and a path whose dot segments take it back.
    segments = "/a/./b/../%7e" * (size // 13)
    for text in (
        f"HTTP://Ex%41mple.com:0080{segments}?%7a#%2d",
        f"x:{segments}{'/..' * (size // 3)}",
        "//h" + "/." * (size // 2),
    ):
        _check(backend, text, Normalization())
        _check(backend, text, dataclasses.replace(Normalization(), scheme_based=False))


def test_what_c_leaves_to_python(backend: Backend) -> None:
    functions = api(backend)
    if functions.normalize_uri is None:
        pytest.skip("the pure back end has no C normalization")
    parse = functions.parser_for(URIReference)
    # Not ASCII: only an IRI's text is, and an IRI is normalized in Python.
    iri = functions.parser_for(IRIReference)("http://ä.example/")
    assert native_text(iri, Normalization(), functions.normalize_uri) is None
    # RFC 5952's IPv6 form is ipaddress's.
    v6 = parse("http://[0:0::1]/")
    assert native_text(v6, Normalization(ipv6_canonical=True), functions.normalize_uri) is None
    assert native_text(v6, Normalization(), functions.normalize_uri) == "http://[0:0::1]/"
    # A value that is no record of the C back end.
    assert (
        functions.normalize_uri("http://a/", (0, 1, 2, 7, 3, 4, 5), bytes(128), None, True, True)
        is None
    )


def test_bad_arguments_are_refused(backend: Backend) -> None:
    normalize_uri = api(backend).normalize_uri
    if normalize_uri is None:
        pytest.skip("the pure back end has no C normalization")
    ref = api(backend).parser_for(URIReference)("http://a/")
    with pytest.raises(ValueError, match="7 slots"):
        normalize_uri(ref, (0, 1), bytes(128), None, True, True)
    with pytest.raises(ValueError, match="128 octets"):
        normalize_uri(ref, (0, 1, 2, 7, 3, 4, 5), bytes(5), None, True, True)
    with pytest.raises(ValueError, match="not negative"):
        normalize_uri(ref, (0, 1, 2, 7, 3, 4, 5), bytes(128), -1, True, True)
    # A slot past the record's is no component: Python's way.
    assert normalize_uri(ref, (0, 1, 2, 70, 3, 4, 5), bytes(128), None, True, True) is None


def test_spans_that_overlap_cannot_overrun_the_output(backend: Backend) -> None:
    # The output is sized from the spans, not the text: a call that names
    # one slot seven times writes seven paths' worth, within bounds.
    normalize_uri = api(backend).normalize_uri
    if normalize_uri is None:
        pytest.skip("the pure back end has no C normalization")
    for size in (200, 400, 3000):
        ref = api(backend).parser_for(URIReference)("http://h/" + "b" * size)
        made = normalize_uri(ref, (3,) * 7, bytes(128), None, False, False)
        assert made is not None
        assert made.count("b" * size) == 7


@pytest.mark.parametrize("port", [2**63, 2**31, -1, True, 0])
def test_default_ports_c_does_not_read_are_python_s(backend: Backend, port: int) -> None:
    # A default port past a C long, negative or a bool is compared by its
    # digits in Python, as it always was.
    options = Normalization(schemes={"gopher": SchemeRule(default_port=port)})
    for text in ("gopher:x", "gopher://h:80/x", "gopher://h:1/x", "gopher://h:0/x"):
        ref = api(backend).parser_for(URIReference)(text)
        made = native_text(ref, options, api(backend).normalize_uri)
        assert made in (None, normal_text(ref, options))


# --- A text's normalizer: parse, normalize and parse again, in C -----------


def _check_text(backend: Backend, text: str, options: Normalization) -> None:
    functions = api(backend)
    made = text_normalizer(URIReference, options, functions)
    if functions.normalize_uri is None or not C_RECORDS:
        assert made is None  # Python only: the pure back end, or Python records
        return
    assert made is not None
    found = made(text)
    try:
        ref = functions.parser_for(URIReference)(text)
    except ValueError:
        assert found is None  # no URI-reference: Python answers, with its error
        return
    if options.ipv6_canonical and ref.host_kind == "IPv6address":
        assert found is None
        return
    wanted = functions.parser_for(URIReference)(normal_text(ref, options))
    assert found == wanted, text
    assert str(found) == str(wanted)
    assert found.host_kind == wanted.host_kind  # read again: "%31.2.3.4" is an address


@pytest.mark.parametrize("chosen", BACKENDS, ids=lambda b: b.name)
@given(st.one_of(from_rule("URI-reference"), _assembled(), st.text(max_size=20)), _OPTIONS)
@example("HTTP://User%3a@WWW.Ex%41mple.COM:0080/a/./b/../%7e%2f?q=%7a%3B#F%2d", Normalization())
@example("http://%31.2.3.4/", Normalization())
@example("http://[0:0::1]:80", Normalization(ipv6_canonical=True))
@example("http://[v7.x]:80", Normalization(ipv6_canonical=True))
@example("http://ä.example/", Normalization())
@example("\ud800", Normalization())
def test_the_c_text_normalizer_is_the_python_one(
    chosen: Backend, text: str, options: Normalization
) -> None:
    _check_text(chosen, text, options)


def test_the_scheme_rules_are_read_on_each_call(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SCHEME_RULES is a plain dict users add to: a normalizer made before
    # an addition sees it, as Python does.
    made = text_normalizer(URIReference, Normalization(), api(backend))
    if made is None:
        pytest.skip("the pure back end has no C normalization")
    assert str(made("gopher://h:70/")) == "gopher://h:70/"
    monkeypatch.setitem(SCHEME_RULES, "gopher", SchemeRule(70))
    assert str(made("gopher://h:70/")) == "gopher://h/"
    assert str(made("GOPHER://h:070")) == "gopher://h"


@pytest.mark.parametrize("rule", [SchemeRule(2**63), SchemeRule(-1), SchemeRule(True), "80"])
def test_scheme_rules_c_does_not_read_are_python_s(
    backend: Backend, monkeypatch: pytest.MonkeyPatch, rule: object
) -> None:
    made = text_normalizer(URIReference, Normalization(), api(backend))
    if made is None:
        pytest.skip("the pure back end has no C normalization")
    monkeypatch.setitem(SCHEME_RULES, "gopher", rule)
    assert made("gopher://h:80/") is None
    assert str(made("http://h:80/")) == "http://h/"  # other schemes still in C


def test_normalize_takes_no_rule_name() -> None:
    # The C front of normalize answers a text alone: a second argument is
    # the options, checked by Python, never a rule spelling.
    import urigrammar

    with pytest.raises(TypeError, match="Normalization"):
        urigrammar.normalize("http://a/", "URI-reference")  # type: ignore[call-overload]
    assert str(urigrammar.normalize("HTTP://A:80")) == "http://a/"


def test_a_rule_replaced_or_of_a_mutable_type_is_read_again(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The normalizer reads the rules it was made with once, when they are
    # SchemeRules (immutable); a rule put in their place, or of a type
    # that can change, is read on the call.
    class Mutable:
        default_port = 70
        empty_path_is_root = False

    mutable = Mutable()
    monkeypatch.setitem(SCHEME_RULES, "gopher", mutable)
    made = text_normalizer(URIReference, Normalization(), api(backend))
    if made is None:
        pytest.skip("the pure back end has no C normalization")
    assert str(made("http://h:80")) == "http://h/"
    monkeypatch.setitem(SCHEME_RULES, "http", SchemeRule(8080))
    assert str(made("http://h:80")) == "http://h:80"
    assert str(made("http://h:8080")) == "http://h"
    assert str(made("gopher://h:70")) == "gopher://h"
    mutable.default_port = 71
    assert str(made("gopher://h:70")) == "gopher://h:70"
    assert str(made("gopher://h:71")) == "gopher://h"


@pytest.mark.parametrize(
    "rule",
    [SchemeRule(empty_path_is_root=True), SchemeRule(None, False)],
    ids=["no-port", "no-port-no-root"],
)
def test_a_rule_without_a_port_is_read_alike_on_every_call(
    backend: Backend, monkeypatch: pytest.MonkeyPatch, rule: SchemeRule
) -> None:
    # A rule the normalizer knew when it was made, with no default port:
    # each call answers as the first did.
    monkeypatch.setitem(SCHEME_RULES, "bar", rule)
    made = text_normalizer(URIReference, Normalization(), api(backend))
    if made is None:
        pytest.skip("the pure back end has no C normalization")
    for _ in range(3):
        for text in ("bar://h", "bar://h:0", "BAR://h/x"):
            _check_text(backend, text, Normalization())


def test_none_in_place_of_a_rule_is_left_to_python(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No rule at all: C answers nothing (None, as the rules held None when
    # it was made), and Python raises its own error, call after call.
    monkeypatch.setitem(SCHEME_RULES, "bar", None)
    made = text_normalizer(URIReference, Normalization(), api(backend))
    if made is None:
        pytest.skip("the pure back end has no C normalization")
    for _ in range(3):
        assert made("bar://h") is None
        with pytest.raises(AttributeError):
            normal_text(api(backend).parser_for(URIReference)("bar://h"), Normalization())


def test_a_reference_without_a_scheme_takes_the_rule_of_the_empty_name(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python looks a rule up under "" for a reference with no scheme; so
    # does C.
    monkeypatch.setitem(SCHEME_RULES, "", SchemeRule(80, empty_path_is_root=True))
    for text in ("//a:80", "//a:080/b", "//a"):
        _check_text(backend, text, Normalization())


def test_a_rule_whose_truth_can_change_is_read_on_each_call(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A SchemeRule is frozen, but a field may hold a mutable value: its
    # truth is read on the call, never kept.
    root: list[int] = []
    monkeypatch.setitem(SCHEME_RULES, "bar", SchemeRule(None, root))  # type: ignore[arg-type]
    made = text_normalizer(URIReference, Normalization(), api(backend))
    if made is None:
        pytest.skip("the pure back end has no C normalization")
    assert str(made("bar://h")) == "bar://h"
    root.append(1)
    assert str(made("bar://h")) == "bar://h/"
