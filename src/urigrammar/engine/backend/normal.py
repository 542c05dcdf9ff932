"""RFC 3986's normalization of a reference's text (section 6), in C on the
native back end (``_native_c/normal.c``); the URI model's Python is the
pure back end's, and the C one's reference in the tests.  The model says
which slot of its records holds which component, which octets are
decoded (the grammar's ``unreserved``) and what the scheme's rule is."""

from __future__ import annotations

from typing import Protocol

from . import native
from .backend import Backend

__all__ = ["NormalizeUri", "uri_normalizer"]


class NormalizeUri(Protocol):
    """``normalize_uri(record, slots, decode, default_port,
    empty_path_is_root, scheme_based)``: the normal text of an ASCII
    record, else ``None``."""

    def __call__(
        self,
        record: object,
        slots: tuple[int, ...],
        decode: bytes,
        default_port: int | None,
        empty_path_is_root: bool,
        scheme_based: bool,
        /,
    ) -> str | None: ...


def uri_normalizer(backend: Backend) -> NormalizeUri | None:
    """The C normalization on ``backend``, or ``None`` where it runs in
    Python (the pure back end)."""
    if not backend.native or native.MODULE is None:
        return None
    found: NormalizeUri = native.MODULE.normalize_uri
    return found
