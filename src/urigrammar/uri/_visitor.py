"""Rule tree -> components (``_components``): the one place where rule names meet fields.

``READS`` says, for each RFC 3986 (and RFC 3987) rule that matters, which field of the
reference it fills and with what: the text it matched, or (for the four
kinds of host) the rule's own name.  Everything else follows from it:

* ``ComponentVisitor`` walks a tree from either engine (nodes with ``name``,
  ``children`` and ``value``: ``abnf``'s derivation tree, or the compiled
  engine's rule-level tree), filling fields as ``READS`` says and descending
  into every node that is not a leaf, so trees with more levels (``abnf``'s
  ``hier-part``, ``URI-reference``) give the same result as flatter ones;
* ``reader`` is the same walk specialised, once per compiled pattern, for
  the compiled engine's tree as the regex match holds it (group number ->
  rule, span -> value).  It is generated from ``READS`` and the pattern's
  group table, so it cannot disagree with the visitor on which rule fills
  which field, and it lets ``parse`` skip building node objects: the tests
  check that both walks give equal references.

Both take the class to build (a ``Components`` subclass): the model's top
class, ``URIReference``, sits above this module and passes itself down.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..engine import RAW_MAKERS, exact
from ._components import FIELDS, PYTHON_RECORDS, Components, RefT, trusted

__all__ = ["CAPTURES", "LEAVES", "READS", "ComponentVisitor", "plan", "reader", "to_reference"]


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


def _sources(groups: Sequence[tuple[str, int]]) -> dict[str, list[tuple[int, str | None]]]:
    """Field -> the groups (numbered from 0) that can fill it, in group
    order, each with the constant it gives (the rule's name, for a host
    kind) or ``None`` for its text."""
    sources: dict[str, list[tuple[int, str | None]]] = {field: [] for field in FIELDS}
    for index, (name, _parent) in enumerate(groups):
        entry = READS.get(name)
        if entry is not None:
            sources[entry.field].append((index, None if entry.text else name))
    return sources


#: The value of a field no group filled: section 3.3's path is always
#: there (possibly empty); the other components may be undefined.
_DEFAULTS = {"path": ""}


def plan(
    groups: Sequence[tuple[str, int]],
) -> tuple[tuple[object, tuple[tuple[int, object], ...]], ...]:
    """The visitor's walk as data, for the native tagged parse
    (``engine._runner.native_parser``): per field, in ``FIELDS`` order, its
    default and its candidate groups; the first group that took part in the
    match gives the field its value, as in ``reader``."""
    sources = _sources(groups)
    return tuple((_DEFAULTS.get(field), tuple(sources[field])) for field in FIELDS)


def reader(
    groups: Sequence[tuple[str, int]],
    cls: type[RefT],
    fullmatch: Callable[[str], re.Match[str] | None],
) -> Callable[[str], RefT | None]:
    """The visitor's walk for a compiled pattern whose capturing group ``i``
    (from 1) is rule ``groups[i-1][0]``: a function from a text to a ``cls``
    over it, or ``None`` when ``fullmatch`` (the pattern's) finds no match,
    written out as straight-line code for speed: the match and the walk in
    one Python call.  A Python record is made from the fields' values in
    two C calls (``engine._record.RAW_MAKERS``); a C record, from the spans
    of the groups that took part (``match.span``)."""
    sources = _sources(groups)
    consts: list[object] = []

    def const(value: object) -> str:
        # A C record's slot holding consts[k] is (-2 - k, 0) (engine._record).
        if value not in consts:
            consts.append(value)
        return repr((-2 - consts.index(value), 0))

    def pick(field: str, spans: bool) -> str:
        # Alternatives of one rule never both match, so the first group
        # that took part gives the field its value.
        default = _DEFAULTS.get(field)
        absent = repr((-1, -1)) if default is None else const(default)
        expr = absent if spans else repr(default)
        for at, (index, constant) in enumerate(reversed(sources[field])):
            if constant is not None:
                value = const(constant) if spans else repr(constant)
            else:
                value = f"span({index + 1})" if spans else f"v[{index}]"
            if at == 0 and constant is None and default is None:
                # A group that took no part reads None (its span (-1, -1)),
                # which is the field's default: no test needed.
                expr = value
            else:
                expr = f"({value} if v[{index}] is not None else {expr})"
        return expr

    if PYTHON_RECORDS:
        values = ", ".join(pick(field, spans=False) for field in FIELDS)
        make = (
            "    t = text if text.__class__ is str else exact(text)\n"
            "    r = new(cls)\n"
            f"    put(r, (t, (), None, {values}))\n"
            "    return r\n"
        )
    else:
        spans = ", ".join(f"*{pick(field, spans=True)}" for field in FIELDS)
        make = f"    span = match.span\n    return make(text, consts, ({spans}))\n"
    code = (
        "def read(text):\n"
        "    match = fullmatch(text)\n"
        "    if match is None:\n"
        "        return None\n"
        f"    v = match.groups()\n{make}"
    )
    # The port is not converted here: URIReference.port does that on access,
    # so parse stays linear in the port's length (section 3.2.3 bounds it not).
    new, put = RAW_MAKERS
    namespace: dict[str, Any] = {
        "cls": cls,
        "new": new,
        "put": put,
        "make": cls._make,
        "consts": tuple(consts),
        "exact": exact,
        "fullmatch": fullmatch,
    }
    # The code is built above from READS and group numbers only.
    exec(code, namespace)
    function: Callable[[str], RefT | None] = namespace["read"]
    return function
