"""The ``urn`` scheme: RFC 8141, ``grammar/rfc8141.abnf``'s ``namestring``.

Its fields follow section 2: ``nid`` and ``nss`` (section 2.1 and 2.2),
``r_component``, ``q_component`` and ``f_component`` (section 2.3).
Equality is URN-equivalence (section 3.1): the ``assigned-name`` with
"urn" and the NID in lower case and the hex digits of each percent-encoding
in upper case; the r-, q- and f-components are left out of it.
"""

from __future__ import annotations

import re

from ..shipped import RFC8141
from ._profile import Profile
from ._value import SchemeURI

__all__ = ["URN", "URNValue"]

_PCT = re.compile(r"%[0-9A-Fa-f]{2}")


class URNValue(SchemeURI):
    """A URN (RFC 8141).  ``==`` and ``hash`` are URN-equivalence."""

    __slots__ = ()

    FIELDS = ("nid", "nss", "r_component", "q_component", "f_component")

    @property
    def nid(self) -> str:
        """The namespace identifier, as written (section 2.1: compare it
        without case)."""
        found = self._group("NID")
        assert found is not None
        return found

    @property
    def nss(self) -> str:
        """The namespace-specific string (section 2.2)."""
        found = self._group("NSS")
        assert found is not None
        return found

    def _rq(self) -> tuple[str | None, str | None]:
        """The r- and q-components.  The section 2 ABNF lets an
        r-component hold "?=", so it could swallow a q-component; section
        2.3.1 settles it: the r-component ends at the first "?=", which
        begins the q-component."""
        rq = self._group("rq-components")
        if not rq:
            return None, None
        if rq.startswith("?+"):
            cut = rq.find("?=", 2)
            if cut < 0:
                return rq[2:], None
            return rq[2:cut], rq[cut + 2 :]
        return None, rq[2:]

    @property
    def r_component(self) -> str | None:
        """The r-component after "?+" (section 2.3.1), or ``None``."""
        return self._rq()[0]

    @property
    def q_component(self) -> str | None:
        """The q-component after "?=" (section 2.3.2), or ``None``."""
        return self._rq()[1]

    @property
    def f_component(self) -> str | None:
        """The f-component after "#" (section 2.3.3), or ``None``."""
        return self._group("f-component")

    @property
    def assigned_name(self) -> str:
        """``"urn:" NID ":" NSS`` as written: what equivalence compares."""
        found = self._group("assigned-name")
        assert found is not None
        return found

    def _key(self) -> object:
        """Section 3.1's normal form of the assigned-name."""
        nss = _PCT.sub(lambda pct: pct.group().upper(), self.nss)
        return f"urn:{self.nid.lower()}:{nss}"


#: The ``urn`` profile: RFC 8141 section 2.
URN: Profile[URNValue] = Profile(
    "urn",
    RFC8141,
    "namestring",
    value=URNValue,
    fields={
        "nid": "NID",
        "nss": "NSS",
        "assigned_name": "assigned-name",
        "rq_components": "rq-components",
        "f_component": "f-component",
    },
    cite="RFC 8141 section 2",
)
