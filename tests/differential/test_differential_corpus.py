"""``urigrammar.differential.diff`` over the 2,018 real URLs of
``data/real-urls.txt``: no finding on a URL where the two readings agree,
by an oracle of its own (``urigrammar.equivalent`` on what each parser
read), and a named kind for every one where they part.

Needs ``can_ada`` (``tox -e integrations``); the other envs skip it.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

import urigrammar as u
from urigrammar.differential import diff

can_ada = pytest.importorskip("can_ada")

CORPUS = (Path(__file__).resolve().parents[1] / "data" / "real-urls.txt").read_text("utf-8")
URLS = CORPUS.splitlines()


def _numeric(name: str | None) -> bool:
    try:
        socket.inet_aton(name or "")
    except OSError:
        return False
    return bool(name) and name[0].isdigit()


def _agree(text: str) -> bool:
    """Whether RFC 3986 and the URL Standard read one scheme, host, port
    and path, both refusing the text counting as agreeing: RFC 3986
    section 6's equivalence on the two, recomposed."""
    rfc = u.parse(text) if u.validate("URI", text) else None
    try:
        whatwg = can_ada.parse(text)
    except ValueError:
        whatwg = None
    if rfc is None or whatwg is None:
        return rfc is None and whatwg is None
    if rfc.host_kind == "reg-name" and _numeric(rfc.hostname):
        return False
    mine = f"{rfc.scheme}:" + ("" if rfc.host is None else f"//{rfc.host}:{rfc.port_text or ''}")
    theirs = f"{whatwg.protocol}" + (f"//{whatwg.host}" if whatwg.has_hostname() else "")
    return u.equivalent(mine + rfc.path, theirs + whatwg.pathname, schemes=SCHEMES)


# The URL Standard's special schemes all write an empty path as "/"
# (section 4.4); SCHEME_RULES has every one but file.
SCHEMES = {**u.SCHEME_RULES, "file": u.SchemeRule(default_port=None, empty_path_is_root=True)}


def test_the_corpus_is_read() -> None:
    assert len(URLS) == 2018


def test_no_finding_where_the_readings_agree() -> None:
    agreeing = [text for text in URLS if _agree(text)]
    assert len(agreeing) > 1990
    assert [text for text in agreeing if diff(text)] == []


def test_a_named_kind_where_they_part() -> None:
    parting = [text for text in URLS if not _agree(text)]
    assert parting
    fallbacks = {"rfc-failure", "whatwg-failure", "scheme-differs", "host-differs"}
    fallbacks |= {"port-differs", "path-differs"}
    for text in parting:
        found = diff(text)
        assert found, text
        assert not {f.kind for f in found} & fallbacks, text
