"""``canonicalize``: one key per resource.  The RFCs' equivalences as a table
(``tests/vectors/canonical_keys.json``), then properties over references
generated from the grammar, parsed on each back end: a key is an ASCII URI,
its own key, equivalent to its reference; a respelling made by hand (case,
percent-encodings, dot segments) gets the same key; keys meet only where
``equivalent`` says so; dropping a parameter does what ``remove_param``
does; sorting only reorders.  The ``canonicalize`` command:
cli/test_cli_canonicalize.py."""

from __future__ import annotations

import dataclasses
import glob
import json
import re
import string
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

import urigrammar as u
from _backends import C_RECORDS, On
from _budget import backend_settings
from urigrammar.engine import BACKENDS, Backend
from urigrammar.hygiene import _tracking
from urigrammar.hygiene._canonical import c_key
from urigrammar.strategies import from_rule, uri_references

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "canonical_keys.json").read_text("utf-8")
)
UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")

_iri_texts = from_rule("IRI-reference").filter(lambda t: not any(c in u.BIDI_FORMATTING for c in t))
_texts = st.one_of(uri_references(), _iri_texts)


def _ref(on: On, text: str) -> u.Reference:
    """``text`` parsed on ``on``'s back end: as a URI where it is one."""
    if u.validate("URI-reference", text):
        return on.parse(text)
    return on.parse_iri(text)


def _pieces(key: str) -> list[str]:
    query = u.parse(key).query
    return [] if query is None else query.split("&")


# --- The RFCs' table ------------------------------------------------------------


@pytest.mark.parametrize("group", VECTORS["same"], ids=lambda g: g["id"])
def test_equivalent_spellings_share_one_key(group: dict[str, Any]) -> None:
    options = dict(group.get("options", {}))
    nfc = options.pop("nfc", False)
    rules = u.Canonicalization(normalization=u.Normalization(nfc=nfc), **options)
    keys = {u.canonicalize(text, rules) for text in group["spellings"]}
    assert len(keys) == 1, keys


@pytest.mark.parametrize("group", VECTORS["apart"], ids=lambda g: g["id"])
def test_spellings_the_rfc_keeps_apart_keep_two_keys(group: dict[str, Any]) -> None:
    first, second = group["spellings"]
    assert u.canonicalize(first) != u.canonicalize(second)
    assert not u.equivalent(first, second)


def test_the_key_takes_the_uri_form() -> None:
    # RFC 3987 section 5.3.2.3: compared as URIs, hex in uppercase.
    assert u.canonicalize("http://example.org/r\u00e9sum\u00e9") == (
        "http://example.org/r%C3%A9sum%C3%A9"
    )
    assert u.canonicalize("http://b\u00fccher.example/") == "http://b%C3%BCcher.example/"
    assert u.canonicalize(u.parse_iri("HTTP://B\u00fccher.example")) == (
        "http://b%C3%BCcher.example/"
    )


def test_reserved_octets_and_plus_stay_as_written() -> None:
    text = "http://a/p%2Fq?x=%2F&z=%3B&a=%26+b&y=1+1"
    key = u.canonicalize(text, sort_query=True)
    assert key == "http://a/p%2Fq?a=%26+b&x=%2F&y=1+1&z=%3B"
    assert u.canonicalize(text, drop_parameters=["y"]) == "http://a/p%2Fq?x=%2F&z=%3B&a=%26+b"


def test_each_option_on_its_own() -> None:
    text = "http://www.Example.com:80/a?utm_source=x&b=2&a=1&gclid=9#top"
    assert u.canonicalize(text) == "http://www.example.com/a?utm_source=x&b=2&a=1&gclid=9#top"
    assert u.canonicalize(text, drop_fragment=True).endswith("gclid=9")
    assert u.canonicalize(text, sort_query=True).endswith("?a=1&b=2&gclid=9&utm_source=x#top")
    assert u.canonicalize(text, drop_parameters=u.TRACKING_PARAMETERS).endswith("?b=2&a=1#top")
    assert u.canonicalize(text, drop_www=True).startswith("http://example.com/")
    assert u.canonicalize("http://a/?", drop_empty_query=True) == "http://a/"
    assert u.canonicalize("http://a/?", drop_empty_query=False) == "http://a/?"
    assert u.canonicalize("http://[::0:A]/", u.CRAWL_KEY) == "http://[::a]/"
    assert u.canonicalize("http://a/?utm_medium=x&", u.CRAWL_KEY) == "http://a/"


@pytest.mark.parametrize(
    ("host", "want"),
    [
        ("www.a.example", "a.example"),
        ("www.www.a", "a"),
        ("www.", "www."),
        ("www.www.", "www."),
        ("www..a", "www..a"),
        ("wwwa.b", "wwwa.b"),
        ("www", "www"),
    ],
)
def test_drop_www_takes_whole_leading_labels(host: str, want: str) -> None:
    assert u.parse(u.canonicalize(f"http://{host}/", drop_www=True)).host == want


