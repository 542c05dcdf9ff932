"""The RFCs' grammars that urigrammar ships (``_grammars`` for the URI
family, ``_schemes`` for URI schemes), compiled with the wheel, and
percent-encoding's mechanics over them (``_percent``): the layer between
the engine, which knows no grammar, and the URI model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._grammars import (
    COMBINATIONS,
    COMPILED,
    GRAMMAR,
    RFC3986,
    RFC3987,
    RFC6570,
    RFC6570_PUBLISHED,
    SHIPPED,
    URI_FILES,
    grammar_path,
    grammar_text,
    shipped_names,
    shipped_rule,
)
from ._secrets import mask_password, password_span, userinfo_secret

if TYPE_CHECKING:
    from ..engine import Grammar
    from ._percent import (
        check_errors,
        decode_where,
        encode_except,
        hexdig,
        percent_decode,
        percent_decode_bytes,
    )
    from ._schemes import (
        DID_CORE,
        DID_CORE_LOWERCASE,
        ENCODED_IN_ADDR_SPEC,
        RFC2045,
        RFC2397,
        RFC2397_PUBLISHED,
        RFC3966,
        RFC3966_REQUIREMENTS,
        RFC3966_UNDELIMITED,
        RFC4151,
        RFC4151_REQUIREMENTS,
        RFC5322,
        RFC5322_PUBLISHED,
        RFC5870,
        RFC5870_REQUIREMENTS,
        RFC5870_WGS84,
        RFC6068,
        RFC6068_DELIMITED,
        RFC6068_ENCODED,
        RFC6068_URI,
        RFC6455,
        RFC6455_PUBLISHED,
        RFC6920,
        RFC6920_REQUIREMENTS,
        RFC7565,
        RFC7565_PUBLISHED,
        RFC8089,
        RFC8089_E2,
        RFC8089_E2_2,
        RFC8089_E3_2,
        RFC8141,
        RFC9110,
        RFC9110_REQUIREMENTS,
        RFC9293_REQUIREMENTS,
        SCHEME_FILES,
    )

    #: Every shipped grammar and its file, imports before what imports them.
    FILES: tuple[tuple[Grammar, str], ...]

# The scheme grammars are defined on first use (PEP 562): a process that
# reads URIs only never builds them.
_SCHEMES = frozenset(
    {
        "DID_CORE",
        "DID_CORE_LOWERCASE",
        "ENCODED_IN_ADDR_SPEC",
        "RFC2045",
        "RFC2397",
        "RFC2397_PUBLISHED",
        "RFC3966",
        "RFC3966_REQUIREMENTS",
        "RFC3966_UNDELIMITED",
        "RFC4151",
        "RFC4151_REQUIREMENTS",
        "RFC5322",
        "RFC5322_PUBLISHED",
        "RFC5870",
        "RFC5870_REQUIREMENTS",
        "RFC5870_WGS84",
        "RFC6068",
        "RFC6068_DELIMITED",
        "RFC6068_ENCODED",
        "RFC6068_URI",
        "RFC6455",
        "RFC6455_PUBLISHED",
        "RFC6920",
        "RFC6920_REQUIREMENTS",
        "RFC7565",
        "RFC7565_PUBLISHED",
        "RFC8089",
        "RFC8089_E2",
        "RFC8089_E2_2",
        "RFC8089_E3_2",
        "RFC8141",
        "RFC9110",
        "RFC9110_REQUIREMENTS",
        "RFC9293_REQUIREMENTS",
        "SCHEME_FILES",
    }
)


# Percent-encoding's mechanics, defined on first use: a first parse needs
# none of them.
_PERCENT = frozenset(
    {
        "check_errors",
        "decode_where",
        "encode_except",
        "hexdig",
        "percent_decode",
        "percent_decode_bytes",
    }
)


def __getattr__(name: str) -> object:
    if name in _PERCENT:
        module = "._percent"
    elif name == "FILES" or name in _SCHEMES:
        module = "._schemes"
    else:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    # __import__ with a fromlist returns the named module itself, and
    # spares the import of importlib.
    found = __import__(__name__ + module, fromlist=("__name__",))
    value = URI_FILES + found.SCHEME_FILES if name == "FILES" else getattr(found, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_SCHEMES, *_PERCENT, "FILES"})


__all__ = [
    "COMBINATIONS",
    "COMPILED",
    "DID_CORE",
    "DID_CORE_LOWERCASE",
    "ENCODED_IN_ADDR_SPEC",
    "FILES",
    "GRAMMAR",
    "RFC2045",
    "RFC2397",
    "RFC2397_PUBLISHED",
    "RFC3966",
    "RFC3966_REQUIREMENTS",
    "RFC3966_UNDELIMITED",
    "RFC3986",
    "RFC3987",
    "RFC4151",
    "RFC4151_REQUIREMENTS",
    "RFC5322",
    "RFC5322_PUBLISHED",
    "RFC5870",
    "RFC5870_REQUIREMENTS",
    "RFC5870_WGS84",
    "RFC6068",
    "RFC6068_DELIMITED",
    "RFC6068_ENCODED",
    "RFC6068_URI",
    "RFC6455",
    "RFC6455_PUBLISHED",
    "RFC6570",
    "RFC6570_PUBLISHED",
    "RFC6920",
    "RFC6920_REQUIREMENTS",
    "RFC7565",
    "RFC7565_PUBLISHED",
    "RFC8089",
    "RFC8089_E2",
    "RFC8089_E2_2",
    "RFC8089_E3_2",
    "RFC8141",
    "RFC9110",
    "RFC9110_REQUIREMENTS",
    "RFC9293_REQUIREMENTS",
    "SCHEME_FILES",
    "SHIPPED",
    "URI_FILES",
    "check_errors",
    "decode_where",
    "encode_except",
    "grammar_path",
    "grammar_text",
    "hexdig",
    "mask_password",
    "password_span",
    "percent_decode",
    "percent_decode_bytes",
    "shipped_names",
    "shipped_rule",
    "userinfo_secret",
]
