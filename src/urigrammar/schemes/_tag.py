"""The ``tag`` scheme: RFC 4151, ``grammar/rfc4151.abnf``'s ``tagURI``.

Fields follow section 2.1: ``authority_name`` (a DNS name or an email
address), ``date`` as written, ``specific`` and ``fragment``; ``day`` is
the date as a ``datetime.date``, with the month and day "01" where left
out (section 2.2).

Section 2.2 adds one requirement the ABNF does not say: the date is a day
of the Gregorian calendar ("2001-02-30" matches ``date`` and is none).
Its other rules are on minting (no future date, an authority name
assigned on that date) and cannot be read from the text; section 2.1's
"fully qualified" domain name neither: the profile checks none of them.
Section 2.4 compares tags character by character, so equality is the
exact text.

The calendar requirement is also a language
(``grammar/rfc4151-requirements.abnf``), so that the native back end
validates with one DFA.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from ..shipped import RFC4151, RFC4151_REQUIREMENTS
from ._profile import Profile, Requirement
from ._value import SchemeURI

if TYPE_CHECKING:
    from ..engine import RuleMatch

__all__ = ["TAG", "TagValue"]


def _day(date: str) -> datetime.date | None:
    """The day ``date`` names (section 2.2: month and day default to
    "01"), or ``None`` when the calendar has no such day.  ``date`` is
    the grammar's: "YYYY", "YYYY-MM" or "YYYY-MM-DD", digits only."""
    parts = [int(part) for part in date.split("-")] + [1, 1]
    try:
        return datetime.date(parts[0], parts[1], parts[2])
    except ValueError:
        return None


def _not_a_day(match: RuleMatch) -> int | None:
    span = match.span("date")
    if span is None:
        return None
    start, end = span
    return start if _day(match.text[start:end]) is None else None


class TagValue(SchemeURI):
    """A tag URI (RFC 4151).  Equal by exact text (section 2.4: tags are
    compared character by character)."""

    __slots__ = ()

    FIELDS = ("authority_name", "date", "specific", "fragment")

    @property
    def authority_name(self) -> str:
        """The domain name or email address that mints the tag (section
        2.1, ``authorityName``)."""
        found = self._group("authorityName")
        assert found is not None
        return found

    @property
    def date(self) -> str:
        """The date as written: "YYYY", "YYYY-MM" or "YYYY-MM-DD" (section
        2.1, ``date``)."""
        found = self._group("date")
        assert found is not None
        return found

    @property
    def day(self) -> datetime.date:
        """The day the date names, month and day "01" where left out
        (section 2.2)."""
        found = _day(self.date)
        assert found is not None  # the profile's requirement
        return found

    @property
    def specific(self) -> str:
        """The name-space-specific part, ``""`` for none (section 2.1)."""
        found = self._group("specific")
        assert found is not None
        return found

    @property
    def fragment(self) -> str | None:
        """The fragment after "#", or ``None`` (section 2.1)."""
        return self._group("fragment")


#: The ``tag`` profile: RFC 4151 section 2.1, and section 2.2's calendar.
TAG: Profile[TagValue] = Profile(
    "tag",
    RFC4151,
    "tagURI",
    value=TagValue,
    fields={
        "authority_name": "authorityName",
        "date": "date",
        "specific": "specific",
        "fragment": "fragment",
    },
    requirements=[
        Requirement(
            "RFC 4151 section 2.2",
            "date",
            "the date is a day of the Gregorian calendar",
            _not_a_day,
            needs=("date",),
            language=(RFC4151_REQUIREMENTS, "tag-day"),
        )
    ],
    cite="RFC 4151 section 2.1",
)
