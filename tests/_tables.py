"""The caches a back end's functions keep (``urigrammar.uri._api``), for
the tests that empty or inspect them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from urigrammar.uri._api import Api, _ParseTable


def parse_table(parse: Callable[..., Any]) -> _ParseTable:
    """The table of a parse function made by ``Api.parser_for``: rule
    spellings and their parse (``fast``), which the C entry in front of the
    function reads too."""
    function = getattr(parse, "__wrapped__", parse)
    for cell in function.__closure__ or ():
        if isinstance(cell.cell_contents, _ParseTable):
            return cell.cell_contents
    msg = f"{parse!r} is not a parse function made by Api.parser_for"
    raise AssertionError(msg)


def empty_tables(api: Api) -> None:
    """Forget every rule spelling ``api``'s functions have seen, in place:
    the functions stay the same objects (``urigrammar.parse`` is one)."""
    api._validate_table.clear()
    for parse in api._parsers.values():
        table = parse_table(parse)
        table.fast.clear()
