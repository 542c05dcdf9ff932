"""The shipped grammars' rules as regexes for other engines, and the
components of a reference (RFC 3986 section 3) as named groups.

``regex(rule, flavour)`` is ``Grammar.regex`` for the grammar ``validate``
reads the rule from.  ``field_regex`` captures the rules ``_visitor.READS``
takes a component's text from.  One regex cannot give each component one
group: a component comes from one of several rules (the path from any of
five), and a rule may occur more than once once inlined (``authority``,
hence ``host``, under both ``URI`` and ``relative-ref``), while every
flavour refuses two groups of one name.  So each occurrence is a group of
its own (``host``, ``host_2``), and ``FieldRegex.fields`` lists, for each
component, the groups it may come from: at most one of them takes part in
a match, so the component is the first non-null of them (a coalesce).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .._errors import URIError
from ..engine import Regex
from ..shipped import shipped_rule
from ._api import PARSE_RULES
from ._reference import IRI_PARSE_RULES
from ._visitor import READS

__all__ = ["FIELD_NAMES", "FieldRegex", "field_regex", "regex"]

#: The components ``field_regex`` names, in RFC 3986 section 3's order.
FIELD_NAMES = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")

# The rules whose text is a component, by component (``port_text`` is the
# port's text: ``URIReference.port_text``).
_SOURCES: dict[str, tuple[str, ...]] = {
    field: tuple(
        rule
        for rule, read in READS.items()
        if read.text and (read.field == "port_text" if field == "port" else read.field == field)
    )
    for field in FIELD_NAMES
}


def regex(rule: str, flavour: str = "python") -> Regex:
    """Rule ``rule`` of the shipped grammars (the grammar ``validate``
    reads it from: RFC 3986, RFC 3987, RFC 6570, or an RFC 5234 core
    rule) as a regex of ``flavour``: ``"python"``, ``"re2"`` (pyarrow,
    DuckDB, BigQuery), ``"rust"`` (polars) or ``"java"`` (Spark).
    ``Regex.pattern`` matches exactly the strings ``validate(rule, s)``
    accepts, anchored, so under search semantics too::

        import polars as pl
        import urigrammar

        uri = urigrammar.regex("URI", "rust").pattern
        df.filter(pl.col("url").str.contains(uri))

    re2 and rust match UTF-8 text, so their language is the rule's over
    Unicode scalar values (no surrogate code points).  ``RegexExportError``
    when the flavour cannot hold the rule (see ``Grammar.regex``).

    >>> import re, urigrammar
    >>> uri = urigrammar.regex("URI").pattern
    >>> bool(re.search(uri, "http://example.com")), bool(re.search(uri, "http://a b"))
    (True, False)
    """
    grammar, name = shipped_rule(rule)
    return grammar.regex(name, flavour)


@dataclass(frozen=True)
class FieldRegex:
    """A parse rule as a regex whose named groups hold the components.

    ``fields`` maps each component of ``FIELD_NAMES`` to the groups it may
    come from; at most one of them takes part in a match.  A group that
    takes no part is null in polars' ``str.extract_groups`` and ``None``
    in Python's ``re``, but an empty string in pyarrow's ``extract_regex``
    and Spark's ``regexp_extract``, where an absent query and an empty one
    look the same.  The path is always there, possibly empty.

    >>> import re, urigrammar
    >>> found = urigrammar.field_regex("URI")
    >>> re.fullmatch(found.pattern, "http://example.com/a").group(*found.fields["host"])
    'example.com'
    """

    regex: Regex
    fields: Mapping[str, tuple[str, ...]]

    @property
    def pattern(self) -> str:
        return self.regex.pattern


def field_regex(rule: str = "URI-reference", flavour: str = "python") -> FieldRegex:
    """Rule ``rule`` (one of ``PARSE_RULES`` or ``IRI_PARSE_RULES``) as a
    regex of ``flavour`` that matches what ``validate(rule, s)`` accepts,
    with a named group for each occurrence of a rule that gives a
    component its text (RFC 3986 section 3; RFC 3987 section 2.2's
    ``i``-rules).  A component is the first of its groups that took part::

        import polars as pl
        import urigrammar

        found = urigrammar.field_regex("URI-reference", "rust")
        parts = pl.col("url").str.extract_groups(found.pattern)
        df.select(
            *(
                pl.coalesce(
                    *(parts.struct.field(g) for g in groups), pl.lit(None, pl.String)
                ).alias(field)
                for field, groups in found.fields.items()
            )
        )

    A component the rule never has (``absolute-URI``'s fragment) has no
    groups: the trailing null keeps ``coalesce`` from an empty list.

    The regex is the grammar's: ``parse_iri`` also refuses bidirectional
    formatting characters (RFC 3987 section 4.1), which it accepts.

    >>> import re, urigrammar
    >>> found = urigrammar.field_regex("URI-reference")
    >>> match = re.fullmatch(found.pattern, "//example.com/a")
    >>> next(match[group] for group in found.fields["host"] if match[group] is not None)
    'example.com'
    """
    grammar, name = shipped_rule(rule)
    if name not in PARSE_RULES and name not in IRI_PARSE_RULES:
        rules = ", ".join(repr(r) for r in (*PARSE_RULES, *IRI_PARSE_RULES))
        msg = f"field_regex takes one of {rules}, not {rule!r}"
        raise URIError(msg, rule=rule)
    captures = [
        source
        for sources in _SOURCES.values()
        for source in sources
        if grammar.find(source) is not None
    ]
    found = grammar.regex(name, flavour, captures=captures)
    fields = {
        field: tuple(g for s in _SOURCES[field] for g in found.names(s)) for field in FIELD_NAMES
    }
    return FieldRegex(found, MappingProxyType(fields))
