"""The RFCs' grammars that urigrammar ships (``_grammars`` for the URI
family, ``_schemes`` for URI schemes), compiled with the wheel, and
percent-encoding's mechanics over them (``_percent``): the layer between
the engine, which knows no grammar, and the URI model."""

from __future__ import annotations

from ._grammars import (
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
    RFC2045,
    RFC2397,
    RFC2397_PUBLISHED,
    RFC3966,
    RFC5322,
    RFC5322_PUBLISHED,
    RFC6068,
    RFC6068_URI,
    RFC6455,
    RFC6455_PUBLISHED,
    RFC8089,
    RFC8089_E2,
    RFC8089_E2_2,
    RFC8089_E3_2,
    RFC8141,
    RFC9110,
    SCHEME_FILES,
)
from ._secrets import password_span, userinfo_secret

#: Every shipped grammar and its file, imports before what imports them.
FILES = URI_FILES + SCHEME_FILES

__all__ = [
    "COMPILED",
    "DID_CORE",
    "FILES",
    "GRAMMAR",
    "RFC2045",
    "RFC2397",
    "RFC2397_PUBLISHED",
    "RFC3966",
    "RFC3986",
    "RFC3987",
    "RFC5322",
    "RFC5322_PUBLISHED",
    "RFC6068",
    "RFC6068_URI",
    "RFC6455",
    "RFC6455_PUBLISHED",
    "RFC6570",
    "RFC6570_PUBLISHED",
    "RFC8089",
    "RFC8089_E2",
    "RFC8089_E2_2",
    "RFC8089_E3_2",
    "RFC8141",
    "RFC9110",
    "SCHEME_FILES",
    "SHIPPED",
    "URI_FILES",
    "check_errors",
    "decode_where",
    "encode_except",
    "grammar_path",
    "grammar_text",
    "hexdig",
    "password_span",
    "percent_decode",
    "percent_decode_bytes",
    "shipped_names",
    "shipped_rule",
    "userinfo_secret",
]
