"""Why two readings of a text part: the kind of each difference and its
offset in the text (``KINDS`` says what each kind means).

Called only once the readings are known to differ.  The text is laid out
as the URL Standard's basic URL parser walks it (section 4.4): where the
scheme, the run of slashes, the authority, its ``@``, the host and the
port are.  That layout only places offsets; both readings come from the
parsers themselves.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._whatwg import IPV4_SERIALIZED, SPECIAL_SCHEMES, ada

if TYPE_CHECKING:
    from can_ada import URL

    from ._findings import Kind

__all__ = ["COVERS", "Layout", "explain", "layout"]

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_TAB_OR_NEWLINE = "\t\n\r"
_TAB_OR_NEWLINE_RE = re.compile("[\t\n\r]")

# The URL code points of ASCII (URL Standard section 4.4, "URL code
# points"); every non-ASCII character but surrogates and noncharacters is
# one too.
_URL_CODE_POINTS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!$&'()*+,-./:;=?@_~"
)
_HEX = frozenset("0123456789ABCDEFabcdef")

#: Which differing components (and the resolver) each kind found on a text
#: both read explains; any left over gets its ``...-differs`` finding.
COVERS: dict[str, frozenset[str]] = {
    "scheme-without-slashes": frozenset({"host", "port", "path"}),
    "slash-count": frozenset({"host", "port", "path"}),
    "ipv4-number": frozenset({"host", "resolver"}),
    "percent-encoded-host": frozenset({"host", "resolver"}),
    "idna-mapped-host": frozenset({"host"}),
    "windows-drive-letter": frozenset({"host", "path"}),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of ``text`` are, as the URL Standard walks it.

    ``clean`` is the text without its leading and trailing C0 controls and
    spaces and without tabs and newlines (section 4.4, steps 1 and 3), and
    every other span is in ``clean``; ``at(i)`` turns a position there
    into an offset in ``text``."""

    text: str
    clean: str
    positions: Sequence[int]
    scheme: str | None
    special: bool
    colon: int
    slashes: tuple[int, int]
    authority: tuple[int, int] | None
    ats: tuple[int, ...]
    host: tuple[int, int] | None
    port: tuple[int, int] | None
    path: int

    def at(self, index: int) -> int:
        """The offset in ``text`` of position ``index`` of ``clean``."""
        return self.positions[index]

    @property
    def host_text(self) -> str:
        return "" if self.host is None else self.clean[self.host[0] : self.host[1]]


