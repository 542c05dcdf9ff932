"""``Profile``: what one URI scheme's RFC says a URI of that scheme is.

A profile is three things, each from the scheme's RFC:

* a rule of the scheme's grammar (its ABNF, ``grammar/*.abnf``);
* the requirements its prose adds, which the ABNF does not say
  (``Requirement``: RFC 9110 section 4.2.1, "a sender MUST NOT generate an
  http URI with an empty host identifier"), each a test on the parse that
  names the section;
* the fields of its typed value, read from the parse's captures
  (``Grammar.parse``) by rule name.

A text is a URI of the scheme when it is an RFC 3986 ``URI``, the rule
matches all of it, and no requirement is broken.  A scheme whose RFC
defines URIs that RFC 3986 rejects has ``within_uri=False``, and its own
rule decides alone; the profile's documentation names such a case.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from .._errors import RuleMatchError, URISyntaxError
from ..engine import text_of, within
from ..shipped import COMBINATIONS, RFC3986, userinfo_secret
from ._registry import Schemes

if TYPE_CHECKING:
    from ..engine import Backend, Grammar, Part, RuleMatch

__all__ = ["SCHEMES", "Profile", "Requirement", "register_scheme"]

_M = TypeVar("_M", bound="Made")


class Made(Protocol):
    """What a profile's value class offers it (``_value.SchemeURI`` does):
    a value made from the profile and the parse of a text."""

    @classmethod
    def _from_match(cls: type[_M], profile: Profile[Any], match: RuleMatch) -> _M: ...


V = TypeVar("V", bound=Made)


@dataclass(frozen=True)
class Requirement:
    """One requirement of a scheme RFC's prose that its ABNF does not say.

    ``breaks`` reads the parse (the profile's captures, plus the rules in
    ``needs``) and returns the offset where the text breaks the
    requirement, or ``None`` when it keeps it.  ``rule`` is the rule the
    error names, ``says`` what the requirement is ("the host is not
    empty"), ``cite`` where the RFC says it ("RFC 9110 section 4.2.1").

    A requirement that ``needs`` no rule reads only the match's ``text``:
    when every requirement of a profile is such, ``validate`` hands them
    the text as matched by the rule's DFA, without a parse.

    ``language``, when given, is a rule of some grammar, as ``(grammar,
    rule name)``, that says the requirement as a language: for every text
    the profile's rule matches, the requirement holds exactly when the
    rule matches all of the text.  ``forbidden`` is the other way to say
    it, for a prohibition: a rule that matches all of exactly the texts
    (of the profile's rule) that break the requirement.  ABNF has no
    "except", so a prohibition's language of what keeps it would restate
    a complement by hand; the language of what breaks it is written with
    the RFC's own rules.  A requirement has at most one of the two.

    When every requirement of a regular profile has one, the native back
    end decides ``validate`` with one DFA: the rule's, intersected with
    each ``language`` and with each ``forbidden`` taken out (``engine.automata.product``);
    ``breaks`` still gives ``check`` its offset, and the pure back end its
    verdict.

    A requirement no regular language says (RFC 3966's parameters in
    lexicographical order, say) may name ``holds_within`` instead: a rule
    that matches all of only texts (of the profile's rule) that keep it,
    not necessarily every such text; with ``holds_within_but``, a rule
    whose texts are taken out of it (the requirement then holds in every
    text ``holds_within`` matches and ``holds_within_but`` does not).  The
    native back end then decides with two DFAs: a text in the first,
    which intersects the other with every ``holds_within`` and takes each
    ``holds_within_but`` out, is valid; a text outside the second, the
    verdict of every ``language`` and ``forbidden``, is not; and only the
    texts between are read by ``breaks``.

    >>> import urigrammar
    >>> host = urigrammar.SCHEMES["http"].requirements[1]
    >>> host.cite, host.rule, host.says
    ('RFC 9110 section 4.2.1', 'host', 'an http URI has a host that is not empty')
    """

    cite: str
    rule: str
    says: str
    breaks: Callable[[RuleMatch], int | None]
    needs: tuple[str, ...] = ()
    language: tuple[Grammar, str] | None = None
    forbidden: tuple[Grammar, str] | None = None
    holds_within: tuple[Grammar, str] | None = None
    holds_within_but: tuple[Grammar, str] | None = None

    def __post_init__(self) -> None:
        if self.holds_within_but is not None and self.holds_within is None:
            msg = f"holds_within_but takes texts out of holds_within, which is missing: {self.says}"
            raise ValueError(msg)
        given = [self.language, self.forbidden, self.holds_within]
        if sum(part is not None for part in given) > 1:
            msg = (
                "a requirement has at most one of a language, a forbidden language "
                f"and where it holds: {self.says}"
            )
            raise ValueError(msg)


class _Matched:
    """A text the rule matched, as the requirements that need no capture
    read it (``Requirement``): its ``text``."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _text_keeps(requirements: Sequence[Requirement]) -> Callable[[str], bool]:
    """Whether a text the rule matched keeps every one of ``requirements``,
    which read ``.text`` alone (their ``needs`` are empty): the text
    stands in for its parse."""
    tests = tuple(r.breaks for r in requirements)

    def keeps(text: str) -> bool:
        # A str subclass is read by its own characters, as its DFA read it.
        found = cast("RuleMatch", _Matched(text_of(text)))
        # A loop, not all(): no generator on the hot path.
        for breaks in tests:  # noqa: SIM110
            if breaks(found) is not None:
                return False
        return True

    return keeps


class _Runs:
    """A profile's prepared calls on one back end: ``uri`` is RFC 3986's
    ``URI`` matcher, or ``None`` where the rule's language lies inside
    ``URI``'s (``Grammar.within``), which then says nothing more, or
    ``_LATER`` until ``check`` first needs it (a one-DFA verdict does not);
    ``validate`` is the whole verdict; ``one_dfa`` whether it is a single
    DFA's (``Profile._dfas``), so that no faster verdict exists."""

    __slots__ = ("one_dfa", "uri", "validate")

    def __init__(
        self,
        uri: Callable[[str], object | None] | None,
        validate: Callable[[str], bool],
        *,
        one_dfa: bool = False,
    ) -> None:
        self.uri = uri
        self.validate = validate
        self.one_dfa = one_dfa


def _later(text: str) -> object | None:
    """``_Runs.uri`` before it is known."""
    raise AssertionError(text)


_LATER: Callable[[str], object | None] = _later


class Profile(Generic[V]):
    """A URI scheme: its RFC's rule, the requirements of its prose, and the
    typed value a URI of it parses into.

    ``schemes`` are the scheme names it serves (``("http", "https")``),
    compared without case (RFC 3986 section 3.1).  ``grammar`` and ``rule``
    name the scheme's ABNF rule; ``fields`` maps each field of the value to
    the rule whose last occurrence it reads (``{"nid": "NID"}``);
    ``requirements`` are the prose's ``Requirement``\\ s; ``value`` is the
    class ``parse`` returns (a ``SchemeURI``).

    ``validate(text)`` says whether ``text`` is a URI of the scheme;
    ``check(text)`` raises ``URISyntaxError`` naming the rule, or the
    requirement and its section, at an offset; ``parse(text)`` returns the
    typed value.  Each runs in time linear in the text for a regular rule.
    Immutable; build one for your own grammar and ``register_scheme`` it.

    >>> import urigrammar
    >>> grammar = urigrammar.load_grammar('note = "x-note:" 1*ALPHA')
    >>> note = urigrammar.Profile("x-note", grammar, "note", value=urigrammar.SchemeURI)
    >>> note.validate("x-note:hello"), note.parse("x-note:hello")
    (True, SchemeURI('x-note:hello'))
    """

    __slots__ = (
        "_captures",
        "_lock",
        "_runs",
        "cite",
        "fields",
        "grammar",
        "requirements",
        "rule",
        "schemes",
        "value",
        "within_uri",
    )

    schemes: tuple[str, ...]
    grammar: Grammar
    rule: str
    fields: Mapping[str, str]
    requirements: tuple[Requirement, ...]
    value: type[V]
    within_uri: bool
    cite: str
    _captures: tuple[str, ...]
    _runs: dict[Backend | None, _Runs]
    _lock: threading.Lock

    def __init__(
        self,
        schemes: str | Sequence[str],
        grammar: Grammar,
        rule: str,
        *,
        value: type[V],
        fields: Mapping[str, str] | None = None,
        requirements: Sequence[Requirement] = (),
        within_uri: bool = True,
        cite: str = "",
    ) -> None:
        names = (schemes,) if isinstance(schemes, str) else tuple(schemes)
        if not names:
            msg = "a profile serves at least one scheme"
            raise ValueError(msg)
        for name in names:
            if not isinstance(name, str) or not RFC3986.validate("scheme", name):
                msg = f"not a scheme name (RFC 3986 section 3.1): {name!r}"
                raise ValueError(msg)
        canonical = grammar.canonical(rule)
        spelled = {key: grammar.canonical(name) for key, name in (fields or {}).items()}
        needs = [grammar.canonical(name) for req in requirements for name in req.needs]
        captures = tuple(dict.fromkeys([*spelled.values(), *needs]))
        setattr_ = object.__setattr__
        setattr_(self, "schemes", tuple(name.lower() for name in names))
        setattr_(self, "grammar", grammar)
        setattr_(self, "rule", canonical)
        setattr_(self, "fields", _Frozen(spelled))
        setattr_(self, "requirements", tuple(requirements))
        setattr_(self, "value", value)
        setattr_(self, "within_uri", within_uri)
        setattr_(self, "cite", cite)
        setattr_(self, "_captures", tuple(c for c in captures if c != canonical))
        setattr_(self, "_runs", {})
        setattr_(self, "_lock", threading.Lock())

    def __setattr__(self, name: str, value: object) -> None:
        msg = "a Profile is immutable"
        raise AttributeError(msg)

    def __repr__(self) -> str:
        return f"<Profile {'/'.join(self.schemes)}: {self.grammar.name} {self.rule}>"

    @property
    def captures(self) -> tuple[str, ...]:
        """The rules a parse captures: the fields' and the requirements'."""
        return self._captures

    def _on(self, backend: Backend | None) -> _Runs:
        found = self._runs.get(backend)
        if found is None:
            found = self._prepare(backend)
            with self._lock:
                found = self._runs.setdefault(backend, found)
        return found

    def _uri(self, backend: Backend | None) -> Callable[[str], object | None] | None:
        """RFC 3986's ``URI`` matcher, or ``None`` when it says nothing more
        than the rule (``_Runs.uri``)."""
        if self.within_uri and not within(self.grammar, self.rule, RFC3986, "URI"):
            return RFC3986.matcher("URI", backend=backend)
        return None

    def _prepare(self, backend: Backend | None) -> _Runs:
        whole = self._dfas(backend)
        if whole is not None:
            return whole
        grammar, name = self.grammar, self.rule
        uri = self._uri(backend)
        if grammar.is_regular(name):
            rule = grammar.matcher(name, backend=backend)
        else:

            def rule(text: str) -> object | None:
                return True if grammar.validate(name, text) else None

        requirements = self.requirements
        if requirements and not any(r.needs for r in requirements):
            keeps = _text_keeps(requirements)

            def validate(text: str) -> bool:
                text = text_of(text)
                if (uri is not None and uri(text) is None) or rule(text) is None:
                    return False
                return keeps(text)

        elif requirements:
            match = functools.partial(self._match, backend=backend)

            def validate(text: str) -> bool:
                text = text_of(text)
                if uri is not None and uri(text) is None:
                    return False
                found = match(text)
                return found is not None and all(r.breaks(found) is None for r in requirements)

        elif uri is None:

            def validate(text: str) -> bool:
                return rule(text) is not None

        else:

            def validate(text: str) -> bool:
                return uri(text) is not None and rule(text) is not None

        return _Runs(uri, validate)

    def verdict_parts(self) -> list[Part] | None:
        """The rules whose one DFA is the verdict of every requirement with
        a ``language`` or a ``forbidden`` one: the profile's rule, RFC
        3986's ``URI`` (unless ``within_uri`` is off: where the rule lies
        inside ``URI`` the product is the rule's own language, and no
        inclusion test is paid for it), each ``language`` kept and each
        ``forbidden`` language taken out.  ``None`` when the rule is not
        regular or a requirement has neither nor a ``holds_within``: the
        verdict is then checked piece by piece."""
        if not self.grammar.is_regular(self.rule):
            return None
        parts: list[Part] = [(self.grammar, self.rule, False)]
        if self.within_uri:
            parts.append((RFC3986, "URI", False))
        for req in self.requirements:
            if req.language is not None:
                parts.append((*req.language, False))
            elif req.forbidden is not None:
                parts.append((*req.forbidden, True))
            elif req.holds_within is None:
                return None
        return parts

    def sure_parts(self) -> list[Part] | None:
        """``verdict_parts`` and each requirement's ``holds_within``, its
        ``holds_within_but`` taken out: the rules whose one DFA matches
        only valid texts.  ``None`` when no
        requirement has a ``holds_within`` (``verdict_parts`` is then the
        whole verdict) or there are no ``verdict_parts``."""
        parts = self.verdict_parts()
        within: list[Part] = []
        for req in self.requirements:
            if req.holds_within is None:
                continue
            for part in [
                (*req.holds_within, False),
                *([] if req.holds_within_but is None else [(*req.holds_within_but, True)]),
            ]:
                if part not in within:
                    within.append(part)
        if parts is None or not within:
            return None
        return [*parts, *within]

    def _dfas(self, backend: Backend | None) -> _Runs | None:
        """The verdict on a back end that runs raw tables (the native one),
        as the C runner's own predicate, with no Python frame on the hot
        path: that of the DFA of ``verdict_parts``; or, where there are
        ``sure_parts``, that of their DFA, which hands a text it refuses to
        ``_between``.  ``None`` when there are no such parts, a DFA is over
        its caps, or the back end runs no DFA: the caller then checks the
        requirements one by one.  The shipped profiles' tables are read
        from ``COMBINATIONS``, built with the package; another's are built
        here."""
        from ..engine import combination, default_backend, tables_predicate

        chosen = backend or default_backend()
        if not chosen.native:
            return None
        parts = self.verdict_parts()
        verdict = None if parts is None else combination(parts, COMBINATIONS)
        if verdict is None:
            return None
        made = tables_predicate(verdict, chosen)
        if made is None:
            return None
        sure_parts = self.sure_parts()
        if sure_parts is None:
            return _Runs(_LATER, made, one_dfa=True)
        sure = combination(sure_parts, COMBINATIONS)
        if sure is None:
            return None
        between = self._between(made, backend)
        also = tables_predicate(sure, chosen, otherwise=between)
        if also is None:
            return None
        return _Runs(_LATER, also)

    def _between(
        self, verdict: Callable[[str], bool], backend: Backend | None
    ) -> Callable[[str], bool]:
        """The verdict of a text the DFA of ``sure_parts`` refused: that of
        ``verdict``, then the requirements that have a ``holds_within``."""
        rest = tuple(r for r in self.requirements if r.holds_within is not None)
        tests = tuple(r.breaks for r in rest)
        if not any(r.needs for r in rest):
            keeps = _text_keeps(rest)

            def between(text: str) -> bool:
                return verdict(text) and keeps(text)

            return between

        match = functools.partial(self._match, backend=backend)

        def between_parsed(text: str) -> bool:
            if not verdict(text):
                return False
            found = match(text)
            return found is not None and all(breaks(found) is None for breaks in tests)

        return between_parsed

    def _match(self, text: str, backend: Backend | None) -> RuleMatch | None:
        try:
            return self.grammar.parse(self.rule, text, captures=self._captures, backend=backend)
        except RuleMatchError:
            return None

    def validate(self, text: str, *, backend: Backend | None = None) -> bool:
        """Whether ``text`` is a URI of this scheme: an RFC 3986 ``URI``
        (unless ``within_uri`` is off), matched by the rule, keeping every
        requirement."""
        runs = self._runs.get(backend)
        if runs is None:
            runs = self._on(backend)
        return runs.validate(text)

    def check(self, text: str, *, backend: Backend | None = None) -> RuleMatch:
        """The parse of ``text``, or ``URISyntaxError``: naming RFC 3986's
        ``URI``, the scheme's rule, or a requirement with its section, and
        the offset where the text goes wrong."""
        text = text_of(text)
        runs = self._on(backend)
        uri = runs.uri
        if uri is _LATER:
            uri = runs.uri = self._uri(backend)
        if uri is not None and uri(text) is None:
            raise RFC3986.syntax_error("URI", text)
        match = self._match(text, backend)
        if match is None:
            raise _as_uri_error(self.grammar.syntax_error(self.rule, text))
        for req in self.requirements:
            offset = req.breaks(match)
            if offset is not None:
                msg = f"not a valid {self.rule}: {req.says} ({req.cite}), at offset {offset}"
                raise URISyntaxError(
                    msg, rule=req.rule, text=text, offset=offset, secrets=userinfo_secret
                )
        return match

    def parse(self, text: str, *, backend: Backend | None = None) -> V:
        """The typed value of ``text`` (``check``'s errors otherwise)."""
        return self.value._from_match(self, self.check(text, backend=backend))


def _as_uri_error(error: RuleMatchError) -> URISyntaxError:
    """A user's grammar raises ``RuleMatchError``; a profile's verdict is
    about a URI, so its error is a ``URISyntaxError``, the password masked."""
    if isinstance(error, URISyntaxError):
        return error
    return URISyntaxError(
        error.message,
        rule=error.rule,
        text=error.text,
        offset=error.offset,
        secrets=userinfo_secret,
    )


class _Frozen(Mapping[str, str]):
    """A read-only mapping (a profile's fields)."""

    __slots__ = ("_items",)

    def __init__(self, items: dict[str, str]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> str:
        return self._items[key]

    def __iter__(self) -> Any:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return repr(self._items)


#: The scheme profiles, by lowercase scheme name.
SCHEMES: Schemes[Profile[Any]] = Schemes()


def register_scheme(profile: Profile[Any], *, replace: bool = False) -> None:
    """Add ``profile`` to ``SCHEMES`` under each of its schemes.  A scheme
    that has a profile already (shipped or yours) raises ``URIError``
    unless ``replace``.

    >>> import urigrammar
    >>> grammar = urigrammar.load_grammar('note = "x-note:" 1*ALPHA')
    >>> note = urigrammar.Profile("x-note", grammar, "note", value=urigrammar.SchemeURI)
    >>> urigrammar.register_scheme(note)
    >>> urigrammar.parse_scheme("x-note:hello")
    SchemeURI('x-note:hello')
    """
    if not isinstance(profile, Profile):
        msg = f"register_scheme takes a Profile, not {type(profile).__name__}"
        raise TypeError(msg)
    SCHEMES._register(profile, replace)
