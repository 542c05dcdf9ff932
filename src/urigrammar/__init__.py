"""urigrammar: URIs exactly as RFC 3986 defines them, driven by its grammar.

The grammar is RFC 3986 Appendix A, loaded at import from ``rfc3986.abnf``
by the ``abnf`` package; no rule is restated in Python.  Text flows
``_grammar`` (the rules) -> ``_compile`` or ``abnf`` (an engine) -> a rule
tree -> ``_visitor`` (the one place rule names meet fields) ->
``URIReference``.  See ``docs/design.md`` for the why.
"""

from __future__ import annotations

from ._api import (
    ABNF_MAX_LENGTH,
    PARSE_RULES,
    Engine,
    TreeNode,
    check,
    parse,
    parse_tree,
    validate,
)
from ._build import build
from ._encode import ENCODE_RULES, percent_decode, percent_decode_bytes, percent_encode
from ._errors import InputTooLongError, UnknownRuleError, URIError, URISyntaxError
from ._grammar import GRAMMAR as _GRAMMAR
from ._normalize import ORIGIN_SCHEMES, SCHEME_RULES, Origin, SchemeRule, equivalent, normalize
from ._reference import MAX_PORT_DIGITS, PortTooLargeError, URIReference
from ._resolve import relativize, remove_dot_segments, resolve

__all__ = [
    "ABNF_MAX_LENGTH",
    "ENCODE_RULES",
    "MAX_PORT_DIGITS",
    "ORIGIN_SCHEMES",
    "PARSE_RULES",
    "RULE_NAMES",
    "SCHEME_RULES",
    "Engine",
    "InputTooLongError",
    "Origin",
    "PortTooLargeError",
    "SchemeRule",
    "TreeNode",
    "URIError",
    "URIReference",
    "URISyntaxError",
    "UnknownRuleError",
    "build",
    "check",
    "equivalent",
    "normalize",
    "parse",
    "parse_tree",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "relativize",
    "remove_dot_segments",
    "resolve",
    "rule_source",
    "validate",
]

#: Every rule name: RFC 3986 Appendix A in the file's order, then the RFC
#: 5234 core rules.
RULE_NAMES: tuple[str, ...] = _GRAMMAR.all_names


def rule_source(name: str) -> str | None:
    """The definition of rule ``name`` as written in ``rfc3986.abnf``;
    ``None`` for a core rule (those come from the ``abnf`` package)."""
    return _GRAMMAR.source(name)
