"""The ``http`` and ``https`` schemes: RFC 9110 sections 4.2.1 and 4.2.2,
``grammar/rfc9110.abnf``'s ``http-URI`` and ``https-URI``.

What a profile here takes, and why:

* the fragment.  ``http-URI`` has none: RFC 9110 section 4.2.5 says a
  fragment "is not part of the scheme definition for a URI scheme (see
  Section 4.3 of [URI])", and that http(s) references with one are used
  wherever a protocol element allows it.  RFC 3986 section 3's ``URI``
  adds it to every scheme, so the profile's rule is RFC 3986's ``URI``
  and its first requirement is that the URI without its fragment (the
  text before the first ``#``, which begins the fragment: RFC 3986
  section 3.5) is an ``http-URI`` (``https-URI``);
* no empty host: "A recipient that processes such a URI reference MUST
  reject it as invalid" (sections 4.2.1 and 4.2.2);
* no userinfo, by default.  Section 4.2.4: a sender "MUST NOT generate
  the userinfo subcomponent", and a recipient of an http(s) URI
  reference from an untrusted source "SHOULD parse for userinfo and treat
  its presence as an error", since it "is likely being used to obscure
  the authority for the sake of phishing attacks".  A validator is most
  often that recipient, so the shipped profiles refuse userinfo;
  ``http_profile(scheme, userinfo=True)`` is the profile for a trusted
  source (section 4.2.4 names configuration files and bookmarks), and
  its values' ``userinfo`` field reads it.

The values (``HttpValue``) read ``host``, ``port`` (80 for http, section
4.2.1; 443 for https, section 4.2.2; when absent or empty), ``path``,
``query``, ``fragment`` and ``origin`` (RFC 6454).  ``validate`` costs no
parse for a text that cannot break a requirement (``FastProfile``); on
the native back end every requirement is also a language
(``grammar/rfc9110-requirements.abnf``), and ``validate`` is one DFA run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..engine import text_of, within
from ..shipped import RFC3986, RFC9110, RFC9110_REQUIREMENTS
from ._profile import Profile, Requirement
from ._server import Fast, FastProfile, ServerURI, host_starts, tcp_port

if TYPE_CHECKING:
    from ..engine import Backend, RuleMatch

__all__ = ["HTTP", "HTTPS", "HttpValue", "http_profile"]

#: Each scheme's rule in RFC 9110, and the section that defines it.
_RULES = {"http": ("http-URI", "4.2.1"), "https": ("https-URI", "4.2.2")}


class HttpValue(ServerURI):
    """An http or https URI (RFC 9110 section 4.2), with its fragment when
    it has one (section 4.2.5).  ``==`` is the exact text; section 4.2.3's
    normalization is ``urigrammar.normalize``'s."""

    __slots__ = ()

    FIELDS = ("host", "port", "path", "query", "fragment", "userinfo", "origin")

    #: Section 4.2.1: "TCP port 80 ... is the default"; section 4.2.2:
    #: "TCP port 443 ... is the default".
    DEFAULT_PORTS: ClassVar[Mapping[str, int]] = {"http": 80, "https": 443}

    @property
    def fragment(self) -> str | None:
        """The fragment after ``#``, as written; ``None`` without a ``#``
        (RFC 3986 section 3.5; RFC 9110 section 4.2.5)."""
        return self.field("fragment")

    @property
    def userinfo(self) -> str | None:
        """The userinfo before ``@``, or ``None``: only a profile that
        allows it (``http_profile(scheme, userinfo=True)``) takes a URI
        that has one (RFC 9110 section 4.2.4)."""
        return self.field("userinfo")


def _without_fragment(match: RuleMatch) -> int:
    """Where the URI without its fragment ends: before the ``#``."""
    span = match.span("fragment")
    return len(match.text) if span is None else span[0] - 1


def _scheme_rule(rule: str, section: str) -> Requirement:
    def breaks(match: RuleMatch) -> int | None:
        head = match.text[: _without_fragment(match)]
        if RFC9110.validate(rule, head):
            return None
        return RFC9110.syntax_error(rule, head).offset

    return Requirement(
        f"RFC 9110 section {section}",
        rule,
        f"the URI without its fragment is an {rule}",
        breaks,
        needs=("fragment",),
        language=(RFC9110_REQUIREMENTS, f"{rule}-with-fragment"),
    )


