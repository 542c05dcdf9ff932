"""What the server-based schemes share (http, https, ws, wss): a value
with a host, a port that defaults by scheme, a path and a query, and an
RFC 6454 origin; and a profile whose ``validate`` answers without a parse
when the text cannot break its requirements.

Each field is read through the profile's ``fields`` (``field(name)``), so
one value class serves grammars that name the path differently (RFC 9110
takes RFC 3986's ``path-abempty``, RFC 6455 calls it ``path``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ..shipped import RFC3986, RFC9293_REQUIREMENTS
from ._profile import Profile, Requirement
from ._value import SchemeURI

if TYPE_CHECKING:
    from ..engine import Backend, RuleMatch
    from ..uri import Origin

__all__ = ["FastProfile", "ServerURI", "tcp_port"]

V = TypeVar("V", bound=SchemeURI)


class ServerURI(SchemeURI):
    """A URI of a scheme whose authority names a server: ``host`` and
    ``port`` (the scheme's default when absent or empty), ``path`` and
    ``query`` as written.  A subclass says its schemes' default ports in
    ``DEFAULT_PORTS``, citing the section that sets each."""

    __slots__ = ()

    #: Each scheme (lowercase) to its default port.
    DEFAULT_PORTS: ClassVar[Mapping[str, int]] = {}

    @property
    def host(self) -> str:
        """The host as written (RFC 3986 section 3.2.2): a registered name,
        an IPv4 address, or an IP-literal with its brackets; compare it
        without case (section 3.2.2 and 6.2.2.1)."""
        found = self.field("host")
        assert found is not None  # the rule has a host wherever it matches
        return found

    @property
    def port_text(self) -> str | None:
        """The port's digits as written, ``""`` for a ``:`` with none, or
        ``None`` when there is no ``:`` (RFC 3986 section 3.2.3)."""
        return self.field("port")

    @property
    def port(self) -> int:
        """The port as a number, or the scheme's default port when it is
        absent or empty.  ``PortTooLargeError`` (a ``URIError``) for a port
        of more digits than an ``int`` is made from (``port_text`` has
        them): RFC 3986 section 3.2.3 bounds no port."""
        from ..uri import port_number

        found = port_number(self.port_text or "")
        return self.DEFAULT_PORTS[self.scheme.lower()] if found is None else found

    @property
    def path(self) -> str:
        """The path as written: empty, or ``/`` and segments (RFC 3986's
        ``path-abempty``, section 3.3)."""
        found = self.field("path")
        assert found is not None
        return found

    @property
    def query(self) -> str | None:
        """The query after ``?``, as written; ``None`` without a ``?``
        (RFC 3986 section 3.4)."""
        return self.field("query")

    @property
    def origin(self) -> Origin:
        """The origin (RFC 6454 section 4): the scheme and host in
        lowercase and the port (step 4 to 6, with the scheme's default
        port).  The host is normalized as ``urigrammar.normalize`` does
        it (RFC 3986 section 6.2.2), so it equals
        ``urigrammar.parse(text).origin``."""
        from ..uri import Origin, decode_unreserved, lowercase_host

        host = lowercase_host(decode_unreserved(self.host))
        return Origin(self.scheme.lower(), host, self.port)


#: The largest TCP port: 16 bits (RFC 9293 section 3.1).
_MAX_TCP_PORT = "65535"


def _port_past_tcp(match: RuleMatch) -> int | None:
    """Where a port past 65535 starts, compared by its digits (a port may
    have millions of them)."""
    span = match.span("port")
    if span is None:
        return None
    digits = match.text[span[0] : span[1]].lstrip("0")
    if len(digits) < len(_MAX_TCP_PORT) or (
        len(digits) == len(_MAX_TCP_PORT) and digits <= _MAX_TCP_PORT
    ):
        return None
    return span[0]


def tcp_port(scheme: str, cite: str) -> Requirement:
    """The requirement that ``scheme``'s port is a TCP port, 0 to 65535:
    ``cite`` names the port as TCP's (RFC 9110 section 4.2.1, RFC 6455
    section 3), and TCP's is 16 bits (RFC 9293 section 3.1)."""
    return Requirement(
        f"{cite}; RFC 9293 section 3.1",
        "port",
        f"the port of {scheme} URIs is a TCP port: at most 65535",
        _port_past_tcp,
        needs=("port",),
        forbidden=(RFC9293_REQUIREMENTS, "URI-port-over-65535"),
    )


@cache
def host_starts() -> frozenset[str]:
    """The characters a non-empty ``host`` can start with, asked of RFC
    3986's grammar (only ASCII: a URI has no other character)."""
    return frozenset(
        c for c in map(chr, range(0x21, 0x7F)) if RFC3986.viable_prefix("host", c) == 1
    )


#: A fast verdict: ``True`` or ``False`` when it can tell without a
#: parse, ``None`` when the parse must.
Fast = Callable[[str], "bool | None"]


class FastProfile(Profile[V]):
    """A ``Profile`` whose ``validate`` first asks a fast verdict, made
    per back end by ``fast`` (given the back end): from matchers alone,
    when the text cannot break a requirement, so a valid URI costs no
    parse; ``Profile.validate`` decides the rest.  ``check`` and ``parse``
    are the profile's.  Its other arguments are ``Profile``'s."""

    __slots__ = ("_fast", "_make_fast")

    _fast: dict[Backend | None, Fast]
    _make_fast: Callable[[Backend | None], Fast]

    def __init__(self, *args: Any, fast: Callable[[Backend | None], Fast], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "_fast", {})
        object.__setattr__(self, "_make_fast", fast)

    def validate(self, text: str, *, backend: Backend | None = None) -> bool:
        # Lean on purpose: this is the hot path.  A text that is no str
        # raises TypeError in the first matcher the fast verdict calls.
        fast = self._fast.get(backend)
        if fast is None:
            fast = self._fast_on(backend)
        verdict = fast(text)
        return super().validate(text, backend=backend) if verdict is None else verdict

    def _fast_on(self, backend: Backend | None) -> Fast:
        # Where the whole verdict is one DFA (every requirement has a
        # language: Profile._dfas), nothing is faster: it never says None.
        runs = self._on(backend)
        made: Fast = runs.validate if runs.one_dfa else self._make_fast(backend)
        with self._lock:
            return self._fast.setdefault(backend, made)
