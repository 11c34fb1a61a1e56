"""Each terminal board file's build() on emulated buses (board_cases.py), on CPython and on the MicroPython unix port.

Under MicroPython the firmware, the board file (as `board`) and the test modules are compiled by mpy-cross, as
they would be on a device, and run with a bounded heap: the declared figure has the house's 25 % margin.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from board_trees import HERE, TERMINALS, drivers, mpy_tree, run_module

from tenace.firmware_build import HARDWARE

from conftest import load_nrf24_driver

CASES = re.findall(r"^def (test_\w+)", (HERE / "board_cases.py").read_text(encoding="utf-8"), re.M)
# Smallest heap seen to pass on the 64-bit unix port: 186 to 190 KB for the Pico's, by the length of the folder the
# tree is built in (184 KB for the C3's), most of it the firmware's code and the test modules, which the unix port
# keeps in the heap; build_terminal's module, loaded and dropped among them, leaves the layout sensitive to the
# path's length. Declared 4/3 of the largest, run in 3/4 (248 KB before build_terminal, when the Pico needed 184).
HEAP_KB = 256
# The Pico's build runs micropython-lib's real nrf24l01 driver on two chip models (its own and a base station's)
# where a fake of the driver's API stood: smallest seen 196 KB (the driver about 6 KB, the models 8 KB, test code
# no device holds). Declared apart with the same margin, 4/3 of 196 rounded up: run in 3/4 (198 KB).
HEAP_KB_BY_TERMINAL = {"terminal-pico-nrf24": 264}
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


def framebuf_standin() -> ModuleType:
    """tests/host/framebuf_standin.py, CPython's framebuf for these tests."""
    spec = importlib.util.spec_from_file_location("framebuf", HERE.parent / "host" / "framebuf_standin.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_board(name: str) -> ModuleType:
    """hardware/<name>/board.py imported as `board`, the name it has on the device."""
    spec = importlib.util.spec_from_file_location("board", HARDWARE / name / "board.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["board"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=TERMINALS)
def cases(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    if "nrf24" in request.param:
        load_nrf24_driver()  # micropython-lib's, checked; or the one line saying it is absent (in CI: a failure)
    # micropython-lib's ssd1306 and the bus models by bare name, as on MicroPython; the driver's own imports as
    # CPython has them: micropython.const a plain function, framebuf the host tests' pure-Python stand-in.
    sys.path[:0] = [str(HERE), str(drivers())]
    sys.modules["micropython"] = ModuleType("micropython")
    sys.modules["micropython"].const = lambda value: value  # type: ignore[attr-defined]
    sys.modules["framebuf"] = framebuf_standin()
    try:
        load_board(request.param)
        sys.modules.pop("board_cases", None)
        import board_cases

        yield board_cases
    finally:
        sys.path.remove(str(HERE))
        sys.path.remove(str(drivers()))
        for name in ("board", "board_cases", "ssd1306", "micropython", "framebuf"):
            sys.modules.pop(name, None)


@pytest.mark.parametrize("case", CASES)
def test_on_cpython(cases: ModuleType, case: str) -> None:
    getattr(cases, case)()


@pytest.mark.slow
@pytest.mark.parametrize("terminal", TERMINALS)
def test_on_micropython(tmp_path: Path, terminal: str) -> None:
    tree = mpy_tree(tmp_path, terminal)
    proc = run_module(tree, HEAP_KB_BY_TERMINAL.get(terminal, HEAP_KB) * 3 // 4, "mp_runner", "board_cases")
    found = SUMMARY.search(proc.stdout)
    assert found, proc.stdout + proc.stderr
    assert (int(found[1]), int(found[2]), proc.returncode) == (len(CASES), 0, 0), proc.stdout + proc.stderr
