"""The table terminal under the MicroPython unix port: the tests of tests/terminal, the power cut at every
flash write, and a full 27-board session in a 64 KB heap. Everything is compiled by mpy-cross first."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tenace.firmware_build import build, flat, package_tree

from conftest import FIRMWARE, FIRMWARE_TESTS, ROOT, venv_tool

TERMINAL_TESTS = ROOT / "tests" / "terminal"
SIM = ROOT / "tools" / "sim"
MODULES = sorted(p.stem for p in TERMINAL_TESTS.glob("test_*.py"))
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)
# The scripted tests carry the simulator (stand-in host, link, clock) and their assertions on top of
# the terminal: 96 KB. The terminal itself, with devices as lean as a board's, runs in 64 KB (below).
TESTS_HEAP = "96k"
# Switching among all five languages, at random, with a catalogue unpacked at each switch: more.
HEAPS = {"test_terminal_menus": "128k", "test_wire_link": "192k"}  # the wire link test carries a HostSession too
SESSION_HEAP = "64k"
POWER_CUT_HEAP = "128k"  # two 16 KB RAM flashes besides the terminal and the simulator


@pytest.fixture(scope="module")
def terminal_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Firmware, simulator and terminal tests compiled into one folder by the one firmware build."""
    sources = package_tree(FIRMWARE) + flat(SIM) + flat(TERMINAL_TESTS)
    sources += flat(FIRMWARE_TESTS, ("mp_runner.py", "checks.py"))
    return build(tmp_path_factory.mktemp("terminal-mpy"), sources)


def micropython(build: Path, heap: str, *args: str, journal: Path | None = None) -> subprocess.CompletedProcess[str]:
    # A relative search path keeps module file names (qstrs, in the heap) short.
    env = dict(os.environ, MICROPYPATH=".")
    if journal is not None:
        env["TENACE_JOURNAL_DIR"] = str(journal)
    return subprocess.run([str(venv_tool("micropython")), "-X", f"heapsize={heap}", *args],
                          cwd=build, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("module", MODULES)
def test_terminal_module_passes_under_micropython(terminal_build: Path, module: str) -> None:
    proc = micropython(terminal_build, HEAPS.get(module, TESTS_HEAP), "-m", "mp_runner", module)
    found = SUMMARY.search(proc.stdout)
    assert found, f"no summary from MicroPython:\n{proc.stdout}\n{proc.stderr}"
    assert (int(found[2]), proc.returncode) == (0, 0), proc.stdout + proc.stderr
    # Every test_* function of the module ran, as many as pytest collects from the same file.
    source = (TERMINAL_TESTS / f"{module}.py").read_text(encoding="utf-8")
    assert int(found[1]) == len(re.findall(r"^def test_", source, re.M))


def test_power_cut_at_every_flash_write_of_a_session(terminal_build: Path) -> None:
    proc = micropython(terminal_build, POWER_CUT_HEAP, "-m", "mp_runner", "power_cut_check")
    assert proc.returncode == 0 and "1 passed, 0 failed" in proc.stdout, proc.stdout + proc.stderr
    cuts = re.search(r"power cuts: (\d+) writes cut \((\d+) inside (\d+) compactions\)", proc.stdout)
    assert cuts, proc.stdout
    assert int(cuts[1]) > 100 and int(cuts[2]) > 10 and int(cuts[3]) >= 2, cuts[0]


def test_a_27_board_session_runs_in_a_64k_heap(terminal_build: Path, tmp_path: Path) -> None:
    proc = micropython(terminal_build, SESSION_HEAP, "-m", "heap_session", journal=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "results acknowledged: 27" in proc.stdout and "Session finished" in proc.stdout, proc.stdout


def test_the_session_does_not_fit_a_much_smaller_heap(terminal_build: Path, tmp_path: Path) -> None:
    # Proof that the heap limit binds: the same session in 40 KB runs out of memory.
    proc = micropython(terminal_build, "40k", "-m", "heap_session", journal=tmp_path)
    assert proc.returncode != 0 and "MemoryError" in proc.stdout + proc.stderr
