"""Paths from decoded segments, and decoded segments of a path (RFC 3986
section 3.3), in the ``path_segments`` convention of ``_components``.

Each segment given is decoded text, percent-encoded for ``segment`` (so
``/`` in one becomes ``%2F``); the first segment of a relative reference is
encoded for ``segment-nz-nc`` (section 4.2).  The functions that change the
path return their input's class (through ``_build.replace``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .._errors import URIError
from ._build import encoded_text, in_part, replace
from ._components import Components, RefT
from ._encode import check_errors, percent_decode

__all__ = ["decoded_segments", "joinpath", "with_path_segments"]


def _segment_list(segments: object, what: str) -> list[str]:
    if isinstance(segments, (str, bytes)) or not isinstance(segments, Iterable):
        msg = f"{what} must be an iterable of str segments, not {type(segments).__name__}"
        raise TypeError(msg)
    found = list(segments)
    for segment in found:
        if not isinstance(segment, str):
            msg = f"each path segment must be str, not {type(segment).__name__}"
            raise TypeError(msg)
    return found


def _joined(ref: Components, segments: list[str], *, first: int) -> str:
    """The path of ``segments``, those from index ``first`` on encoded as
    data: ``/`` in them becomes ``%2F``; the first segment of a relative
    reference also gets ``:`` encoded (section 4.2)."""
    relative = ref.scheme is None and ref.host is None
    out = segments[:first]
    for index in range(first, len(segments)):
        rule = "segment-nz-nc" if relative and index == 0 else "segment"
        # isegment and isegment-nz-nc for an IRI: non-ASCII stays as it is.
        out.append(encoded_text("path", segments[index], ref.dialect.rule(rule)))
    return "/".join(out)


def with_path_segments(ref: RefT, segments: Iterable[str]) -> RefT:
    """``ref`` with its path made of ``segments``, each decoded text that is
    percent-encoded for ``segment`` (so ``/`` in one becomes ``%2F``).  The
    convention is ``path_segments``'s: a leading ``""`` makes the path
    absolute, a trailing ``""`` a trailing slash, no segments the empty
    path; under an authority the path must be absolute or empty (section
    3.3), or ``URIError``.  ``.`` and ``..`` keep their meaning as
    dot-segments (section 3.3): no encoding can make them data, since
    ``%2E`` is unreserved and normalizes to ``.``."""
    found = _segment_list(segments, "segments")
    return replace(ref, path=_joined(ref, found, first=0))


def joinpath(ref: RefT, *segments: str) -> RefT:
    """``ref`` with ``segments`` appended to its path, each decoded text
    encoded as ``with_path_segments`` encodes it: ``/api`` and ``/api/``
    joined with ``v1`` both give ``/api/v1``, an empty path under an
    authority gives ``/v1``, and an empty segment adds a trailing slash.
    The query and fragment stay.  Unlike ``resolve`` (section 5.2), which
    replaces the last segment of a path without a trailing slash, this
    always appends."""
    added = _segment_list(segments, "segments")
    if not added:
        return ref
    kept = list(ref.path_segments)
    if kept and kept[-1] == "":
        kept.pop()  # a trailing slash: the new segment takes its place
    if not kept and ref.host is not None:
        kept = [""]  # section 3.3: a path under an authority starts with "/"
    return replace(ref, path=_joined(ref, kept + added, first=len(kept)))


def decoded_segments(ref: Components, *, errors: str = "strict") -> tuple[str, ...]:
    """``ref.path_segments``, each percent-decoded (``errors`` is
    ``percent_decode``'s)."""
    check_errors(errors, decoding=True)
    segments: list[str] = []
    for segment in ref.path_segments:
        try:
            segments.append(percent_decode(segment, errors=errors))
        except URIError as exc:
            raise in_part("path", exc) from None
    return tuple(segments)
