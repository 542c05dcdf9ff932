"""The ``data`` scheme: RFC 2397, ``grammar/rfc2397-uri.abnf``'s ``data-URI``.

The grammar is section 3's, transcribed into ABNF with erratum 2045
(``uric`` for the ``urlchar`` RFC 2396 lacks), its tokens written as URI
text (``grammar/rfc2397-imports.abnf``), and two things section 3 leaves
to prose (``grammar/rfc2397-uri.abnf``): after ";base64" the data is
base64 text, padded, with nothing outside the alphabet (section 2, RFC
4648 sections 3.2 and 3.3), and a "#" fragment may follow (RFC 3986
section 3.5).  So a URI this profile accepts always decodes: nothing is
left for a ``Requirement``, and ``validate`` is one run of the rule.

The fields follow section 2: ``mediatype`` (``text/plain`` when no type
is given), ``parameters``, ``charset``, ``base64`` and ``data``, the
octets.  Equality is the default, the exact text: RFC 2397 defines no
equivalence of data URIs.
"""

from __future__ import annotations

import base64
import binascii

from .._errors import URISyntaxError
from ..shipped import RFC2397, percent_decode_bytes, userinfo_secret
from ._profile import Profile
from ._value import SchemeURI

__all__ = ["DATA", "DataValue"]

# RFC 2397 section 2: "If <mediatype> is omitted, it defaults to
# text/plain;charset=US-ASCII.  As a shorthand, "text/plain" can be
# omitted but the charset parameter supplied."
_DEFAULT_TYPE = "text/plain"
_DEFAULT_CHARSET = "US-ASCII"


def _decoded(text: str) -> str:
    """A token or parameter value with its escapes decoded.  The grammar
    admits only escapes of US-ASCII octets there (rfc2397-imports.abnf),
    which Latin-1 maps one to one; it never raises."""
    return percent_decode_bytes(text).decode("latin-1")


class DataValue(SchemeURI):
    """A data URI (RFC 2397): its media type, parameters and octets."""

    __slots__ = ()

    FIELDS = ("mediatype", "parameters", "charset", "base64", "data", "fragment")

    @property
    def mediatype(self) -> str:
        """``type/subtype``, escapes decoded, in lower case (RFC 2045
        section 5.1: matched without case); ``text/plain`` when the URI
        gives none, parameters or not (RFC 2397 section 2)."""
        kind = self._group("type")
        sub = self._group("subtype")
        if kind is None or sub is None:
            return _DEFAULT_TYPE
        return f"{_decoded(kind)}/{_decoded(sub)}".lower()

    @property
    def parameters(self) -> tuple[tuple[str, str], ...]:
        """The parameters as written, in order, each ``(attribute, value)``:
        the attribute in lower case (RFC 2045 section 5.1: "Matching of
        attributes is ALWAYS case-insensitive"), the value with its escapes
        decoded and its case kept (values are "normally case sensitive").
        A tuple, not a mapping: nothing in RFC 2045 or 2397 says which of
        two parameters of one name counts, so both are kept.  A value that
        decodes to a quoted string keeps its quote marks (RFC 2397 section
        3: escapes stand "instead of quoted string").  The section 2
        default (``charset=US-ASCII``) is not listed: ``charset`` gives it."""
        match = self._match
        names = match.groups("attribute")
        values = match.groups("value")
        return tuple(
            (_decoded(name).lower(), _decoded(value))
            for name, value in zip(names, values, strict=True)
        )

    @property
    def charset(self) -> str | None:
        """The first ``charset`` parameter's value; ``US-ASCII`` when the
        URI has no media type at all ("data:,..."), the default of RFC 2397
        section 2; otherwise ``None``."""
        for name, value in self.parameters:
            if name == "charset":
                return value
        if not self._group("mediatype"):  # absent, or matched empty
            return _DEFAULT_CHARSET
        return None

    @property
    def base64(self) -> bool:
        """Whether ";base64" (any case) marks the data as base64 (section 2)."""
        return self._span("base64-data") is not None

    @property
    def payload(self) -> str:
        """The data as written, between the "," and any "#"."""
        found = self._group("base64-data")
        if found is None:
            found = self._group("data")
        assert found is not None
        return found

    @property
    def data(self) -> bytes:
        """The octets the URI carries: the payload's escapes decoded, then
        base64 decoded when ``base64`` (section 2)."""
        octets = percent_decode_bytes(self.payload)
        if not self.base64:
            return octets
        try:
            return base64.b64decode(octets, validate=True)
        except (binascii.Error, ValueError) as exc:
            # The grammar admits only well-formed base64 here; this is the
            # guard that keeps binascii's error from escaping if it did not.
            span = self._span("base64-data")
            assert span is not None
            msg = f"not a valid data-URI: the data is not base64 ({exc}), at offset {span[0]}"
            raise URISyntaxError(
                msg, rule="base64-data", text=self.text, offset=span[0], secrets=userinfo_secret
            ) from None

    @property
    def fragment(self) -> str | None:
        """The fragment after "#" (RFC 3986 section 3.5), or ``None``."""
        return self._group("fragment")


#: The ``data`` profile: RFC 2397 sections 2 and 3.
DATA: Profile[DataValue] = Profile(
    "data",
    RFC2397,
    "data-URI",
    value=DataValue,
    fields={
        "mediatype": "mediatype",
        "type": "type",
        "subtype": "subtype",
        "attribute": "attribute",
        "value": "value",
        "base64_data": "base64-data",
        "data": "data",
        "fragment": "fragment",
    },
    cite="RFC 2397 section 3",
)