def _host_not_empty(match: RuleMatch) -> int | None:
    span = match.span("host")
    return span[0] if span is not None and span[0] == span[1] else None


def _no_userinfo(match: RuleMatch) -> int | None:
    span = match.span("userinfo")
    return None if span is None else span[0]


def _fast(scheme: str, rule: str) -> Callable[[Backend | None], Fast]:
    """The fast verdict, from matchers: the scheme's rule on the text
    before the first ``#``, and RFC 3986's ``URI`` on the whole when there
    is a ``#`` (the rule's language lies inside ``URI``'s, which the first
    call asserts, so without a fragment the rule says it).  Then ``True``
    when no requirement can break: with no ``@`` there is no userinfo (RFC
    3986 section 3.2.1: it ends with "@"), and the host starts right after
    the rule's literal ``scheme "://"``, so a character a host can start
    with there means a non-empty host, and with no ``:`` in the authority
    there is no port.  Anything else goes to the parse."""
    host = len(scheme) + 3

    def make(backend: Backend | None) -> Fast:
        assert within(RFC9110, rule, RFC3986, "URI")
        uri = RFC3986.matcher("URI", backend=backend)
        scheme_rule = RFC9110.matcher(rule, backend=backend)
        starts = host_starts()

        def fast(text: str) -> bool | None:
            if type(text) is not str:  # slices below read a subclass's own characters
                text = text_of(text)
            # "in" before find: most texts have no "#", and the operator
            # costs a third of the method call.
            if "#" not in text:
                head = text
            else:
                head = text[: text.index("#")]
                if uri(text) is None:
                    return False
            if scheme_rule(head) is None:
                return False
            if "@" in head:
                return None
            authority = head[host:].partition("/")[0].partition("?")[0]
            if ":" in authority:
                return None  # a port, which the parse reads
            return True if head[host : host + 1] in starts else None

        return fast

    return make


@cache
def http_profile(
    scheme: str, *, userinfo: bool = False, host_required: bool = True
) -> Profile[HttpValue]:
    """The profile of ``scheme`` (``"http"`` or ``"https"``): RFC 3986's
    ``URI`` whose part before the fragment is RFC 9110's rule for the
    scheme.  ``userinfo`` takes a URI with userinfo (refused by default:
    section 4.2.4); ``host_required=False`` takes an empty host, which
    sections 4.2.1 and 4.2.2 tell a recipient to reject (for a text that
    is only checked, not used to reach a server).

    >>> import urigrammar
    >>> https = urigrammar.http_profile("https")
    >>> https.validate("https://example.com/"), https.validate("https://user@example.com/")
    (True, False)
    """
    key = scheme.lower()
    if key not in _RULES:
        msg = f"http_profile serves http and https, not {scheme!r}"
        raise ValueError(msg)
    rule, section = _RULES[key]
    requirements = [_scheme_rule(rule, section)]
    if host_required:
        requirements.append(
            Requirement(
                f"RFC 9110 section {section}",
                "host",
                f"an {key} URI has a host that is not empty",
                _host_not_empty,
                needs=("host",),
                language=(RFC9110_REQUIREMENTS, "URI-host-not-empty"),
            )
        )
    if not userinfo:
        requirements.append(
            Requirement(
                "RFC 9110 section 4.2.4",
                "userinfo",
                f"an {key} URI has no userinfo",
                _no_userinfo,
                needs=("userinfo",),
                language=(RFC9110_REQUIREMENTS, "URI-no-userinfo"),
            )
        )
    requirements.append(tcp_port(key, f"RFC 9110 section {section}"))
    return FastProfile(
        key,
        RFC9110,
        "URI",
        value=HttpValue,
        fields={
            "host": "host",
            "port": "port",
            "path": "path-abempty",
            "query": "query",
            "fragment": "fragment",
            "userinfo": "userinfo",
        },
        requirements=requirements,
        cite=f"RFC 9110 section {section}",
        fast=_fast(key, rule),
    )


#: The ``http`` profile: RFC 9110 section 4.2.1.
HTTP: Profile[HttpValue] = http_profile("http")

#: The ``https`` profile: RFC 9110 section 4.2.2.
HTTPS: Profile[HttpValue] = http_profile("https")
