"""``urigrammar.differential`` as a library: ``agreed_host``, the findings
as values, passwords never shown, the base, and the extra: missing, it is
named in the error, and ``import urigrammar`` never imports it.

The tests of the extra's absence and of lazy importing run in every env;
the others need ``can_ada`` (``tox -e integrations``).
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import pickle
import subprocess
import sys
from typing import Any

import pytest

import urigrammar as u
from _liars import lying, outcome
from urigrammar import MissingExtraError, URIError, UrigrammarError, URISyntaxError

WHATWG = pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("can_ada") is None,
    reason="needs can_ada: the urigrammar[whatwg] extra",
)


# --- the extra ------------------------------------------------------------


@pytest.fixture
def without_can_ada(monkeypatch: pytest.MonkeyPatch) -> None:
    from urigrammar.differential import _whatwg

    monkeypatch.setitem(sys.modules, "can_ada", None)  # import can_ada raises ImportError
    monkeypatch.setattr(_whatwg, "_module", None)


@pytest.mark.usefixtures("without_can_ada")
@pytest.mark.parametrize("call", [u.differential.diff, u.differential.agreed_host])
def test_without_the_extra_the_error_names_it(call: object) -> None:
    assert callable(call)
    with pytest.raises(MissingExtraError, match=r"urigrammar\[whatwg\]") as caught:
        call("http://a/")
    assert isinstance(caught.value, ImportError)
    assert isinstance(caught.value, UrigrammarError)
    assert pickle.loads(pickle.dumps(caught.value)) == caught.value


def _imported(probe: str) -> bool:
    code = f"import sys\n{probe}\nprint('can_ada' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip() == "True"


@pytest.mark.parametrize(
    "probe",
    [
        "import urigrammar as u; u.parse('http://a/'); u.validate('URI', 'http://a/')",
        "import urigrammar as u; u.differential.KINDS",
        "import urigrammar.differential",
        "from urigrammar.cli._cli import main; main(['diff', '--help'])",
    ],
)
def test_can_ada_is_imported_only_by_a_call_that_reads(probe: str) -> None:
    assert not _imported(probe)


@WHATWG
def test_a_call_imports_can_ada() -> None:
    assert _imported("import urigrammar as u; u.differential.diff('http://a/')")


@WHATWG
def test_no_url_of_can_ada_outlives_the_exit_handlers() -> None:
    # Bases are kept read, can_ada URLs among them; whatever is alive when
    # can_ada's module goes, nanobind reports as leaked.
    # (nanobind's objects are not the garbage collector's: the cache of
    # bases, where they are kept, is what must be empty.)
    code = (
        "import atexit\n"
        "from urigrammar.differential import _diff, diff\n"
        "for n in range(40): diff('../x', base=f'http://a{n}/b/')\n"
        "before = _diff._base.cache_info().currsize\n"
        "atexit._run_exitfuncs()\n"
        "print(before, _diff._base.cache_info().currsize)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["32", "0"]


# --- agreed_host ------------------------------------------------------------


@WHATWG
@pytest.mark.parametrize(
    ("text", "base", "host"),
    [
        ("HTTP://Example.COM:80/a", None, "example.com"),
        ("https://ex%C3%A4mple.com/", None, "xn--exmple-cua.com"),
        ("http://[::FFFF:1.2.3.4]/", None, "[::ffff:102:304]"),
        ("http://192.0.2.1/", None, "192.0.2.1"),
        ("ssh://Git.Example.org/x", None, "git.example.org"),
        ("mailto:a@example.com", None, None),
        ("file:///etc/passwd", None, None),
        ("/a/b", "https://good.example/c", "good.example"),
        ("//other.example/", "https://good.example/c", "other.example"),
    ],
)
def test_agreed_host(text: str, base: str | None, host: str | None) -> None:
    assert u.differential.agreed_host(text, base) == host


@WHATWG
@pytest.mark.parametrize(
    ("text", "base", "kind", "offset"),
    [
        ("http://127.1/", None, "ipv4-number", 7),
        ("http://evil.com\\@good.com/", None, "backslash", 15),
        ("/\\evil.com", "http://good.com/", "backslash", 1),
        ("http:///evil.com/", None, "slash-count", 7),
        ("http://good.com:99999/", None, "port-range", 16),
        ("ssh://0x7f.1/", None, "ipv4-number", 6),
    ],
)
def test_agreed_host_raises_naming_the_disagreement(
    text: str, base: str | None, kind: str, offset: int
) -> None:
    with pytest.raises(u.differential.HostDisagreementError) as caught:
        u.differential.agreed_host(text, base)
    error = caught.value
    assert isinstance(error, URIError)
    assert (error.rule, error.offset, error.text) == ("host", offset, text)
    assert kind in error.message
    assert f"at offset {offset}" in error.message
    assert "^" in str(error)
    assert kind in {f.kind for f in error.findings}
    again = pickle.loads(pickle.dumps(error))
    assert again == error
    assert again.findings == error.findings


@WHATWG
def test_agreed_host_on_a_text_both_refuse_raises_rfc_3986s_error() -> None:
    with pytest.raises(URISyntaxError) as caught:
        u.differential.agreed_host("http://a b/")
    assert caught.value.offset == 8
    with pytest.raises(URIError, match="base URI"):
        u.differential.agreed_host("/no/base")


@WHATWG
def test_agreed_host_ignores_a_difference_in_the_path() -> None:
    # The readings part on the path only (a drive letter): no host, agreed.
    assert u.differential.diff("file:///C:/../x")
    assert u.differential.agreed_host("file:///C:/../x") is None


@WHATWG
@pytest.mark.parametrize(
    ("text", "base", "host"),
    [
        ("http://xn--bcher-kva.de/", None, "xn--bcher-kva.de"),
        ("http://XN--BCHER-KVA.de/", None, "xn--bcher-kva.de"),
        ("http://b%C3%BCcher.xn--p1ai/", None, "xn--bcher-kva.xn--p1ai"),
        ("http://xn--bcher-kva%2Ede/", None, "xn--bcher-kva.de"),
        ("/x", "https://xn--mnchen-3ya.de/", "xn--mnchen-3ya.de"),
    ],
)
def test_an_a_label_is_the_same_host_to_both(text: str, base: str | None, host: str) -> None:
    # RFC 3986 keeps an A-label as written, the URL Standard serializes
    # one: both are compared in one form, so diff and agreed_host agree.
    # A host written with escapes is read alike too, and its text is told.
    found = u.differential.diff(text, base)
    escaped = base is None and "%" in text
    assert [f.kind for f in found] == (["raw-escaped-host"] if escaped else [])
    assert all(f.severity == "warning" for f in found)
    assert u.differential.agreed_host(text, base) == host


@WHATWG
@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("http://127%2E0%2E0%2E1/", {"ipv4-number", "percent-encoded-host"}),
        ("http://\u2460\u2461\u2466.\u24ea.\u24ea.\u2460/", {"idna-mapped-host"}),
        ("http://xn--bcher-kva.de%2Eevil.com/", None),
    ],
)
def test_a_genuine_host_difference_stays_a_finding(text: str, kinds: set[str] | None) -> None:
    found = u.differential.diff(text)
    if kinds is None:  # both read the same name, written with an escape: one host
        assert [f.kind for f in found] == ["raw-escaped-host"]
        assert u.differential.agreed_host(text) == "xn--bcher-kva.de.evil.com"
        return
    assert kinds <= {f.kind for f in found}
    with pytest.raises(u.differential.HostDisagreementError):
        u.differential.agreed_host(text)


@WHATWG
@pytest.mark.parametrize(
    "text",
    ["http://h:" + "9" * 4301 + "/", "http://h:" + "0" * 5000 + "99999/", "http://h:65536/"],
)
def test_a_port_of_any_length_over_65535_is_a_port_range_finding(text: str) -> None:
    found = u.differential.diff(text)
    assert [f.kind for f in found] == ["port-range"]
    assert found[0].offset == len("http://h:")
    with pytest.raises(u.differential.HostDisagreementError, match="port-range"):
        u.differential.agreed_host(text)


@WHATWG
def test_a_port_of_65535_with_any_number_of_leading_zeros_is_in_range() -> None:
    text = "http://h:" + "0" * 5000 + "65535/"
    assert u.differential.diff(text) == []
    assert u.differential.agreed_host(text) == "h"


# --- findings as values -----------------------------------------------------


@WHATWG
def test_a_finding_is_an_immutable_value_with_a_json_form() -> None:
    (finding,) = u.differential.diff("http://127.1/")
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.kind = "backslash"  # type: ignore[misc]
    assert hash(finding) == hash(u.differential.diff("http://127.1/")[0])
    assert pickle.loads(pickle.dumps(finding)) == finding
    record = json.loads(json.dumps(finding.to_json()))
    assert set(record) == {
        "kind",
        "severity",
        "offset",
        "readers",
        "readings",
        "versions",
        "resolver",
    }
    assert record["readers"] == ["rfc3986", "whatwg"]
    assert record["readings"] == {
        "rfc3986": finding.rfc.to_json(),
        "whatwg": finding.whatwg.to_json(),
    }
    assert record["versions"]["whatwg"] == importlib.metadata.version("can_ada")
    assert record["severity"] == finding.severity == "error"
    assert (
        set(record["readings"]["rfc3986"])
        == set(record["readings"]["whatwg"])
        == {
            "scheme",
            "host",
            "host_kind",
            "port",
            "path",
            "error",
        }
    )
    assert record["readings"]["whatwg"]["host_kind"] == "IPv4 address"
    assert finding.why == u.differential.KINDS["ipv4-number"]


# --- passwords --------------------------------------------------------------


@WHATWG
@pytest.mark.parametrize(
    "text",
    [
        "http:alice:s3cret@evil.com/",  # RFC 3986: a path; the URL Standard: credentials
        "http://alice:s3cret@good.com@evil.com/",
        "http://alice:s3cret@127.1/",
        "http://alice:s3cret@evil.com\\@good.com/",
        "http://alice:s3cr%65t@[v7.x]/",
    ],
)
def test_no_reading_shows_a_password(text: str) -> None:
    found = u.differential.diff(text)
    assert found
    shown = json.dumps([f.to_json() for f in found]) + repr(found)
    assert "s3cr" not in shown
    with pytest.raises(URIError) as caught:
        u.differential.agreed_host(text)
    assert "s3cr" not in str(caught.value)


@WHATWG
@pytest.mark.parametrize(
    ("text", "host", "error"),
    [
        ("http://u:1@127.1/", "127.1", None),
        ("http://u:e@example.com:99999/path", "example.com", None),
        ("http://u:pass@evil.com\\@good.com/", None, "unexpected '\\\\' at offset 22"),
    ],
)
def test_a_password_is_masked_where_it_is_not_elsewhere(
    text: str, host: str | None, error: str | None
) -> None:
    # A short password is no reason to rewrite a host, a path or an error
    # that does not hold it; the backslash a finding is about stays shown.
    (first, *_) = u.differential.diff(text)
    assert "****" not in json.dumps(first.to_json())
    assert first.rfc.host == host
    if host is not None:
        assert first.rfc.path == ("/path" if "path" in text else "/")
    if error is not None:
        assert first.rfc.error is not None
        assert error in first.rfc.error


@WHATWG
def test_the_excerpt_masks_only_the_url_standards_password() -> None:
    text = "http://u:pass@evil.com\\@good.com/"
    with pytest.raises(u.differential.HostDisagreementError) as caught:
        u.differential.agreed_host(text)
    shown = str(caught.value)
    assert "pass" not in shown.replace("password", "")
    assert "http://u:****@evil.com\\@good.com/" in shown
    line, caret = shown.splitlines()[-2:]
    assert line[caret.index("^")] == "\\"


@WHATWG
@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("\\\\u:SECRETPW@h/", "https://good.com/"),
        ("/\\u:SECRETPW@h/", "https://good.com/"),
        ("\\/u:SECRETPW@h/", "wss://good.com/"),
        ("x", "http:\\\\u:SECRETPW@h/"),
        ("http:\\\\u:SECRETPW@h:99999/", None),
        ("ftp:/\t/:SECRETPW@", None),
        ("http:u:SECRETPW@h/", None),
        ("http:/u:SECRETPW@h/", None),
        ("http://u:SECRETPW@good.com@evil.com/", None),
        ("http://u:SECRETPW@h:99999/", None),
        ("http://u:SECR/ETPW@h/", None),
        ("http://u:SECRETPW@evil.com\\@good.com/", None),
    ],
)
def test_a_password_never_shows_in_a_finding_or_an_error(text: str, base: str | None) -> None:
    shown = []
    try:
        found = u.differential.diff(text, base)
    except URIError as exc:
        shown.append(str(exc) + repr(exc))
        shown.append(str(pickle.loads(pickle.dumps(exc))))
    else:
        shown.append(json.dumps([f.to_json() for f in found]) + repr(found))
    try:
        u.differential.agreed_host(text, base)
    except URIError as exc:
        shown.append(str(exc) + repr(exc))
        shown.append(str(pickle.loads(pickle.dumps(exc))))
    assert "SECR" not in "".join(shown)


# --- the base ---------------------------------------------------------------


@WHATWG
@pytest.mark.parametrize(
    ("base", "words", "offset"),
    [
        ("relative/base", "with a scheme", 0),
        ("http://[v7.x]/", "fails on the base", 0),
        ("http://127.1/", "read the base differently (ipv4-number)", 7),
    ],
)
def test_a_base_both_do_not_read_alike_raises(base: str, words: str, offset: int) -> None:
    with pytest.raises(URIError, match=words.replace("(", r"\(").replace(")", r"\)")) as caught:
        u.differential.diff("a", base)
    assert (caught.value.text, caught.value.offset) == (base, offset)


@WHATWG
def test_a_base_with_a_syntax_error_raises_rfc_3986s_error() -> None:
    with pytest.raises(URISyntaxError):
        u.differential.diff("a", "http://a b/")


@WHATWG
@pytest.mark.parametrize(
    "text",
    ["http://a/\x00", "\x00", "foo://a\x00b/", "http://a/\ud800", "\udfff", "x\ud83d\ude00"],
)
def test_text_python_holds_but_utf_8_does_not_never_raises(text: str) -> None:
    for finding in u.differential.diff(text):
        assert 0 <= finding.offset <= len(text)


@WHATWG
@pytest.mark.parametrize("call", [u.differential.diff, u.differential.agreed_host])
@pytest.mark.parametrize("value", [b"http://a/", 7, None])
def test_a_text_that_is_no_str_is_a_type_error(call: Any, value: object) -> None:
    with pytest.raises(TypeError, match="takes a str"):
        call(value)
    with pytest.raises(TypeError, match="takes a str"):
        call("a", value or b"")


@WHATWG
@pytest.mark.parametrize("call", [u.differential.diff, u.differential.agreed_host])
@pytest.mark.parametrize("methods", [False, True], ids=["len-item-iter", "and-methods"])
def test_a_lying_str_subclass_is_read_as_the_characters_it_holds(call: Any, methods: bool) -> None:
    for text in ["http://bücher.example/ü", "http://user:secret@a b/", "http://1.2.3/"]:
        liar = lying(text, "http://evil.example:8080/x", methods=methods)
        assert outcome(call, liar) == outcome(call, text), text


# --- long texts -------------------------------------------------------------


@WHATWG
@pytest.mark.parametrize("text", [" http://a\tb/\nc ", "http://a\r\n/b"])
def test_the_layout_maps_clean_positions_to_offsets_past_tabs_and_newlines(text: str) -> None:
    from urigrammar.differential._explain import layout

    lay = layout(text, None)
    assert "".join(text[lay.at(i)] for i in range(len(lay.clean))) == lay.clean
    assert lay.at(len(lay.clean)) == len(text.rstrip(" "))


@WHATWG
def test_explaining_a_long_text_takes_memory_of_the_order_of_the_text() -> None:
    import tracemalloc

    text = "http://127.1/" + "a" * 1_000_000
    tracemalloc.start()
    try:
        found = u.differential.diff(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [f.kind for f in found] == ["ipv4-number"]
    # A list of Python ints a character costs tens of bytes each.
    assert peak < 16 * len(text)
