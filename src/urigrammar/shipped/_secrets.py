"""The URI family's secret: the password of a userinfo (RFC 3986 section
3.2.1 deprecates ``user:password``, and no message, excerpt or ``repr``
may show one).  Errors about the URI family's texts carry
``userinfo_secret`` as their ``secrets`` finder (``urigrammar._errors``),
and the shipped grammars hand it to every error they raise; errors about
other grammars have none.
"""

from __future__ import annotations

from .._errors import HIDDEN

__all__ = ["mask_password", "password_span", "userinfo_secret"]


def _authority_end(text: str, start: int, stop: int | None = None) -> int:
    """Where the first ``/``, ``?`` or ``#`` of ``text[start:stop]`` is, or
    -1: the end of an authority."""
    found = [at for at in (text.find(c, start, stop) for c in "/?#") if at >= 0]
    return min(found, default=-1)


def _cut_password(text: str, start: int, stop: int) -> int:
    """Where a userinfo ends whose password holds an unencoded ``/``, ``?``
    or ``#`` at ``stop``, the authority ``text[start:stop]`` holding no
    ``@``; -1 for none.

    Only when ``text[start:stop]`` cannot be ``host [ ":" port ]``: it
    has a ``:`` that starts no port (something other than digits follows
    it; ``*DIGIT`` may be empty) and it is no IP-literal (whose ``:`` are
    the address's).  A host has no ``:`` (section 3.2.2), so such a
    ``:`` is a userinfo's, and the text is no URI (nor IRI) however it
    goes on.  A URI Template expression after it (``{port}``) may expand
    to a port, so that is left alone too.  The userinfo then ends at the
    first ``@`` after ``stop``, or the last of a run of them before the
    next ``/``, ``?`` or ``#`` (a host has no ``@`` either): ``u:p/ss``
    in ``http://u:p/ss@h/a@b``.

    Conservative on purpose: a valid URI is never masked beyond its own
    userinfo, so a password that a URI could read otherwise stays as the
    URI reads it.  ``http://u:12/x@h/`` is host ``u``, port ``12`` and the
    path ``/x@h/``; ``http://u:/x@h`` has an empty port; in
    ``http://u:p@s/x@h/`` the password is ``p``."""
    authority = text[start:stop]
    colon = authority.find(":")
    if colon < 0 or authority.startswith("["):
        return -1
    port = authority[colon + 1 :]
    if not port or (port.isascii() and port.isdigit()) or "{" in port:
        return -1
    at = text.find("@", stop)
    if at < 0:
        return -1
    after = _authority_end(text, at)
    return text.rfind("@", at, len(text) if after < 0 else after)


def password_span(text: str, rule: str | None = None) -> tuple[int, int] | None:
    """Where the password of ``text``'s userinfo is (``userinfo_secret``)."""
    found = userinfo_secret(text, rule)
    return None if found is None else found[1:]


def userinfo_secret(text: str, rule: str | None = None) -> tuple[int, int, int] | None:
    """Where the userinfo of ``text`` starts, and where its password starts
    and ends, when it has one.  The password is what follows the first
    ``:`` of userinfo (section 3.2.1 deprecates ``user:password``), or
    ``None``.  ``text`` may be invalid, so the userinfo is found loosely: after
    ``//`` at the start or after the first ``:`` (when no ``/``, ``?`` or ``#``
    comes before it), up to the last ``@`` before the first ``/``, ``?`` or
    ``#``.  For an error about the ``userinfo`` rule the whole text is one;
    for one about ``authority``, what comes before its last ``@``.  RFC 3987's
    ``iuserinfo`` and ``iauthority`` (section 2.2) are the same parts of an
    IRI, so they are read alike.

    A password typed with an unencoded ``/``, ``?`` or ``#``
    (``http://u:p/ss@h/``) ends that first reading early, at an authority
    with no ``@``; ``_cut_password`` then reads past the delimiter.  It
    never changes how a valid URI or IRI reads: it applies only where the
    authority cannot be ``host [ ":" port ]``."""
    if rule in ("userinfo", "iuserinfo"):
        start, end = 0, len(text)
    elif rule in ("authority", "iauthority"):
        # [ userinfo "@" ] host [ ":" port ]: the userinfo, if any, is
        # everything before the last "@".
        start, end = 0, text.rfind("@")
        if end < 0:
            return None
    else:
        if text.startswith("//"):
            start = 2
        else:
            colon = text.find(":")
            if (
                colon < 0
                or _authority_end(text, 0, colon) >= 0
                or not text.startswith("//", colon + 1)
            ):
                return None
            start = colon + 3
        stop = _authority_end(text, start)
        end = text.rfind("@", start, len(text) if stop < 0 else stop)
        if end < 0 and stop >= 0:
            end = _cut_password(text, start, stop)
        if end < 0:
            return None
    colon = text.find(":", start, end)
    # An empty password hides nothing; masking it would rewrite every ":"
    # of the message (the userinfo ":" is the masked one's prefix), again
    # on each unpickling.
    return None if colon < 0 or colon + 1 == end else (start, colon + 1, end)


def mask_password(text: str, rule: str | None = None) -> str:
    """``text`` with the password of its userinfo (what follows the first
    ``:``; RFC 3986 section 3.2.1 deprecates ``user:password``) written as
    ``****``, as every message and ``repr`` writes it: for logs and output
    that people read.  The rest of the text is kept as it is, so a masked
    URI is still a URI of the same parts.
    ``rule`` says what ``text`` is when it is not a whole URI or IRI:
    ``"userinfo"`` or ``"authority"`` (or ``"iuserinfo"``,
    ``"iauthority"``, in any case); any other rule reads as a whole URI.
    A text with no password is returned unchanged; an invalid one is
    masked as ``userinfo_secret`` finds its password.

    >>> import urigrammar
    >>> urigrammar.mask_password("https://admin:S3cret@example.com/a")
    'https://admin:****@example.com/a'
    >>> urigrammar.mask_password("admin:S3cret", "userinfo"), urigrammar.mask_password("/a:b@c")
    ('admin:****', '/a:b@c')
    """
    if not isinstance(text, str):
        msg = f"mask_password takes a str, not {type(text).__name__}"
        raise TypeError(msg)
    text = str.__str__(text)  # a str subclass: the characters it holds
    # Rule names are compared without case (RFC 5234 section 2.1).
    found = userinfo_secret(text, None if rule is None else rule.lower())
    if found is None:
        return text
    _, start, end = found
    return text[:start] + HIDDEN + text[end:]
