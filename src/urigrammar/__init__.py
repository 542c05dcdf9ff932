"""urigrammar: URIs, IRIs and URI Templates exactly as RFC 3986, RFC 3987
and RFC 6570 define them, driven by their own grammars.

The grammars are the RFCs' ABNF, kept verbatim in ``grammar/*.abnf`` and
compiled into programs (``urigrammar.engine``) that ship with the wheel;
nothing is read at import, and no rule is restated in Python.  The same
engine runs any ABNF grammar of yours (``load_grammar``).

>>> import urigrammar
>>> ref = urigrammar.parse("https://example.com/a/b?q=1#top")
>>> ref.host, ref.path, ref.query, ref.fragment
('example.com', '/a/b', 'q=1', 'top')
>>> str(ref.resolve("../c")), str(urigrammar.normalize("HTTP://Example.com:80/%7e"))
('https://example.com/c', 'http://example.com/~')
>>> urigrammar.validate("URI", "http://a b"), urigrammar.validate("IRI", "http://例え.jp/")
(False, True)
>>> urigrammar.URITemplate("/search{?q,lang}").expand(q="cat", lang="en")
'/search?q=cat&lang=en'
>>> date = urigrammar.load_grammar('date = 4DIGIT "-" 2DIGIT "-" 2DIGIT')
>>> date.validate("date", "2024-05-01")
True

The public names, by purpose (``help(urigrammar.parse)`` and so on show
each one, with an example):

URIs (RFC 3986)
    ``parse`` reads a text into a ``URIReference`` (``Reference`` holds what
    it shares with ``IRIReference``); ``validate`` and ``check`` test a
    text against any rule of the shipped grammars, and ``parse_tree``
    gives a rule's derivation tree (``TreeNode``).  ``resolve``,
    ``relativize`` and ``remove_dot_segments`` follow section 5,
    ``normalize`` and ``equivalent`` section 6 (their options:
    ``Normalization``, ``SchemeRule``); ``Origin`` is RFC 6454's.
    ``build`` and ``percent_encode`` write components from data,
    ``percent_decode`` and ``percent_decode_bytes`` read them.  ``regex``
    and ``field_regex`` (``Regex``, ``FieldRegex``) give a rule as a regex
    for Python, re2, Rust or Java.

IRIs (RFC 3987)
    ``parse_iri`` reads a text into an ``IRIReference``; ``to_uri`` and
    ``to_iri`` map one to the other.

URI Templates (RFC 6570)
    ``URITemplate`` expands a template, and matches a URI back to the
    variables that expand to it.

Grammars (RFC 5234 ABNF)
    ``load_grammar`` makes a ``Grammar`` of your ABNF; ``RFC3986``,
    ``RFC3987``, ``RFC6570`` and ``RFC6570_PUBLISHED`` are the shipped
    ones, and ``grammar_of`` and ``rule_source`` find a rule among them.
    ``Grammar.parse`` gives a ``RuleMatch``.  ``cache_dir``,
    ``cache_problem`` and ``clear_cache`` manage the per-user cache of
    compiled grammars.

URI schemes
    ``parse_scheme`` reads a URI into the typed value (a ``SchemeURI``) of
    its scheme's ``Profile``: the scheme's rule and the ``Requirement``
    values of its RFC's prose.  ``SCHEMES`` holds the profiles,
    ``register_scheme`` adds one, and ``http_profile`` makes http and
    https profiles with other options.

URL hygiene
    ``canonicalize`` gives one key per resource: the same string for
    every spelling ``equivalent`` calls equal, and with ``Canonicalization``
    options (the ``CRAWL_KEY`` preset) the steps crawlers take beyond it,
    such as dropping ``TRACKING_PARAMETERS``.  ``public_suffix`` and
    ``registrable_domain`` read a host's Public Suffix List entry
    (``public_suffix_list_version`` says which list; the
    ``urigrammar[psl]`` extra).  ``lint`` gives the RFCs' advice on how a
    reference is written, each a ``Finding`` (its codes: ``LINT_CODES``).
    ``surt`` gives a key in the web archives' sort-friendly form, of the
    ``SURT_KEY`` canonicalization by default.

The URL Standard
    ``differential`` lists where RFC 3986 and the WHATWG URL Standard read
    a text differently (the ``urigrammar[whatwg]`` extra).

Errors
    ``UrigrammarError``, a ``ValueError``, is the root.  About the URI
    family, ``URIError``: ``URISyntaxError``, ``UnknownSchemeError``,
    ``PortTooLargeError``, and ``TemplateError`` with
    ``ReservedOperatorError`` and ``ExpansionError``.  About any grammar:
    ``RuleMatchError`` (``URISyntaxError`` is one too),
    ``UnknownRuleError``, ``InputTooLongError``, and ``GrammarError`` with
    ``RegexExportError``.  ``MissingExtraError``, an ``ImportError`` too,
    names the extra to install.  ``display_width`` gives the terminal
    columns a text takes, as the caret under an error's offset counts them.
    Messages never show a userinfo's password; ``mask_password`` hides it
    in a text you write yourself.

Constants
    ``PARSE_RULES`` and ``IRI_PARSE_RULES``, the rules ``parse`` and
    ``parse_iri`` take; ``RULE_NAMES``, every rule of the shipped grammars;
    ``ENCODE_RULES``, the rules ``percent_encode`` takes;
    ``SCHEME_RULES``, the scheme rules of normalization, and
    ``ORIGIN_SCHEMES``, the schemes with a tuple origin; ``BIDI_FORMATTING``,
    the characters RFC 3987 section 4.1 forbids in an IRI;
    ``MAX_PORT_DIGITS``; ``ABNF_MAX_LENGTH``, the longest text the ``abnf``
    engine takes; ``Method``, the engines a ``method`` argument names;
    ``BACKEND`` and ``PURE_REASON``, what runs the automata and why it is
    the pure one; ``__version__``.

Layers, each importing only those below it: ``engine`` (any ABNF grammar)
-> ``shipped`` (the RFCs' grammars) -> ``uri`` (the model: parse, resolve,
normalize, build, IRIs) -> ``template`` (RFC 6570) -> ``schemes`` (the
scheme profiles) -> ``hygiene`` (canonical keys) -> ``cli``; beside ``cli``, on the public API,
``differential`` (RFC 3986 beside the URL Standard) and the integrations.
See ``docs/design.md`` for the why.
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
    from .hygiene import (
        CRAWL_KEY,
        LINT_CODES,
        SURT_KEY,
        TRACKING_PARAMETERS,
        Canonicalization,
        Finding,
        canonicalize,
        lint,
        public_suffix,
        public_suffix_list_version,
        registrable_domain,
        surt,
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
    from .shipped import RFC3986, RFC3987, RFC6570, RFC6570_PUBLISHED, mask_password
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
    from .uri._normalization import SCHEME_RULES, Normalization, SchemeRule
    from .uri._normalize import ORIGIN_SCHEMES, Origin
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
    "mask_password": (".shipped", "mask_password"),
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
    "CRAWL_KEY": (".hygiene", "CRAWL_KEY"),
    "TRACKING_PARAMETERS": (".hygiene", "TRACKING_PARAMETERS"),
    "Canonicalization": (".hygiene", "Canonicalization"),
    "canonicalize": (".hygiene", "canonicalize"),
    "LINT_CODES": (".hygiene", "LINT_CODES"),
    "Finding": (".hygiene", "Finding"),
    "lint": (".hygiene", "lint"),
    "SURT_KEY": (".hygiene", "SURT_KEY"),
    "surt": (".hygiene", "surt"),
    "public_suffix": (".hygiene", "public_suffix"),
    "public_suffix_list_version": (".hygiene", "public_suffix_list_version"),
    "registrable_domain": (".hygiene", "registrable_domain"),
    "BIDI_FORMATTING": (".uri._dialect", "BIDI_FORMATTING"),
    "percent_decode": (".uri._encode", "percent_decode"),
    "percent_decode_bytes": (".uri._encode", "percent_decode_bytes"),
    "percent_encode": (".uri._encode", "percent_encode"),
    "ORIGIN_SCHEMES": (".uri._normalize", "ORIGIN_SCHEMES"),
    "SCHEME_RULES": (".uri._normalization", "SCHEME_RULES"),
    "Normalization": (".uri._normalization", "Normalization"),
    "Origin": (".uri._normalize", "Origin"),
    "SchemeRule": (".uri._normalization", "SchemeRule"),
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
    "CRAWL_KEY",
    "ENCODE_RULES",
    "IRI_PARSE_RULES",
    "LINT_CODES",
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
    "SURT_KEY",
    "TRACKING_PARAMETERS",
    "Canonicalization",
    "ExpansionError",
    "FieldRegex",
    "Finding",
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
    "canonicalize",
    "check",
    "clear_cache",
    "differential",
    "display_width",
    "equivalent",
    "field_regex",
    "grammar_of",
    "http_profile",
    "lint",
    "load_grammar",
    "mask_password",
    "normalize",
    "parse",
    "parse_iri",
    "parse_scheme",
    "parse_tree",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "public_suffix",
    "public_suffix_list_version",
    "regex",
    "register_scheme",
    "registrable_domain",
    "relativize",
    "remove_dot_segments",
    "resolve",
    "rule_source",
    "surt",
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
    first, then RFC 3987, ...; ``UnknownRuleError`` for a name none has.

    >>> import urigrammar
    >>> urigrammar.grammar_of("uri"), urigrammar.grammar_of("IRI")
    (<Grammar RFC 3986>, <Grammar RFC 3987>)
    """
    from .shipped import shipped_rule

    return shipped_rule(name)[0]


def rule_source(name: str) -> str | None:
    """The definition of rule ``name`` as written in its grammar file
    (``rfc3986.abnf`` first, then ``rfc3987.abnf``, ...), its line ends
    included; ``None`` for a core rule (those come from the ``abnf``
    package).

    >>> import urigrammar
    >>> urigrammar.rule_source("port"), urigrammar.rule_source("DIGIT")
    ('port          = *DIGIT\\n', None)
    """
    from .shipped import shipped_rule

    grammar, found = shipped_rule(name)
    return grammar.source(found)
