"""How a user's grammar is loaded: ``load_grammar``, and the per-user
cache of compiled grammars it may keep (``program.store``)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from .._errors import GrammarError
from .base.value import exact
from .grammar import Grammar
from .program.store import CacheStore, cache_dir, clear, problem
from .syntax.limits import MAX_GRAMMAR_LENGTH

__all__ = ["cache_dir", "cache_problem", "clear_cache", "load_grammar"]


def load_grammar(
    source: str | os.PathLike[str],
    *,
    imports: Sequence[Grammar] = (),
    name: str | None = None,
    cache: bool = False,
) -> Grammar:
    """A ``Grammar`` from ABNF (RFC 5234, rules starting in column 0): the
    text itself (a ``str`` holding ``=`` or a line break), or a path to a
    file of it (any other ``str``, or an ``os.PathLike``), read as UTF-8.

    Rules the text uses but does not define come from ``imports``, then
    from RFC 5234's core rules; a rule found nowhere raises
    ``GrammarError`` here, naming the rule and where it is used, and so
    does a rule two imports define differently, naming both (the text
    settles it by defining the rule itself; see ``Grammar``).

    With ``cache=True`` the rules and the programs compiled from them are
    kept in the per-user cache directory (``urigrammar.cache_dir()``) and
    read from there by the next process that loads the same texts, so that
    ``abnf`` reads the grammar once.  Off by default: a library call should
    not write to the user's home unasked; the command line turns it on.

    >>> import urigrammar
    >>> greeting = urigrammar.load_grammar('greeting = "hello" SP 1*ALPHA')
    >>> greeting.validate("greeting", "hello world"), greeting.validate("greeting", "hello")
    (True, False)
    """
    if isinstance(source, str):
        source = exact(source)  # a str subclass: the characters it holds
    if isinstance(source, str) and ("=" in source or "\n" in source):
        text, label = source, name or "<text>"
    elif isinstance(source, str) and not source.strip():
        msg = "load_grammar needs ABNF text or the path of a file of it, not an empty string"
        raise GrammarError(msg)
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = name or str(path)
        try:
            # newline="": the text as written, its line ends included.  One
            # character past the limit is enough for read_rules to refuse it.
            with open(path, encoding="utf-8", newline="") as file:
                text = file.read(MAX_GRAMMAR_LENGTH + 1)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            # A file that is missing, unreadable or not UTF-8 is a grammar
            # that does not load, like one that does not parse.
            msg = f"{label}: cannot read the grammar: {exc}"
            raise GrammarError(msg) from exc
    else:
        msg = f"source must be ABNF text (str) or a path, not {type(source).__name__}"
        raise TypeError(msg)
    for grammar in imports:
        if not isinstance(grammar, Grammar):
            msg = f"imports must be Grammar objects, not {type(grammar).__name__}"
            raise TypeError(msg)
    store: CacheStore | None = None
    if cache:
        # The entry's name is what its content depends on: the texts (its
        # own and its imports'), and the label that the header records.
        digest = hashlib.sha256(repr((label, text, [g.lineage for g in imports])).encode())
        store = CacheStore(cache_dir(), digest.hexdigest())
    return Grammar(text, name=label, imports=imports, store=store)


def clear_cache() -> int:
    """Remove every compiled grammar from the per-user cache
    (``cache_dir()``); how many files.  ``OSError`` when the directory is
    one the cache refuses to use (a symbolic link, another user's, or
    writable by others): it is left alone.

    >>> import urigrammar
    >>> removed = urigrammar.clear_cache()
    >>> print(f"removed {removed} files")
    removed ... files
    """
    return clear(cache_dir())


def cache_problem() -> str | None:
    """Why the per-user cache cannot be used, or ``None`` when it can (it
    is created, mode 0700, when missing).

    >>> import urigrammar
    >>> urigrammar.cache_problem() is None
    True
    """
    return problem(cache_dir())
