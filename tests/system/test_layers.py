"""The package's layers: ``engine/`` (ABNF, knows no URI) below
``shipped/`` (the RFCs' grammars) below ``uri/`` (the model) below
``template/`` (RFC 6570) below ``schemes/`` (scheme profiles) below
``cli/`` (the command line), no import cycle among urigrammar's own
modules, and a package's private modules imported only from inside it:
its siblings go through its ``__init__``.

Read from the source with ``ast``, not by importing: every ``from .`` /
``from ..`` / ``import urigrammar...`` counts, at module level and inside
functions alike, since a lazy import is still a dependency.  Imports under
``if TYPE_CHECKING:`` are left out: they never run, and annotations may
name a module above (the engine's compiler names its ``Grammar`` so)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "urigrammar"


def _module_name(path: Path) -> str:
    parts = ["urigrammar", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, except the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for other in child.orelse:
                yield other
                yield from _runtime_nodes(other)
            continue
        yield child
        yield from _runtime_nodes(child)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The urigrammar modules ``path`` imports (a package counts as its
    ``__init__``)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join([*base, node.module] if node.module else base)
            else:
                origin = node.module or ""
            # "from . import _resolve" names the submodule _resolve; a
            # name that is no submodule comes from the package's __init__.
            # (Parent packages, imported on the way, are not counted.)
            submodules = [f"{origin}.{alias.name}" for alias in node.names]
            targets = [sub if sub in modules else origin for sub in submodules]
        found.update(target for target in targets if target in modules)
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(path) for path in paths}
    return {_module_name(path): _imports(path, modules) for path in paths}


GRAPH = _graph()


#: The modules at the top of the package that every layer may import: the
#: root of the error hierarchy and the version, which import nothing of
#: urigrammar.
BASE = "urigrammar._errors"
BASES = (BASE, "urigrammar._version")

#: The layers, lowest first.
LAYERS = ("engine", "shipped", "uri", "template", "schemes", "cli")


def _layer(module: str) -> str:
    if module in BASES:
        return "base"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else "top"


def test_the_graph_is_read() -> None:
    # A parser that found nothing would pass every test below.
    assert not GRAPH[BASE]
    assert "urigrammar.uri._components" in GRAPH["urigrammar.uri._reference"]
    assert "urigrammar.uri._resolve" in GRAPH["urigrammar.uri._reference"]
    assert "urigrammar" in GRAPH["urigrammar.cli._cmd_core"]


def test_no_import_cycle() -> None:
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            cycle = [*path[path.index(module) :], module]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if module in done:
            return
        for target in sorted(GRAPH[module]):
            visit(target, [*path, module])
        done.add(module)

    for module in sorted(GRAPH):
        visit(module, [])


@pytest.mark.parametrize(
    "module",
    sorted(m for m in GRAPH if _layer(m) in ("engine", "shipped", "uri", "template", "schemes")),
)
def test_each_layer_imports_only_those_below(module: str) -> None:
    mine = LAYERS.index(_layer(module))
    allowed = {"base", *LAYERS[: mine + 1]}
    above = {t for t in GRAPH[module] if _layer(t) not in allowed}
    assert not above, f"{module} imports {sorted(above)}"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _layer(m) in LAYERS))
def test_siblings_import_a_package_through_its_init(module: str) -> None:
    # engine._grammar may import engine._program; uri._api may import
    # engine (its __init__), never engine._program.
    package = ".".join(module.split(".")[:2])
    private = sorted(
        t
        for t in GRAPH[module]
        if _layer(t) in LAYERS and not t.startswith(package) and t.count(".") > 1
    )
    assert not private, f"{module} imports another package's private modules {private}"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _layer(m) == "cli"))
def test_cli_uses_only_the_public_package(module: str) -> None:
    allowed = {"urigrammar"}
    private = {t for t in GRAPH[module] if t not in allowed and not t.startswith("urigrammar.cli")}
    assert not private, f"{module} imports {sorted(private)}"


#: The integrations: a top layer over the public package.  The one
#: private module they may use is the URI model's pydantic hook module, which
#: the reference classes delegate to (and which holds the format names).
INTEGRATIONS = ("urigrammar.pydantic", "urigrammar.jsonschema", "urigrammar.attrs")


#: The differential: over the URI model's API (``urigrammar.uri``, its
#: ``__init__``), the base's errors and the URI family's password finder
#: (``shipped``), which its readings and messages mask; never the top
#: package, which names it.
DIFFERENTIAL = sorted(m for m in GRAPH if m.startswith("urigrammar.differential"))


@pytest.mark.parametrize("module", DIFFERENTIAL)
def test_differential_sits_on_the_uri_model(module: str) -> None:
    allowed = {"urigrammar.uri", "urigrammar._errors", "urigrammar.shipped"}
    private = {t for t in GRAPH[module] - allowed if not t.startswith("urigrammar.differential")}
    assert not private, f"{module} imports {sorted(private)}"


def test_only_the_public_package_reaches_the_differential() -> None:
    # The command line reaches it as urigrammar.differential, on first use.
    users = {
        m
        for m in GRAPH
        if not m.startswith("urigrammar.differential") and GRAPH[m] & set(DIFFERENTIAL)
    }
    assert DIFFERENTIAL
    assert not users


@pytest.mark.parametrize("module", INTEGRATIONS)
def test_integrations_use_only_the_public_package(module: str) -> None:
    assert module in GRAPH
    allowed = {"urigrammar", "urigrammar.uri._pydantic_schema"}
    private = GRAPH[module] - allowed
    assert not private, f"{module} imports {sorted(private)}"


def test_nothing_imports_the_integrations() -> None:
    # They import pydantic, jsonschema or cattrs: only users import them.
    users = {m: sorted(GRAPH[m] & set(INTEGRATIONS)) for m in GRAPH if GRAPH[m] & set(INTEGRATIONS)}
    assert not users


#: The Arrow columns and the polars namespace: a top layer over the public
#: package, the engine's internal API (its ``__init__``) for the C jobs, and
#: the URI model's column plans.
COLUMNS = sorted(m for m in GRAPH if m.startswith("urigrammar.arrow") or m == "urigrammar.polars")


@pytest.mark.parametrize("module", COLUMNS)
def test_columns_use_the_public_package_and_the_column_plans(module: str) -> None:
    allowed = {"urigrammar", "urigrammar._errors", "urigrammar.engine", "urigrammar.uri._columns"}
    private = {
        t
        for t in GRAPH[module] - allowed
        if not t.startswith(("urigrammar.arrow", "urigrammar.polars"))
    }
    assert not private, f"{module} imports {sorted(private)}"


def test_nothing_imports_the_columns() -> None:
    # They reach pyarrow and polars: only users import them.
    users = {m for m in GRAPH if m not in COLUMNS and GRAPH[m] & set(COLUMNS)}
    assert COLUMNS
    assert not users
