"""``URITemplate``: an RFC 6570 template, parsed once, immutable."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._errors import HIDDEN
from ..engine import exact
from ..shipped import RFC6570, password_span
from ._expand import expand_parts
from ._syntax import Expression, Part, read_template

if TYPE_CHECKING:
    from ._match import Matched, Matcher

__all__ = ["URITemplate"]


class URITemplate:
    """A URI Template (RFC 6570), read through the grammar of section 2
    with erratum 6937 applied (``urigrammar.RFC6570``).

    ``URITemplate(text)`` raises ``URISyntaxError`` (offset and caret) for a
    text that is not a ``URI-Template``, and ``ReservedOperatorError`` for
    an expression with an operator reserved by section 2.2 (``=`` ``,``
    ``!`` ``@`` ``|``), which the grammar allows.  ``str()`` gives the text
    back exactly; templates compare and hash by their text.

    >>> import urigrammar
    >>> template = urigrammar.URITemplate("https://example.com/search{?q,lang}")
    >>> template.expand(q="cat", lang="en")
    'https://example.com/search?q=cat&lang=en'
    >>> template.match("https://example.com/search?q=dog")
    {'q': 'dog'}
    """

    __slots__ = ("_matcher", "_parts", "_text")

    _text: str
    _parts: tuple[Part, ...]
    _matcher: Matcher | None

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            msg = f"template must be str, not {type(text).__name__}"
            raise TypeError(msg)
        # A str subclass is read, and kept, by its own characters.
        text = exact(text)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_parts", read_template(RFC6570, text))
        object.__setattr__(self, "_matcher", None)

    def __setattr__(self, name: str, value: object) -> None:
        msg = "URITemplate is immutable"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = "URITemplate is immutable"
        raise AttributeError(msg)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        # As a URI's repr: section 3.2.1 of RFC 3986 deprecates
        # "user:password", so what follows the first ":" of a literal
        # userinfo never goes into a log.  The template is no URI, so the
        # userinfo is found loosely, as an error message finds it (the
        # same function masks both); str() keeps the text, as for URIs.
        text = self._text
        span = password_span(text)
        if span is not None:
            start, end = span
            text = text[:start] + HIDDEN + text[end:]
        return f"URITemplate({text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URITemplate):
            return NotImplemented
        return self._text == other._text

    def __hash__(self) -> int:
        return hash((URITemplate, self._text))

    def __reduce__(self) -> tuple[Any, ...]:
        return (URITemplate, (self._text,))

    @property
    def variables(self) -> tuple[str, ...]:
        """The variable names, in the order they first appear."""
        names: dict[str, None] = {}
        for part in self._parts:
            if isinstance(part, Expression):
                for spec in part.varspecs:
                    names.setdefault(spec.name, None)
        return tuple(names)

    def expand(self, mapping: Mapping[str, object] | None = None, /, **variables: object) -> str:
        """The URI reference this template expands to (RFC 6570 section 3).

        Values come from ``mapping`` and keywords (a keyword wins): ``str``,
        ``int``/``float`` (written as ``json.dumps`` does), ``bool`` (JSON's
        ``true``/``false``), a ``list``/``tuple`` of those, or a ``Mapping``
        of ``str`` to those (order kept); ``None``, an empty list and a
        mapping with no defined value are undefined.  Any other type raises
        ``TypeError``; a prefix modifier on a list or mapping raises
        ``ExpansionError`` (section 2.4.1).  Non-ASCII literals and values
        are written as pct-encoded UTF-8 (sections 3.1 and 3.2.1), so the
        result is always a ``URI-reference`` when the values' triplets are
        (``{+var}`` passes a value's own ``%XX`` through).
        """
        if mapping is None:
            values: Mapping[str, object] = variables
        elif not isinstance(mapping, Mapping):
            msg = f"variables must be a mapping, not {type(mapping).__name__}"
            raise TypeError(msg)
        else:
            values = {**mapping, **variables} if variables else mapping
        return expand_parts(self._parts, values, self._text)

    def _compiled(self) -> Matcher:
        matcher = self._matcher
        if matcher is None:
            # Lazy: matching compiles the template with the engine's regex
            # emitter, which a process that only expands never imports.
            from ._match import Matcher

            matcher = Matcher(self._parts)
            object.__setattr__(self, "_matcher", matcher)
        return matcher

    @property
    def ambiguous(self) -> bool:
        """Whether some URI matches this template in more than one way, so
        that ``match`` picks one reading of several (decided from the
        template alone, before any matching).

        True when two parts can share characters at their border (``{a}{b}``,
        ``{+path}/here``: the path may hold ``/``), or an expression's
        variables cannot be told apart (``{x,y}`` on ``1``; ``{/a,b}`` on
        ``/1``; an exploded variable among others under ``;``, ``?``,
        ``&``).  The analysis is conservative: a template reported
        unambiguous is, and ``match`` finds its reading of every expansion
        (see ``match`` for what it guarantees for the others)."""
        return self._compiled().ambiguous

    def match(self, uri: str) -> dict[str, Matched] | None:
        """The variables an expansion of this template gives ``uri``, or
        ``None``.

        The guarantee: a reading returned always expands back to the URI
        (``self.expand(self.match(u)) == u`` whenever it is not ``None``);
        for a template that is not ``ambiguous``, a reading is found
        whenever one exists, so ``None`` means no expansion gives ``uri``.
        For an ambiguous template the first reading tried is one of
        several; when it does not expand back, the others are searched, in
        a bounded number of steps (``_search.MAX_SEARCH_STEPS``: a quarter
        of a second at most), and ``None`` may then also mean that the
        search gave up (variables that repeat make the question
        NP-complete).

        Values are pct-decoded; under ``+`` and ``#``, which pass triplets
        through, only the triplets of non-ASCII characters are (``%2F`` and
        ``/`` expand alike there, so ``%2F`` stays); a comma-joined value is a list,
        an exploded one a list or, where it has ``name=value`` pairs, a
        dict.  An undefined variable is left out.  Linear in ``uri``'s
        length for a template that is not ambiguous.  An ambiguous template
        is split in time and memory that grow with its number of parts
        times the length: past ``MAX_SPLIT_CELLS`` of them,
        ``InputTooLongError`` (undecided, not "no match").
        """
        if not isinstance(uri, str):
            msg = f"uri must be str, not {type(uri).__name__}"
            raise TypeError(msg)
        return self._compiled().match(exact(uri))
