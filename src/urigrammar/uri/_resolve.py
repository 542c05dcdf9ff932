"""Reference resolution (RFC 3986 section 5.2) and its inverse.

Each function is named after the step of section 5.2 it implements:
``remove_dot_segments`` (5.2.4), ``merge`` (5.2.3) and ``resolve`` (5.2.2,
with the base established as section 5.1 requires).  ``relativize`` goes the
other way: the shortest reference that ``resolve`` turns back into a given
target.

Recomposition safety (sections 3.3, 4.2 and 5.3).  Every reference built
here recomposes into text that parses back to the same components:

* A path that starts with ``//`` where there is no authority would read back
  as an authority.  Section 5.2.2 can produce one (base ``foo:/a``, reference
  ``..//b`` gives the path ``//b``; plain recomposition gives ``foo://b``,
  whose host is ``b``).  Such a path is emitted as ``/.//b``: the ``/.``
  segment is removed again by any later resolution, so the text means the
  same target, and it reads back with no authority.
* A relative-path reference whose first segment contains ``:`` would read
  back as a scheme; it is emitted with a ``./`` prefix (section 4.2).

``unambiguous_path`` applies both rules, which ``path_clash`` states (the
public constructor, ``build`` and ``replace`` refuse such paths instead).

The functions work on ``Components`` and return the class of what they were
given; a string is parsed into the class passed as ``cls`` (the public
wrappers in ``_reference`` pass ``URIReference``).
"""

from __future__ import annotations

from .._errors import URIError, URISyntaxError
from ..engine import text_of
from ..shipped import userinfo_secret
from ._api import check, parse_as
from ._components import Components, RefT, evolve, path_clash, unchecked

__all__ = [
    "as_base",
    "as_reference",
    "has_dot_segments",
    "merge",
    "relativize",
    "remove_dot_segments",
    "resolve",
    "unambiguous_path",
    "with_iri_hint",
]


def as_reference(ref: RefT | str, cls: type[RefT]) -> RefT:
    """``ref`` itself, or the URI-reference parsed from a string into a
    ``cls``; see ``with_iri_hint`` for the error of a URI with non-ASCII."""
    if isinstance(ref, Components):
        return ref
    try:
        return parse_as(cls, ref)
    except URISyntaxError as exc:
        if cls.dialect.word != "URI":
            raise
        raise with_iri_hint(exc) from None


#: Appended to a URI's syntax error at a non-ASCII character: a URI is
#: ASCII only (RFC 3986 section 2), and the IRI functions take the rest.
IRI_HINT = "; a URI is ASCII only: read an IRI with parse_iri, or percent-encode it with to_uri"


def with_iri_hint(exc: URISyntaxError) -> URISyntaxError:
    """``exc``, or when it stops at a non-ASCII character, the same error
    with ``IRI_HINT`` appended to its message."""
    text, offset = exc.text, exc.offset
    if text is None or offset is None or offset >= len(text) or text[offset].isascii():
        return exc
    return type(exc)(
        exc.message + IRI_HINT,
        rule=exc.rule,
        text=text,
        offset=offset,
        secrets=exc.secrets,
    )


def same_class(a: Components, b: RefT) -> tuple[RefT, RefT]:
    """``a`` and ``b`` as one class: ``b``'s, unless one is an IRI and the
    other a URI, when both become IRIs (RFC 3987 section 2.2: every URI is
    an IRI), so that no IRI character ever lands in a URI reference."""
    if type(a) is type(b):
        return a, b
    if b.dialect.word == "IRI" or a.dialect.word != "IRI":
        return parse_as(type(b), str(a)), b
    wide: type[RefT] = type(a)  # type: ignore[assignment]
    return a, parse_as(wide, str(b))  # type: ignore[return-value]


def as_base(base: RefT | str, cls: type[RefT], role: str = "base") -> RefT:
    """A URI usable as a base (section 5.1): it must have a scheme, and its
    fragment is dropped.  A relative reference raises ``URIError`` whose
    caret is where the text stops being a URI."""
    ref = as_reference(base, cls)
    if ref.scheme is None:
        text = str(ref)
        offset = None
        rule = ref.dialect.rule("URI")
        try:
            check(rule, text)
        except URISyntaxError as exc:
            offset = exc.offset
        msg = (
            f"the {role} must be a{'n' if rule[0] == 'I' else ''} {rule}, which starts with "
            f"a scheme (RFC 3986 section 5.1); {text!r} is a relative reference"
        )
        raise URIError(msg, rule=rule, text=text, offset=offset, secrets=userinfo_secret)
    if ref.fragment is not None:
        ref = evolve(ref, fragment=None)
    return ref


