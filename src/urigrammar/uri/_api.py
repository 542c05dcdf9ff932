"""``validate``, ``check``, parsing and ``parse_tree``: text in, verdicts,
errors and references out, on a back end.

An ``Api`` holds these functions for one back end (``engine.Backend``):
``api(backend)`` makes it once, and the module-level ``validate``,
``check``, ``parser_for`` and ``parse_as`` are the default back end's.
Parsing builds a class it is given (a ``Components`` subclass):
``Api.parser_for(cls)`` makes the parse function for one class, and
``parse_as(cls, ...)`` parses once.  ``_reference`` makes the public
``parse`` as ``parser_for(URIReference)``, so this module, below the
model's top class, never names it.

Every rule of RFC 3986 is regular, the core rules CRLF and LWSP included,
so each runs as the engine chooses (``engine.Runs``).  The
``abnf`` engine's time and memory grow quadratically with the input, so
it refuses texts longer than ``ABNF_MAX_LENGTH`` characters with
``InputTooLongError`` rather than spend minutes and gigabytes.

Caches: the grammars keep their programs, and the engine what runs them
(``engine.runs``).  Here, one table per function: the spellings
of rule names seen (``"URI"``, ``"uri"``) and what serves them, up to
``_FAST_ENTRIES``, for the C entry's hot path.  Nothing is cached per
input.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, cast

from .._errors import URIError
from ..engine import Backend, default_backend, front, is_record_class, text_of
from ..shipped import shipped_rule
from ._components import FIELDS, Components, RefT
from ._dialect import URI, Dialect, bidi_error
from ._visitor import CAPTURES, LEAVES, plan, to_reference

__all__ = [
    "PARSE_RULES",
    "TEXT",
    "Api",
    "Method",
    "TreeNode",
    "api",
    "check",
    "default_api",
    "host_lookup",
    "normalizer",
    "parse_as",
    "parse_tree",
    "parser_for",
    "resolve_annotations",
    "text_front",
    "validate",
]

Method = Literal["automata", "abnf"]

_FAST_ENTRIES = 256

#: The key of a ``text_front`` table: the function of one text.
TEXT = "text"

F = TypeVar("F", bound=Callable[..., Any])

#: The rules ``parse`` accepts (RFC 3986 sections 4.1 to 4.3).
PARSE_RULES = URI.parse_rules


class TreeNode(Protocol):
    """A node of a parse tree: the rule's name, its text and its children.

    >>> import urigrammar
    >>> node = urigrammar.parse_tree("authority", "example.com:80")
    >>> [(child.name, child.value) for child in node.children]
    [('host', 'example.com'), ('literal', ':'), ('port', '80')]
    """

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    @property
    def children(self) -> list[Any]: ...


if TYPE_CHECKING:
    from ..engine import NormalizeUri

    # Types the checker alone reads: a Protocol made at run time costs a
    # first parse fifty Python calls, and nothing tests against these.
    RefT_co = TypeVar("RefT_co", bound=Components, covariant=True)

    class Parser(Protocol[RefT_co]):
        """What ``parser_for(cls)`` returns: ``parse`` for one class."""

        def __call__(
            self, text: str, rule: str = "URI-reference", *, method: Method = "automata"
        ) -> RefT_co: ...

    class Validator(Protocol):
        """What ``Api.validate`` is: ``validate`` on one back end."""

        def __call__(self, rule: str, text: str, *, method: Method = "automata") -> bool: ...


# A rule's parse for one class: the class made from the text, or None
# exactly when the rule does not match it (the native tagger's parse, or
# the regex's fullmatch and the generated walk of its groups in one call).
_Fast = Callable[[str], Any]


def _method(method: str) -> None:
    if method not in ("automata", "abnf"):
        msg = f"method must be 'automata' or 'abnf', not {method!r}"
        raise URIError(msg)


def _screened(parse: _Fast, dialect: Dialect, name: str) -> _Fast:
    """``parse``, refusing what the dialect forbids beyond its grammar (RFC
    3987 section 4.1's bidi formatting characters) with ``URISyntaxError``."""
    forbidden = dialect.forbidden

    def screened(text: str) -> Any:
        found = parse(text)
        if found is not None:
            offset = forbidden(text)
            if offset >= 0:
                raise bidi_error(name, text, offset)
        return found

    return screened


def resolve_annotations(function: Callable[..., Any]) -> None:
    """Replace ``function``'s annotations, names under ``from __future__
    import annotations``, with the objects they name, so that help() and
    ``inspect.signature`` show ``str`` and ``Literal['compiled', 'abnf']``
    rather than ``'str'`` and ``'Method'``, as for ``parse``.  Each is one
    name of the function's module or a builtin (``typing.get_type_hints``
    would read any expression, at a first call's cost of a hundred Python
    calls)."""
    names = function.__globals__
    function.__annotations__ = {
        key: names[value] if value in names else getattr(builtins, value)
        for key, value in function.__annotations__.items()
    }


class _ParseTable:
    """One parse function's table: rule spelling -> that rule's parse
    (``_Fast``), which the Python function and the C entry both run."""

    def __init__(self) -> None:
        self.fast: dict[str, _Fast] = {}

    def remember(self, rule: str, found: _Fast) -> None:
        if len(self.fast) < _FAST_ENTRIES:
            self.fast[rule] = found


class Api:
    """``validate``, ``check`` and the parse functions, on one back end."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._validate_table: dict[str, Callable[[str], object | None]] = {}
        self._parsers: dict[tuple[type[Components], bool], Parser[Components]] = {}
        # Each class's parse function, screening, keyed by the class alone:
        # parse_as's usual call, from the library's own operations.
        self._screened: dict[type[Components], Parser[Components]] = {}
        self.validate = front(backend, self._validate_table, self._new_validate())

    def __repr__(self) -> str:
        return f"<urigrammar Api on {self.backend.name}>"

    @functools.cached_property
    def normalize_uri(self) -> NormalizeUri | None:
        """RFC 3986's normalization of a record's text in C, or ``None``
        where it runs in Python (uri._normalize).  Looked up on first use:
        a first parse imports nothing it does not need."""
        # Imported here, on the first normalize, for that reason.
        from ..engine import uri_normalizer

        return uri_normalizer(self.backend)

    def c_parse(self, cls: type[RefT]) -> Callable[[str], RefT | None] | None:
        """On the native back end, the C parse of ``cls``'s reference rule
        (URI-reference, IRI-reference), ``None`` for a text it does not
        match: what C's normalizers parse with (``engine.text_normalizer``).
        ``None`` on the pure back end, and for a class of Python records
        (``URIGRAMMAR_PURE`` set beside the extension), which C cannot make."""
        if not self.backend.native or not is_record_class(cls):
            return None
        made: Callable[[str], RefT | None] = self._matcher(cls.dialect.parse_rules[0], cls, True)
        return made

    def host_lookup(self, cls: type[Components], table: dict[str, Any]) -> _Fast | None:
        """On the native back end, a C function from a text to
        ``table[text]``, else ``table[host]`` for the host of ``cls``'s
        parse of it, else ``None`` (``engine.host_lookup``); ``None`` where
        ``c_parse`` is (the pure back end, Python records)."""
        # Imported here, on first use: a first parse imports nothing it
        # does not need.
        from ..engine import host_lookup

        parse = self.c_parse(cls)
        if parse is None:
            return None
        return host_lookup(self.backend, parse, FIELDS.index("host"), table)

    def text_front(self, table: dict[Any, Any], *, by_identity: bool = False) -> Callable[[F], F]:
        """A decorator: the function with a C front on the native back end
        that, called with one ``str`` alone, returns what ``table[TEXT]``
        returns for it unless that is ``None`` or absent, when the function
        answers; the function fills the table (``engine.front``).  With
        ``by_identity``, called with a ``str`` and an options value (or the
        ``str`` alone: ``None``), what the function of ``table[id(options)]``,
        a pair ``(options, function)``, returns."""

        def fronted(function: F) -> F:
            return front(
                self.backend,
                table,
                function,
                TEXT,
                text_only=not by_identity,
                by_identity=by_identity,
            )

        return fronted

    def __reduce__(self) -> tuple[object, tuple[Backend]]:
        # One Api per back end: its bound methods (check, parser_for) pickle.
        return api, (self.backend,)

    def _new_validate(self) -> Validator:
        table = self._validate_table
        backend = self.backend

        def validate(rule: str, text: str, *, method: Method = "automata") -> bool:
            """Whether all of ``text`` matches the rule named ``rule``: a rule
            of any shipped grammar (RFC 3986, RFC 3987, RFC 6570; see
            ``urigrammar.shipped``) or an RFC 5234 core rule, exactly as the
            ABNF says: a rule name means that rule's grammar and nothing
            more, so ``validate("IRI", ...)`` accepts RFC 3987 section 4.1's
            bidi formatting characters, which ``parse_iri`` and the JSON
            Schema ``iri`` formats refuse.  Rule names are
            case-insensitive (RFC 5234 section 2.1).

            >>> import urigrammar
            >>> urigrammar.validate("URI", "http://example.com"), urigrammar.validate("uri", "//a")
            (True, False)
            """
            if method == "automata":
                # The hot path; a rule spelling not seen yet (KeyError) or a
                # text that is no str (TypeError) takes the checked way below.
                try:
                    return table[rule](text) is not None
                except (KeyError, TypeError):
                    pass
            grammar, name = shipped_rule(rule)
            text = text_of(text)
            _method(method)
            if method == "automata":
                matcher = grammar.matcher(name, backend=backend)
                if len(table) < _FAST_ENTRIES:
                    table[rule] = matcher
                return matcher(text) is not None
            return grammar.abnf_parse(name, text) is not None

        # help() and pickle see this name (pickle: this module's ``validate``).
        validate.__module__ = __name__
        validate.__qualname__ = "validate"
        resolve_annotations(validate)
        return validate

    def check(self, rule: str, text: str, *, method: Method = "automata") -> None:
        """Raise ``URISyntaxError`` unless ``text`` matches ``rule``.  The
        error's offset is the end of the longest prefix of ``text`` that
        some string matching the rule starts with."""
        if not self.validate(rule, text, method=method):
            grammar, name = shipped_rule(rule)
            raise grammar.syntax_error(name, text)

    def parser_for(self, cls: type[RefT], *, screen: bool = True) -> Parser[RefT]:
        """The parse function that builds ``cls``: the components of
        ``text`` (RFC 3986 section 4.1) under ``rule``, one of the class's
        parse rules (``cls.dialect.parse_rules``: ``PARSE_RULES`` for
        URIs); raises ``URISyntaxError`` for text the rule rejects, and,
        unless ``screen`` is false, for text the dialect forbids beyond its
        grammar (RFC 3987 section 4.1).  One function per class."""
        made = self._parsers.get((cls, screen))
        if made is None:
            made = self._parsers.setdefault((cls, screen), self._new_parser(cls, screen))
        return cast("Parser[RefT]", made)

    def parse_as(
        self, cls: type[RefT], text: str, rule: str | None = None, *, method: Method = "automata"
    ) -> RefT:
        """``text`` parsed into a ``cls`` (``parser_for(cls)``, called once),
        by default as the class's reference rule (URI-reference, IRI-reference)."""
        if rule is None and method == "automata":
            # The text alone: the C entry runs that call itself, where a
            # keyword would take the Python function.
            parse = self._screened.get(cls)
            if parse is None:
                parse = self._screened.setdefault(cls, self.parser_for(cls))
            return cast("RefT", parse(text))
        return self.parser_for(cls)(text, rule or cls.dialect.parse_rules[0], method=method)

    def _new_parser(self, cls: type[RefT], screen: bool) -> Parser[RefT]:
        table = _ParseTable()
        fast = table.fast
        default = cls.dialect.parse_rules[0]  # URI-reference, IRI-reference

        def parse(text: str, rule: str = default, *, method: Method = "automata") -> RefT:
            if method == "automata":
                # The hot path; a rule spelling not seen yet (KeyError) or a
                # text that is no str (TypeError) takes the checked way below.
                try:
                    found: RefT | None = fast[rule](text)
                except (KeyError, TypeError):
                    pass
                else:
                    if found is not None:
                        return found
            return self._parse_checked(cls, table, text, rule, method, screen)

        # help(urigrammar.parse) shows these: the function is made here, once per class.
        parse.__qualname__ = parse.__name__ = "parse"
        # pickle finds a function by module and name: the class's module binds
        # its parse function as ``parse`` (urigrammar.uri._reference).
        parse.__module__ = cls.__module__
        parse.__doc__ = (
            f"A ``{cls.__name__}``: the components of ``text`` (RFC 3986 section 4.1); "
            f"``rule`` is one of\n{', '.join(cls.dialect.parse_rules)}.  Raises "
            "``URISyntaxError`` for text the rule rejects."
        )
        # The objects themselves, not their names: this module's globals,
        # where typing.get_type_hints would look names up, hold no ``cls``.
        parse.__annotations__ = {"text": str, "rule": str, "method": Method, "return": cls}
        # On the native back end a C entry runs the hot path (a text, and a
        # rule spelling seen before whose matcher is the native tagger)
        # without a Python frame, and calls this function for everything else.
        return front(self.backend, table.fast, parse, default)

    def _parse_checked(
        self,
        cls: type[RefT],
        table: _ParseTable,
        text: str,
        rule: str,
        method: str,
        screen: bool,
    ) -> RefT:
        """``parse`` off the hot path: first use of a rule spelling, the
        abnf engine, wrong types, and text that does not match."""
        dialect = cls.dialect
        grammar = dialect.grammar
        name = grammar.canonical(rule)
        text = text_of(text)
        _method(method)
        if name not in dialect.parse_rules:
            msg = f"parse() takes a rule among {', '.join(dialect.parse_rules)}, not {rule!r}"
            raise URIError(msg, rule=name)
        if method == "abnf":
            tree = grammar.abnf_parse(name, text)
            if tree is None:
                raise grammar.syntax_error(name, text)
            offset = dialect.forbidden(text) if screen else -1
            if offset >= 0:
                raise bidi_error(name, text, offset)
            found: RefT = to_reference(tree, cls)  # type: ignore[assignment]
            return found
        parse = self._matcher(name, cls, screen)
        table.remember(rule, parse)
        result: RefT | None = parse(text)
        if result is None:
            raise grammar.syntax_error(name, text)
        return result

    def _matcher(self, name: str, cls: type[Components], screen: bool) -> _Fast:
        """The parse of rule ``name`` for ``cls``: the engine's reader of
        the captures the visitor reads (``_visitor.plan``), which makes the
        class itself (in C on the native back end), screened for what the
        dialect forbids beyond its grammar."""
        dialect = cls.dialect
        runs = dialect.grammar.runs(name, CAPTURES, LEAVES, backend=self.backend)
        made: _Fast = runs.reader(plan(runs.program.names), cls)
        screens = screen and dialect.forbidden("\u200e") >= 0
        return _screened(made, dialect, name) if screens else made


_APIS: dict[str, Api] = {}


def api(backend: Backend | None = None) -> Api:
    """The functions on ``backend`` (the default back end when ``None``),
    made once per back end."""
    chosen = backend or default_backend()
    found = _APIS.get(chosen.name)
    if found is None:
        found = _APIS.setdefault(chosen.name, Api(chosen))
    return found


_DEFAULT = api()

#: ``Api.validate`` on the default back end.
validate = _DEFAULT.validate


def check(rule: str, text: str, *, method: Method = "automata") -> None:
    """``Api.check`` on the default back end: raise ``URISyntaxError``
    unless ``text`` matches ``rule``; the error's offset is the end of the
    longest prefix of ``text`` that some string matching the rule starts with.

    >>> import urigrammar
    >>> urigrammar.check("URI", "http://example.com")
    >>> try: urigrammar.check("URI", "http://exa mple.com")
    ... except urigrammar.URISyntaxError as error: print(error.rule, error.offset)
    URI 10
    """
    _DEFAULT.check(rule, text, method=method)


def parser_for(cls: type[RefT], *, screen: bool = True) -> Parser[RefT]:
    """``Api.parser_for`` on the default back end."""
    return _DEFAULT.parser_for(cls, screen=screen)


def normalizer() -> NormalizeUri | None:
    """``Api.normalize_uri`` on the default back end."""
    return _DEFAULT.normalize_uri


def text_front(table: dict[Any, Any], *, by_identity: bool = False) -> Callable[[F], F]:
    """``Api.text_front`` on the default back end."""
    return _DEFAULT.text_front(table, by_identity=by_identity)


def host_lookup(cls: type[Components], table: dict[str, Any]) -> _Fast | None:
    """``Api.host_lookup`` on the default back end."""
    return _DEFAULT.host_lookup(cls, table)


def default_api() -> Api:
    """The functions on the default back end."""
    return _DEFAULT


def parse_as(
    cls: type[RefT], text: str, rule: str | None = None, *, method: Method = "automata"
) -> RefT:
    """``Api.parse_as`` on the default back end."""
    return _DEFAULT.parse_as(cls, text, rule, method=method)


def parse_tree(rule: str, text: str) -> TreeNode:
    """``abnf``'s full derivation tree of ``text`` under ``rule`` (of any
    shipped grammar): a node for every rule applied, down to single
    characters.  Limited to ``ABNF_MAX_LENGTH`` characters.

    >>> import urigrammar
    >>> tree = urigrammar.parse_tree("scheme", "ab")
    >>> tree.name, tree.value, [child.name for child in tree.children]
    ('scheme', 'ab', ['ALPHA', 'ALPHA'])
    """
    grammar, name = shipped_rule(rule)
    tree = grammar.abnf_parse(name, text_of(text))
    if tree is None:
        raise grammar.syntax_error(name, text)
    result: TreeNode = tree
    return result
