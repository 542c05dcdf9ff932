"""The grammars urigrammar ships, as ``Grammar`` objects of the engine,
and the lookup of a rule name across all of them.

``grammar/rfc3986.abnf`` holds RFC 3986 Appendix A verbatim,
``grammar/rfc3987.abnf`` RFC 3987 section 2.2 and ``grammar/rfc6570.abnf``
RFC 6570 section 2 (with ``grammar/rfc6570-errata.abnf``, the overlay that
applies erratum 6937).  Each is package data in a wheel
(``urigrammar/grammar/<file>``); a source checkout without an install falls back
to the file at the top of the repository.

Each grammar's rules and programs are compiled when the wheel is built
(``hatch_build.py`` runs ``python -m urigrammar.shipped``) into
``urigrammar/compiled/<file>.json``.  At first use the grammar reads that
file, and ``abnf`` never reads the grammar, when its header names the
sha256 of the grammar texts found now (``engine.program.artifact``); otherwise
(an edited grammar, a damaged file, a source checkout) it is compiled
from the text, and the grammar file stays the only source.  Nothing is
read at import.

``SHIPPED`` orders the grammars for lookup by rule name (``shipped_rule``):
a name is the first grammar's that defines it.  RFC 3987 restates some of
RFC 3986's rules (``scheme``, ``port``, ``IPv6address``, ...); those names
are RFC 3986's, and the tests check that each restated rule has the same
language in both files, so the order decides nothing a caller can see.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .._errors import UnknownRuleError, URISyntaxError
from ..engine import Grammar, PackageStore, Reporting, later
from ._secrets import userinfo_secret

if TYPE_CHECKING:
    from . import _hints
else:
    # Imported at the first syntax error: a text that matches needs no hint.
    _hints = later(globals(), "._hints")

__all__ = [
    "COMBINATIONS",
    "COMPILED",
    "GRAMMAR",
    "RFC3986",
    "RFC3987",
    "RFC6570",
    "RFC6570_PUBLISHED",
    "SHIPPED",
    "URI_FILES",
    "grammar_path",
    "grammar_text",
    "shipped",
    "shipped_names",
    "shipped_rule",
]

# Paths as strings, by os.path: a process that reads URIs never imports
# pathlib (a first parse costs a tenth less for it).
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: Where the wheel keeps each grammar's compiled form.
COMPILED = os.path.join(_PACKAGE, "compiled")

#: Where the grammar files are: package data in a wheel
#: (``urigrammar/grammar``); in an editable install or a bare checkout, the
#: folder at the top of the repository, where they are committed (and from
#: which the wheel copies them).
_GRAMMARS = os.path.join(_PACKAGE, "grammar")
if not os.path.isdir(_GRAMMARS):
    _GRAMMARS = os.path.join(os.path.dirname(os.path.dirname(_PACKAGE)), "grammar")

#: The minimal DFAs of the combinations of rules the shipped scheme
#: profiles validate with (``engine.combined``), built with the wheel.
COMBINATIONS = PackageStore(os.path.join(COMPILED, "combinations.json"))


#: How the URI family's grammars report a text that does not match: a
#: ``URISyntaxError``, its password masked; RFC 3986's with a hint where
#: the fix of a syntax error is known.
_REPORTING = Reporting(URISyntaxError, userinfo_secret)


def _uri_hint(rule: str, text: str, offset: int) -> str | None:
    return _hints.uri_hint(rule, text, offset)


_HINTED = Reporting(URISyntaxError, userinfo_secret, _uri_hint)


def grammar_path(file_name: str) -> str:
    """Where a shipped grammar file is: package data, or the source tree."""
    return os.path.join(_GRAMMARS, file_name)


def grammar_text(file_name: str = "rfc3986.abnf") -> str:
    """The text of a shipped grammar file."""
    with open(grammar_path(file_name), encoding="utf-8") as file:
        return file.read()


def shipped(
    file_name: str,
    name: str,
    *imports: Grammar,
    hints: bool = False,
    erratum: str | None = None,
) -> Grammar:
    """The shipped grammar of ``file_name``: read lazily, from its compiled
    form when that matches the file (``PackageStore``).  ``erratum`` names
    a file read after it, as one grammar: the correction of a rule whose
    published text the ABNF reader cannot read at all (so the published
    file keeps it as a comment, and cannot load alone to be overlaid)."""

    files: tuple[str, ...] = (grammar_path(file_name),)
    if erratum is not None:
        files += (grammar_path(erratum),)
    return Grammar(
        files,
        name=name,
        imports=imports,
        lazy=True,
        vetted=True,
        store=PackageStore(os.path.join(COMPILED, f"{file_name}.json")),
        reporting=_HINTED if hints else _REPORTING,
    )


#: RFC 3986 Appendix A.  Vetted: its regexes backtrack only at bounded
#: choices outside repetitions (host, IPv6address, dec-octet), and
#: bench/bench_length.py and the tests time every shape of long input.
RFC3986 = shipped("rfc3986.abnf", "RFC 3986", hints=True)

#: The grammar the URI model (parse, build, encode, ...) works from.
GRAMMAR = RFC3986

#: RFC 3987 section 2.2.  Vetted like RFC 3986: the same shapes of regex,
#: over wider classes (bench/bench_length.py times its long inputs).
RFC3987 = shipped("rfc3987.abnf", "RFC 3987")

#: RFC 6570 section 2 as published.  Its literals take ucschar and iprivate
#: from RFC 3987 and pct-encoded (and the sets the expansion reads:
#: unreserved, reserved) from RFC 3986.  Vetted: every rule is LL(1), its
#: regexes never backtrack (the tests check ``deterministic``).
RFC6570_PUBLISHED = shipped("rfc6570.abnf", "RFC 6570 (as published)", RFC3986, RFC3987)

#: RFC 6570 with erratum 6937 (the apostrophe in literals): the overlay
#: file defines only the corrected ``literals`` and imports the published
#: grammar, which it overrides there.  The grammar urigrammar uses.
RFC6570 = shipped("rfc6570-errata.abnf", "RFC 6570", RFC6570_PUBLISHED)

#: The URI family's grammars and their files, imports before what imports
#: them (``FILES`` in ``shipped`` adds the schemes').
URI_FILES: tuple[tuple[Grammar, str], ...] = (
    (RFC3986, "rfc3986.abnf"),
    (RFC3987, "rfc3987.abnf"),
    (RFC6570_PUBLISHED, "rfc6570.abnf"),
    (RFC6570, "rfc6570-errata.abnf"),
)

#: Every grammar a rule may be named from at the top level, in lookup order.
SHIPPED: tuple[Grammar, ...] = (RFC3986, RFC3987, RFC6570)


def shipped_rule(name: str) -> tuple[Grammar, str]:
    """The shipped grammar that defines rule ``name`` first, and the name
    as that grammar spells it (RFC 5234 section 2.1: names are
    case-insensitive); ``UnknownRuleError`` with close names otherwise."""
    for grammar in SHIPPED:
        found = grammar.find(name)
        if found is not None:
            return grammar, found
    import difflib  # only to suggest names

    known = {spelled.casefold(): spelled for spelled in shipped_names()}
    close = difflib.get_close_matches(name.casefold(), list(known), n=3, cutoff=0.6)
    hint = ", ".join(repr(known[c]) for c in close)
    msg = f"unknown rule {name!r}" + (f"; did you mean {hint}?" if hint else "")
    if userinfo_secret(name) is not None or "//" in name or ":" in name:
        msg += (
            "; it looks like a URI: the rule name comes first, then the text "
            "(validate('URI', text))"
        )
    # The name may be a URI given in the rule's place: its password stays hidden.
    raise UnknownRuleError(msg, rule=name, text=name, secrets=userinfo_secret)


def shipped_names() -> tuple[str, ...]:
    """Every rule name of the shipped grammars: each grammar's own rules in
    ``SHIPPED`` order (a name restated by a later grammar is listed once),
    then the RFC 5234 core rules."""
    seen: dict[str, str] = {}
    for grammar in SHIPPED:
        for spelled in grammar.rule_names:
            seen.setdefault(spelled.casefold(), spelled)
    names = tuple(seen.values())
    return names + SHIPPED[0].core_names
