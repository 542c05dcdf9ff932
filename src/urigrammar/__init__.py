"""urigrammar: URIs, IRIs and URI Templates exactly as RFC 3986, RFC 3987
and RFC 6570 define them, driven by their own grammars.

The grammars are the RFCs' ABNF, kept verbatim in ``grammar/*.abnf`` and
compiled into programs (``urigrammar.engine``) that ship with the wheel;
nothing is read at import, and no rule is restated in Python.  Layers,
each importing only those below it: ``engine`` (any ABNF grammar) ->
``shipped`` (the RFCs' grammars) -> ``uri`` (the model: parse, resolve,
normalize, build, IRIs) -> ``template`` (RFC 6570) -> ``cli``.  See
``docs/design.md`` for the why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._errors import (
    GrammarError,
    InputTooLongError,
    PortTooLargeError,
    UnknownRuleError,
    URIError,
    URISyntaxError,
)
from .engine import Grammar, load_grammar
from .shipped import RFC3986, RFC3987, RFC6570, RFC6570_PUBLISHED, shipped_names, shipped_rule
from .template import ExpansionError, ReservedOperatorError, TemplateError, URITemplate
from .uri._api import (
    ABNF_MAX_LENGTH,
    PARSE_RULES,
    Engine,
    TreeNode,
    check,
    parse_tree,
    validate,
)
from .uri._components import MAX_PORT_DIGITS
from .uri._dialect import BIDI_FORMATTING
from .uri._encode import encode_rules, percent_decode, percent_decode_bytes, percent_encode
from .uri._normalize import ORIGIN_SCHEMES, SCHEME_RULES, Origin, SchemeRule
from .uri._reference import (
    IRI_PARSE_RULES,
    IRIReference,
    Reference,
    URIReference,
    build,
    equivalent,
    normalize,
    parse,
    parse_iri,
    relativize,
    resolve,
    to_iri,
    to_uri,
)
from .uri._resolve import remove_dot_segments

__all__ = [
    "ABNF_MAX_LENGTH",
    "BIDI_FORMATTING",
    "ENCODE_RULES",
    "ENGINE",
    "IRI_PARSE_RULES",
    "MAX_PORT_DIGITS",
    "ORIGIN_SCHEMES",
    "PARSE_RULES",
    "RFC3986",
    "RFC3987",
    "RFC6570",
    "RFC6570_PUBLISHED",
    "RULE_NAMES",
    "SCHEME_RULES",
    "Engine",
    "ExpansionError",
    "Grammar",
    "GrammarError",
    "IRIReference",
    "InputTooLongError",
    "Origin",
    "PortTooLargeError",
    "Reference",
    "ReservedOperatorError",
    "SchemeRule",
    "TemplateError",
    "TreeNode",
    "URIError",
    "URIReference",
    "URISyntaxError",
    "URITemplate",
    "UnknownRuleError",
    "build",
    "check",
    "equivalent",
    "grammar_of",
    "load_grammar",
    "normalize",
    "parse",
    "parse_iri",
    "parse_tree",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "relativize",
    "remove_dot_segments",
    "resolve",
    "rule_source",
    "to_iri",
    "to_uri",
    "validate",
]


if TYPE_CHECKING:
    #: Every rule name of the shipped grammars: RFC 3986 Appendix A in the
    #: file's order, then the rules RFC 3987 adds, then the RFC 5234 core rules.
    RULE_NAMES: tuple[str, ...]
    #: The rules ``percent_encode`` takes.
    ENCODE_RULES: tuple[str, ...]
    #: The engine validating regular rules: ``"native"`` (the C extension's
    #: DFA runner) or ``"pure"`` (regexes; no compiler at install time, or
    #: ``URIGRAMMAR_PURE=1``).
    ENGINE: str


def __getattr__(name: str) -> object:
    # RULE_NAMES and ENCODE_RULES need the grammar read, which import does not do (PEP 562).
    if name == "RULE_NAMES":
        return shipped_names()
    if name == "ENCODE_RULES":
        return encode_rules()
    if name == "ENGINE":
        from .engine import default_backend

        return default_backend().name
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def grammar_of(name: str) -> Grammar:
    """The shipped grammar that defines rule ``name`` (any case): RFC 3986
    first, then RFC 3987, ...; ``UnknownRuleError`` for a name none has."""
    return shipped_rule(name)[0]


def rule_source(name: str) -> str | None:
    """The definition of rule ``name`` as written in its grammar file
    (``rfc3986.abnf`` first, then ``rfc3987.abnf``, ...); ``None`` for a
    core rule (those come from the ``abnf`` package)."""
    grammar, found = shipped_rule(name)
    return grammar.source(found)
