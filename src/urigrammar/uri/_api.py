"""``validate``, ``check``, parsing and ``parse_tree``: text in, verdicts,
errors and references out, through either engine.

Parsing builds a class it is given (a ``Components`` subclass):
``parser_for(cls)`` makes the parse function for one class, and
``parse_as(cls, ...)`` parses once.  ``_reference`` makes the public
``parse`` as ``parser_for(URIReference)``, so this module, below the
model's top class, never names it.

The compiled engine (``engine._compile``) is the default for every rule:
RFC 3986 has no recursion, so every rule is regular, the core rules CRLF
and LWSP included.  The ``abnf`` engine's time and memory grow
quadratically with the input, so it refuses texts longer than
``ABNF_MAX_LENGTH`` characters with ``InputTooLongError`` rather than spend
minutes and gigabytes.

Caches: the grammar keeps one compiled pattern and one error-locating
automaton per rule, built on first use; the spellings of rule names seen
(``"URI"``, ``"uri"``) are remembered up to ``_FAST_ENTRIES``.  Nothing is
cached per input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeVar, cast

from .._errors import URIError
from ..engine import ABNF_MAX_LENGTH
from ..engine._runner import active as native_active
from ..engine._runner import fast_entry, forget_on_switch, native_parser
from ._components import Components, RefT
from ._dialect import URI, Dialect, bidi_error
from ._grammars import shipped_rule
from ._visitor import CAPTURES, LEAVES, plan, reader, to_reference

__all__ = [
    "ABNF_MAX_LENGTH",
    "PARSE_RULES",
    "Engine",
    "Parser",
    "TreeNode",
    "check",
    "parse_as",
    "parse_tree",
    "parser_for",
    "validate",
]

Engine = Literal["compiled", "abnf"]

_FAST_ENTRIES = 256

#: The rules ``parse`` accepts (RFC 3986 sections 4.1 to 4.3).
PARSE_RULES = URI.parse_rules


class TreeNode(Protocol):
    """A node of a parse tree: the rule's name, its text and its children."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    @property
    def children(self) -> list[Any]: ...


RefT_co = TypeVar("RefT_co", bound=Components, covariant=True)


class Parser(Protocol[RefT_co]):
    """What ``parser_for(cls)`` returns: ``parse`` for one class."""

    def __call__(
        self, text: str, rule: str = "URI-reference", *, engine: Engine = "compiled"
    ) -> RefT_co: ...


_Read = Callable[[Any], Any]
# A rule's matcher (the regex's fullmatch, or the native tagger's parse:
# None exactly when the rule does not match), and the reader that builds
# the class from what it returns (None: the matcher returns the class).
_Fast = tuple[Callable[[str], Any], _Read | None]

# (class, canonical rule name, screen, engine) -> the rule's matcher and reader.
_parsers: dict[tuple[type[Components], str, bool, bool], _Fast] = {}
# The hot path: the rule name exactly as callers spell it -> its pattern,
# so a repeated validate("URI-reference", ...) skips name lookup entirely.
_fast_validate: dict[str, Callable[[str], object | None]] = {}
# Emptied when the engine switches (engine._runner.use).
forget_on_switch(clear=_fast_validate.clear)


class _FastTables(dict[tuple[type[Components], bool], dict[str, _Fast]]):
    """Class -> the fast table of its parse function (rule spelling ->
    pattern and reader).  Each parse function holds its own table, so that
    its hot path is one dict lookup; ``clear()`` therefore empties every
    table in place rather than forgetting them, so cleared caches are cold."""

    def clear(self) -> None:
        for table in self.values():
            table.clear()


_fast_parse = _FastTables()
# Emptied when the engine switches: parse's hot path picks its matcher per engine.
forget_on_switch(clear=_fast_parse.clear)

# (class, screen) -> rule spelling -> the native tagger's parse: what the C
# entry in front of that class's parse function runs (``fast_entry``);
# only native matchers go in, since a regex's match needs its reader.
_entry_tables: dict[tuple[type[Components], bool], dict[str, Callable[[str], Any]]] = {}


def _clear_entry_tables() -> None:
    for table in _entry_tables.values():
        table.clear()


forget_on_switch(clear=_clear_entry_tables)


def _text(text: object) -> str:
    if not isinstance(text, str):
        msg = f"text must be str, not {type(text).__name__}"
        raise TypeError(msg)
    return text


