"""The jobs users bring to URLs, on the URI model: one key per resource
(``_canonical``: ``canonicalize``, its options ``Canonicalization``, the
``CRAWL_KEY`` preset and the ``TRACKING_PARAMETERS`` it drops, listed with
their sources in ``tracking-parameters.txt``), and the Public Suffix
List's answers (``_suffix``: ``public_suffix``, ``registrable_domain``),
the RFCs' advice on how a URI is written (``_lint``: ``lint``), and the
web archives' sort-friendly form of a key (``_surt``: ``surt``).
A layer above ``schemes``,
importing the model only through ``urigrammar.uri``; the public names are
re-exported by ``urigrammar``, all but ``c_key`` (the C key function of
an options value, which the column functions run over whole columns)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._canonical import CRAWL_KEY, TRACKING_PARAMETERS, Canonicalization, c_key, canonicalize
    from ._lint import LINT_CODES, Finding, lint
    from ._suffix import public_suffix, public_suffix_list_version, registrable_domain
    from ._surt import SURT_KEY, surt

__all__ = [
    "CRAWL_KEY",
    "LINT_CODES",
    "SURT_KEY",
    "TRACKING_PARAMETERS",
    "Canonicalization",
    "Finding",
    "c_key",
    "canonicalize",
    "lint",
    "public_suffix",
    "public_suffix_list_version",
    "registrable_domain",
    "surt",
]

#: Each public name to the module that defines it: imported on first use
#: (PEP 562), so ``import urigrammar.hygiene`` reads no data file.
_LAZY: dict[str, str] = {
    "CRAWL_KEY": "._canonical",
    "TRACKING_PARAMETERS": "._canonical",
    "Canonicalization": "._canonical",
    "c_key": "._canonical",
    "canonicalize": "._canonical",
    "LINT_CODES": "._lint",
    "Finding": "._lint",
    "lint": "._lint",
    "public_suffix": "._suffix",
    "public_suffix_list_version": "._suffix",
    "registrable_domain": "._suffix",
    "SURT_KEY": "._surt",
    "surt": "._surt",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())
