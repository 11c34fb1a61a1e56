#!/usr/bin/env python3
"""Peak heap of a full 27-board session on a simulated terminal under the MicroPython unix port.

Compiles the firmware and tools/sim with mpy-cross (as they would ship), runs tools/sim/heap_session.py
with `micropython -X heapsize=64k` and prints its figures (live heap sampled after each key press),
then finds the smallest heap the session still completes in (bisection, 1 KB steps).

Run: .venv/bin/python tools/bench_heap.py [--heap 64k]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    found = BIN / name
    return str(found) if found.exists() else (shutil.which(name) or name)


def build(out: Path) -> None:
    firmware = ROOT / "firmware"
    sources = [(p, p.relative_to(firmware)) for p in firmware.rglob("*.py")]
    sources += [(p, Path(p.name)) for p in (ROOT / "tools" / "sim").glob("*.py")]
    for src, rel in sources:
        dest = out / rel.with_suffix(".mpy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([tool("mpy-cross"), "-s", str(rel), "-o", str(dest), str(src)], check=True)


def session(out: Path, heap_kb: int) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="tenace-journal-") as journal:
        env = dict(os.environ, MICROPYPATH=".", TENACE_JOURNAL_DIR=journal)
        return subprocess.run([tool("micropython"), "-X", f"heapsize={heap_kb}k", "-m", "heap_session"],
                              cwd=out, env=env, capture_output=True, text=True, timeout=300)


def completes(proc: subprocess.CompletedProcess[str]) -> bool:
    return proc.returncode == 0 and "results acknowledged: 27" in proc.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heap", default="64k", help="the heap to run the session in (default 64k)")
    heap_kb = int(parser.parse_args().heap.rstrip("kK"))
    with tempfile.TemporaryDirectory(prefix="tenace-heap-") as tmp:
        out = Path(tmp)
        build(out)
        proc = session(out, heap_kb)
        print(f"27-board session, micropython -X heapsize={heap_kb}k: "
              f"{'completed' if completes(proc) else 'FAILED'}")
        for line in proc.stdout.splitlines()[:2]:
            print("  " + line)
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
        print(f"smallest heap the session completes in: {high}k")
    return 0


if __name__ == "__main__":
    sys.exit(main())
