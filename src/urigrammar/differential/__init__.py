"""Where RFC 3986, the URL Standard and the numeric resolver read a URL
differently: ``diff`` lists the differences of a text, each with its kind
and offset; ``agreed_host`` gives the host only when all three read the
same one.

A URL checked by one parser and fetched by another is how open-redirect
and SSRF checks are bypassed: ``http://evil.com\\@good.com/`` is
``evil.com`` to a browser and invalid to RFC 3986, ``http://127.1/`` a
reg-name to RFC 3986 and 127.0.0.1 to a browser and to ``getaddrinfo``.

* RFC 3986's reading is urigrammar's own: ``parse`` (section 4.1) and
  ``resolve`` (section 5.2).
* The URL Standard's (https://url.spec.whatwg.org/) is Ada's, the URL
  parser of Node.js, through its Python binding ``can_ada``: the
  ``urigrammar[whatwg]`` extra, imported on the first call
  (``MissingExtraError`` without it).  Nothing here re-implements the URL
  Standard; it only places the offsets.
* The numeric resolver's is ``socket.inet_aton``, the numbers-and-dots
  reading ``getaddrinfo`` gives a name before it looks it up.

Two readings are the same when their scheme, host, port and path are
equivalent by RFC 3986 section 6.2, applied to both (``_compare`` says
exactly how); the query and fragment are not compared.

``diff`` and ``agreed_host`` also compare the Python parsers people chain
(``readers``: ``urllib.parse``, urllib3, httpx, yarl and pydantic, each
behind its extra; ``_readers``), pair by pair (``_pairs``).

``HostPolicy`` (``_policy``) is the allow list decided on that agreed host.
"""

from __future__ import annotations

from ._diff import agreed_host, diff
from ._findings import KINDS, SEVERITIES, Finding, HostDisagreementError, Kind, Reading
from ._policy import HostPolicy, HostPolicyError
from ._readers import READERS

__all__ = [
    "KINDS",
    "READERS",
    "SEVERITIES",
    "Finding",
    "HostDisagreementError",
    "HostPolicy",
    "HostPolicyError",
    "Kind",
    "Reading",
    "agreed_host",
    "diff",
]
