"""What a terminal board file runs with under MicroPython in these tests, compiled by mpy-cross as it would ship:
the firmware, the board file as `board`, the emulated buses and devices, the scripted player."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tenace.firmware_build import HARDWARE, SIM_DIR, build, flat, package_tree

from conftest import FIRMWARE, FIRMWARE_TESTS, ROOT, nrf24_driver, venv_tool

HERE = Path(__file__).resolve().parent
TERMINALS = ["terminal-esp32c3-espnow", "terminal-pico-nrf24"]
# micropython-lib's drivers the board files import (ssd1306), as tools/setup-env fetched them from PyPI.
DRIVERS = ROOT / "build" / "drivers"


def drivers() -> Path:
    """build/drivers, or an AssertionError saying how to get it (the drivers are the tests' hardware's)."""
    if not (DRIVERS / "ssd1306.py").is_file():
        raise AssertionError(f"{DRIVERS / 'ssd1306.py'} is missing: run ./tools/setup-env, which fetches "
                             "micropython-lib's SSD1306 driver at the version tools/constraints.txt pins")
    return DRIVERS


def mpy_tree(out: Path, terminal: str) -> Path:
    """The firmware, hardware/<terminal>/board.py as board, micropython-lib's ssd1306 (and nrf24l01 for an nRF24
    build: checked, or the test skips), and the test programs and fakes, in `out`."""
    return build(out, [*package_tree(FIRMWARE), (HARDWARE / terminal / "board.py", Path("board.py")),
                       *flat(HERE, ["board_cases.py", "emulated_terminal.py"]),
                       *flat(drivers(), ["ssd1306.py"]),
                       *flat(FIRMWARE_TESTS, ["checks.py", "fake_espnow.py", "fake_matrix.py", "mp_runner.py",
                                              "radio_frames.py"]),
                       *(flat(nrf24_driver().parent, ["nrf24l01.py"]) if "nrf24" in terminal else []),
                       *flat(SIM_DIR, ["accepted_log.py", "bus_models.py", "nrf24_model.py", "radio_socket.py",
                                        "scripted_player.py", "sim_devices.py"])])


def micropython_command(tree: Path, heap_kb: int, module: str, *args: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run `module` of `tree` under the MicroPython unix port."""
    return ([str(venv_tool("micropython")), "-X", f"heapsize={heap_kb}k", "-m", module, *args],
            dict(os.environ, MICROPYPATH=str(tree)))


def run_module(tree: Path, heap_kb: int, module: str, *args: str) -> subprocess.CompletedProcess[str]:
    command, env = micropython_command(tree, heap_kb, module, *args)
    return subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=300)
