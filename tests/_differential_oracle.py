"""An oracle for the differential, of its own: whether RFC 3986 and the URL
Standard read a text as one URL, by ``urigrammar.equivalent`` (RFC 3986
section 6) on what each parser read, recomposed, and ``socket.inet_aton``
on RFC 3986's reg-name.  ``diff`` must find nothing exactly there; shared
by the corpus test and ``bench/bench_differential.py``."""

from __future__ import annotations

import socket

import urigrammar as u

__all__ = ["SCHEMES", "agree"]

# The URL Standard's special schemes all write an empty path as "/"
# (section 4.4); SCHEME_RULES has every one but file.
SCHEMES = {**u.SCHEME_RULES, "file": u.SchemeRule(default_port=None, empty_path_is_root=True)}


def _numeric(name: str | None) -> bool:
    if not name or not name[0].isdigit():
        return False
    try:
        socket.inet_aton(name)
    except OSError:
        return False
    return True


def agree(text: str) -> bool:
    """Both read one scheme, host, port and path, or both refuse ``text``."""
    import can_ada

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
