"""``validate``, ``check``, ``parse`` and ``parse_tree``: text in, verdicts,
errors and references out, through either engine.

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
from typing import Any, Literal, Protocol

from .._errors import URIError, URISyntaxError
from ..engine import ABNF_MAX_LENGTH
from ..engine._compile import CompiledRule
from ._grammars import GRAMMAR
from ._reference import URIReference
from ._visitor import CAPTURES, LEAVES, reader, to_reference

__all__ = [
    "ABNF_MAX_LENGTH",
    "PARSE_RULES",
    "Engine",
    "TreeNode",
    "check",
    "parse",
    "parse_tree",
    "validate",
]

Engine = Literal["compiled", "abnf"]

_FAST_ENTRIES = 256

#: The rules ``parse`` accepts (RFC 3986 sections 4.1 to 4.3).
PARSE_RULES = ("URI-reference", "URI", "absolute-URI", "relative-ref")


class TreeNode(Protocol):
    """A node of a parse tree: the rule's name, its text and its children."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    @property
    def children(self) -> list[Any]: ...


_parsers: dict[str, tuple[CompiledRule, Callable[[re.Match[str]], URIReference]]] = {}
# The hot path: the rule name exactly as callers spell it -> its pattern,
# so a repeated validate("URI-reference", ...) skips name lookup entirely.
_fast_validate: dict[str, Callable[[str], object | None]] = {}
_fast_parse: dict[
    str, tuple[Callable[[str], re.Match[str] | None], Callable[[re.Match[str]], URIReference]]
] = {}


def _text(text: object) -> str:
    if not isinstance(text, str):
        msg = f"text must be str, not {type(text).__name__}"
        raise TypeError(msg)
    return text


def _engine(engine: str) -> None:
    if engine not in ("compiled", "abnf"):
        msg = f"engine must be 'compiled' or 'abnf', not {engine!r}"
        raise URIError(msg)


def _parser(name: str) -> tuple[CompiledRule, Callable[[re.Match[str]], URIReference]]:
    if name not in _parsers:
        compiled = GRAMMAR.compiled(name, CAPTURES, LEAVES)
        _parsers[name] = (compiled, reader(compiled.groups))
    return _parsers[name]


def _abnf_tree(name: str, text: str) -> Any:
    """``abnf``'s tree for ``text``; ``None`` when it does not match."""
    return GRAMMAR.abnf_parse(name, text)


def _syntax_error(name: str, text: str) -> URISyntaxError:
    return GRAMMAR.syntax_error(name, text)


def validate(rule: str, text: str, *, engine: Engine = "compiled") -> bool:
    """Whether all of ``text`` matches the RFC 3986 (or RFC 5234 core) rule
    named ``rule``; rule names are case-insensitive (RFC 5234 section 2.1)."""
    if engine == "compiled":
        # The hot path; a rule spelling not seen yet (KeyError) or a text
        # that is no str (TypeError) takes the checked way below.
        try:
            return _fast_validate[rule](text) is not None
        except (KeyError, TypeError):
            pass
    name = GRAMMAR.canonical(rule)
    text = _text(text)
    _engine(engine)
    if engine == "compiled" and GRAMMAR.is_regular(name):
        matcher = GRAMMAR.matcher(name)
        if len(_fast_validate) < _FAST_ENTRIES:
            _fast_validate[rule] = matcher
        return matcher(text) is not None
    return _abnf_tree(name, text) is not None


def check(rule: str, text: str, *, engine: Engine = "compiled") -> None:
    """Raise ``URISyntaxError`` unless ``text`` matches ``rule``.  The error's
    offset is the end of the longest prefix of ``text`` that some string
    matching the rule starts with."""
    if not validate(rule, text, engine=engine):
        raise _syntax_error(GRAMMAR.canonical(rule), text)


def parse(text: str, rule: str = "URI-reference", *, engine: Engine = "compiled") -> URIReference:
    """The components of ``text`` (RFC 3986 section 4.1); ``rule`` is one of
    ``PARSE_RULES``.  Raises ``URISyntaxError`` for text the rule rejects."""
    if engine == "compiled":
        try:
            fullmatch, read = _fast_parse[rule]
            match = fullmatch(text)
        except (KeyError, TypeError):
            pass
        else:
            if match is not None:
                return read(match)
    name = GRAMMAR.canonical(rule)
    text = _text(text)
    _engine(engine)
    if name not in PARSE_RULES:
        msg = f"parse() takes a rule among {', '.join(PARSE_RULES)}, not {rule!r}"
        raise URIError(msg, rule=name)
    if engine == "abnf":
        tree = _abnf_tree(name, text)
        if tree is None:
            raise _syntax_error(name, text)
        return to_reference(tree)
    compiled, read = _parser(name)
    if len(_fast_parse) < _FAST_ENTRIES:
        _fast_parse[rule] = (compiled.pattern.fullmatch, read)
    match = compiled.pattern.fullmatch(text)
    if match is None:
        raise _syntax_error(name, text)
    return read(match)


def parse_tree(rule: str, text: str) -> TreeNode:
    """``abnf``'s full derivation tree of ``text`` under ``rule``: a node for
    every rule applied, down to single characters.  Limited to
    ``ABNF_MAX_LENGTH`` characters."""
    name = GRAMMAR.canonical(rule)
    tree = _abnf_tree(name, _text(text))
    if tree is None:
        raise _syntax_error(name, text)
    result: TreeNode = tree
    return result
