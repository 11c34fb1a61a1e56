"""The gates on the code itself: mpy-cross compiles the firmware, pyright checks it against each port's
micropython stubs, ruff lints the whole tree, mypy checks the host package strictly."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tenace.firmware_build import build, package_tree

from conftest import FIRMWARE, ROOT, venv_tool

PORTS = [line.split()[0] for line in (ROOT / "tools" / "stubs.txt").read_text().splitlines()
         if line.strip() and not line.startswith("#")]
CPYTHON_ONLY = ("typing", "dataclasses", "enum", "abc", "pathlib", "logging", "functools", "itertools")


def run(*cmd: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_mpy_cross_compiles_every_firmware_file(tmp_path: Path) -> None:
    sources = package_tree(FIRMWARE)
    assert sources
    build(tmp_path, sources)  # Failure, naming the file, if one does not compile
    modules = [rel for src, rel in sources if src.suffix == ".py"]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.mpy")) == sorted(
        rel.with_suffix(".mpy") for rel in modules)
    # The message catalogues go as they are.
    catalogues = [(src, rel) for src, rel in sources if src.suffix == ".txt"]
    assert sorted(rel.name for _, rel in catalogues) == ["en.txt", "he.txt", "lv.txt", "sk.txt", "sr.txt"]
    assert all((tmp_path / rel).read_bytes() == src.read_bytes() for src, rel in catalogues)


def test_the_manifest_freezes_every_firmware_package() -> None:
    # Run as MicroPython's build runs it (tools/manifestfile.py): include() and package() are its names.
    included: list[str] = []
    frozen: list[str] = []
    manifest = FIRMWARE / "manifest.py"
    exec(compile(manifest.read_text(encoding="utf-8"), str(manifest), "exec"),
         {"include": included.append, "package": lambda name, **_: frozen.append(name)})
    assert included == ["$(PORT_DIR)/boards/manifest.py"]
    packages = sorted(p.name for p in FIRMWARE.iterdir() if (p / "__init__.py").is_file())
    assert sorted(frozen) == packages and len(packages) == 4
    for name in frozen:
        assert (FIRMWARE / name / "__init__.py").is_file()


def test_firmware_imports_no_cpython_only_module() -> None:
    for src in FIRMWARE.rglob("*.py"):
        for number, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
            words = line.split()
            if len(words) >= 2 and words[0] in ("import", "from"):
                assert words[1].split(".")[0] not in CPYTHON_ONLY, f"{src}:{number}: {line.strip()}"


@pytest.mark.parametrize("port", PORTS)
def test_firmware_type_checks_against_port_stubs(port: str) -> None:
    stubs = ROOT / "build" / "typings" / port
    assert (stubs / "machine.pyi").exists(), f"no stubs for {port}: run tools/setup-env"
    # pyright takes only paths relative to its config file (in build/).
    config_file = ROOT / "build" / f"pyright-{port}.json"
    config = {
        "include": ["../firmware"],
        "exclude": ["../firmware/manifest.py"],  # MicroPython's build runs it, with include() and package()
        "extraPaths": ["../firmware"],
        "typeshedPath": f"typings/{port}",
        "stubPath": f"typings/{port}",
        "pythonVersion": "3.11",
        "typeCheckingMode": "standard",
        "reportMissingModuleSource": False,
    }
    config_file.write_text(json.dumps(config))
    proc = run(venv_tool("pyright"), "-p", config_file, "--outputjson")
    report = json.loads(proc.stdout)
    problems = [f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
                for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert not problems, "\n".join(problems)
    assert report["summary"]["filesAnalyzed"] >= len([src for src, _ in package_tree(FIRMWARE) if src.suffix == ".py"])


def test_ruff_lints_the_whole_tree() -> None:
    proc = run(venv_tool("ruff"), "check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_checks_the_host_package() -> None:
    proc = run(venv_tool("mypy"), "--no-incremental")
    assert proc.returncode == 0, proc.stdout + proc.stderr