def _engine(engine: str) -> None:
    if engine not in ("compiled", "abnf"):
        msg = f"engine must be 'compiled' or 'abnf', not {engine!r}"
        raise URIError(msg)


def _screened(read: _Read, dialect: Dialect, name: str) -> _Read:
    """``read``, refusing what the dialect forbids beyond its grammar (RFC
    3987 section 4.1's bidi formatting characters) with ``URISyntaxError``."""
    forbidden = dialect.forbidden

    def screened(match: re.Match[str]) -> Any:
        offset = forbidden(match.string)
        if offset >= 0:
            raise bidi_error(name, match.string, offset)
        return read(match)

    return screened


def _screened_native(
    parse: Callable[[str], Any], dialect: Dialect, name: str
) -> Callable[[str], Any]:
    """``parse`` (the native tagger's), refusing what ``_screened`` refuses."""
    forbidden = dialect.forbidden

    def screened(text: str) -> Any:
        found = parse(text)
        if found is not None:
            offset = forbidden(text)
            if offset >= 0:
                raise bidi_error(name, text, offset)
        return found

    return screened


def _parser(name: str, cls: type[Components] = Components, *, screen: bool = True) -> _Fast:
    """The matcher and reader of rule ``name`` for ``cls``: with the native
    engine, the rule's tagged DFA run in C (``engine._tagged``), whose
    result is the fields in order; else the regex and its generated reader.
    Both read the same captures with the same plan (``_visitor``)."""
    native = native_active()
    key = (cls, name, screen, native)
    if key not in _parsers:
        dialect = cls.dialect
        grammar = dialect.grammar
        compiled = grammar.compiled(name, CAPTURES, LEAVES)
        screens = screen and dialect.forbidden("\u200e") >= 0
        parse = None
        if native:
            tables = grammar.tagged(name, CAPTURES, LEAVES)
            parse = native_parser(tables, plan(compiled.groups), cls)
        found: _Fast
        if parse is not None:
            if screens:
                parse = _screened_native(parse, dialect, name)
            found = (parse, None)  # the tagger makes the cls itself
        else:
            read = reader(compiled.groups, cls)
            if screens:
                read = _screened(read, dialect, name)
            found = (compiled.pattern.fullmatch, read)
        _parsers[key] = found
    return _parsers[key]


def _validate(rule: str, text: str, *, engine: Engine = "compiled") -> bool:
    """Whether all of ``text`` matches the rule named ``rule``: a rule of
    any shipped grammar (RFC 3986, RFC 3987, ...; see ``_grammars``) or an
    RFC 5234 core rule.  Rule names are case-insensitive (RFC 5234 section
    2.1)."""
    if engine == "compiled":
        # The hot path; a rule spelling not seen yet (KeyError) or a text
        # that is no str (TypeError) takes the checked way below.
        try:
            return _fast_validate[rule](text) is not None
        except (KeyError, TypeError):
            pass
    grammar, name = shipped_rule(rule)
    text = _text(text)
    _engine(engine)
    if engine == "compiled" and grammar.is_regular(name):
        matcher = grammar.matcher(name)
        if len(_fast_validate) < _FAST_ENTRIES:
            _fast_validate[rule] = matcher
        return matcher(text) is not None
    return grammar.abnf_parse(name, text) is not None


# help(urigrammar.validate) and pickle see this name (pickle: this module's
# attribute ``validate``).
_validate.__name__ = _validate.__qualname__ = "validate"
# With the extension, a C entry runs validate's hot path (a known rule
# spelling and a str) without a Python frame, and calls _validate for
# everything else: one Python function decides every other case.
validate = fast_entry(_fast_validate, _validate)


def check(rule: str, text: str, *, engine: Engine = "compiled") -> None:
    """Raise ``URISyntaxError`` unless ``text`` matches ``rule``.  The error's
    offset is the end of the longest prefix of ``text`` that some string
    matching the rule starts with."""
    # The Python function itself: a keyword argument would send the C
    # entry to it anyway, after packing the call.
    if not _validate(rule, text, engine=engine):
        grammar, name = shipped_rule(rule)
        raise grammar.syntax_error(name, text)


