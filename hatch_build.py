"""Hatch build hook: compile the shipped grammars into programs, and the
optional C extension ``urigrammar.engine.backend._native``.

Programs: ``python -m urigrammar._precompute`` (run from ``src/`` in a
subprocess) writes each shipped grammar's rules and programs as data
(``urigrammar/compiled/*.json``), which the wheel carries, as
``compileall`` writes ``.pyc`` files: a process then loads a rule in
milliseconds instead of reading the grammar with ``abnf``.  Should that
step fail, the wheel is still built and urigrammar compiles on first use.
A wheel build keeps what it compiled under ``build/`` for the next build
of the same sources (``_cache_dir``), which copies it instead.

The wheel stays one command (``pip install .``) and never needs a compiler:
when compiling fails for any reason (no compiler, no Python headers,
``CC=false``), the hook says so and the wheel is built pure, and urigrammar
runs on its regex engine.  When it succeeds, the extension is built against
CPython's stable ABI (``Py_LIMITED_API`` 3.10, set in its headers) and the
wheel is tagged ``cp310-abi3-<platform>``: one wheel installs on every
CPython from 3.10 on, which is what tox's single ``.pkg`` build relies on.

setuptools does the compiling (its ``build_ext`` knows each platform's
compiler and flags); hatchling still builds the wheel and its grammar
force-includes.  ``URIGRAMMAR_NO_EXTENSION=1`` skips the extension.

A build that must not ship pure (a release, CI's wheels) says so with
``URIGRAMMAR_REQUIRE_NATIVE=1`` in the environment, or ``require-native =
true`` in the hook's settings (``[tool.hatch.build.targets.wheel.hooks.custom]``):
then a failed compile fails the build, with the compiler's reason, instead
of making a wheel five times slower without a word.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# The extension's sources: one file per type, and the class map they share
# (src/urigrammar/engine/backend/_native_c/native.h says which file holds what).
SOURCES = Path("src/urigrammar/engine/backend/_native_c")
SOURCE_FILES = (
    "dfa.c",
    "runner.c",
    "tagger.c",
    "plan.c",
    "record.c",
    "entry.c",
    "arrow.c",
    "columns.c",
    "normal.c",
    "canonical.c",
    "lookup.c",
    "module.c",
)
NAME = "urigrammar.engine.backend._native"
# The stable ABI's file suffix on POSIX; Windows uses .pyd.
SUFFIX = ".pyd" if sys.platform == "win32" else ".abi3.so"


def _compile(root: Path, work: Path) -> Path:
    """Build the extension in ``work`` with setuptools; the built file."""
    from setuptools import Distribution, Extension

    extension = Extension(
        NAME,
        sources=[str(root / SOURCES / name) for name in SOURCE_FILES],
        py_limited_api=True,
        define_macros=[("Py_LIMITED_API", "0x030A0000")],
    )
    dist = Distribution({"name": "urigrammar-native", "ext_modules": [extension]})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "temp")
    command.ensure_finalized()
    command.run()
    built = command.get_ext_fullpath(NAME)
    return Path(built)


def _cache_dir(root: Path) -> Path:
    """Where a wheel build keeps the programs it compiled, for the next
    build of the same sources (tox builds two wheels, and a test a third):
    ``build/urigrammar-compiled/<stamp>``, the stamp a sha256 of every
    grammar file, every module of the package, this hook and the Python
    version, since any of them may change what is compiled."""
    digest = hashlib.sha256(f"{sys.version_info[0]}.{sys.version_info[1]}".encode())
    package = root / "src" / "urigrammar"
    for path in sorted(
        [*(root / "grammar").glob("*.abnf"), *package.rglob("*.py"), root / "hatch_build.py"]
    ):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return root / "build" / "urigrammar-compiled" / digest.hexdigest()[:32]


def _include(directory: Path, build_data: dict[str, Any]) -> None:
    for path in sorted(directory.glob("*.json")):
        build_data["force_include"][str(path)] = f"urigrammar/compiled/{path.name}"


def _keep(out: Path, cache: Path) -> None:
    """The programs in ``out`` copied to ``cache``, whole or not at all (a
    directory renamed into place), replacing older stamps'; a tree that
    cannot be written to keeps nothing."""
    staging = None
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=cache.parent))
        for path in out.glob("*.json"):
            shutil.copyfile(path, staging / path.name)
        for old in cache.parent.iterdir():
            if old.is_dir() and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
        staging.rename(cache)
    except OSError:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


class NativeBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"
    _work: Path | None = None

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        # The wheel holds its copy of the extension now.
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        work = self._work = Path(tempfile.mkdtemp(prefix="urigrammar-build-"))
        # The programs compile in a subprocess while the extension compiles
        # here: the two take the build's time, and neither needs the other.
        programs = self._programs(root, work, version, build_data)
        try:
            if not os.environ.get("URIGRAMMAR_NO_EXTENSION"):
                self._extension(root, work, version, build_data)
            elif self._native_required():
                msg = "urigrammar: URIGRAMMAR_NO_EXTENSION and a required extension contradict"
                raise RuntimeError(msg)
        finally:
            programs()  # the subprocess ends before the build does, failed or not

    def _native_required(self) -> bool:
        """Whether a wheel without the extension must fail the build."""
        flag = os.environ.get("URIGRAMMAR_REQUIRE_NATIVE", "")
        return flag not in ("", "0") or self.config.get("require-native") is True

    def _programs(
        self, root: Path, work: Path, version: str, build_data: dict[str, Any]
    ) -> Callable[[], None]:
        """Start compiling the programs; the function that waits for them
        and puts them in the wheel."""
        # An editable install reads src/ (the files are ignored by git).
        out = (
            root / "src" / "urigrammar" / "compiled" if version == "editable" else work / "compiled"
        )
        cache = None if version == "editable" else _cache_dir(root)
        if cache is not None and any(cache.glob("*.json")):
            # Compiled by an earlier build of these very sources.
            _include(cache, build_data)
            return lambda: None
        # src/ ahead of what PYTHONPATH holds: pip's isolated build
        # environment reaches its packages (abnf among them) through it.
        path = os.pathsep.join(p for p in (str(root / "src"), os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, URIGRAMMAR_PURE="1", PYTHONPATH=path)
        command = [sys.executable, "-m", "urigrammar._precompute", str(out)]
        # stderr to a file: a pipe nobody reads while the extension compiles
        # could fill and stop the subprocess.
        errors = work / "precompute.err"
        with errors.open("w", encoding="utf-8") as sink:
            running = subprocess.Popen(
                command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=sink, text=True
            )

        def finish() -> None:
            if running.wait() != 0:
                lines = errors.read_text(encoding="utf-8", errors="replace").strip().splitlines()
                self.app.display_warning(
                    "urigrammar: the shipped grammars were not compiled ahead of time "
                    f"({lines[-1:] or running.returncode}); "
                    "urigrammar compiles them on first use"
                )
                return
            if version != "editable":
                _include(out, build_data)
                if cache is not None:
                    _keep(out, cache)

        return finish

    def _extension(self, root: Path, work: Path, version: str, build_data: dict[str, Any]) -> None:
        try:
            built = _compile(root, work)
        except (Exception, SystemExit) as exc:  # distutils errors, or none of a compiler
            if self._native_required():
                msg = (
                    f"urigrammar: the C extension did not build ({type(exc).__name__}: {exc}), "
                    "and this build requires it (URIGRAMMAR_REQUIRE_NATIVE, or require-native)"
                )
                raise RuntimeError(msg) from exc
            self.app.display_warning(
                f"urigrammar: the C extension did not build ({type(exc).__name__}: {exc}); "
                "the wheel is pure Python and urigrammar runs on its regex engine"
            )
            return
        target = "urigrammar/engine/backend/_native" + SUFFIX
        if version == "editable":
            # An editable install imports from src/: put the module there
            # (ignored by git, and excluded from wheels built from the tree).
            shutil.copyfile(built, root / "src" / target)
        else:
            build_data["force_include"][str(built)] = target
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"cp310-abi3-{platform}"
