"""Rule tree -> ``URIReference``: the one place where rule names meet fields.

Both engines hand this visitor a tree whose nodes have ``name``,
``children`` and ``value`` (``abnf``'s derivation tree, or the compiled
engine's rule-level tree).  Each handler below is named after the RFC 3986
rule it reads; a node without a handler is descended into, so a tree with
extra levels (``abnf``'s ``hier-part``, ``relative-part``, ``URI-reference``)
and one without them give the same result.  ``LEAVES`` are the rules whose
insides the visitor never reads, so the compiled engine need not build them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from abnf.parser import NodeVisitor

from ._reference import URIReference, port_number

__all__ = ["CAPTURES", "LEAVES", "ComponentVisitor", "to_reference"]

_Handler = Callable[["ComponentVisitor", Any], None]
_HANDLERS: dict[str, _Handler] = {}


def _rule(*names: str) -> Callable[[_Handler], _Handler]:
    def register(handler: _Handler) -> _Handler:
        for name in names:
            _HANDLERS[name] = handler
        return handler

    return register


class ComponentVisitor(NodeVisitor):
    """Collects the components of one URI-reference tree."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.scheme: str | None = None
        self.userinfo: str | None = None
        self.host: str | None = None
        self.host_kind: str | None = None
        self.port_text: str | None = None
        self.path = ""
        self.query: str | None = None
        self.fragment: str | None = None

    def visit(self, node: Any) -> None:
        handler = _HANDLERS.get(node.name)
        if handler is None:
            for child in node.children:
                self.visit(child)
        else:
            handler(self, node)

    @_rule("scheme")  # section 3.1
    def visit_scheme(self, node: Any) -> None:
        self.scheme = node.value

    @_rule("userinfo")  # section 3.2.1
    def visit_userinfo(self, node: Any) -> None:
        self.userinfo = node.value

    @_rule("host")  # section 3.2.2; the kind is the child that matched
    def visit_host(self, node: Any) -> None:
        self.host = node.value
        for child in node.children:
            self.visit(child)

    @_rule("IPv4address", "IPv6address", "IPvFuture", "reg-name")
    def visit_host_kind(self, node: Any) -> None:
        self.host_kind = node.name

    @_rule("port")  # section 3.2.3
    def visit_port(self, node: Any) -> None:
        self.port_text = node.value

    # Section 3.3: exactly one of the path rules matches in any reference.
    @_rule("path-abempty", "path-absolute", "path-noscheme", "path-rootless", "path-empty")
    def visit_path(self, node: Any) -> None:
        self.path = node.value

    @_rule("query")  # section 3.4
    def visit_query(self, node: Any) -> None:
        self.query = node.value

    @_rule("fragment")  # section 3.5
    def visit_fragment(self, node: Any) -> None:
        self.fragment = node.value

    def reference(self) -> URIReference:
        port_text = self.port_text
        return URIReference(
            scheme=self.scheme,
            userinfo=self.userinfo,
            host=self.host,
            port=None if port_text is None else port_number(port_text),
            path=self.path,
            query=self.query,
            fragment=self.fragment,
            host_kind=self.host_kind,
            port_text=port_text,
        )


#: Every rule the visitor reads.
CAPTURES = frozenset(_HANDLERS)
#: Rules whose subtrees the visitor never reads.
LEAVES = frozenset(_HANDLERS) - {"host"}


def to_reference(tree: Any) -> URIReference:
    """The components of a URI-reference tree from either engine."""
    visitor = ComponentVisitor()
    visitor.visit(tree)
    return visitor.reference()
