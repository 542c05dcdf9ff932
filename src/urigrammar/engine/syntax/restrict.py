"""A grammar restricted to an alphabet: each rule read only over the strings
whose characters all lie in one set of code points.

The restricted rule matches exactly the strings over the alphabet that the
rule matches: every terminal (``Chars``) is intersected with the alphabet,
then whatever can no longer match any string is dropped, by the least fixed
point of productivity (RFC 5234 has no empty alternative to fall back on):
a terminal left empty, a sequence with such an element, an alternative of
an alternation, a rule none of whose alternatives is left; a repetition of
a dropped element that may be empty (``*x``, ``[x]``) matches the empty
string only.  What remains is a grammar again, written out as ABNF.

The point of it: a rule that reaches itself (RFC 5322's nested
``comment``) is not regular, and is matched by the ``abnf`` engine in
quadratic time, on bounded input.  Where every path to the cycle needs a
character outside the alphabet (a DQUOTE, which no URI holds), the
restricted rule no longer reaches the cycle: it is regular, and compiles
to a linear-time matcher like any other.

An alphabet may be given as a set, or as the characters another rule's
language uses (``used``): those of the terminals it reaches, leaving out
what can never take part in a match.  Nothing here knows any grammar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .charset import CharSet
from .ir import Alt, Cap, Chars, Expr, Ref, Rep, Seq

__all__ = ["abnf_text", "restrict", "used"]

#: A rule's expression by folded name, ``None`` for a name with no rule.
Lookup = Callable[[str], Expr | None]


def used(lookup: Lookup, key: str) -> CharSet:
    """The characters that occur in some string the rule ``key`` matches.
    The rules it reaches are taken to be productive (a loaded grammar's
    are); a part that can take no part in a match (``0*0``, a sequence
    with an empty terminal) adds nothing."""
    found: list[CharSet] = []
    seen: set[str] = set()
    todo = [key]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        expr = lookup(name)
        if expr is not None:
            _walk(expr, found, todo)
    out = CharSet()
    for chars in found:
        out = out | chars
    return out


def _walk(expr: Expr, found: list[CharSet], todo: list[str]) -> None:
    if isinstance(expr, Chars):
        found.append(expr.chars)
    elif isinstance(expr, Ref):
        todo.append(expr.name.casefold())
    elif isinstance(expr, Seq):
        if all(not isinstance(item, Chars) or item.chars for item in expr.items):
            for item in expr.items:
                _walk(item, found, todo)
    elif isinstance(expr, Alt):
        for item in expr.items:
            _walk(item, found, todo)
    elif isinstance(expr, Rep):
        if expr.hi != 0:
            _walk(expr.item, found, todo)
    else:
        _walk(expr.expr, found, todo)


def restrict(
    rules: Mapping[str, Expr], core: Mapping[str, Expr], alphabet: CharSet
) -> dict[str, Expr]:
    """``rules`` (by folded name, references into ``rules`` and ``core``)
    restricted to ``alphabet``: the rules that still match some string,
    in their order, each with what can no longer match dropped.  A core
    rule the alphabet leaves whole stays a reference; one it cuts is
    written in place (a grammar cannot redefine a core rule), and one it
    empties drops what uses it."""
    cut_core = {key: _cut(expr, alphabet) for key, expr in core.items()}
    kept_core = {key: expr for key, expr in cut_core.items() if _live(expr, set(), cut_core)}
    cut = {key: _cut(expr, alphabet) for key, expr in rules.items()}
    productive: set[str] = set()
    changed = True
    while changed:  # the least fixed point: rules are few, passes fewer
        changed = False
        for key, expr in cut.items():
            if key not in productive and _live(expr, productive, kept_core):
                productive.add(key)
                changed = True
    whole = {key for key, expr in kept_core.items() if expr == core[key]}
    out: dict[str, Expr] = {}
    for key, expr in cut.items():
        if key in productive:
            pruned = _prune(expr, productive, kept_core, whole)
            assert pruned is not None
            out[key] = pruned
    return out


def _cut(expr: Expr, alphabet: CharSet) -> Expr:
    if isinstance(expr, Chars):
        return Chars(expr.chars & alphabet)
    if isinstance(expr, Seq):
        return Seq(tuple(_cut(item, alphabet) for item in expr.items))
    if isinstance(expr, Alt):
        return Alt(tuple(_cut(item, alphabet) for item in expr.items))
    if isinstance(expr, Rep):
        return Rep(expr.lo, expr.hi, _cut(expr.item, alphabet))
    if isinstance(expr, Cap):
        return Cap(expr.name, _cut(expr.expr, alphabet))
    return expr


def _live(expr: Expr, productive: set[str], core: Mapping[str, Expr]) -> bool:
    """Whether ``expr`` matches some string, given the productive rules."""
    if isinstance(expr, Chars):
        return bool(expr.chars)
    if isinstance(expr, Ref):
        key = expr.name.casefold()
        return key in productive or key in core
    if isinstance(expr, Seq):
        return all(_live(item, productive, core) for item in expr.items)
    if isinstance(expr, Alt):
        return any(_live(item, productive, core) for item in expr.items)
    if isinstance(expr, Rep):
        return expr.lo == 0 or _live(expr.item, productive, core)
    return _live(expr.expr, productive, core)


def _prune(
    expr: Expr, productive: set[str], core: Mapping[str, Expr], whole: set[str]
) -> Expr | None:
    """``expr`` without its parts that match nothing; ``None`` when none is left."""
    if isinstance(expr, Chars):
        return expr if expr.chars else None
    if isinstance(expr, Ref):
        key = expr.name.casefold()
        if key in productive or key in whole:
            return expr
        return core.get(key)  # a core rule cut: in place; emptied: None
    if isinstance(expr, Seq):
        items = [_prune(item, productive, core, whole) for item in expr.items]
        if any(item is None for item in items):
            return None
        return Seq(tuple(item for item in items if item is not None))
    if isinstance(expr, Alt):
        kept = [
            item
            for item in (_prune(one, productive, core, whole) for one in expr.items)
            if item is not None
        ]
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else Alt(tuple(kept))
    if isinstance(expr, Rep):
        item = _prune(expr.item, productive, core, whole)
        if item is None or expr.hi == 0:
            return Seq(()) if expr.lo == 0 or expr.hi == 0 else None
        return Rep(expr.lo, expr.hi, item)
    inner = _prune(expr.expr, productive, core, whole)
    return None if inner is None else Cap(expr.name, inner)


def abnf_text(rules: Mapping[str, Expr], names: Mapping[str, str], header: Iterable[str]) -> str:
    """``rules`` written out as ABNF (RFC 5234), one rule a line, each
    named as ``names`` spells it, after the ``header`` comment lines."""
    lines = [f"; {line}" if line else ";" for line in header]
    lines.append("")
    lines.extend(f"{names[key]} = {_abnf(expr, names)}" for key, expr in rules.items())
    return "\n".join(lines) + "\n"


def _abnf(expr: Expr, names: Mapping[str, str]) -> str:
    if isinstance(expr, Chars):
        spans = [f"%x{lo:X}" if lo == hi else f"%x{lo:X}-{hi:X}" for lo, hi in expr.chars.spans]
        return spans[0] if len(spans) == 1 else "( " + " / ".join(spans) + " )"
    if isinstance(expr, Ref):
        return names[expr.name.casefold()]
    if isinstance(expr, Seq):
        if not expr.items:
            return '""'
        return "( " + " ".join(_abnf(item, names) for item in expr.items) + " )"
    if isinstance(expr, Alt):
        return "( " + " / ".join(_abnf(item, names) for item in expr.items) + " )"
    if isinstance(expr, Rep):
        low = "" if expr.lo == 0 else str(expr.lo)
        high = "" if expr.hi is None else str(expr.hi)
        return f"{low}*{high}( {_abnf(expr.item, names)} )"
    return _abnf(expr.expr, names)


def restricted_text(
    rules: Mapping[str, Expr],
    names: Mapping[str, str],
    core: Mapping[str, Expr],
    alphabet: CharSet,
    header: Iterable[str],
    prefix: str = "",
) -> str:
    """The ABNF text of ``rules`` (a grammar's, by folded name, with the
    ``core`` rules they may use) restricted to ``alphabet`` (``restrict``),
    each rule named as ``names`` spells it, behind ``prefix``; the core
    rules keep their names."""
    kept = restrict(rules, core, alphabet)
    spelled = dict(names)
    spelled.update((key, prefix + spelled[key]) for key in kept)
    return abnf_text(kept, spelled, header)
