"""The package's layers: ``engine/`` (ABNF, knows no URI) below
``shipped/`` (the RFCs' grammars) below ``uri/`` (the model) below
``template/`` (RFC 6570) below ``schemes/`` (scheme profiles) below
``hygiene/`` (canonical keys) below ``cli/`` (the command line), no
import cycle among urigrammar's own modules, and a package's private
modules imported only from inside it: its siblings go through its
``__init__``.  Inside the engine, its stages
(``base/``, ``syntax/``, ``automata/``, ``regex/``, ``program/``,
``backend/``, ``result/``, then the facade at its top) import only the
stages before them, and few imports wait for first use.  And the shape
stays readable: no module over 600 lines, no class over 400, no C
function over 120.

Read from the source with ``ast``, not by importing: every import
statement counts, at module level, inside functions and under ``if
TYPE_CHECKING:`` alike, since a lazy import is still a dependency and an
annotation that names a module above is a cycle in all but name.  A
module imported on first use (``engine.base.later``) declares it under
``TYPE_CHECKING``, where this reads it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "urigrammar"


def _module_name(path: Path) -> str:
    parts = ["urigrammar", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The urigrammar modules ``path`` imports (a package counts as its
    ``__init__``)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
BASES = (BASE, "urigrammar._version", "urigrammar._lazy")

#: The layers, lowest first.
LAYERS = ("engine", "shipped", "uri", "template", "schemes", "hygiene", "cli")


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
    sorted(m for m in GRAPH if _layer(m) in LAYERS and _layer(m) != "cli"),
)
def test_each_layer_imports_only_those_below(module: str) -> None:
    mine = LAYERS.index(_layer(module))
    allowed = {"base", *LAYERS[: mine + 1]}
    above = {t for t in GRAPH[module] if _layer(t) not in allowed}
    assert not above, f"{module} imports {sorted(above)}"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _layer(m) in LAYERS))
def test_siblings_import_a_package_through_its_init(module: str) -> None:
    # engine.grammar may import engine.program.build; uri._api may import
    # engine (its __init__), never engine.program.build.
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


#: The integrations: a top layer over the public package.  The private
#: modules they may use: the URI model's pydantic hook module, which the
#: reference classes delegate to (and which holds the format names), and
#: for the type checker, the normalization flags their signatures unpack.
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
    # The public package names it (urigrammar.differential, imported on
    # first use); the command line reaches it so.
    users = {
        m
        for m in GRAPH
        if not m.startswith("urigrammar.differential")
        and m != "urigrammar"
        and GRAPH[m] & set(DIFFERENTIAL)
    }
    assert DIFFERENTIAL
    assert not users


@pytest.mark.parametrize("module", INTEGRATIONS)
def test_integrations_use_only_the_public_package(module: str) -> None:
    assert module in GRAPH
    allowed = {"urigrammar", "urigrammar.uri._pydantic_schema", "urigrammar.uri._normalization"}
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
    # hygiene: the C key function of an options value, which
    # canonicalize_array runs over whole columns.
    allowed = {
        "urigrammar",
        "urigrammar._errors",
        "urigrammar.engine",
        "urigrammar.hygiene",
        "urigrammar.uri._columns",
    }
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


# --- the engine's stages ---------------------------------------------------------

#: The engine's stages, earliest first; a module outside them (``grammar``,
#: ``compiled``, ``reference``, ``combined``, ``languages``, ``load``, the
#: package's ``__init__``) is the facade, over all of them.
STAGES = ("base", "syntax", "automata", "regex", "program", "backend", "result")
ENGINE = "urigrammar.engine"


def _stage(module: str) -> int:
    parts = module.split(".")
    if len(parts) > 3 and parts[2] in STAGES:
        return STAGES.index(parts[2])
    if len(parts) == 3 and parts[2] in STAGES:  # a stage's __init__
        return STAGES.index(parts[2])
    return len(STAGES)


ENGINE_MODULES = sorted(m for m in GRAPH if m.startswith(ENGINE + "."))


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_each_engine_stage_imports_only_the_stages_before(module: str) -> None:
    mine = _stage(module)
    later = {t for t in GRAPH[module] if t.startswith(ENGINE) and t != ENGINE and _stage(t) > mine}
    assert not later, (
        f"{module} ({STAGES[mine] if mine < len(STAGES) else 'facade'}) imports {sorted(later)}"
    )


def test_no_stage_reaches_the_facade() -> None:
    assert all(ENGINE not in GRAPH[m] for m in ENGINE_MODULES if _stage(m) < len(STAGES))


def _lazy_imports(path: Path) -> list[tuple[int, str]]:
    """Where ``path`` imports one of urigrammar's modules on first use: an
    import statement inside a function, or a ``later(globals(), ...)``
    stand-in; (line, what) each."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.ImportFrom)
                    and (node.level or (node.module or "").startswith("urigrammar"))
                ) or (
                    isinstance(node, ast.Import)
                    and any(a.name.startswith("urigrammar") for a in node.names)
                ):
                    found.append((node.lineno, ast.unparse(node)))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "later"
            and len(node.args) == 2
            and isinstance(node.args[1], ast.Constant)
            and str(node.args[1].value).startswith(".")
        ):
            relative = str(node.args[1].value)
            dots = len(relative) - len(relative.lstrip("."))
            base = package.split(".")
            target = ".".join([*base[: len(base) - (dots - 1)], relative.lstrip(".")])
            found.append((node.lineno, target))
    return found


