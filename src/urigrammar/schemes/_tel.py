"""The ``tel`` scheme: RFC 3966, ``grammar/rfc3966.abnf``'s
``telephone-uri`` (with ``rfc3966-errata.abnf``'s ``local-number-digits``).

Fields follow section 5: ``number`` (the global number with its "+",
section 5.1.4, or the local number, section 5.1.5), ``is_global``, and
``parameters``, every parameter in order as (name, value) pairs, value
``None`` for a parameter without "=" (``isub``, section 5.2; ``ext``,
section 5.3; ``phone-context``, section 5.1.5; others, section 5.4).
Names and values are as written: section 3 says values are percent-encoded
where they hold reserved characters, and a comparison (section 4) decodes
them, which ``decoded_parameters`` does.

Section 3's prose adds three requirements the ABNF does not say: a ";"
in a parameter value is percent-encoded (the ABNF's ``isub`` value, a
``uric``, takes it unencoded), so each ";" starts a parameter; no
parameter appears twice; and they come in one order (``isub`` or ``ext``
first, then ``phone-context``, then the others in lexicographical order).
Section 5.3 adds a fourth: ``isub`` and ``ext`` do not both appear.
Each reads the text alone, so ``validate`` needs no parse.  The first is
regular, and ``grammar/rfc3966-requirements.abnf`` says it as a language,
and the fourth as the language of the texts that break it; the second and
third are not (parameter names are unbounded), and hold for certain in a
text of ``isub`` or ``ext``, then ``phone-context``, then one more
parameter whose name breaks neither, which that file says too: the native
back end reads the parameters of the other texts only.  Names are
compared without case (section 4: parameter names are case-insensitive).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from ..shipped import RFC3966, RFC3966_REQUIREMENTS, percent_decode
from ._profile import Profile, Requirement
from ._value import SchemeURI

if TYPE_CHECKING:
    from ..engine import RuleMatch

__all__ = ["TEL", "TelValue"]

_FIRST = ("isub", "ext")
_CONTEXT = "phone-context"


@lru_cache(maxsize=1)  # the requirements read one text in turn; no other is kept
def _split(text: str) -> tuple[tuple[int, str, str | None], ...]:
    """Each parameter in order: where its ";" is, its name as written, and
    its value as written (``None`` without "=").  Section 3: ";" used as a
    delimiter is not percent-encoded, and MUST be where it is in a value,
    so every ";" starts a parameter (``_delimited`` holds the text to it)."""
    found = []
    at = text.find(";")
    while at >= 0:
        end = text.find(";", at + 1)
        name, equals, value = text[at + 1 : end if end >= 0 else len(text)].partition("=")
        found.append((at, name, value if equals else None))
        at = end
    return tuple(found)


def _pieces(match: RuleMatch) -> tuple[tuple[int, str, str | None], ...]:
    return _split(match.text)


@cache
def _parameter_rules() -> tuple[Callable[[str], object | None], ...]:
    return tuple(
        RFC3966.matcher(rule) for rule in ("parameter", "extension", "isdn-subaddress", "context")
    )


def _delimited(match: RuleMatch) -> int | None:
    """Where a ";" the grammar reads inside a value (an ``isub`` value's
    ``uric`` takes it) starts something that is no parameter."""
    text = match.text
    rules = _parameter_rules()
    for start, _, _ in _split(text):
        end = text.find(";", start + 1)
        piece = text[start : end if end >= 0 else len(text)]
        if not any(rule(piece) is not None for rule in rules):
            return start
    return None


@lru_cache(maxsize=1)  # the three requirements read one text in turn
def _names_break(text: str) -> tuple[int | None, int | None, int | None]:
    """Where a parameter name first repeats, where section 3's order first
    breaks, and where the second of ``isub`` and ``ext`` appears (section
    5.3) (``None``: nowhere), in one pass over the names, compared in lower
    case (section 4: names are case-insensitive).  Every ";" starts a
    parameter (``_split``)."""
    repeated = out_of_order = both = None
    seen: set[str] = set()
    last = (0, "")
    pieces = text.split(";")
    at = len(pieces[0])
    for piece in pieces[1:]:
        name = piece.partition("=")[0].lower()
        if name in seen:
            repeated = at if repeated is None else repeated
        else:
            seen.add(name)
        rank = (0, "") if name in _FIRST else (1, "") if name == _CONTEXT else (2, name)
        if rank < last and out_of_order is None:
            out_of_order = at
        if both is None and name in _FIRST and seen.issuperset(_FIRST):
            both = at
        last = rank
        at += len(piece) + 1
    return repeated, out_of_order, both


def _repeated(match: RuleMatch) -> int | None:
    return _names_break(match.text)[0]


def _out_of_order(match: RuleMatch) -> int | None:
    return _names_break(match.text)[1]


def _isub_and_ext(match: RuleMatch) -> int | None:
    return _names_break(match.text)[2]


class TelValue(SchemeURI):
    """A tel URI (RFC 3966).  Equal by exact text (section 4's comparison
    is not implemented: it needs the parameters decoded and sorted, which
    a valid URI has already, and visual separators ignored)."""

    __slots__ = ()

    FIELDS = ("number", "is_global", "parameters")

    @property
    def number(self) -> str:
        """The number as written, visual separators kept: a global number
        with its "+" (section 5.1.4), or a local one (section 5.1.5)."""
        found = self._group("global-number-digits") if self.is_global else None
        if found is None:
            found = self._group("local-number-digits")
        assert found is not None
        return found

    @property
    def is_global(self) -> bool:
        """Whether the number is global: E.164, with a "+" (section 5.1.4)."""
        return self._span("global-number") is not None

    @property
    def parameters(self) -> tuple[tuple[str, str | None], ...]:
        """Every parameter in order, (name, value) as written; the value is
        ``None`` for a parameter without "="."""
        return tuple((name, value) for _, name, value in _pieces(self._match))

    @property
    def decoded_parameters(self) -> tuple[tuple[str, str | None], ...]:
        """``parameters`` with names in lower case and values
        percent-decoded as UTF-8 (section 3; section 4 compares so)."""
        return tuple(
            (name.lower(), None if value is None else percent_decode(value))
            for name, value in self.parameters
        )

    def parameter(self, name: str) -> str | None:
        """The value of parameter ``name`` (any case), as written; ``None``
        when absent or without a value."""
        wanted = name.lower()
        for found, value in self.parameters:
            if found.lower() == wanted:
                return value
        return None


#: The ``tel`` profile: RFC 3966 section 3.
TEL: Profile[TelValue] = Profile(
    "tel",
    RFC3966,
    "telephone-uri",
    value=TelValue,
    fields={
        "global_number": "global-number",
        "global_number_digits": "global-number-digits",
        "local_number_digits": "local-number-digits",
        "par": "par",
        "context": "context",
    },
    requirements=[
        Requirement(
            "RFC 3966 section 3",
            "par",
            'a ";" in a parameter value is percent-encoded',
            _delimited,
            language=(RFC3966_REQUIREMENTS, "tel-delimited"),
        ),
        Requirement(
            "RFC 3966 section 3",
            "par",
            "no parameter appears more than once",
            _repeated,
            holds_within=(RFC3966_REQUIREMENTS, "tel-in-order"),
            holds_within_but=(RFC3966_REQUIREMENTS, "tel-names-break"),
        ),
        Requirement(
            "RFC 3966 section 3",
            "par",
            "isub or ext come first, then phone-context, then the other "
            "parameters in lexicographical order",
            _out_of_order,
            holds_within=(RFC3966_REQUIREMENTS, "tel-in-order"),
            holds_within_but=(RFC3966_REQUIREMENTS, "tel-names-break"),
        ),
        Requirement(
            "RFC 3966 section 5.3",
            "par",
            "at most one of isub and ext appears",
            _isub_and_ext,
            forbidden=(RFC3966_REQUIREMENTS, "tel-isub-and-ext"),
        ),
    ],
    cite="RFC 3966 section 3",
)
