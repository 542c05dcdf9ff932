"""``diff`` and ``agreed_host``: RFC 3986's reading of a text (urigrammar's
``parse`` and ``resolve``), the URL Standard's (Ada, ``_whatwg``) and the
numeric resolver's (``socket.inet_aton``), compared (``_compare``) and,
where they part, explained (``_explain``).

The common case is kept short: both parses, four comparisons of strings,
and an empty list.  Everything else (the readings as values, the layout of
the text, the kinds) is computed only for a text whose readings differ.
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._errors import HIDDEN, URIError, UrigrammarError
from ..shipped import userinfo_secret
from ..uri import parse as _parse
from ..uri import resolve as _resolve
from ..uri import validate as _validate
from ._compare import (
    NO_HOST,
    normal_reg_name,
    path_key,
    port_key,
    resolver_address,
    rfc_host_key,
    whatwg_host_key,
)
from ._explain import COVERS, layout
from ._explain import explain as _explain
from ._findings import RFC_AND_WHATWG, Finding, HostDisagreementError, Reading
from ._pairs import host_value, pair_kinds, parts
from ._raw import raw_kinds
from ._readers import READERS, chosen_readers, hidden_in, spellings, versions
from ._whatwg import SPECIAL_SCHEMES, ada, whatwg_parse, whatwg_reading

if TYPE_CHECKING:
    from can_ada import URL

    from ..uri import URIReference

__all__ = ["SecretSpan", "agreed_host", "diff", "secret_span"]

#: RFC 3986's reading of a relative reference given without a base.
_NO_BASE = (
    "a relative reference, which RFC 3986 reads as a URI only against a base URI "
    "(sections 4.2, 5.1)"
)


#: Rules whose text is a part of a URI, not a whole one: their password is
#: found as RFC 3986's userinfo reads it.
_PART_RULES = frozenset({"userinfo", "iuserinfo", "authority", "iauthority"})


@dataclass(frozen=True, slots=True)
class SecretSpan:
    """Where a text's password is (``urigrammar._errors.SecretFinder``),
    for a text read against ``base`` (``None``: no base).

    Where the URL Standard reads credentials, the password is its own:
    after the first ``:`` of the authority, up to its last ``@``, the
    authority laid out as the URL Standard walks it, so that ``\\`` after
    a special base's scheme, tabs and newlines, or ``http:user:pass@host``
    (no slashes) hide it too, and a backslash ends it in a special URL
    (``pass`` in ``http://u:pass@evil.com\\@good.com/``: the host and the
    backslash a finding is about stay shown).  Where it reads none, RFC
    3986's userinfo (section 3.2.1, read loosely as ``userinfo_secret``
    does) is the password; where it fails, either one's, so that a text
    neither reads (``http://u:p/ss@h/``) shows none.  A frozen value, so
    that an error holding it still pickles."""

    base: str | None = None

    def __call__(self, text: str, rule: str | None = None) -> tuple[int, int, int] | None:
        loose = userinfo_secret(text, rule)
        if rule in _PART_RULES:
            return loose
        try:
            base_url = None if self.base is None else _base(self.base)[1]
            url = whatwg_parse(text, base_url)
        except UrigrammarError:  # no can_ada (an error unpickled elsewhere): assume failure
            base_url = url = None
        lay = layout(text, None if base_url is None else base_url.protocol[:-1])
        own = None
        if lay.ats and lay.authority is not None:
            start, at = lay.authority[0], lay.ats[-1]
            colon = lay.clean.find(":", start, at)
            if 0 <= colon < at - 1:
                own = lay.at(start), lay.at(colon + 1), lay.at(at - 1) + 1
        if url is not None:
            return own if lay.ats else loose
        if own is None or loose is None:
            return own or loose
        return min(own[0], loose[0]), min(own[1], loose[1]), max(own[2], loose[2])


#: The finder for a text read without a base.
secret_span = SecretSpan()


def _rebuilt(error: URIError, secrets: SecretSpan) -> URIError:
    """RFC 3986's ``error`` with its message and excerpt masked by
    ``secrets`` rather than by the URI layer's own finder, which knows
    neither the base's scheme nor where the URL Standard ends a password:
    the same class, rule, text and offset."""
    message, text, offset = error.message, error.text, error.offset
    if text is not None and offset is not None and 0 <= offset < len(text):
        stop = f" at offset {offset}"
        end = message.find(stop)
        found = secrets(text, error.rule)
        if found is not None and found[1] <= offset < found[2]:
            # The character is the password's: no hint after the offset
            # may tell it (URIError masks the character itself).
            if end >= 0:
                message = message[: end + len(stop)]
        else:
            # Masked by the URI layer's looser finder, and no password's.
            message = message.replace(
                f"unexpected {HIDDEN}{stop}", f"unexpected {text[offset]!r}{stop}"
            )
    return type(error)(message, rule=error.rule, text=text, offset=offset, secrets=secrets)


def _not_text(function: str, value: object) -> TypeError:
    return TypeError(f"{function}() takes a str, not {type(value).__name__}")


@functools.lru_cache(maxsize=32)
def _base(base: str) -> tuple[URIReference, URL]:
    """The base as both read it, once per base: it must be a URI to RFC
    3986 (section 5.1), a URL to the URL Standard, and the same one to
    both, since a finding's offset is in the text, not in the base."""
    if not isinstance(base, str):
        raise _not_text("the base of diff", base)
    ada()
    try:
        ref = _parse(base)
    except URIError as exc:
        raise _rebuilt(exc, secret_span) from None
    if ref.scheme is None:
        msg = "the base must be a URI, with a scheme (RFC 3986 section 5.1)"
        raise URIError(msg, rule="URI", text=base, offset=0, secrets=secret_span)
    url = whatwg_parse(base, None)
    if url is None:
        msg = "the URL Standard's basic URL parser fails on the base (section 4.4)"
        raise URIError(msg, rule="URI", text=base, offset=0, secrets=secret_span)
    found = diff(base)
    if found:
        first = found[0]
        msg = f"RFC 3986 and the URL Standard read the base differently ({first.kind})"
        raise URIError(msg, rule="URI", text=base, offset=first.offset, secrets=secret_span)
    return ref, url


# The cache holds can_ada's URL objects: emptied before the interpreter
# tears its modules down, or can_ada's module goes first and reports each
# one it finds still alive as leaked.
atexit.register(_base.cache_clear)


def _readings(
    text: str, base: str | None
) -> tuple[URIReference | None, URIError | None, URL | None, str | None]:
    """RFC 3986's target (``None`` when it is no URL), RFC 3986's error,
    the URL Standard's reading, and the base's scheme."""
    base_ref, base_url = (None, None) if base is None else _base(base)
    url = whatwg_parse(text, base_url)
    try:
        ref, error = _parse(text), None
    except URIError as exc:
        ref, error = None, exc
    if base_ref is None:
        target = ref if ref is None or ref.scheme is not None else None
        return target, error, url, None
    target = None if ref is None else _resolve(base_ref, ref)
    assert base_url is not None
    return target, error, url, base_url.protocol[:-1]


def _agree(target: URIReference, url: URL) -> bool:
    """Whether both readings name one scheme, host, port and path, and the
    resolver reads no address where RFC 3986 reads a name (``_compare``).
    Each part is compared as text first: that settles almost every URL."""
    scheme = url.protocol[:-1]
    written = target.scheme
    if written != scheme and (written is None or written.lower() != scheme):
        return False
    special = scheme in SPECIAL_SCHEMES
    path, pathname = target.path, url.pathname
    if (
        path != pathname
        and not (special and not path and pathname == "/")
        and path_key(path, special) != path_key(pathname, special)
    ):
        return False
    port = target.port_text
    if (port or "") != url.port and port_key(port, scheme) != port_key(url.port, scheme):
        return False
    host = target.host
    if host != url.hostname and rfc_host_key(target, scheme, special) != whatwg_host_key(
        url, special
    ):
        return False
    # Only a reg-name that starts with a digit (or an escape) can be read
    # as a number by the resolver.
    return not host or host[0] not in "0123456789%" or resolver_address(target) is None


def diff(text: str, base: str | None = None, readers: Iterable[str] | None = None) -> list[Finding]:
    """Where RFC 3986, the URL Standard and the numeric resolver read
    ``text`` (against ``base``, when given) differently; with ``readers``,
    where any two of the named readers do (below).

    RFC 3986's reading is ``parse(text)`` (section 4.1), resolved against
    ``base`` (section 5.2; a relative reference without a base is no URL);
    the URL Standard's is Ada's basic URL parser (section 4.4); the
    resolver's is ``socket.inet_aton`` on RFC 3986's reg-name.  The list
    is empty exactly when both name the same scheme, host, port and path
    (after RFC 3986 section 6.2's normalization of both; see
    ``urigrammar.differential``) and the resolver reads no address where
    RFC 3986 reads a name, or when both refuse the text.  Otherwise each
    ``Finding`` names a kind (``KINDS``) and the offset in ``text`` where
    the readings part, the findings in the order of their offsets.

    Needs the ``urigrammar[whatwg]`` extra (``MissingExtraError``
    without it).  ``base`` must be a URI that both read alike, else
    ``URIError``; a text never raises.

    ``readers`` names two or more of ``READERS`` (``rfc3986``, ``whatwg``,
    ``urllib``, ``urllib3``, ``httpx``, ``yarl``, ``pydantic``; each but
    the standard library's behind its extra, imported on first use): the
    findings are then those of every pair of them that part (``_pairs``
    compares a pair other than RFC 3986 and the URL Standard), each naming
    its pair and their versions; RFC 3986 and the URL Standard, when both
    named, part as above.
    """
    if not isinstance(text, str):
        raise _not_text("diff", text)
    text = str.__str__(text)  # a str subclass: the characters it holds, as C reads them
    if readers is not None:
        return _diff_readers(text, base, chosen_readers(readers))
    if base is not None:
        target, error, url, base_scheme = _readings(text, base)
    else:  # _readings, written out: this is the path taken for most URLs
        base_scheme = None
        url = whatwg_parse(text, None)
        if url is None and not _validate("URI-reference", text):
            return []  # both refuse it (and RFC 3986's error is not worth making)
        try:
            target, error = _parse(text), None
        except URIError as exc:
            target, error = None, exc
        else:
            if target.scheme is None:
                target = None
    if target is None:
        if url is None:
            return []
    elif url is not None and _agree(target, url):
        raw = [] if base is not None else raw_kinds(target)
        return _raw_findings(text, target, url, raw) if raw else []
    # Readers that part say so; what the text writes otherwise than they
    # read is told only where they agree.
    return _findings(text, base, target, error, url, base_scheme)


def _raw_findings(
    text: str, target: URIReference, url: URL | None, kinds: list[tuple[str, int]]
) -> list[Finding]:
    """Findings of the ``raw_kinds`` of a text both readers may read alike."""
    secrets = _secrets(text, url, SecretSpan(None))
    rfc = _masked(_rfc_reading(target, None), secrets)
    whatwg = _masked(whatwg_reading(url), secrets)
    both = versions(RFC_AND_WHATWG)
    return [
        Finding(kind, offset, rfc, whatwg, versions=both)  # type: ignore[arg-type]
        for kind, offset in kinds
    ]


def _findings(
    text: str,
    base: str | None,
    target: URIReference | None,
    error: URIError | None,
    url: URL | None,
    base_scheme: str | None,
) -> list[Finding]:
    resolver = None if target is None else resolver_address(target)
    if target is None:
        offset = 0 if error is None or error.offset is None else error.offset
        kinds = _explain(text, base_scheme, url, rfc_offset=offset)
    elif url is None:
        kinds = _explain(text, base_scheme, None, rfc_offset=None, rfc_host=target.host)
    else:
        differs = _differences(target, url)
        if resolver is not None:
            differs.add("resolver")
        kinds = _explain(text, base_scheme, url, rfc_offset=None, differs=differs)
    finder = SecretSpan(base)
    if error is not None:
        error = _rebuilt(error, finder)
    secrets = _secrets(text, url, finder)
    rfc = _masked(_rfc_reading(target, error), secrets)
    whatwg = _masked(whatwg_reading(url), secrets)
    shown = None if resolver is None else str(resolver)
    both = versions(RFC_AND_WHATWG)
    return [Finding(kind, offset, rfc, whatwg, shown, versions=both) for kind, offset in kinds]


def _reader_readings(
    text: str, base: str | None, names: tuple[str, ...]
) -> tuple[dict[str, Reading], tuple[str, ...]]:
    """Each named reader's reading of ``text``, no password in any, and
    the passwords hidden: what any reader or the URL Standard reads as one,
    each as written and as readers re-spell it (``_readers.spellings``)."""
    read = {name: READERS[name].read_secret(text, base) for name in names}
    found = {name: reading for name, (reading, _) in read.items()}
    if "@" not in text:
        return found, ()  # no userinfo, no credentials: no password to find
    try:
        url = whatwg_parse(text, None if base is None else _base(base)[1])
    except UrigrammarError:  # no can_ada: the passwords as RFC 3986 finds them
        url = None
    secrets = {*_secrets(text, url, SecretSpan(base)), *(s for _, s in read.values() if s)}
    hidden = spellings(secrets)
    return {name: hidden_in(reading, hidden) for name, reading in found.items()}, hidden


@dataclass(frozen=True, slots=True)
class _ReaderSecrets(SecretSpan):
    """``SecretSpan``, with the span of each password the readers read
    (``hidden``) where the text writes it: what an error's excerpt masks."""

    hidden: tuple[str, ...] = ()

    def __call__(self, text: str, rule: str | None = None) -> tuple[int, int, int] | None:
        span = SecretSpan.__call__(self, text, rule)
        for secret in self.hidden:
            at = text.find(secret)
            if at >= 0:
                end = at + len(secret)
                span = (
                    (at, at, end)
                    if span is None
                    else (min(span[0], at), min(span[1], at), max(span[2], end))
                )
        return span


def _diff_readers(text: str, base: str | None, names: tuple[str, ...]) -> list[Finding]:
    found = diff(text, base) if {"rfc3986", "whatwg"} <= set(names) else []
    readings, _ = _reader_readings(text, base, names)
    compared = {name: parts(reading) for name, reading in readings.items()}
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if (first, second) == RFC_AND_WHATWG or compared[first] == compared[second]:
                continue
            pair = (first, second)
            both = (readings[first], readings[second])
            for kind, offset in pair_kinds(text, *both, (compared[first], compared[second])):
                found.append(
                    Finding(
                        kind,  # type: ignore[arg-type]
                        offset,
                        None,
                        None,
                        readers=pair,
                        readings=both,
                        versions=versions(pair),
                    )
                )
    return sorted(found, key=lambda finding: finding.offset)


def _differences(target: URIReference, url: URL) -> set[str]:
    scheme = url.protocol[:-1]
    special = scheme in SPECIAL_SCHEMES
    differs = set()
    if (target.scheme or "").lower() != scheme:
        differs.add("scheme")
    rfc_host = rfc_host_key(target, scheme, special)
    if rfc_host != whatwg_host_key(url, special):
        differs.add("host")
        # The name as the text writes it, percent-decoded: the key's has
        # its A-labels decoded, which is no mapping the URL Standard made.
        if rfc_host[0] == "name" and not (target.hostname or "").isascii():
            differs.add("idna")
    if port_key(target.port_text, scheme) != port_key(url.port, scheme):
        differs.add("port")
    if path_key(target.path, special) != path_key(url.pathname, special):
        differs.add("path")
    return differs


def _rfc_reading(target: URIReference | None, error: URIError | None) -> Reading:
    if target is None:
        return Reading(error=_NO_BASE if error is None else error.message)
    return Reading(
        scheme=target.scheme,
        host=target.host,
        host_kind=target.host_kind,
        port=target.port_text,
        path=target.path,
    )


def _secrets(text: str, url: URL | None, finder: SecretSpan) -> tuple[str, ...]:
    """The password as the text writes it and as the URL Standard
    serializes it: what no reading may show."""
    found = {url.password} if url is not None and url.password else set()
    span = finder(text, None)
    if span is not None:
        found.add(text[span[1] : span[2]])
    found.discard("")
    return tuple(sorted(found, key=len, reverse=True))


def _masked(reading: Reading, secrets: tuple[str, ...]) -> Reading:
    """``reading`` with no password in it.  The scheme, host and port a
    parser reads are never where either parser reads the password, and
    the error is already masked by its span (``_rebuilt``); only a path
    can hold one, where RFC 3986 reads as a path what the URL Standard
    reads as credentials (``http:u:pw@h/``).  There the password sits
    between the userinfo's ``:`` and ``@``, and only that is masked: a
    short password replaced everywhere would garble the path."""
    path = reading.path
    if not secrets or not path or ":" not in path:
        return reading
    for secret in secrets:
        path = path.replace(f":{secret}@", f":{HIDDEN}@")
    return dataclasses.replace(reading, path=path)


def agreed_host(
    text: str, base: str | None = None, readers: Iterable[str] | None = None
) -> str | None:
    """The host of ``text`` (against ``base``) when RFC 3986, the URL
    Standard and the numeric resolver read the same one, else
    ``HostDisagreementError`` (a ``URIError``) naming the disagreement;
    ``None`` when all three read no host (``mailto:``, ``file:///x``).

    The host is given as the URL Standard serializes it for a special URL
    (lowercase, IDNA A-labels, an IPv4 address in dotted decimal, an IPv6
    address compressed in brackets), otherwise in RFC 3986's normal form
    (section 6.2.2).  A text neither reads raises RFC 3986's error.  Needs
    the ``urigrammar[whatwg]`` extra.

    With ``readers`` (as ``diff`` takes them), the host only when every
    one reads it (``_pairs.host_value``; the resolver too with RFC 3986):
    as above with RFC 3986 and the URL Standard, else an address as
    ``ipaddress`` writes it or a name in lowercase, A-labels decoded."""
    if readers is None:
        return agreement(text, base).host
    if not isinstance(text, str):
        raise _not_text("agreed_host", text)
    text = str.__str__(text)
    names = chosen_readers(readers)
    classic = {"rfc3986", "whatwg"} <= set(names)
    host = agreement(text, base).host if classic else None
    readings, hidden = _reader_readings(text, base, names)
    values = {host_value(readings[name]) for name in names}
    refused = [name for name in names if readings[name].error is not None]
    resolved = "rfc3986" in names and _resolved(text, base)
    if not refused and len(values) == 1 and not resolved:
        if classic:
            return host
        (value,) = values
        if value[0] == "none":
            return None
        if value[0] == "ip":
            address = value[1]
            return f"[{address}]" if getattr(address, "version", 4) == 6 else str(address)
        return str(value[1])
    finder = _ReaderSecrets(base, hidden)
    if len(refused) == len(names):
        first = readings[names[0]]
        msg = f"none of the readers reads a URL: {names[0]}: {first.error}"
        raise URIError(msg, rule="URI", text=text, offset=0, secrets=finder)
    found = [f for f in _diff_readers(text, base, names) if _parts_host(f)]
    if not found:
        # Only the numeric resolver parts from RFC 3986 (the readers agree).
        at = max(text.find(readings["rfc3986"].host or "", text.find(":") + 1), 0)
        msg = (
            f"RFC 3986 reads the reg-name {readings['rfc3986'].host!r}, which the numeric "
            f"resolver reads as an address, at offset {at}"
        )
        error = HostDisagreementError(msg, rule="host", text=text, offset=at, secrets=finder)
        error.findings = ()
        raise error
    raise _disagreement(text, tuple(found), finder)


def _resolved(text: str, base: str | None) -> bool:
    """Whether the numeric resolver reads an address from RFC 3986's
    reg-name of ``text``."""
    try:
        ref = _parse(text)
        target = ref if base is None else _resolve(_base(base)[0], ref)
    except URIError:
        return False
    return resolver_address(target) is not None


def _parts_host(finding: Finding) -> bool:
    """Whether ``finding`` is about the host: a reader that refuses, or
    two hosts."""
    if finding.readers == RFC_AND_WHATWG:
        return finding.rfc is None or _about_host(finding.kind) or finding.whatwg is None
    first, second = finding.readings or (Reading(), Reading())
    return (
        first.error is not None
        or second.error is not None
        or host_value(first) != host_value(second)
    )


@dataclass(frozen=True, slots=True)
class Agreement:
    """What the readers agree on (``agreement``): the host, as
    ``agreed_host`` gives it, and the readings it came from: RFC 3986's
    reference and the URL Standard's URL (``None`` without a host)."""

    host: str | None
    target: URIReference | None
    url: URL | None


def agreement(text: str, base: str | None = None) -> Agreement:
    """``agreed_host``, with the readings: what ``HostPolicy`` decides on,
    read once."""
    if not isinstance(text, str):
        raise _not_text("agreed_host", text)
    text = str.__str__(text)  # a str subclass: the characters it holds, as C reads them
    ada()
    target, error, url, base_scheme = _readings(text, base)
    finder = SecretSpan(base)
    if target is None and url is None:
        if error is not None:
            raise _rebuilt(error, finder) from None
        raise URIError(_NO_BASE, rule="URI", text=text, offset=0, secrets=finder)
    if target is not None and url is not None:
        scheme = url.protocol[:-1]
        special = scheme in SPECIAL_SCHEMES
        key = whatwg_host_key(url, special)
        if rfc_host_key(target, scheme, special) == key and resolver_address(target) is None:
            if key == NO_HOST:
                return Agreement(None, target, url)
            host = url.hostname if special else normal_reg_name(url.hostname)
            return Agreement(host, target, url)
    found = _findings(text, base, target, error, url, base_scheme)
    about = [f for f in found if target is None or url is None or _about_host(f.kind)]
    raise _disagreement(text, tuple(about or found), finder)


def _about_host(kind: str) -> bool:
    covered = COVERS.get(kind)
    return kind == "host-differs" or (covered is not None and bool(covered & {"host", "resolver"}))


def _host_words(reading: Reading) -> str:
    if reading.error is not None:
        return reading.error
    if not reading.host:
        return "no host"
    return (
        f"{reading.host!r}"
        if reading.host_kind is None
        else f"{reading.host_kind} {reading.host!r}"
    )


def _disagreement(
    text: str, found: tuple[Finding, ...], finder: SecretSpan
) -> HostDisagreementError:
    first = found[0]
    one, two = first.readings or (Reading(), Reading())
    kinds = ", ".join(dict.fromkeys(f.kind for f in found))
    if first.readers == RFC_AND_WHATWG:
        rfc, whatwg = _host_words(one), _host_words(two)
        resolver = "" if first.resolver is None else f"; the numeric resolver: {first.resolver}"
        msg = (
            f"RFC 3986, the URL Standard and the numeric resolver read no one host ({kinds}) "
            f"at offset {first.offset}: RFC 3986: {rfc}; the URL Standard: {whatwg}{resolver}"
        )
    else:
        a, b = first.readers
        msg = (
            f"the readers read no one host ({kinds}) at offset {first.offset}: "
            f"{a}: {_host_words(one)}; {b}: {_host_words(two)}"
        )
    error = HostDisagreementError(msg, rule="host", text=text, offset=first.offset, secrets=finder)
    error.findings = found
    return error
