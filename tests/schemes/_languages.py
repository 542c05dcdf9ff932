"""A profile's requirement languages (``Requirement.language``, and
``Requirement.forbidden``, the language of what breaks one, and
``Requirement.holds_within``, where one holds for certain) against their
Python predicates (``breaks``), the oracle, and the native verdict (one
DFA: rule, URI and every language intersected, every forbidden one taken
out) against the pure one (the predicates): for the tests of each scheme
whose requirements have languages."""

from __future__ import annotations

from hypothesis import strategies as st

from urigrammar import Profile
from urigrammar.engine import NATIVE, PURE


@st.composite
def damaged(draw: st.DrawFn, texts: st.SearchStrategy[str], chars: str, most: int = 3) -> str:
    """A text of ``texts`` with 0 to ``most`` edits: a character of
    ``chars`` inserted or put in one's place, a character deleted, or one's
    case swapped (a requirement may be about case)."""
    text = draw(texts)
    for _ in range(draw(st.integers(0, most))):
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "case"]))
        if how == "insert" or not text:
            text = text[:at] + draw(st.sampled_from(chars)) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + 1 :]
        elif how == "replace":
            text = text[:at] + draw(st.sampled_from(chars)) + text[at + 1 :]
        else:
            text = text[:at] + text[at].swapcase() + text[at + 1 :]
    return text


def agree(profile: Profile, text: str) -> None:  # type: ignore[type-arg]
    """The native verdict is the pure one; and where the profile's rule
    matches ``text``, each requirement's language matches it exactly when
    the requirement's predicate says it holds, and its forbidden language
    exactly when the predicate says it is broken, and where it holds for
    certain (``holds_within`` but ``holds_within_but``) the predicate says
    it holds."""
    pure = profile.validate(text, backend=PURE)
    if NATIVE is not None:
        assert profile.validate(text, backend=NATIVE) is pure, text
    grammar = profile.grammar
    if not grammar.validate(profile.rule, text, backend=PURE):
        assert not pure
        return
    match = grammar.parse(profile.rule, text, captures=profile.captures, backend=PURE)
    for requirement in profile.requirements:
        holds = requirement.breaks(match) is None
        if requirement.forbidden is not None:
            language, name = requirement.forbidden
            breaks = language.validate(name, text, backend=PURE)
            assert breaks is not holds, (requirement.says, text)
            continue
        if requirement.holds_within is not None:
            language, name = requirement.holds_within
            sure = language.validate(name, text, backend=PURE)
            if sure and requirement.holds_within_but is not None:
                language, name = requirement.holds_within_but
                sure = not language.validate(name, text, backend=PURE)
            if sure:
                assert holds, (requirement.says, text)
            continue
        assert requirement.language is not None, requirement.says
        language, name = requirement.language
        assert language.validate(name, text, backend=PURE) is holds, (requirement.says, text)
