"""``public_suffix`` and ``registrable_domain``: the Public Suffix List
project's own test cases (``tests/vectors/psl``), on host names and in
URIs; the corpus's hosts as ``urllib.parse`` reads them; IP hosts have
none; A-labels and U-labels agree; the list's version is visible.  They
need the ``urigrammar[psl]`` extra (tox's ``integrations`` env)."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

import idna
import pytest
from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from _backends import C_RECORDS, On
from _budget import backend_settings
from urigrammar.engine import BACKENDS, Backend
from urigrammar.hygiene import _suffix
from urigrammar.uri._api import api

publicsuffixlist = pytest.importorskip("publicsuffixlist")

HERE = Path(__file__).resolve().parents[1]
_CASE = re.compile(r"checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);")
CASES = [
    (host.strip("'"), None if want == "null" else want.strip("'"))
    for line in (HERE / "vectors" / "psl" / "test_psl.txt").read_text("utf-8").splitlines()
    if not line.startswith("//")
    for host, want in _CASE.findall(line)
    if host != "null"
]
CORPUS = (HERE / "data" / "real-urls.txt").read_text("utf-8").splitlines()


def test_the_cases_are_read() -> None:
    assert len(CASES) > 70
    assert ("www.食狮.公司.cn", "食狮.公司.cn") in CASES


@pytest.mark.parametrize(("host", "want"), CASES, ids=[host for host, _ in CASES])
def test_the_lists_own_cases(host: str, want: str | None) -> None:
    # The list's own lowercase answer, for the host alone and in a URI.
    assert u.registrable_domain(host) == want
    if host and not host.startswith("."):
        assert u.registrable_domain(f"http://{host}/path?q") == want


def test_private_suffixes_are_asked_for() -> None:
    assert u.public_suffix("a.github.io") == "github.io"
    assert u.public_suffix("a.github.io", private=False) == "io"
    assert u.registrable_domain("a.b.github.io") == "b.github.io"
    assert u.registrable_domain("a.b.github.io", private=False) == "github.io"


@pytest.mark.parametrize(
    "text",
    [
        "http://192.0.2.1/",
        "192.0.2.1",
        "http://[::1]/",
        "http://[v1.x]/",
        "mailto:a@b.example",
        "http:///p",
        "http://a..example/",
        "http://%FF.example/",
        "relative/path",
        "",
    ],
)
def test_no_reg_name_no_answer(text: str) -> None:
    assert u.public_suffix(text) is None
    assert u.registrable_domain(text) is None


def test_an_address_in_any_spelling_has_no_suffix() -> None:
    for text in ("http://%31.2.3.4/", "http://1.2.3.4./", "1.2.3.4."):
        assert u.public_suffix(text) is None
        assert u.registrable_domain(text) is None


def test_format_characters_and_percent_signs_are_the_lists_business() -> None:
    psl = publicsuffixlist.PublicSuffixList()
    for host in ("می‌خواهم.ir", "a­.com", "a%b.com"):
        assert u.public_suffix(host.replace("%", "%25")) == psl.publicsuffix(host)
        assert u.registrable_domain(f"http://{host.replace('%', '%25')}/") == (
            psl.privatesuffix(host)
        )


def test_the_host_is_read_as_normalize_reads_it() -> None:
    assert u.registrable_domain("http://WWW.B%C3%BCcher.CO.UK./") == "bücher.co.uk"
    assert u.registrable_domain(u.parse_iri("http://www.Bücher.co.uk/")) == "bücher.co.uk"


def test_the_lists_version_is_the_packages() -> None:
    import importlib.metadata

    assert u.public_suffix_list_version() == importlib.metadata.version("publicsuffixlist")


def test_every_corpus_host_as_urllib_reads_it(on: On) -> None:
    psl = publicsuffixlist.PublicSuffixList()
    compared = 0
    for text in CORPUS:
        if not u.validate("URI-reference", text):
            continue
        ref = on.parse(text)
        if ref.host_kind != "reg-name" or not ref.host or "%" in ref.host:
            continue
        host = urllib.parse.urlsplit(text).hostname
        assert host is not None
        assert u.registrable_domain(ref) == psl.privatesuffix(host.removesuffix("."))
        assert u.public_suffix(ref) == psl.publicsuffix(host.removesuffix("."))
        compared += 1
    assert compared > 1900


_labels = st.lists(
    st.from_regex(r"[a-z0-9]{1,8}|[a-zäöüß食狮]{1,5}", fullmatch=True), min_size=1, max_size=4
)
_suffixes = st.sampled_from(["com", "co.uk", "github.io", "公司.cn", "kobe.jp", "example"])


@backend_settings()
@given(labels=_labels, suffix=_suffixes)
def test_a_labels_and_u_labels_agree(on: On, labels: list[str], suffix: str) -> None:
    host = ".".join([*labels, suffix])
    try:
        ascii_host = idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        return  # no IDN: nothing to compare
    unicode_host = idna.decode(ascii_host)
    domain = u.registrable_domain(on.parse_iri(f"http://{unicode_host}/"))
    ascii_domain = u.registrable_domain(on.parse(f"http://{ascii_host}/"))
    assert (domain is None) == (ascii_domain is None)
    if domain is not None:
        assert idna.encode(domain, uts46=True).decode("ascii") == ascii_domain
        assert unicode_host.endswith(domain)
        suffix_found = u.public_suffix(unicode_host)
        assert suffix_found is not None
        assert domain.endswith("." + suffix_found)
        assert domain.count(".") == suffix_found.count(".") + 1
        assert u.registrable_domain(domain) == domain


# --- The answers kept by host, which C looks a text's host up in -----------


@pytest.mark.parametrize("chosen", BACKENDS, ids=lambda b: b.name)
def test_a_host_lookup_reads_the_host_as_the_parse_does(chosen: Backend) -> None:
    table = {"a.example": 1, "[::1]": 2, "1.2.3.4": 3, "": 4}
    found = api(chosen).host_lookup(u.URIReference, table)
    if not chosen.native or not C_RECORDS:
        assert found is None  # C reads only the records C makes
        return
    assert found is not None
    assert found("http://u@a.example:8/p?q#f") == 1
    assert found("a.example") == 1  # a host on its own
    assert found("//[::1]") == 2
    assert found("http://1.2.3.4/") == 3
    assert found("file:///p") == 4  # an empty host is a host
    for absent in ("http://b.example/", "relative/a.example", "http://ä/", "\ud800", 7):
        assert found(absent) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [*(f"http://{host}/p" for host, _ in CASES if host and not host.startswith(".")), "co.uk"],
)
def test_the_kept_answer_is_the_lists(text: str) -> None:
    # The first call asks the list (Python) and keeps its answer; the next
    # is looked up (C on the native back end): the same answer.
    _suffix._forget()
    first = (u.registrable_domain(text), u.public_suffix(text))
    assert (u.registrable_domain(text), u.public_suffix(text)) == first
    if "//" in text:
        ref = u.parse_iri(text)
        assert (u.registrable_domain(ref), u.public_suffix(ref)) == first
