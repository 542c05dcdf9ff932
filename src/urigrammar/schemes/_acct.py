"""The ``acct`` scheme: RFC 7565, ``grammar/rfc7565.abnf``'s ``acctURI``
with ``rfc7565-errata.abnf``'s ``userpart`` (as published, userpart takes
one character or a sub-delim first, and the RFC's own examples do not
match; that file says why).

Fields follow section 4: ``userpart`` (the "user" portion, the account
name, as written) and ``host`` (RFC 3986's host, the service provider's
domain name).  ``user`` is the userpart percent-decoded: section 4 writes
an email address as a userpart by percent-encoding its "@".

Section 6 says what an application MUST ensure before percent-encoding
(PRECIS IdentifierClass code points, RFC 5892 host names, A-labels): a
rule on constructing a URI from Unicode strings, not a syntax the text can
be checked against without a PRECIS implementation; the profile does not
check it.
"""

from __future__ import annotations

from ..shipped import RFC7565, percent_decode
from ._profile import Profile
from ._value import SchemeURI

__all__ = ["ACCT", "AcctValue"]


class AcctValue(SchemeURI):
    """An acct URI (RFC 7565).  Equal by exact text: RFC 7565 defines no
    comparison of its own (section 4 leaves it to RFC 3986)."""

    __slots__ = ()

    FIELDS = ("userpart", "host")

    @property
    def userpart(self) -> str:
        """The "user" portion, the account name, as written (section 4)."""
        found = self._group("userpart")
        assert found is not None
        return found

    @property
    def host(self) -> str:
        """The "host" portion, the service provider (section 4; RFC 3986's
        host)."""
        found = self._group("host")
        assert found is not None
        return found

    @property
    def user(self) -> str:
        """The userpart percent-decoded as UTF-8 (section 6: characters
        are UTF-8, then percent-encoded).  ``URIError`` when the octets
        are not UTF-8."""
        return percent_decode(self.userpart)


#: The ``acct`` profile: RFC 7565 section 7, its userpart grouped.
ACCT: Profile[AcctValue] = Profile(
    "acct",
    RFC7565,
    "acctURI",
    value=AcctValue,
    fields={"userpart": "userpart", "host": "host"},
    cite="RFC 7565 section 7",
)
