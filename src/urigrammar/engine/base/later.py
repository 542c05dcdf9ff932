"""``later``: a module imported when one of its names is first read.

A module that needs another only on some paths (the compiler, for a
grammar whose programs are stored; the abnf engine, for a rule that
reaches itself) declares it at its top, under ``TYPE_CHECKING`` for the
type checker and the import graph (``tests/system/test_layers.py`` reads
it there), and as ``name = later(globals(), ".module")`` for the run,
with a comment that says why it waits.  The stand-in imports the module
on the first attribute read and puts it in its own place among the
globals, so every later read finds the module itself, at no cost."""

from __future__ import annotations

from typing import Any

__all__ = ["later"]


class _Later:
    __slots__ = ("_alias", "_module", "_namespace")

    def __init__(self, namespace: dict[str, Any], module: str, alias: str) -> None:
        self._namespace = namespace
        self._module = module
        self._alias = alias

    def __getattr__(self, name: str) -> Any:
        # __import__ with a fromlist returns the named module itself, and
        # spares the import of importlib.
        module = __import__(self._module, fromlist=("__name__",))
        self._namespace[self._alias] = module
        return getattr(module, name)

    def __repr__(self) -> str:
        return f"<{self._module} of {self._namespace['__name__']}, imported when first used>"


def later(namespace: dict[str, Any], module: str) -> Any:
    """A stand-in for ``module``, bound in ``namespace`` (a module's
    ``globals()``) under its last name.  A name with leading dots is
    relative, as in an import statement."""
    name = module.lstrip(".")
    dots = len(module) - len(name)
    if dots:
        package = namespace["__package__"].rsplit(".", dots - 1)[0]
        name = f"{package}.{name}"
    return _Later(namespace, name, module.rpartition(".")[2])
