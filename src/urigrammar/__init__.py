"""urigrammar: URIs, IRIs and URI Templates exactly as RFC 3986, RFC 3987
and RFC 6570 define them, driven by their own grammars.

The grammars are the RFCs' ABNF, kept verbatim in ``grammar/*.abnf`` and
compiled into programs (``urigrammar.engine``) that ship with the wheel;
nothing is read at import, and no rule is restated in Python.  Layers,
each importing only those below it: ``engine`` (any ABNF grammar) ->
``shipped`` (the RFCs' grammars) -> ``uri`` (the model: parse, resolve,
normalize, build, IRIs) -> ``template`` (RFC 6570) -> ``cli``; beside
``cli``, on the public API, ``differential`` (RFC 3986 beside the URL
Standard) and the integrations.  See
``docs/design.md`` for the why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._errors import (
    GrammarError,
    InputTooLongError,
    MissingExtraError,
    PortTooLargeError,
    RegexExportError,
    RuleMatchError,
    UnknownRuleError,
    UnknownSchemeError,
    URIError,
    UrigrammarError,
    URISyntaxError,
    display_width,
)
from ._version import VERSION as __version__

if TYPE_CHECKING:
    from . import differential
    from .engine import (
        ABNF_MAX_LENGTH,
        Grammar,
        Regex,
        RuleMatch,
        cache_dir,
        cache_problem,
        clear_cache,
        load_grammar,
    )
    from .schemes import (
        SCHEMES,
        Profile,
        Requirement,
        SchemeURI,
        http_profile,
        parse_scheme,
        register_scheme,
    )
    from .shipped import RFC3986, RFC3987, RFC6570, RFC6570_PUBLISHED
    from .template import ExpansionError, ReservedOperatorError, TemplateError, URITemplate
    from .uri._api import (
        PARSE_RULES,
        Method,
        TreeNode,
        check,
        parse_tree,
        validate,
    )
    from .uri._components import MAX_PORT_DIGITS
    from .uri._dialect import BIDI_FORMATTING
    from .uri._encode import percent_decode, percent_decode_bytes, percent_encode
    from .uri._normalize import ORIGIN_SCHEMES, SCHEME_RULES, Normalization, Origin, SchemeRule
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
    from .uri._regex import FieldRegex, field_regex, regex
    from .uri._resolve import remove_dot_segments

# Everything but the errors is imported on first use (PEP 562): a run of
# the command line that validates one text imports the engine and the
# parse model, never the templates, normalization or the compiler.
_LAZY: dict[str, tuple[str, str]] = {
    "Grammar": (".engine", "Grammar"),
    "Regex": (".engine", "Regex"),
    "RuleMatch": (".engine", "RuleMatch"),
    "cache_dir": (".engine", "cache_dir"),
    "cache_problem": (".engine", "cache_problem"),
    "clear_cache": (".engine", "clear_cache"),
    "load_grammar": (".engine", "load_grammar"),
    "RFC3986": (".shipped", "RFC3986"),
    "RFC3987": (".shipped", "RFC3987"),
    "RFC6570": (".shipped", "RFC6570"),
    "RFC6570_PUBLISHED": (".shipped", "RFC6570_PUBLISHED"),
    "SCHEMES": (".schemes", "SCHEMES"),
    "Profile": (".schemes", "Profile"),
    "Requirement": (".schemes", "Requirement"),
    "SchemeURI": (".schemes", "SchemeURI"),
    "parse_scheme": (".schemes", "parse_scheme"),
    "register_scheme": (".schemes", "register_scheme"),
    "http_profile": (".schemes", "http_profile"),
    "ExpansionError": (".template", "ExpansionError"),
    "ReservedOperatorError": (".template", "ReservedOperatorError"),
    "TemplateError": (".template", "TemplateError"),
    "URITemplate": (".template", "URITemplate"),
    "ABNF_MAX_LENGTH": (".engine", "ABNF_MAX_LENGTH"),
    "PARSE_RULES": (".uri._api", "PARSE_RULES"),
    "Method": (".uri._api", "Method"),
    "TreeNode": (".uri._api", "TreeNode"),
    "check": (".uri._api", "check"),
    "parse_tree": (".uri._api", "parse_tree"),
    "validate": (".uri._api", "validate"),
    "MAX_PORT_DIGITS": (".uri._components", "MAX_PORT_DIGITS"),
    "BIDI_FORMATTING": (".uri._dialect", "BIDI_FORMATTING"),
    "percent_decode": (".uri._encode", "percent_decode"),
    "percent_decode_bytes": (".uri._encode", "percent_decode_bytes"),
    "percent_encode": (".uri._encode", "percent_encode"),
    "ORIGIN_SCHEMES": (".uri._normalize", "ORIGIN_SCHEMES"),
    "SCHEME_RULES": (".uri._normalize", "SCHEME_RULES"),
    "Normalization": (".uri._normalize", "Normalization"),
    "Origin": (".uri._normalize", "Origin"),
    "SchemeRule": (".uri._normalize", "SchemeRule"),
    "IRI_PARSE_RULES": (".uri._reference", "IRI_PARSE_RULES"),
    "IRIReference": (".uri._reference", "IRIReference"),
    "Reference": (".uri._reference", "Reference"),
    "URIReference": (".uri._reference", "URIReference"),
    "build": (".uri._reference", "build"),
    "equivalent": (".uri._reference", "equivalent"),
    "normalize": (".uri._reference", "normalize"),
    "parse": (".uri._reference", "parse"),
    "parse_iri": (".uri._reference", "parse_iri"),
    "relativize": (".uri._reference", "relativize"),
    "resolve": (".uri._reference", "resolve"),
    "to_iri": (".uri._reference", "to_iri"),
    "to_uri": (".uri._reference", "to_uri"),
    "remove_dot_segments": (".uri._resolve", "remove_dot_segments"),
    "FieldRegex": (".uri._regex", "FieldRegex"),
    "field_regex": (".uri._regex", "field_regex"),
    "regex": (".uri._regex", "regex"),
}

__all__ = [
    "ABNF_MAX_LENGTH",
    "BACKEND",
    "BIDI_FORMATTING",
    "ENCODE_RULES",
    "IRI_PARSE_RULES",
    "MAX_PORT_DIGITS",
    "ORIGIN_SCHEMES",
    "PARSE_RULES",
    "PURE_REASON",
    "RFC3986",
    "RFC3987",
    "RFC6570",
    "RFC6570_PUBLISHED",
    "RULE_NAMES",
    "SCHEMES",
    "SCHEME_RULES",
    "ExpansionError",
    "FieldRegex",
    "Grammar",
    "GrammarError",
    "IRIReference",
    "InputTooLongError",
    "Method",
    "MissingExtraError",
    "Normalization",
    "Origin",
    "PortTooLargeError",
    "Profile",
    "Reference",
    "Regex",
    "RegexExportError",
    "Requirement",
    "ReservedOperatorError",
    "RuleMatch",
    "RuleMatchError",
    "SchemeRule",
    "SchemeURI",
    "TemplateError",
    "TreeNode",
    "URIError",
    "URIReference",
    "URISyntaxError",
    "URITemplate",
    "UnknownRuleError",
    "UnknownSchemeError",
    "UrigrammarError",
    "__version__",
    "build",
    "cache_dir",
    "cache_problem",
    "check",
    "clear_cache",
    "differential",
    "display_width",
    "equivalent",
    "field_regex",
    "grammar_of",
    "http_profile",
    "load_grammar",
    "normalize",
    "parse",
    "parse_iri",
    "parse_scheme",
    "parse_tree",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "regex",
    "register_scheme",
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
    #: file's order, then the rules RFC 3987 adds, then RFC 6570's, then the
    #: RFC 5234 core rules.
    RULE_NAMES: tuple[str, ...]
    #: The rules ``percent_encode`` takes.
    ENCODE_RULES: tuple[str, ...]
    #: Why the back end is pure (no C compiler when it was installed, or
    #: ``URIGRAMMAR_PURE``), in words; ``None`` when it is native.
    PURE_REASON: str | None
    #: The back end that runs the automata: ``"native"`` (the C extension)
    #: or ``"pure"`` (Python; no compiler at install time, or
    #: ``URIGRAMMAR_PURE=1``).
    BACKEND: str


def __getattr__(name: str) -> object:
    found = _LAZY.get(name)
    if found is not None:
        module, attribute = found
        # __import__ with a fromlist returns the named module itself, and
        # spares the import of importlib.
        value = getattr(__import__(__name__ + module, fromlist=("__name__",)), attribute)
        globals()[name] = value  # the next lookup is a plain one
        return value
    # RULE_NAMES and ENCODE_RULES need the grammar read, which import does not do (PEP 562).
    if name == "differential":
        # The module (diff, agreed_host); it imports can_ada, the
        # urigrammar[whatwg] extra, only when a function of it is called.
        # (Importing a submodule sets it on the package: later lookups are
        # plain ones.)
        return __import__(__name__ + ".differential", fromlist=("__name__",))
    if name == "RULE_NAMES":
        from .shipped import shipped_names

        return shipped_names()
    if name == "ENCODE_RULES":
        from .uri._encode import encode_rules

        return encode_rules()
    if name == "PURE_REASON":
        from .engine import pure_reason

        return pure_reason()
    if name == "BACKEND":
        from .engine import default_backend

        return default_backend().name
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    # The public names, loaded or not (PEP 562): what dir() and completion show.
    return sorted({*globals(), *__all__})


def grammar_of(name: str) -> Grammar:
    """The shipped grammar that defines rule ``name`` (any case): RFC 3986
    first, then RFC 3987, ...; ``UnknownRuleError`` for a name none has."""
    from .shipped import shipped_rule

    return shipped_rule(name)[0]


def rule_source(name: str) -> str | None:
    """The definition of rule ``name`` as written in its grammar file
    (``rfc3986.abnf`` first, then ``rfc3987.abnf``, ...); ``None`` for a
    core rule (those come from the ``abnf`` package)."""
    from .shipped import shipped_rule

    grammar, found = shipped_rule(name)
    return grammar.source(found)