def layout(text: str, base_scheme: str | None) -> Layout:
    """Lay ``text`` out; ``base_scheme`` is the base's scheme (lowercase),
    or ``None`` without a base."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    clean = text[start:end]
    positions: Sequence[int]
    if _TAB_OR_NEWLINE_RE.search(clean) is None:
        # The common case: a position in clean is an offset shifted, and a
        # range holds that in constant memory, where a list of ints costs
        # tens of bytes a character of a long text.
        positions = range(start, end + 1)
    else:
        positions = array("q", (i for i in range(start, end) if text[i] not in _TAB_OR_NEWLINE))
        positions.append(end)
        clean = _TAB_OR_NEWLINE_RE.sub("", clean)
    found = _SCHEME.match(clean)
    scheme = None if found is None else clean[: found.end() - 1].lower()
    colon = -1 if found is None else found.end() - 1
    special = (scheme if scheme is not None else base_scheme) in SPECIAL_SCHEMES
    slash_chars = "/\\" if special else "/"
    run = colon + 1
    while run < len(clean) and clean[run] in slash_chars:
        run += 1
    count = run - (colon + 1)
    if scheme is not None and special and scheme != "file":
        # Special authority (ignore) slashes state: an authority follows
        # whatever the count, unless the scheme is the base's and no two
        # slashes follow (then the text is relative to the base).
        has_authority = count >= 2 or scheme != base_scheme
    else:
        has_authority = count >= 2
    authority = host = port = None
    ats: tuple[int, ...] = ()
    path = colon + 1
    if has_authority:
        # A special URL's authority follows the whole run of slashes; a
        # file or non-special URL's the first two (a third starts the path).
        begin = run if special and scheme != "file" else colon + 3
        stops = "/?#\\" if special else "/?#"
        stop = next((i for i in range(begin, len(clean)) if clean[i] in stops), len(clean))
        authority = (begin, stop)
        ats = tuple(i for i in range(begin, stop) if clean[i] == "@")
        host_start = ats[-1] + 1 if ats else begin
        host_end = _host_end(clean, host_start, stop)
        host = (host_start, host_end)
        if host_end < stop and clean[host_end] == ":":
            port = (host_end + 1, stop)
        path = stop
    return Layout(
        text=text,
        clean=clean,
        positions=positions,
        scheme=scheme,
        special=special,
        colon=colon,
        slashes=(colon + 1, run),
        authority=authority,
        ats=ats,
        host=host,
        port=port,
        path=path,
    )


def _host_end(clean: str, start: int, stop: int) -> int:
    if start < stop and clean[start] == "[":
        close = clean.find("]", start, stop)
        return stop if close < 0 else close + 1
    colon = clean.find(":", start, stop)
    return stop if colon < 0 else colon


def ends_in_a_number(host: str) -> bool:
    """The URL Standard's "ends in a number" checker (section 3.5): whether
    the host parser hands ``host`` to the IPv4 parser."""
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if last and last.isascii() and last.isdigit():
        return True
    if last[:2] in ("0x", "0X"):
        return all(c in _HEX for c in last[2:])
    return False


def _whatwg_refuses_host(host: str) -> bool:
    # The URL Standard's host parser on the host alone (a special URL's
    # host parses alike whatever the special scheme): whether the host is
    # what the whole text failed on.
    try:
        ada().parse(f"http://{host}/")
    except (ValueError, TypeError):
        return True
    return False


def _first(text: str, test: Callable[[str], bool], start: int, end: int) -> int:
    return next((i for i in range(start, end) if test(text[i])), -1)


def _stripped(text: str) -> list[tuple[Kind, int]]:
    found: list[tuple[Kind, int]] = []
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    ends = [*range(start), *range(end, len(text))]
    control = next((i for i in ends if text[i] not in " \t\n\r"), -1)
    if control >= 0:
        found.append(("stripped-control", control))
    spaces = [i for i in ends if text[i] == " "]
    inner = _first(text, _TAB_OR_NEWLINE.__contains__, 0, len(text))
    candidates = [i for i in (*spaces[:1], inner) if i >= 0]
    if candidates:
        found.append(("stripped-whitespace", min(candidates)))
    return found


def _unit_kind(lay: Layout, offset: int) -> tuple[Kind, int] | None:
    """The kind and offset for the character RFC 3986 stopped at, when the
    URL Standard took it: ``invalid-url-unit`` or ``non-ascii``."""
    text = lay.text
    escape = text.rfind("%", max(offset - 2, 0), offset + 1)
    if escape >= 0:
        digits = text[escape + 1 : escape + 3]
        if len(digits) < 2 or not set(digits) <= _HEX:
            return "invalid-url-unit", escape  # RFC 3986 stops inside the escape
    if not lay.at(0) <= offset < lay.at(len(lay.clean)):
        return None  # stripped: stripped-control or stripped-whitespace
    char = text[offset]
    if char == "\\" or char in _TAB_OR_NEWLINE:
        return None
    if char.isascii():
        return None if char in _URL_CODE_POINTS else ("invalid-url-unit", offset)
    if lay.host is not None and lay.at(lay.host[0]) <= offset < lay.at(lay.host[1]):
        return None  # a host's non-ASCII: idna-mapped-host
    return "non-ascii", offset


def _host_kinds(
    lay: Layout, branch: str, differs: Collection[str], rfc_offset: int, whatwg_host: str | None
) -> list[tuple[Kind, int]]:
    """The kinds about a special URL's host.  ``branch``: which parser
    failed (``rfc``, ``whatwg``) or ``both`` read the text;
    ``whatwg_host`` the URL Standard's host when only RFC 3986 failed."""
    found: list[tuple[Kind, int]] = []
    if lay.host is None or not lay.special:
        return found
    h0, h1 = lay.host
    host = lay.host_text
    where = lay.at(h0)
    host_differs = "host" in differs or "resolver" in differs
    if (
        host
        and ends_in_a_number(host)
        and (
            branch != "rfc" or (whatwg_host is not None and IPV4_SERIALIZED.fullmatch(whatwg_host))
        )
        and (
            (branch == "rfc" and whatwg_host != host)
            or (branch == "whatwg" and _whatwg_refuses_host(host))
            or (branch == "both" and host_differs)
        )
    ):
        found.append(("ipv4-number", where))
    percent = host.find("%")
    if percent >= 0:
        in_host = lay.at(h0) <= rfc_offset < lay.at(h1)
        if (
            (branch == "rfc" and in_host)
            or (branch == "whatwg" and _whatwg_refuses_host(host))
            or (branch == "both" and host_differs)
        ):
            found.append(("percent-encoded-host", lay.at(h0 + percent)))
    wide = _first(host, lambda c: not c.isascii(), 0, len(host))
    if branch == "rfc" and wide >= 0:
        found.append(("idna-mapped-host", lay.at(h0 + wide)))
    elif branch == "both" and "idna" in differs and percent >= 0:
        found.append(("idna-mapped-host", lay.at(h0 + percent)))
    return found


