"""Rule tree -> components (``_components``): the one place where rule names meet fields.

``READS`` says, for each RFC 3986 (and RFC 3987) rule that matters, which field of the
reference it fills and with what: the text it matched, or (for the four
kinds of host) the rule's own name.  Everything else follows from it:

* ``ComponentVisitor`` walks ``abnf``'s derivation tree (nodes with
  ``name``, ``children`` and ``value``), filling fields as ``READS`` says
  and descending into every node that is not a leaf, so trees with more
  levels (``abnf``'s ``hier-part``, ``URI-reference``) give the same result
  as flatter ones;
* ``plan`` is the same walk as data, for the automata: per field, the
  captures (numbered as the program's) that may fill it, the first that
  took part giving its value.  Both back ends make the reference from it
  (``engine.Runs.reader``), so they cannot disagree with the visitor on
  which rule fills which field: the tests check that the tree walk and the
  automata give equal references.

The visitor takes the class to build (a ``Components`` subclass): the
model's top class, ``URIReference``, sits above this module and passes
itself down.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..engine import Plan
from ._components import FIELDS, Components, RefT, trusted

__all__ = ["CAPTURES", "LEAVES", "READS", "ComponentVisitor", "plan", "to_reference"]


class Read(NamedTuple):
    field: str
    #: True: the field takes the matched text; False: the rule's name.
    text: bool = True


READS: dict[str, Read] = {
    "scheme": Read("scheme"),  # section 3.1
    "userinfo": Read("userinfo"),  # section 3.2.1
    "host": Read("host"),  # section 3.2.2, and its kind: the rule that matched
    "IPv4address": Read("host_kind", text=False),
    "IPv6address": Read("host_kind", text=False),
    "IPvFuture": Read("host_kind", text=False),
    "reg-name": Read("host_kind", text=False),
    "port": Read("port_text"),  # section 3.2.3
    # Section 3.3: exactly one of the path rules matches in a reference.
    "path-abempty": Read("path"),
    "path-absolute": Read("path"),
    "path-noscheme": Read("path"),
    "path-rootless": Read("path"),
    "path-empty": Read("path"),
    "query": Read("query"),  # section 3.4
    "fragment": Read("fragment"),  # section 3.5
    # RFC 3987 section 2.2: the IRI rules that differ from RFC 3986's, for
    # the same fields.  scheme, port and the IP hosts are shared rules.
    "iuserinfo": Read("userinfo"),
    "ihost": Read("host"),
    "ireg-name": Read("host_kind", text=False),
    "ipath-abempty": Read("path"),
    "ipath-absolute": Read("path"),
    "ipath-noscheme": Read("path"),
    "ipath-rootless": Read("path"),
    "ipath-empty": Read("path"),
    "iquery": Read("query"),
    "ifragment": Read("fragment"),
}

#: Every rule the visitor reads: the nodes a compiled tree must have.
CAPTURES = frozenset(READS)
#: Rules whose insides the visitor never reads ("host" is read for its kind).
LEAVES = CAPTURES - {"host", "ihost"}


class ComponentVisitor:
    """Collects the components of one URI-reference tree."""

    def __init__(self) -> None:
        self.found: dict[str, str | None] = dict.fromkeys(FIELDS)
        self.found["path"] = ""

    def visit(self, node: Any) -> None:
        name = node.name
        read = READS.get(name)
        if read is not None:
            self.found[read.field] = node.value if read.text else name
        if name not in LEAVES:
            for child in node.children:
                self.visit(child)

    def reference(self, cls: type[RefT]) -> RefT:
        f = self.found
        port_text = f["port_text"]
        return trusted(
            cls,
            f["scheme"],
            f["userinfo"],
            f["host"],
            f["path"] or "",
            f["query"],
            f["fragment"],
            f["host_kind"],
            port_text,
        )


def to_reference(tree: Any, cls: type[Components] = Components) -> Components:
    """The components of a URI-reference tree from either engine, as a
    ``cls``."""
    visitor = ComponentVisitor()
    visitor.visit(tree)
    return visitor.reference(cls)


def _sources(names: Sequence[str]) -> dict[str, list[tuple[int, str | None]]]:
    """Field -> the captures (numbered from 0) that can fill it, in order,
    each with the constant it gives (the rule's name, for a host kind) or
    ``None`` for its text."""
    sources: dict[str, list[tuple[int, str | None]]] = {field: [] for field in FIELDS}
    for index, name in enumerate(names):
        entry = READS.get(name)
        if entry is not None:
            sources[entry.field].append((index, None if entry.text else name))
    return sources


#: The value of a field no group filled: section 3.3's path is always
#: there (possibly empty); the other components may be undefined.
_DEFAULTS = {"path": ""}


def plan(names: Sequence[str]) -> Plan:
    """The visitor's walk as data, for a program whose captures are
    ``names`` (``Program.names``): per field, in ``FIELDS`` order, its
    default and its candidate captures; the first that took part in the
    match gives the field its value (``engine.Plan``)."""
    sources = _sources(names)
    return tuple((_DEFAULTS.get(field), tuple(sources[field])) for field in FIELDS)
