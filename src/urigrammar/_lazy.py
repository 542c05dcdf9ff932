"""The PEP 562 ``__getattr__`` of urigrammar's packages: a public name is
imported from its submodule on first use, so importing a package costs
nothing until a name of it is asked for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, modules: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: ``name`` read from the
    submodule ``modules[name]`` (relative: ``"._reference"``), then kept in
    the package's ``namespace`` so that later lookups never come here."""

    def __getattr__(name: str) -> object:
        module = modules.get(name)
        if module is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        # __import__ with a fromlist returns the named module itself, and
        # spares the import of importlib.
        value = getattr(__import__(package + module, fromlist=("__name__",)), name)
        namespace[name] = value
        return value

    return __getattr__