def test_idna_gives_a_labels_and_keeps_what_is_no_idn() -> None:
    assert u.canonicalize("http://B\u00fcCHER.example/", idna=True) == (
        "http://xn--bcher-kva.example/"
    )
    # Not a valid IDN (a hyphen in the 3rd and 4th place): UTF-8 kept.
    assert u.canonicalize("http://\u00e4b--c.example/", idna=True) == ("http://%C3%A4b--c.example/")


def test_the_crawl_key_drops_every_listed_parameter() -> None:
    names = [n.replace("*", "x") for n in u.TRACKING_PARAMETERS]
    text = "http://a/?keep=1&" + "&".join(f"{n}=v" for n in names)
    assert u.canonicalize(text, u.CRAWL_KEY) == "http://a/?keep=1"


def test_the_tracking_list_is_data_with_sources() -> None:
    path = Path(_tracking._FILE)
    rows = [
        line.split("\t")
        for line in path.read_text("utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert [row[0] for row in rows] == list(u.TRACKING_PARAMETERS)
    assert all(len(row) == 2 and row[1].strip() for row in rows)
    assert len(set(u.TRACKING_PARAMETERS)) == len(rows)


def test_options_are_one_hashable_value() -> None:
    rules = u.Canonicalization(drop_parameters=["a", "b*"])
    assert rules.drop_parameters == ("a", "b*")
    assert hash(rules) == hash(u.Canonicalization(drop_parameters=("a", "b*")))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.sort_query = True  # type: ignore[misc]
    with pytest.raises(TypeError, match="not one str"):
        u.Canonicalization(drop_parameters="utm_source")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword argument 'sort'"):
        u.canonicalize("http://a/", sort=True)
    with pytest.raises(TypeError, match="takes a Canonicalization"):
        u.canonicalize("http://a/", u.Normalization())  # type: ignore[arg-type]
    assert u.Canonicalization().keeps_meaning
    assert not u.CRAWL_KEY.keeps_meaning


def test_a_text_that_is_no_reference_is_a_syntax_error() -> None:
    text = "http://u:secret@a b/"
    with pytest.raises(u.URISyntaxError) as caught:
        u.canonicalize(text)
    assert "secret" not in str(caught.value)
    assert caught.value.offset == text.index(" ")


# --- Properties ----------------------------------------------------------------


@backend_settings()
@given(text=_texts)
def test_a_key_is_an_ascii_uri_that_is_its_own_key(on: On, text: str) -> None:
    key = u.canonicalize(_ref(on, text))
    assert key == u.canonicalize(text)
    assert key.isascii()
    assert u.validate("URI-reference", key)
    assert u.canonicalize(key) == key
    assert u.equivalent(text, key)


_options = st.builds(
    u.Canonicalization,
    normalization=st.builds(u.Normalization, ipv6_canonical=st.booleans(), nfc=st.booleans()),
    idna=st.booleans(),
    drop_fragment=st.booleans(),
    sort_query=st.booleans(),
    drop_parameters=st.sampled_from([(), ("a",), ("*",), ("[a-c]*", "x?"), u.TRACKING_PARAMETERS]),
    drop_empty_query=st.booleans(),
    drop_www=st.booleans(),
)


@backend_settings()
@given(text=_texts, rules=_options)
@example(text="http://www.www.a/", rules=u.Canonicalization(drop_www=True))
def test_every_option_gives_a_key_that_is_its_own_key(
    on: On, text: str, rules: u.Canonicalization
) -> None:
    key = u.canonicalize(_ref(on, text), rules)
    assert key.isascii()
    assert u.canonicalize(key, rules) == key


def _respelled(data: st.DataObject, text: str, *, dots: bool) -> str:
    """``text`` with each character a coin's choice of: as it is; an
    unreserved one percent-encoded; a non-ASCII one as its percent-encoded
    UTF-8; a triplet's hex in the other case.  Section 2.3 (and RFC 3987
    section 5.3.2.3) makes each spelling the same."""
    out = []
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    upper = data.draw(st.booleans())
    i = 0
    while i < len(text):
        char, flip = text[i], flips[i]
        if char == "%":
            triplet = text[i : i + 3]
            out.append(triplet.swapcase() if flip else triplet)
            i += 3
            continue
        if flip and (char in UNRESERVED or not char.isascii()):
            hexes = "".join(f"%{octet:02X}" for octet in char.encode("utf-8"))
            out.append(hexes if upper else hexes.lower())
        else:
            out.append(char)
        i += 1
    spelled = "".join(out)
    if dots and spelled.startswith("/"):
        spelled = "/." + spelled
    return spelled


def _swapped(data: st.DataObject, text: str) -> str:
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    pairs = zip(text, flips, strict=True)
    return "".join(c.swapcase() if flip and c.isascii() else c for c, flip in pairs)


@backend_settings()
@given(text=_texts, data=st.data())
def test_a_respelling_gets_the_same_key(on: On, text: str, data: st.DataObject) -> None:
    ref = _ref(on, text)
    parts: dict[str, Any] = {}
    if ref.scheme is not None:
        parts["scheme"] = _swapped(data, ref.scheme)
    if ref.host is not None:
        host = _swapped(data, ref.host)
        if ref.host_kind in ("reg-name", "ireg-name"):
            host = _respelled(data, host, dots=False)
        parts["host"] = host
    for name in ("userinfo", "query", "fragment"):
        value = getattr(ref, name)
        if value is not None:
            parts[name] = _respelled(data, value, dots=False)
    absolute = ref.scheme is not None or ref.path.startswith("/")
    parts["path"] = _respelled(data, ref.path, dots=absolute)
    try:
        other = ref.replace(**parts)
    except u.URIError:
        # A respelled host that no longer reads as the same kind (an IPv4
        # address spelled with %31) or a scheme-less first segment that
        # gained a ":" cannot be written: nothing to compare.
        assume(False)
    assert u.canonicalize(other) == u.canonicalize(ref)


@backend_settings()
@given(first=_texts, second=_texts)
def test_keys_meet_only_where_equivalent_says(on: On, first: str, second: str) -> None:
    a, b = _ref(on, first), _ref(on, second)
    assert (u.canonicalize(a) == u.canonicalize(b)) == u.equivalent(a, b)


@backend_settings()
@given(text=uri_references(), data=st.data())
def test_dropping_names_does_what_remove_param_does(on: On, text: str, data: st.DataObject) -> None:
    ref = on.parse(text)
    names = sorted({piece.partition("=")[0] for piece in (ref.query or "").split("&")})
    chosen = data.draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    decoded = [u.percent_decode(name, errors="surrogateescape") for name in chosen]
    removed = ref
    for name in decoded:
        removed = removed.remove_param(name)
    patterns = [glob.escape(name) for name in decoded]
    assert u.canonicalize(ref, drop_parameters=patterns) == u.canonicalize(removed)


@backend_settings()
@given(text=_texts)
def test_sorting_only_reorders_by_name_and_keeps_each_names_order(on: On, text: str) -> None:
    ref = _ref(on, text)
    plain, ordered = u.canonicalize(ref), u.canonicalize(ref, sort_query=True)
    before, after = _pieces(plain), _pieces(ordered)
    assert Counter(before) == Counter(after)
    names = [piece.partition("=")[0] for piece in after]
    assert names == sorted(names)
    for name in set(names):
        assert [p for p in before if p.partition("=")[0] == name] == [
            p for p in after if p.partition("=")[0] == name
        ]
    assert u.parse(plain).replace(query=None) == u.parse(ordered).replace(query=None)


@given(
    st.one_of(from_rule("URI-reference"), from_rule("URI")),
    st.sampled_from(
        [
            u.Canonicalization(),
            u.CRAWL_KEY,
            u.Canonicalization(normalization=u.Normalization(scheme_based=False), idna=True),
        ]
    ),
)
@example("HTTP://WWW.Ex%41mple.COM:0080/a/./b/../%7e%2f?q=%7a%3B#F%2d", u.CRAWL_KEY)
@example("http://h/%e2%82%ac", u.CRAWL_KEY)
@example("http://b%C3%BCcher.example/%65%CC%81", u.CRAWL_KEY)  # IDNA and NFC: the IRI way
def test_the_ascii_way_gives_the_iri_ways_key(text: str, options: u.Canonicalization) -> None:
    # An ASCII text with no percent-encoded octet past ASCII takes RFC
    # 3986's normalization alone; the IRI way (section 5.3, then 3.1) must
    # give the same URI, for the text and for its reference.
    from urigrammar.hygiene._canonical import by_ascii, by_iri

    for ref in (text, u.parse(text)):
        shorter = by_ascii(ref, options.normalization)
        if shorter is None:
            assert re.search(r"%[89A-Fa-f]", text)
            continue
        assert shorter == by_iri(ref, options)


def test_the_ascii_way_leaves_the_rest_to_the_iri_way() -> None:
    from urigrammar.hygiene._canonical import by_ascii

    for text in ("http://ä.example/", "http://h/%C3%A4", "http://h/%8f", "ht tp://x"):
        assert by_ascii(text, u.Normalization()) is None


# --- The C key: the native back end writes an ASCII text's key in C --------

#: Query pieces that exercise the C key's steps: listed names, a name
#: spelled with an encoded unreserved octet, empty pieces, names that
#: differ in case or only by what follows "=", encoded delimiters.
_QUERY_PIECES = st.sampled_from(
    [
        *("utm_source=1", "%75tm_x=2", "gclid", "a=1", "b=2", "a=0", "", "=", "b", "A=1"),
        *("x%3Dy=1", "utm_=", "fbclid=3", "%2B=1", "ab=1", "a", "a%26b=2", "utm_medium"),
    ]
)


@st.composite
def _with_query(draw: st.DrawFn) -> str:
    base = draw(
        st.one_of(
            st.sampled_from(["http://h/", "HTTP://H:80", "", "x:", "//h", "a/./b"]),
            from_rule("URI-reference"),
        )
    )
    base = base.partition("?")[0].partition("#")[0]
    query = "&".join(draw(st.lists(_QUERY_PIECES, max_size=8)))
    fragment = draw(st.sampled_from(["", "#", "#f"]))
    return f"{base}?{query}{fragment}"


_c_options = st.builds(
    u.Canonicalization,
    normalization=st.builds(
        u.Normalization, scheme_based=st.booleans(), ipv6_canonical=st.booleans()
    ),
    drop_fragment=st.booleans(),
    sort_query=st.booleans(),
    drop_parameters=st.sampled_from(
        [(), ("a",), ("utm_*",), ("a", "b*", "utm_**"), ("[a-c]*",), u.TRACKING_PARAMETERS]
    ),
    drop_empty_query=st.booleans(),
    drop_www=st.booleans(),
)


@pytest.mark.parametrize("chosen", BACKENDS, ids=lambda b: b.name)
@given(text=st.one_of(_with_query(), _texts), options=_c_options)
@example(text="HTTP://Example.com:80/a?b=2&utm_source=x&a=1&b=1#x", options=u.CRAWL_KEY)
@example(text="http://a/?utm_source=1&", options=u.CRAWL_KEY)
@example(text="http://a/?ab=1&a=2&b&a=1&", options=u.Canonicalization(sort_query=True))
@example(text="http://a/?%75tm_source=1", options=u.CRAWL_KEY)
@example(text="http://[0::1]/", options=u.CRAWL_KEY)
@example(text="http://h/%C3%A4?a", options=u.CRAWL_KEY)
def test_the_c_key_is_the_python_key(
    chosen: Backend, text: str, options: u.Canonicalization
) -> None:
    made = c_key(options, chosen)
    python_alone = options.drop_www or "[a-c]*" in options.drop_parameters
    if not chosen.native or not C_RECORDS or python_alone:
        assert made is None  # Python's alone
        return
    assert made is not None
    key = made(text)
    python = getattr(u.canonicalize, "__wrapped__", u.canonicalize)
    try:
        wanted = python(text, options)
    except u.URIError:
        assert key is None  # no reference: Python says what is wrong
        return
    if key is None:
        # Left to Python: no URI-reference, an octet past ASCII, an IPv6
        # address in RFC 5952's form.
        assert (
            not u.validate("URI-reference", text)
            or re.search(r"%[89A-Fa-f]", text)
            or (options.normalization.ipv6_canonical and "[" in text)
        ), text
        return
    assert key == wanted, text


def test_many_pieces_sort_stably_in_c() -> None:
    # Past the pieces a call sorts on the stack: a merge sort, stable.
    pieces = [f"{name}={i}" for i, name in enumerate("cbacbacba" * 40)]
    text = "http://h/?" + "&".join(pieces)
    key = u.canonicalize(text, sort_query=True)
    assert key.split("?")[1].split("&") == sorted(pieces, key=lambda p: p.partition("=")[0])


def test_the_front_takes_options_by_identity() -> None:
    # The same options in another value: the same key, by Python or C.
    rules = u.Canonicalization(drop_fragment=True, drop_parameters=["utm_*"])
    again = dataclasses.replace(rules)
    text = "http://h/a?utm_x=1&b=2#f"
    assert u.canonicalize(text, rules) == u.canonicalize(text, again) == "http://h/a?b=2"
    with pytest.raises(TypeError, match="Canonicalization"):
        u.canonicalize(text, "crawl")  # type: ignore[arg-type]


def test_a_key_under_rules_without_a_port_is_the_same_every_time() -> None:
    # The C key knows the rules it was made with; one with no default port
    # answers alike on every call, and in a column.
    rules = u.Canonicalization(
        normalization=u.Normalization(schemes={"file": u.SchemeRule(empty_path_is_root=True)})
    )
    assert [u.canonicalize("file://h", rules) for _ in range(3)] == ["file://h/"] * 3
