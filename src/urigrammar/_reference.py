"""``URIReference``: the components of a URI-reference (RFC 3986 section 4.1).

A frozen value object.  ``None`` means a component's delimiter is absent,
``""`` that it is present and empty (``http://a?`` has query ``""``,
``http://a`` has query ``None``); the path is always a ``str``, possibly
empty (section 3.3: every URI-reference has a path).  The port is kept as
written (``port_text``) besides its integer value, so that ``str()`` gives
back exactly the parsed text (section 5.3), ``http://a:/`` and
``http://a:0080/`` included.

``==`` and ``hash`` compare the components exactly; equivalence after
normalization (section 6) is a separate question.

``path_segments`` convention: the path split on ``"/"``, as written
(percent-encodings kept).  An absolute path starts with an empty segment
(``/a/b`` -> ``("", "a", "b")``), a rootless one does not (``a/b`` ->
``("a", "b")``), the empty path has no segments, and a trailing slash gives
a final empty segment (``/a/`` -> ``("", "a", "")``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["URIReference"]

# int() refuses more than this many digits (CVE-2020-10735); `port = *DIGIT`
# has no bound, so long ports are converted a chunk at a time.
_DIGIT_CHUNK = 4000


def port_number(text: str) -> int | None:
    """The value of a ``port`` as written; ``None`` for the empty port."""
    digits = text.lstrip("0") or text[:1]
    if not digits:
        return None
    if len(digits) <= _DIGIT_CHUNK:
        return int(digits)
    value = 0
    for i in range(0, len(digits), _DIGIT_CHUNK):
        chunk = digits[i : i + _DIGIT_CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


@dataclass(frozen=True, slots=True, repr=False)
class URIReference:
    """A parsed URI-reference.  Build one with ``parse``; ``str()`` recomposes
    it (RFC 3986 section 5.3)."""

    scheme: str | None = None
    userinfo: str | None = None
    host: str | None = None
    port: int | None = None
    path: str = ""
    query: str | None = None
    fragment: str | None = None
    #: The rule the host matched: "IPv4address", "IPv6address", "IPvFuture"
    #: or "reg-name" (section 3.2.2); ``None`` without an authority.
    host_kind: str | None = None
    #: The port as written: ``"0080"``, ``""`` for ``http://a:/``, ``None``
    #: when there is no ``:``.
    port_text: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.port_text is None and self.port is not None:
            object.__setattr__(self, "port_text", str(self.port))
        elif self.port_text is not None and self.port is None and self.port_text:
            object.__setattr__(self, "port", port_number(self.port_text))

    def __reduce__(self) -> tuple[Any, ...]:
        # Explicit, because frozen slotted dataclasses do not pickle on 3.10.
        return (_rebuild, tuple(getattr(self, f.name) for f in fields(self)))

    @property
    def authority(self) -> str | None:
        """``[ userinfo "@" ] host [ ":" port ]`` (section 3.2), or ``None``."""
        if self.host is None:
            return None
        text = self.host
        if self.userinfo is not None:
            text = f"{self.userinfo}@{text}"
        if self.port_text is not None:
            text = f"{text}:{self.port_text}"
        return text

    @property
    def is_relative(self) -> bool:
        """A relative-ref (section 4.2): no scheme."""
        return self.scheme is None

    @property
    def is_absolute(self) -> bool:
        """Matches absolute-URI (section 4.3): a scheme and no fragment."""
        return self.scheme is not None and self.fragment is None

    @property
    def path_segments(self) -> tuple[str, ...]:
        """The path split on ``/``; see the module docstring for the convention."""
        return tuple(self.path.split("/")) if self.path else ()

    def __str__(self) -> str:
        # Section 5.3, with undefined and empty components kept apart.
        parts: list[str] = []
        if self.scheme is not None:
            parts += (self.scheme, ":")
        authority = self.authority
        if authority is not None:
            parts += ("//", authority)
        parts.append(self.path)
        if self.query is not None:
            parts += ("?", self.query)
        if self.fragment is not None:
            parts += ("#", self.fragment)
        return "".join(parts)

    # --- Resolution and normalization (sections 5 and 6): thin methods over
    # --- _resolve.py and _normalize.py go here.

    # --- Building and changing references: thin methods over _build.py and
    # --- _encode.py go here.

    def __repr__(self) -> str:
        # Section 3.2.1 deprecates "user:password"; whatever follows the
        # first ":" of userinfo is a secret and never goes into a log.
        shown: list[str] = []
        for f in fields(self):
            if not f.repr:
                continue
            value = getattr(self, f.name)
            if f.name == "userinfo" and value is not None and ":" in value:
                value = value.partition(":")[0] + ":<hidden>"
            shown.append(f"{f.name}={value!r}")
        return f"URIReference({', '.join(shown)})"


def _rebuild(*values: Any) -> URIReference:
    return URIReference(*values)