def remove_dot_segments(path: str) -> str:
    """Section 5.2.4: interpret and remove the complete ``.`` and ``..``
    segments of ``path``.

    The two string buffers of the RFC, with the input buffer kept as a
    position in ``path`` and the output buffer as a list of moved segments
    (each with its leading ``/``, if any), so long paths take linear time.
    The step letters below are the RFC's.

    >>> import urigrammar
    >>> urigrammar.remove_dot_segments("/a/b/c/./../../g")
    '/a/g'
    """
    if not isinstance(path, str):
        msg = f"path must be str, not {type(path).__name__}"
        raise TypeError(msg)
    path = text_of(path)  # a str subclass: its own characters
    if not path.startswith(".") and "/." not in path:
        return path  # a dot segment starts the path or follows a "/"
    output: list[str] = []
    i, end = 0, len(path)
    while i < end:
        if path.startswith(("../", "./"), i):  # A: drop the prefix
            i = path.index("/", i) + 1
        elif path.startswith("/./", i):  # B: "/./" becomes "/"
            i += 2
        elif path.startswith("/.", i) and i + 2 == end:  # B: "/." becomes "/"
            path, i, end = "/", 0, 1
        elif path.startswith("/../", i):  # C: "/../" becomes "/"
            i += 3
            if output:
                output.pop()
        elif path.startswith("/..", i) and i + 3 == end:  # C: "/.." becomes "/"
            path, i, end = "/", 0, 1
            if output:
                output.pop()
        elif end - i <= 2 and path[i:] in (".", ".."):  # D
            i = end
        else:  # E: move the first segment, with its "/", to the output
            stop = path.find("/", i + 1 if path[i] == "/" else i)
            stop = end if stop < 0 else stop
            output.append(path[i:stop])
            i = stop
    return "".join(output)


def merge(base_path: str, ref_path: str, *, base_has_authority: bool) -> str:
    """Section 5.2.3: a relative-path reference's path appended to all but
    the last segment of the base's path (``"/"`` stands for an empty base
    path under an authority)."""
    if base_has_authority and not base_path:
        return "/" + ref_path
    return base_path[: base_path.rfind("/") + 1] + ref_path


def unambiguous_path(path: str, *, has_authority: bool, has_scheme: bool) -> str:
    """``path`` written so that the reference recomposes into text that
    parses back to the same path (see the module docstring).  A path that
    needs no prefix is returned unchanged.  (A path under an authority
    that does not begin with ``/`` cannot be repaired; resolution never
    makes one.)"""
    clash = path_clash(path, has_authority=has_authority, has_scheme=has_scheme)
    if clash is None:
        return path
    rule, _offset = clash
    if rule == "path-absolute":
        return "/." + path  # section 3.3: "//" would start an authority
    assert rule == "path-noscheme", rule
    return "./" + path  # section 4.2: "a:" would read as a scheme


def has_dot_segments(path: str) -> bool:
    """Whether ``path`` has a complete ``.`` or ``..`` segment."""
    return any(segment in (".", "..") for segment in path.split("/"))


def _with_authority(target: RefT, source: Components) -> RefT:
    return evolve(
        target,
        userinfo=source.userinfo,
        host=source.host,
        port_text=source.port_text,
        host_kind=source.host_kind,
    )


