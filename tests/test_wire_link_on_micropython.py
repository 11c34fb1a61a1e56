"""The terminal app over WireLink to the collector on the MicroPython unix port: a short session (pairing, a
reboot, three results stored once) in three quarters of the heap it declares, and proof that the limit binds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_terminal_on_micropython import micropython, table_host, terminal_build, three_quarters

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

__all__ = ["table_host", "terminal_build"]  # the fixtures, shared with the terminal's MicroPython tests

# App + WireLink + the wire package + the simulator's line to the collector, all as bytecode in RAM (the
# unix port cannot run .mpy in place; frozen into a device's firmware, module code stays in flash). 4/3 of
# the smallest heap it was seen to pass in, rounded up to 8 KB (see test_terminal_on_micropython): 160 KB once,
# then 168 (164 failed); with the link's MORE and fast polls (half a KB more bytecode) 168 failed one run in three
# and 174 none of many, so 232.
SESSION_HEAP_KB = 232


def test_a_wire_session_runs_in_its_heap(terminal_build: Path, tmp_path: Path) -> None:
    proc = micropython(terminal_build, three_quarters(SESSION_HEAP_KB), "-m", "wire_session_check")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "stored once: 3" in proc.stdout and "OK: end of session" in proc.stdout, proc.stdout
    peak = re.search(r"peak heap in use: (\d+) bytes", proc.stdout)
    assert peak, proc.stdout
    print(peak[0])


def test_the_wire_session_does_not_fit_a_much_smaller_heap(terminal_build: Path) -> None:
    proc = micropython(terminal_build, "%dk" % (SESSION_HEAP_KB // 2), "-m", "wire_session_check")
    assert proc.returncode != 0 and "MemoryError" in proc.stdout + proc.stderr
