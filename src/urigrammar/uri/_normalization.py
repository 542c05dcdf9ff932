"""The options of normalization (RFC 3986 section 6, RFC 3987 section
5.3): the scheme rules of section 6.2.3 (``SchemeRule``, ``SCHEME_RULES``)
and the one value that says which optional steps run
(``Normalization``), with ``options_from``, which turns a public
function's keywords into it.  ``_normalize`` takes the steps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

__all__ = [
    "DEFAULT",
    "NO_FLAGS",
    "NO_RULE",
    "SCHEME_RULES",
    "FrozenRules",
    "Normalization",
    "NormalizationFlags",
    "SchemeRule",
    "options_from",
]


@dataclass(frozen=True, slots=True)
class SchemeRule:
    """What a scheme's specification lets normalization change (section
    6.2.3): its default port, and whether an empty path under an authority
    means ``/``.

    >>> import urigrammar
    >>> rules = {**urigrammar.SCHEME_RULES, "gopher": urigrammar.SchemeRule(default_port=70)}
    >>> str(urigrammar.normalize("gopher://example.com:70/", schemes=rules))
    'gopher://example.com/'
    """

    default_port: int | None = None
    empty_path_is_root: bool = False


#: The scheme registry of section 6.2.3, keyed by lowercase scheme name.  A
#: plain dict: add to it, or pass ``normalize(..., schemes=...)`` a mapping
#: of your own.
SCHEME_RULES: dict[str, SchemeRule] = {
    "http": SchemeRule(80, empty_path_is_root=True),  # RFC 9110 section 4.2.1
    "https": SchemeRule(443, empty_path_is_root=True),  # RFC 9110 section 4.2.2
    "ws": SchemeRule(80, empty_path_is_root=True),  # RFC 6455 section 3
    "wss": SchemeRule(443, empty_path_is_root=True),  # RFC 6455 section 3
    "ftp": SchemeRule(21, empty_path_is_root=True),  # RFC 1738 section 3.2
}

#: The rule of a scheme the registry does not name: nothing to change.
NO_RULE = SchemeRule()


class FrozenRules(Mapping[str, SchemeRule]):
    """A read-only copy of a scheme-rule mapping, hashed by its contents:
    what ``Normalization`` keeps of a ``schemes`` dict, so that the value
    stays immutable and hashable."""

    __slots__ = ("_rules",)

    def __init__(self, rules: Mapping[str, SchemeRule]) -> None:
        self._rules = dict(rules)

    def __getitem__(self, name: str) -> SchemeRule:
        return self._rules[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def __hash__(self) -> int:
        return hash(frozenset(self._rules.items()))

    def __repr__(self) -> str:
        return repr(self._rules)

    def __reduce__(self) -> tuple[type[FrozenRules], tuple[dict[str, SchemeRule]]]:
        return (FrozenRules, (self._rules,))


def _frozen_rules(schemes: object) -> object:
    """``schemes`` as ``Normalization`` keeps it: a mapping that can change
    (a ``dict``: a ``Mapping`` is unhashable unless it says otherwise) is
    copied into a ``FrozenRules``; anything else is kept as given, and
    fails where it failed before, when a lookup is made."""
    if not isinstance(schemes, Mapping) or isinstance(schemes, FrozenRules):
        return schemes
    try:
        hash(schemes)
    except TypeError:
        return FrozenRules(schemes)
    return schemes


@dataclass(frozen=True, slots=True, kw_only=True)
class Normalization:
    """Which optional normalization steps ``normalize`` and ``equivalent``
    take: one immutable, hashable value, passed as ``options`` (or spelled
    as keywords, ``normalize(ref, nfc=True)``).  The steps every normal form
    takes (case, percent-encoding and dot-segments: RFC 3986 sections
    6.2.2.1 to 6.2.2.3, RFC 3987 sections 5.3.2.1 and 5.3.2.3) are no
    option.  Build a variant with ``dataclasses.replace``.

    ``scheme_based``: RFC 3986 section 6.2.3 (and 3.2.3), on by default:
    an empty port is dropped, a port loses its leading zeros, and for a
    scheme in the rules its default port is dropped and an empty path under
    an authority becomes ``/`` (for IRIs, RFC 3987 section 5.3.3).
    ``False`` keeps the syntax-based steps of section 6.2.2 only.

    ``ipv6_canonical``: an IPv6 host in the text form of RFC 5952 section
    4 (off by default).  RFC 3986 section 6.2.2.1 lowercases the hex digits
    only; leading zeros and ``::`` are not its business, so two spellings of
    one address stay apart unless this is set.

    ``nfc``: an IRI's text in Unicode Normalization Form C after its
    percent-encodings are decoded (RFC 3987 section 5.3.2.2; off by
    default: equivalence there must assume IRIs already in NFC).  A
    character NFC turns into one its component does not admit is
    percent-encoded.  A ``URIReference`` is ASCII and unaffected.

    ``schemes``: the scheme rules of RFC 3986 section 6.2.3 (RFC 3987
    section 5.3.3), keyed by lowercase scheme name, in place of
    ``SCHEME_RULES``.  ``None`` (the default)
    reads ``SCHEME_RULES`` at each call, so additions to it take effect; a
    ``dict`` given here is copied into a read-only mapping when the value
    is made.  Read only when ``scheme_based``.

    >>> import urigrammar
    >>> syntax_only = urigrammar.Normalization(scheme_based=False)
    >>> str(urigrammar.normalize("HTTP://example.com:80", syntax_only))
    'http://example.com:80'
    """

    scheme_based: bool = True
    ipv6_canonical: bool = False
    nfc: bool = False
    schemes: Mapping[str, SchemeRule] | None = None

    def __post_init__(self) -> None:
        if self.schemes is not None:
            object.__setattr__(self, "schemes", _frozen_rules(self.schemes))


class NormalizationFlags(TypedDict, total=False):
    """``Normalization``'s fields as keyword arguments (``**flags``), the
    spelling the functions took before ``Normalization``; the defaults are
    ``Normalization``'s."""

    scheme_based: bool
    ipv6_canonical: bool
    nfc: bool
    schemes: Mapping[str, SchemeRule] | None


DEFAULT = Normalization()
#: No keywords: ``options_from``'s ``flags`` when a caller has none.
NO_FLAGS: Mapping[str, Any] = {}
_FIELDS = frozenset(field.name for field in dataclasses.fields(Normalization))


def options_from(
    options: Normalization | None, flags: Mapping[str, Any], caller: str
) -> Normalization:
    """The one ``Normalization`` a public function works with: ``options``
    (the defaults when ``None``) with the keyword ``flags`` put over it.
    An unknown keyword is the ``TypeError`` Python gives ``caller`` for
    one, and ``options`` must be a ``Normalization``."""
    if options is None:
        options = DEFAULT
    elif not isinstance(options, Normalization):
        msg = f"{caller}() takes a Normalization as options, not {type(options).__name__}"
        raise TypeError(msg)
    if not flags:
        return options
    for name in flags:
        if name not in _FIELDS:
            msg = f"{caller}() got an unexpected keyword argument {name!r}"
            raise TypeError(msg)
    return dataclasses.replace(options, **flags)
