"""The ``ni`` scheme: RFC 6920, ``grammar/rfc6920.abnf``'s ``NI-URI``.

Fields follow section 3: ``authority`` (``""`` when there is none),
``algorithm`` (the hash name string, ``alg``), ``value`` (``val``, as
written), ``query`` (``None`` when absent); ``digest`` is the value
decoded, the hash's octets.  Two values are equal when they name the same
object (section 2).

Section 3's prose says what the ABNF does not, two requirements:

* the value "MUST be encoded using the base64url [RFC4648] encoding, with
  no "=" padding characters": ``val`` is ``1*unreserved``, which also
  takes "." and "~", lengths that are no base64url (one character past
  a multiple of four) and final characters no encoder writes (bits set
  past the last octet).  Decoded with the standard library's base64;
* the value is "the output of base64url encoding ... the result of
  applying the hash function ("alg")": for a hash name of section 9.4's
  registry, the digest has the registry's length (the truncated
  sha-256s).  Names the registry of 2013 does not list are not checked:
  IANA may have added them since.

Each requirement is also a language (``grammar/rfc6920-requirements.abnf``):
the first of the values that keep it, the second, a prohibition, of the
values that break it; so that the native back end validates with one DFA.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from ..shipped import RFC6920, RFC6920_REQUIREMENTS
from ._profile import Profile, Requirement
from ._value import SchemeURI

if TYPE_CHECKING:
    from ..engine import RuleMatch

__all__ = ["NI", "NiValue"]

#: Section 9.4, Figure 11: each hash name string's value length, in octets.
_LENGTHS = {
    "sha-256": 32,
    "sha-256-128": 16,
    "sha-256-120": 15,
    "sha-256-96": 12,
    "sha-256-64": 8,
    "sha-256-32": 4,
}

#: base64url's two characters that base64 writes otherwise (RFC 4648
#: section 5).
_TO_BASE64 = str.maketrans("-_", "+/")


def _decode(value: str) -> bytes | None:
    """The octets of the base64url ``value`` without padding, or ``None``
    when it is no output of that encoding (section 3; RFC 4648 section 5):
    a character outside its alphabet, a length one past a multiple of
    four, or bits set past the last octet (RFC 4648 section 3.5), which
    an encoder never writes."""
    try:
        octets = base64.b64decode(
            value.translate(_TO_BASE64) + "=" * (-len(value) % 4), validate=True
        )
    except (binascii.Error, ValueError):
        return None
    return octets if base64.urlsafe_b64encode(octets).rstrip(b"=").decode() == value else None


def _not_base64url(match: RuleMatch) -> int | None:
    span = match.span("val")
    if span is None:
        return None
    start, end = span
    return start if _decode(match.text[start:end]) is None else None


def _wrong_length(match: RuleMatch) -> int | None:
    alg, val = match.span("alg"), match.span("val")
    if alg is None or val is None:
        return None
    wanted = _LENGTHS.get(match.text[alg[0] : alg[1]].lower())
    digest = _decode(match.text[val[0] : val[1]])
    if wanted is None or digest is None or len(digest) == wanted:
        return None
    return val[0]


class NiValue(SchemeURI):
    """An ni URI (RFC 6920).  ``==`` and ``hash`` are section 2's
    comparison: "only ... the digest algorithm and the digest value", the
    value decoded ("regardless of encoding"); not the authority or the
    query.  The algorithm is compared as written: RFC 6920 says nothing of
    its case, and its registry (section 9.4) writes lower case."""

    __slots__ = ()

    FIELDS = ("authority", "algorithm", "value", "query")

    @property
    def authority(self) -> str:
        """The authority, ``""`` when there is none (section 3)."""
        return self._group("authority") or ""

    @property
    def algorithm(self) -> str:
        """The hash name string (section 3, ``alg``; section 9.4)."""
        found = self._group("alg")
        assert found is not None
        return found

    @property
    def value(self) -> str:
        """The digest value as written, base64url (section 3, ``val``)."""
        found = self._group("val")
        assert found is not None
        return found

    @property
    def digest(self) -> bytes:
        """The digest value's octets (section 3)."""
        found = _decode(self.value)
        assert found is not None  # the profile's requirement
        return found

    @property
    def query(self) -> str | None:
        """The query after "?", or ``None`` (section 3: "tag=value" pairs
        separated by "&", such as section 3.1's "ct")."""
        return self._group("query")

    def _key(self) -> object:
        return (self.algorithm, self.digest)


_NEEDS = ("alg", "val")

#: The ``ni`` profile: RFC 6920 section 3.
NI: Profile[NiValue] = Profile(
    "ni",
    RFC6920,
    "NI-URI",
    value=NiValue,
    fields={"authority": "authority", "algorithm": "alg", "value": "val", "query": "query"},
    requirements=[
        Requirement(
            "RFC 6920 section 3",
            "val",
            "the digest value is base64url without padding",
            _not_base64url,
            needs=_NEEDS,
            language=(RFC6920_REQUIREMENTS, "ni-base64url"),
        ),
        Requirement(
            "RFC 6920 sections 3 and 9.4",
            "val",
            "the digest value has the length of the hash the algorithm names",
            _wrong_length,
            needs=_NEEDS,
            forbidden=(RFC6920_REQUIREMENTS, "ni-wrong-digest-length"),
        ),
    ],
    cite="RFC 6920 section 3",
)
