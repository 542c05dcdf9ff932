"""Compile the shipped grammars ahead of time, as ``compileall`` does for
``.py`` files: ``python -m urigrammar._precompute DIRECTORY``.

The wheel's build hook (``hatch_build.py``) runs this, and the wheel
carries what it writes as ``urigrammar/compiled/<grammar file>.json``
(``engine.program.artifact``: data only, headed by the sha256 of the grammar
texts), and the scheme profiles' one-DFA verdicts as
``urigrammar/compiled/combinations.json`` (``engine.combined``: keyed
by the sha256 of the grammar texts of each combination's rules).  Which
programs and combinations: every rule of every shipped grammar as
``validate`` runs it, and whatever a first use of ``parse``,
``parse_iri``, the templates, percent-encoding and the scheme profiles
compile or combine, found by making those calls here rather than by
listing them a second time.
"""

from __future__ import annotations

import contextlib
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from . import (
    SCHEMES,
    RuleMatchError,
    URITemplate,
    parse,
    parse_iri,
    percent_encode,
)
from .engine import PURE, combination, encode_combinations, recording, sharing
from .shipped import COMBINATIONS, COMPILED, FILES, grammar_path
from .uri._columns import parse_plan
from .uri._dialect import IRI, URI
from .uri._encode import encode_rules

__all__ = ["main", "precompute"]

#: The file of the combinations, beside the grammars' (``COMBINATIONS``).
_COMBINATIONS_FILE = Path(COMBINATIONS.path).name


def _first_uses() -> None:
    """What a process's first calls compile, beyond ``validate``."""
    for rule in URI.parse_rules:
        parse("http://example.com/" if "relative" not in rule else "/a", rule)
    for rule in IRI.parse_rules:
        parse_iri("http://example.com/" if "relative" not in rule else "/a", rule)
    template = URITemplate("http://example.com{/path*}{?q,r}{#f}{+x}{.y}{;z}{&w}")
    template.expand(path=["a", "b"], q="1", f="g", x="/x", y="y", z="z", w="w")
    template.match("http://example.com/a?q=1")
    for rule in encode_rules():
        percent_encode("a b", rule)
    # host_array and the suffix functions parse with a program that
    # captures the host alone (component_array's other fields compile on
    # first use: each program would add a sixth to the IRI grammar's file).
    parse_plan("IRI-reference", PURE, ("host",))
    for scheme in SCHEMES:
        profile = SCHEMES[scheme]
        profile.validate(f"{scheme}:")  # its rule's matcher and parse programs
        with contextlib.suppress(RuleMatchError):
            profile.grammar.parse(profile.rule, "", captures=profile.captures)


def _halves() -> tuple[list[str], list[str]]:
    """The shipped grammar files in two halves of about equal text, the
    largest first: compiling takes time in proportion to a grammar's text."""
    sizes = {file_name: len(grammar.text()) for grammar, file_name in FILES}
    halves: tuple[list[str], list[str]] = ([], [])
    totals = [0, 0]
    for name in sorted(sizes, key=sizes.__getitem__, reverse=True):
        smaller = totals.index(min(totals))
        halves[smaller].append(name)
        totals[smaller] += sizes[name]
    return halves


def _write(directory: Path, file_names: list[str]) -> list[Path]:
    """Compile the grammars of ``file_names`` (every rule, then the first
    uses, which add the programs that parsing takes) and write each one's
    artifact into ``directory``."""
    chosen = [(grammar, name) for grammar, name in FILES if name in file_names]
    # The grammars import one another's rules: each body compiled once.
    with sharing():
        for grammar, _ in chosen:
            for rule in grammar.all_names:
                grammar.program(rule)
        _first_uses()
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for grammar, file_name in chosen:
        path = directory / f"{file_name}.json"
        path.write_bytes(grammar.artifact())
        written.append(path)
    return written


def precompute(directory: Path) -> list[Path]:
    """Write every shipped grammar's compiled form into ``directory``: half
    the grammars in a second process, the other half and the combinations
    here, so that a build takes both cores of a small machine."""
    mine, theirs = _halves()
    with ProcessPoolExecutor(max_workers=1) as pool:
        other = pool.submit(_write, directory, theirs)
        written = _write(directory, mine)
        with recording() as combinations:
            _first_uses()
            # Built here whatever back end runs this (the wheel's hook runs
            # the pure one, which makes no verdict DFA of its own).
            for scheme in SCHEMES:
                profile = SCHEMES[scheme]
                for parts in (profile.verdict_parts(), profile.sure_parts()):
                    if parts is not None:
                        combination(parts, COMBINATIONS)
        written += other.result()
    # Every shipped profile's one-DFA verdict, as combined above.
    path = directory / _COMBINATIONS_FILE
    path.write_bytes(encode_combinations(combinations))
    written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0] if args else COMPILED)
    for path in precompute(directory):
        source = path.name.removesuffix(".json")
        if path.name != _COMBINATIONS_FILE:
            source = grammar_path(source)
        print(f"{source} -> {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