def _commented(lines: list[str], line: int) -> bool:
    """Whether line ``line`` (1-based) or its paragraph above holds a comment."""
    at = line - 1
    if "#" in lines[at]:
        return True
    while at > 0 and lines[at - 1].strip():
        at -= 1
        if lines[at].strip().startswith("#"):
            return True
    return False


ENGINE_PATHS = sorted((PACKAGE / "engine").rglob("*.py"))


def test_the_engine_imports_at_most_ten_of_its_modules_on_first_use() -> None:
    lazy = {
        (path.relative_to(PACKAGE).as_posix(), line, what)
        for path in ENGINE_PATHS
        for line, what in _lazy_imports(path)
    }
    assert len(lazy) <= 10, sorted(lazy)


@pytest.mark.parametrize("path", ENGINE_PATHS, ids=str)
def test_each_import_on_first_use_says_why(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    bare = [what for line, what in _lazy_imports(path) if not _commented(lines, line)]
    assert not bare, f"{path.name}: imported on first use without a comment saying why: {bare}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=str)
def test_each_stand_in_is_declared_where_the_graph_reads_it(path: Path) -> None:
    # A later(...) stand-in names its module in a string; the import under
    # TYPE_CHECKING is what the graph above reads.
    name = _module_name(path)
    missing = [
        what
        for _, what in _lazy_imports(path)
        if what in GRAPH and what not in GRAPH[name] and not what.startswith("from")
    ]
    assert not missing, f"{name}: stand-ins for {missing} with no import the graph reads"


# --- sizes ---------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=str)
def test_modules_and_classes_stay_small(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 600, f"{path.name}: over 600 lines"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            assert size <= 400, f"{path.name}: class {node.name} is {size} lines"


NATIVE = sorted((PACKAGE / "engine" / "backend" / "_native_c").glob("*.c"))


def _c_functions(path: Path) -> Iterator[tuple[str, int]]:
    """Each function definition of a C file (its body opens with ``{`` alone
    on a line and closes with ``}`` alone, this project's style): its
    signature's first line and its length in lines, signature included."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start: int | None = None
    for at, line in enumerate(lines):
        if line == "{" and start is None:
            start = at
            while (
                start > 0
                and lines[start - 1].strip()
                and not lines[start - 1].rstrip().endswith(("*/", ";", "}"))
            ):
                start -= 1
        elif line == "}" and start is not None:
            yield lines[start], at - start + 1
            start = None


def test_the_c_functions_are_read() -> None:
    assert NATIVE
    assert sum(1 for path in NATIVE for _ in _c_functions(path)) > 20


@pytest.mark.parametrize("path", NATIVE, ids=lambda p: p.name)
def test_no_c_function_is_over_120_lines(path: Path) -> None:
    long = [(head, size) for head, size in _c_functions(path) if size > 120]
    assert not long, long
