"""The ``ws`` and ``wss`` schemes: RFC 6455 section 3, ``ws-URI`` and
``wss-URI`` (``grammar/rfc6455.abnf``, its prose ``path`` read as RFC
3986's ``path-abempty``, as the prose says: ``rfc6455-imports.abnf``).

The rules decide, with one requirement their ``port`` does not say: it is
a TCP port ("open a TCP connection to the host given by /host/ and on the
port given by /port/", section 3), so at most 65535 (RFC 9293 section
3.1).  The section's prose adds nothing else:

* no fragment: "Fragment identifiers are meaningless in the context of
  WebSocket URIs and MUST NOT be used on these URIs", and neither rule has
  one, so a ``#`` is refused where it stands;
* no userinfo: the rules put ``host`` right after "//" (section 11.1.1's
  registration template writes ``authority``, but section 3 is where the
  URIs are defined);
* the port: "the default for "ws" is port 80, while the default for "wss"
  is port 443" (``WsValue.port``).

Each rule's language lies inside RFC 3986's ``URI``, so ``validate`` is
one match: the rule's DFA without the URIs whose port is past 65535.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..shipped import RFC6455
from ._profile import Profile
from ._server import ServerURI, tcp_port

__all__ = ["WS", "WSS", "WsValue"]


class WsValue(ServerURI):
    """A WebSocket URI (RFC 6455 section 3).  ``==`` is the exact text."""

    __slots__ = ()

    FIELDS = ("host", "port", "path", "query", "secure", "resource_name", "origin")

    #: Section 3: "the default for "ws" is port 80, while the default for
    #: "wss" is port 443".
    DEFAULT_PORTS: ClassVar[Mapping[str, int]] = {"ws": 80, "wss": 443}

    @property
    def secure(self) -> bool:
        """Section 3: the URI "is called "secure" ... if the scheme
        component matches "wss" case-insensitively"."""
        return self.scheme.lower() == "wss"

    @property
    def resource_name(self) -> str:
        """Section 3's "resource-name": "/" if the path is empty, the
        path, "?" if the query is non-empty, and the query."""
        query = self.query
        return (self.path or "/") + (f"?{query}" if query else "")


def _profile(scheme: str, rule: str) -> Profile[WsValue]:
    return Profile(
        scheme,
        RFC6455,
        rule,
        value=WsValue,
        fields={"host": "host", "port": "port", "path": "path", "query": "query"},
        requirements=[tcp_port(scheme, "RFC 6455 section 3")],
        cite="RFC 6455 section 3",
    )


#: The ``ws`` profile: RFC 6455 section 3.
WS: Profile[WsValue] = _profile("ws", "ws-URI")

#: The ``wss`` profile: RFC 6455 section 3.
WSS: Profile[WsValue] = _profile("wss", "wss-URI")
