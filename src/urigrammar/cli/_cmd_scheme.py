"""``urigrammar scheme TEXT...``: each text checked by the profile of its
scheme (``urigrammar.SCHEMES``) and parsed into its typed fields.

One JSON object a line, in the order of the texts: ``{"text", "valid",
"scheme", "profile", "fields", "error"}``.  ``scheme`` is the text's scheme
in lower case (``null`` when it has none), ``profile`` the grammar and rule
that judged it (``null`` when no profile serves the scheme), ``fields``
the typed value's fields (``SchemeURI.as_dict``): bytes (a ``data`` URI's
payload) as base64 text, pairs as two-element lists; ``null`` when the
text failed.  ``error`` is ``null`` or ``{"offset", "message", "kind"}``,
where ``kind`` is ``syntax``, ``unknown-scheme`` or ``invalid`` (a valid
URI, ``"valid": true``, with a field that does not decode: a mailto
header whose octets are not UTF-8).  Exit 1 when any text is invalid, has
no profile or has a field that does not decode.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Mapping
from typing import Any, TextIO

import urigrammar
from urigrammar import UnknownSchemeError, UrigrammarError, URISyntaxError

from ._batch import run_texts, texts
from ._cmd import Command, Outcome, add_text_input, message, shown

__all__ = ["COMMANDS"]


def _jsonable(value: object) -> Any:
    """A typed field as JSON: bytes as base64 text, sequences as lists,
    mappings as objects, anything else that is no JSON scalar as its text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, bytes):
        import base64  # only here: every run of the command line loads this module

        return base64.b64encode(value).decode("ascii")
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [_jsonable(item) for item in value]
    return str(value)


def _scheme_of(text: str) -> str | None:
    colon = text.find(":")
    if colon > 0 and urigrammar.validate("scheme", text[:colon]):
        return text[:colon].lower()
    return None


def _kind(exc: UrigrammarError) -> str:
    if isinstance(exc, UnknownSchemeError):
        return "unknown-scheme"
    return "syntax" if isinstance(exc, URISyntaxError) else "invalid"


def scheme_outcome(text: str, mask: bool = False) -> Outcome:
    """``urigrammar scheme`` on one text; ``mask`` shows the text with its
    password masked (the fields as the profile reads them)."""
    scheme = _scheme_of(text)
    profile = urigrammar.SCHEMES.get(scheme) if scheme is not None else None
    record: dict[str, Any] = {
        "text": shown(text, mask),
        "valid": False,
        "scheme": scheme,
        "profile": None if profile is None else f"{profile.grammar.name} {profile.rule}",
        "fields": None,
        "error": None,
    }
    try:
        value = urigrammar.parse_scheme(text)
        record["valid"] = True
        record["fields"] = _jsonable(value.as_dict())
    except UrigrammarError as exc:
        # A valid URI may still hold a field that does not decode (a mailto
        # header whose octets are not UTF-8): "valid" says which it was.
        record["fields"] = None
        record["error"] = {"offset": exc.offset, "message": message(exc), "kind": _kind(exc)}
        return Outcome("invalid", json.dumps(record))
    return Outcome("valid", json.dumps(record))


def _configure(parser: argparse.ArgumentParser) -> None:
    add_text_input(parser, "TEXT", "URIs to check by the profile of their scheme", json_flag=False)


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    work = functools.partial(scheme_outcome, mask=args.mask_passwords)
    return run_texts(work, texts(args), out, err, args.jobs)


COMMANDS = {
    "scheme": Command(
        "check URIs by their scheme's own RFC (urn, http, file, data, mailto, ...: "
        "urigrammar.SCHEMES) and print the profile, the verdict and the typed fields "
        "as JSON Lines; exit 1 on any invalid text",
        _configure,
        _run,
        takes_texts=True,
    ),
}