def parser_for(cls: type[RefT], *, screen: bool = True) -> Parser[RefT]:
    """The parse function that builds ``cls``: the components of ``text``
    (RFC 3986 section 4.1) under ``rule``, one of the class's parse rules
    (``cls.dialect.parse_rules``: ``PARSE_RULES`` for URIs); raises
    ``URISyntaxError`` for text the rule rejects, and, unless ``screen`` is
    false, for text the dialect forbids beyond its grammar (RFC 3987
    section 4.1).  One function per class, made on first use."""
    made = _made.get((cls, screen))
    if made is None:
        made = _made.setdefault((cls, screen), _new_parser(cls, screen))
    # _made maps each class to the parser built for it.
    return cast("Parser[RefT]", made)


def parse_as(
    cls: type[RefT], text: str, rule: str | None = None, *, engine: Engine = "compiled"
) -> RefT:
    """``text`` parsed into a ``cls`` (``parser_for(cls)``, called once),
    by default as the class's reference rule (URI-reference, IRI-reference)."""
    return parser_for(cls)(text, rule or cls.dialect.parse_rules[0], engine=engine)


_made: dict[tuple[type[Components], bool], Parser[Components]] = {}


def _new_parser(cls: type[RefT], screen: bool) -> Parser[RefT]:
    fast = _fast_parse.setdefault((cls, screen), {})
    default = cls.dialect.parse_rules[0]  # URI-reference, IRI-reference

    def parse(text: str, rule: str = default, *, engine: Engine = "compiled") -> RefT:
        if engine == "compiled":
            # The hot path; a rule spelling not seen yet (KeyError) or a text
            # that is no str (TypeError) takes the checked way below.
            try:
                fullmatch, read = fast[rule]
                match = fullmatch(text)
            except (KeyError, TypeError):
                pass
            else:
                if match is not None:
                    result: RefT = match if read is None else read(match)
                    return result
        return _parse_checked(cls, fast, text, rule, engine, screen)

    # help(urigrammar.parse) shows these: the function is made here, once per class.
    parse.__qualname__ = "parse"
    # pickle finds a function by module and name: the class's module binds
    # its parse function as ``parse`` (urigrammar.uri._reference).
    parse.__module__ = cls.__module__
    parse.__doc__ = (
        f"A ``{cls.__name__}``: the components of ``text`` (RFC 3986 section 4.1); "
        f"``rule`` is one of\n{', '.join(cls.dialect.parse_rules)}.  Raises "
        "``URISyntaxError`` for text the rule rejects."
    )
    # With the extension, a C entry runs the hot path (a text, and a rule
    # spelling seen before whose matcher is the native tagger) without a
    # Python frame, and calls this function for everything else.
    return fast_entry(_entry_tables.setdefault((cls, screen), {}), parse, default)


def _parse_checked(
    cls: type[RefT], fast: dict[str, _Fast], text: str, rule: str, engine: str, screen: bool
) -> RefT:
    """``parse`` off the hot path: first use of a rule spelling, another
    engine, wrong types, and text that does not match."""
    dialect = cls.dialect
    grammar = dialect.grammar
    name = grammar.canonical(rule)
    text = _text(text)
    _engine(engine)
    if name not in dialect.parse_rules:
        msg = f"parse() takes a rule among {', '.join(dialect.parse_rules)}, not {rule!r}"
        raise URIError(msg, rule=name)
    if engine == "abnf":
        tree = grammar.abnf_parse(name, text)
        if tree is None:
            raise grammar.syntax_error(name, text)
        offset = dialect.forbidden(text) if screen else -1
        if offset >= 0:
            raise bidi_error(name, text, offset)
        found: RefT = to_reference(tree, cls)  # type: ignore[assignment]
        return found
    fullmatch, read = _parser(name, cls, screen=screen)
    if len(fast) < _FAST_ENTRIES:
        fast[rule] = (fullmatch, read)
        if read is None:  # the tagger's parse: the C entry may run it
            _entry_tables.setdefault((cls, screen), {})[rule] = fullmatch
    match = fullmatch(text)
    if match is None:
        raise grammar.syntax_error(name, text)
    result: RefT = match if read is None else read(match)
    return result


def parse_tree(rule: str, text: str) -> TreeNode:
    """``abnf``'s full derivation tree of ``text`` under ``rule`` (of any
    shipped grammar): a node for every rule applied, down to single
    characters.  Limited to ``ABNF_MAX_LENGTH`` characters."""
    grammar, name = shipped_rule(rule)
    tree = grammar.abnf_parse(name, _text(text))
    if tree is None:
        raise grammar.syntax_error(name, text)
    result: TreeNode = tree
    return result