def resolve(base: RefT | str, ref: RefT | str, *, cls: type[RefT], strict: bool = True) -> RefT:
    """The target URI of ``ref`` against ``base`` (section 5.2.2).

    ``base`` must be a URI (it has a scheme); its fragment is ignored
    (section 5.1), and a relative base raises ``URIError``.  With
    ``strict=False`` a reference whose scheme is the base's (compared
    without regard to case, section 3.1) is read as relative, the
    backward-compatible reading of ``http:g`` in section 5.4.2.

    The target's fragment is the reference's.  A target path that starts
    with ``//`` and has no authority is returned as ``/.//...`` (see the
    module docstring), so ``parse(str(target)) == target`` always holds.
    Strings are parsed into ``cls``; the target has the class of ``ref``.
    """
    b, r = same_class(as_base(base, cls), as_reference(ref, cls))
    scheme = r.scheme
    if not strict and scheme is not None and scheme.lower() == (b.scheme or "").lower():
        scheme = None

    if scheme is not None:
        target = evolve(r, path=remove_dot_segments(r.path))
    elif r.host is not None:
        target = evolve(r, scheme=b.scheme, path=remove_dot_segments(r.path))
    else:
        if not r.path:
            path = b.path
            query = r.query if r.query is not None else b.query
        elif r.path.startswith("/"):
            path, query = remove_dot_segments(r.path), r.query
        else:
            merged = merge(b.path, r.path, base_has_authority=b.host is not None)
            path, query = remove_dot_segments(merged), r.query
        target = _with_authority(
            unchecked(type(r), scheme=b.scheme, path=path, query=query, fragment=r.fragment), b
        )
    return evolve(
        target,
        path=unambiguous_path(target.path, has_authority=target.host is not None, has_scheme=True),
    )


def _relative_path(base: Components, target: Components) -> str:
    """The shortest relative-path (section 4.2) that ``merge`` and
    ``remove_dot_segments`` turn into ``target.path`` when the base's path is
    hierarchical like the target's; ``relativize`` checks the result."""
    # The base's directory as resolution will see it: a base path may hold
    # dot-segments too (normalizing it is optional, section 5.2.1).
    directory = remove_dot_segments(merge(base.path, "", base_has_authority=base.host is not None))
    base_dirs = directory.split("/")[:-1] if directory else []
    segments = target.path.split("/")
    common = 0
    for mine, theirs in zip(base_dirs, segments[:-1], strict=False):
        if mine != theirs:
            break
        common += 1
    ups = len(base_dirs) - common
    rest = "/".join(segments[common:])
    if not rest:
        # The target is a directory of the base's: "." or "..", "../..", ...
        return "/".join([".."] * ups) if ups else "."
    if ups:
        return "../" * ups + rest
    if rest.startswith("/") or path_clash(rest, has_authority=False, has_scheme=False):
        return "./" + rest  # an empty first segment, or one that reads as a scheme
    return rest


def relativize(base: RefT | str, target: RefT | str, *, cls: type[RefT]) -> RefT:
    """The shortest reference that ``resolve(base, ...)`` (strict) turns into
    exactly ``target``: the inverse of section 5.2.2.

    Candidates are tried from the most relative: a same-document or
    query-only reference (empty path), a relative-path reference (``g``,
    ``../g``, ``./g:h``), an absolute-path reference (``/g``), a
    network-path reference (``//host/g``), and the target itself.  Each is
    checked by resolving it, and the shortest that resolves to ``target`` is
    returned (on a tie, the earlier in that list).

    ``base`` and ``target`` must be URIs.  A target whose path has ``.`` or
    ``..`` segments can be no reference's target, since resolution removes
    them; one that not even the absolute form reaches raises ``URIError``.
    Strings are parsed into ``cls``; the result has the class of ``target``.
    """
    b, t = same_class(as_base(base, cls), as_reference(target, cls))
    if t.scheme is None:
        as_base(t, cls, "target")  # raises: the target must be a URI too
    made = type(t)
    candidates: list[RefT] = []
    fragment = t.fragment
    if t.path == b.path:
        if t.query == b.query:
            candidates.append(unchecked(made, fragment=fragment))
        elif t.query is not None:
            candidates.append(unchecked(made, query=t.query, fragment=fragment))
    relative = _relative_path(b, t)
    candidates.append(unchecked(made, path=relative, query=t.query, fragment=fragment))
    if t.path.startswith("/"):
        path = unambiguous_path(t.path, has_authority=False, has_scheme=False)
        candidates.append(unchecked(made, path=path, query=t.query, fragment=fragment))
    if t.host is not None:
        candidates.append(evolve(t, scheme=None))
    candidates.append(t)

    found = [c for c in candidates if resolve(b, c, cls=cls) == t]
    if not found:
        why = (
            "resolution removes the dot-segments its path has (RFC 3986 section "
            "5.2.4); resolve or normalize it first"
            if has_dot_segments(t.path)
            else "resolution never produces its path (RFC 3986 section 5.2.2)"
        )
        raise URIError(
            f"no reference resolves to {str(t)!r}: {why}", text=str(t), secrets=userinfo_secret
        )
    return min(found, key=lambda c: len(str(c)))
