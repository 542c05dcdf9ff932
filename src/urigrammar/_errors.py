"""The exception hierarchy: every error urigrammar raises on a ``str`` input.

``URIError`` subclasses ``ValueError`` so that code already guarding URL
handling with ``except ValueError`` keeps working.  Each error carries the
rule it was checked against, the text and the offset as data, and its
message shows the text with a caret under that offset.  All of them pickle
to equal objects (``__reduce__``), so they survive a trip to a worker
process.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "GrammarError",
    "InputTooLongError",
    "URIError",
    "URISyntaxError",
    "UnknownRuleError",
    "caret_excerpt",
]

# A message shows at most this many characters of the text each side of the
# offset: a 1 MB URI must not produce a 1 MB message.
_CONTEXT = 40


def _shown(char: str) -> str:
    # Control and non-ASCII characters are escaped so the caret line stays
    # aligned on any terminal (a tab or a wide character would shift it).
    if " " <= char <= "~":
        return char
    return ascii(char)[1:-1]


def caret_excerpt(text: str, offset: int) -> str:
    """Two lines: (part of) ``text`` and a caret under ``offset``."""
    start = max(0, offset - _CONTEXT)
    end = min(len(text), offset + _CONTEXT)
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    before = "".join(_shown(c) for c in text[start:offset])
    after = "".join(_shown(c) for c in text[offset:end])
    line = f"  {head}{before}{after}{tail}"
    caret = "  " + " " * (len(head) + len(before)) + "^"
    return f"{line}\n{caret}"


class URIError(ValueError):
    """Base of every error urigrammar raises for bad input.

    ``rule``, ``text`` and ``offset`` say which rule was being matched, on
    what, and where it went wrong; any of them may be ``None`` when the error
    is not about a position in a text (a bad argument combination, say).
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        text: str | None = None,
        offset: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.text = text
        self.offset = offset

    def __str__(self) -> str:
        if self.text is None or self.offset is None:
            return self.message
        return f"{self.message}\n{caret_excerpt(self.text, self.offset)}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild,
            (type(self), self.message, self.rule, self.text, self.offset),
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, URIError)
        return (self.message, self.rule, self.text, self.offset) == (
            other.message,
            other.rule,
            other.text,
            other.offset,
        )

    def __hash__(self) -> int:
        return hash((type(self), self.message, self.rule, self.text, self.offset))


def _rebuild(
    cls: type[URIError],
    message: str,
    rule: str | None,
    text: str | None,
    offset: int | None,
) -> URIError:
    return cls(message, rule=rule, text=text, offset=offset)


class URISyntaxError(URIError):
    """The text does not match the rule; ``offset`` is where it stops being
    a prefix of any string the rule matches."""


class UnknownRuleError(URIError, LookupError):
    """No rule of that name in RFC 3986 Appendix A or the RFC 5234 core."""


class InputTooLongError(URIError):
    """The ``abnf`` engine refuses input longer than its documented limit,
    because its time and memory grow quadratically with the length."""


class GrammarError(URIError):
    """A grammar cannot be loaded: it is not RFC 5234 ABNF, or it uses a
    rule that neither it nor its imports define (``rule`` names the rule,
    the message where it is used)."""
