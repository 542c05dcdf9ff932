"""The grammar file travels inside the wheel: build it, install it into a
fresh virtual environment outside the repository, and use it from there."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_wheel_installs_and_finds_its_grammar(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", dist, ROOT, cwd=tmp_path)
    (wheel,) = dist.glob("urigrammar-*.whl")
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
        "print(pathlib.Path(u.__file__).parent.joinpath('grammar', 'rfc3986.abnf').is_file())"
    )
    assert _run(python, "-c", code, cwd=elsewhere).split() == ["True", "True"]
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