def _structure_kinds(lay: Layout, url: URL | None) -> list[tuple[Kind, int]]:
    found: list[tuple[Kind, int]] = []
    if not lay.special:
        return found
    s0, s1 = lay.slashes
    count = s1 - s0
    if lay.scheme is not None and count == 0 and lay.colon + 1 < len(lay.clean):
        found.append(("scheme-without-slashes", lay.at(lay.colon + 1)))
    elif lay.scheme != "file" and ((lay.scheme is not None and count == 1) or count >= 3):
        found.append(("slash-count", lay.at(s0 if count == 1 else s0 + 2)))
    if url is not None and url.protocol == "file:" and _DRIVE_PATH.match(url.pathname):
        drive = _DRIVE_LETTER.search(lay.clean, s1)
        if drive is not None:
            found.append(("windows-drive-letter", lay.at(drive.start())))
    return found


# A Windows drive letter as the URL Standard keeps it at the root of a file
# URL's path (section 4.4, "Windows drive letter"), and as a text writes it.
_DRIVE_PATH = re.compile(r"/[A-Za-z][:|](?:/|$)")
_DRIVE_LETTER = re.compile(r"(?<![^/\\:])[A-Za-z][:|](?=[/\\?#]|$)")


def explain(
    text: str,
    base_scheme: str | None,
    url: URL | None,
    *,
    rfc_offset: int | None,
    differs: Collection[str] = (),
    rfc_host: str | None = None,
) -> list[tuple[Kind, int]]:
    """The kinds and offsets that explain why the readings of ``text``
    part.  ``url`` is the URL Standard's reading (``None``: failure);
    ``rfc_offset`` where RFC 3986 stopped (``None``: it read the text);
    ``differs`` the components (``scheme``, ``host``, ``port``, ``path``,
    ``resolver``, and ``idna`` for a host the mapping changed) that differ
    when both read it; ``rfc_host`` RFC 3986's host when only the URL
    Standard fails."""
    lay = layout(text, base_scheme)
    found: list[tuple[Kind, int]] = []
    if rfc_offset is not None:  # RFC 3986 fails, the URL Standard reads it
        found += _stripped(text)
        backslash = text.find("\\")
        if backslash >= 0:
            found.append(("backslash", backslash))
        if len(lay.ats) > 1:
            found.append(("multiple-at", lay.at(lay.ats[1])))
        unit = _unit_kind(lay, rfc_offset)
        if unit is not None:
            found.append(unit)
        found += _structure_kinds(lay, url)
        whatwg_host = None if url is None else url.hostname
        found += _host_kinds(lay, "rfc", (), rfc_offset, whatwg_host)
        if not found:
            found.append(("rfc-failure", rfc_offset))
    elif url is None:  # the URL Standard fails, RFC 3986 reads it
        found += _host_kinds(lay, "whatwg", (), -1, None)
        if lay.port is not None:
            digits = lay.clean[lay.port[0] : lay.port[1]]
            if digits.isascii() and digits.isdigit() and _over_65535(digits):
                found.append(("port-range", lay.at(lay.port[0])))
        if not rfc_host and ((lay.special and lay.scheme != "file") or lay.ats):
            # A special URL needs a host; any URL with credentials does.
            spot = lay.host[0] if lay.host is not None else lay.slashes[1]
            found.append(("host-missing", lay.at(min(spot, len(lay.clean)))))
        if not found:
            found.append(("whatwg-failure", lay.at(lay.host[0]) if lay.host else 0))
    else:  # both read it, differently
        found += _structure_kinds(lay, url)
        found += _host_kinds(lay, "both", differs, -1, None)
        if "resolver" in differs and not any(kind == "ipv4-number" for kind, _ in found):
            found.append(("ipv4-number", lay.at(lay.host[0]) if lay.host else 0))
        covered = {part for kind, _ in found for part in COVERS.get(kind, ())}
        for part, kind in _DIFFERS.items():
            if part in differs and part not in covered:
                found.append((kind, _component_offset(lay, part)))
    return sorted(set(found), key=lambda item: (item[1], item[0]))


def _over_65535(digits: str) -> bool:
    """Whether a port's ASCII digits name a number over 65535, compared as
    text: ``int()`` refuses more than 4300 digits, and a port may have
    any number (RFC 3986 section 3.2.3: ``*DIGIT``)."""
    significant = digits.lstrip("0")
    return len(significant) > 5 or (len(significant) == 5 and significant > "65535")


_DIFFERS: dict[str, Kind] = {
    "scheme": "scheme-differs",
    "host": "host-differs",
    "port": "port-differs",
    "path": "path-differs",
}


def _component_offset(lay: Layout, part: str) -> int:
    if part == "scheme":
        return lay.at(0)
    if part == "host":
        return lay.at(lay.host[0]) if lay.host else 0
    if part == "port":
        if lay.port is not None:
            return lay.at(lay.port[0])
        return lay.at(lay.host[1]) if lay.host else 0
    return lay.at(min(lay.path, len(lay.clean)))
