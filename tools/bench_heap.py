#!/usr/bin/env python3
"""Heap of a full 27-board session on a simulated terminal under the MicroPython unix port.

Compiles the firmware and the simulator's heap_session.py (host/tenace/simulation/boards) with the one firmware
build (tenace.firmware_build), runs it with `micropython -X heapsize=64k` and prints its figures: the heap in use
after the imports (the code, which a device keeps frozen in flash), the peak (code and data, live heap
sampled after each key press) and the data alone (their difference); then the smallest heap the
session completes in (bisection, then 1 KB steps down while it still completes: the layout of the heap
makes success not quite monotonic), an error caught by the app counting as a failure.

Run: .venv/bin/python tools/bench_heap.py [--heap 64k]
tests/test_heap_ceiling.py runs the same session (session_build, session, completes) in 60 KB: the measured 48 KB and
the house's 25 % margin for memory.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tenace.firmware_build import FIRMWARE, SIM_DIR, build, flat, package_tree
from tenace.simulation.terminal.process import micropython


def session_build(out: Path) -> Path:
    """The firmware and heap_session.py compiled into `out` by the one firmware build; returns `out`."""
    return build(out, package_tree(FIRMWARE) + flat(SIM_DIR, ["heap_session.py"]))


def session(out: Path, heap_kb: int) -> subprocess.CompletedProcess[str]:
    # The journal's folder by a relative name of fixed length: a path is heap, and must not vary by machine.
    journal = Path(tempfile.mkdtemp(prefix="j", dir=out)).name
    env = dict(os.environ, MICROPYPATH=".", TENACE_JOURNAL_DIR=journal)
    return subprocess.run([str(micropython()), "-X", f"heapsize={heap_kb}k", "-m", "heap_session"],
                          cwd=out, env=env, capture_output=True, text=True, timeout=300)


def completes(proc: subprocess.CompletedProcess[str]) -> bool:
    return (proc.returncode == 0 and "results acknowledged: 27" in proc.stdout
            and "errors caught by the app: 0\n" in proc.stdout)


def figure(proc: subprocess.CompletedProcess[str], label: str) -> int:
    found = re.search(label + r": (\d+) bytes", proc.stdout)
    return int(found[1]) if found else 0


def heap_size(text: str) -> int:
    """--heap in KB: 64k or 64, from 32 to 1024."""
    digits = text[:-1] if text[-1:] in ("k", "K") else text
    if not digits.isdigit() or not 32 <= int(digits) <= 1024:
        raise argparse.ArgumentTypeError(f"a heap from 32k to 1024k, not {text!r}")
    return int(digits)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heap", type=heap_size, default=64, metavar="SIZE",
                        help="the heap to run the session in, 32k to 1024k (default 64k)")
    heap_kb = parser.parse_args().heap
    with tempfile.TemporaryDirectory(prefix="tenace-heap-") as tmp:
        out = session_build(Path(tmp))
        proc = session(out, heap_kb)
        print(f"27-board session, micropython -X heapsize={heap_kb}k: "
              f"{'completed' if completes(proc) else 'FAILED'}")
        for line in proc.stdout.splitlines()[:3]:
            print("  " + line)
        code, peak = figure(proc, "heap in use after the imports"), figure(proc, "peak heap in use")
        print(f"  data (peak less code): {peak - code} bytes")
        if not completes(proc):
            print(proc.stdout + proc.stderr)
            return 1
        low, high = 16, heap_kb  # the session fails in `low` KB, completes in `high`
        while high - low > 1:
            middle = (low + high) // 2
            if completes(session(out, middle)):
                high = middle
            else:
                low = middle
        smallest = high
        while completes(session(out, smallest - 1)):  # the layout makes success not quite monotonic
            smallest -= 1
        print(f"smallest heap the session completes in: {smallest}k")
    return 0


if __name__ == "__main__":
    sys.exit(main())
