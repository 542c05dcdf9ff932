"""The ``did`` scheme: W3C Decentralized Identifiers (DIDs) v1.0,
``grammar/did-core.abnf``'s ``did-url`` (section "DID URL Syntax"), which
is a ``did`` (section "DID Syntax") and RFC 3986's path, query and
fragment.

The ABNF's "did:" is a case-insensitive string (RFC 5234 section 2.3);
the prose of "DID Syntax" says more: "The DID scheme name MUST be an ASCII
lowercase string", one requirement.  (The method name is lower case by
its own rule, ``method-char``.)  The requirement is also a language,
``grammar/did-core-lowercase.abnf``'s ``did-scheme-lowercase``, so that
the native back end validates with one DFA.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..shipped import DID_CORE, DID_CORE_LOWERCASE
from ._profile import Profile, Requirement
from ._value import SchemeURI

if TYPE_CHECKING:
    from ..engine import RuleMatch

__all__ = ["DID", "DIDValue"]


class DIDValue(SchemeURI):
    """A DID URL (W3C DID Core v1.0): the DID, then RFC 3986's path, query
    and fragment.  Equal by exact text: DID Core defines no equivalence
    beyond it (each method may)."""

    __slots__ = ()

    FIELDS = ("method", "method_specific_id", "did", "path", "query", "fragment")

    @property
    def method(self) -> str:
        """The method name ("DID Syntax": ``method-name``)."""
        found = self._group("method-name")
        assert found is not None
        return found

    @property
    def method_specific_id(self) -> str:
        """The method-specific identifier, as written (``method-specific-id``)."""
        found = self._group("method-specific-id")
        assert found is not None
        return found

    @property
    def did(self) -> str:
        """The DID alone, without path, query or fragment (``did``)."""
        found = self._group("did")
        assert found is not None
        return found

    @property
    def path(self) -> str:
        """The path ("Path": RFC 3986's ``path-abempty``), ``""`` for none."""
        found = self._group("path-abempty")
        assert found is not None
        return found

    @property
    def query(self) -> str | None:
        """The query after "?" ("Query"), or ``None``."""
        return self._group("query")

    @property
    def fragment(self) -> str | None:
        """The fragment after "#" ("Fragment"), or ``None``."""
        return self._group("fragment")


def _scheme_not_lowercase(match: RuleMatch) -> int | None:
    text = match.text
    return None if text.startswith("did:") else 0


#: The ``did`` profile: DID Core's ``did-url``, which holds every DID.
DID: Profile[DIDValue] = Profile(
    "did",
    DID_CORE,
    "did-url",
    value=DIDValue,
    fields={
        "method": "method-name",
        "method_specific_id": "method-specific-id",
        "did": "did",
        "path": "path-abempty",
        "query": "query",
        "fragment": "fragment",
    },
    requirements=[
        Requirement(
            'DID Core v1.0, section "DID Syntax"',
            "did",
            "the DID scheme name is lower case",
            _scheme_not_lowercase,
            language=(DID_CORE_LOWERCASE, "did-scheme-lowercase"),
        )
    ],
    cite='DID Core v1.0, sections "DID Syntax" and "DID URL Syntax"',
)
