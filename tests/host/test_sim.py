"""`tenace sim` end to end: MicroPython terminals, the virtual radio, a real collector process killed and restarted.

A small session keeps the suite quick; the issue's 30-table run is the same code with bigger numbers
(its figures are in the README). Nothing may be lost or doubled, and the ranking must be the one of
the same session on a perfect radio.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SMALL = ["--tables", "5", "--boards", "6", "--boards-per-round", "2", "--seed", "3"]
FINAL = re.compile(r"^accepted=(\d+) stored=(\d+) lost=(\d+) doubled=(\d+) refused_forged=(\d+) terminal_faults=0$")


def sim(tmp_path: Path, name: str, *extra: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    proc = subprocess.run([sys.executable, "-m", "tenace", "sim", *SMALL, "--workdir", str(tmp_path / name), *extra],
                          capture_output=True, text=True, timeout=600)
    lines = proc.stdout.splitlines()
    assert lines, proc.stderr
    return lines, proc


def ranking(lines: list[str]) -> list[str]:
    """The ranking lines as printed: place, pair, matchpoints, percentage."""
    return [line for line in lines if re.match(r"^\s+\d+=?\s+(?:NS|EW) \d+ ", line)]


@pytest.mark.slow
def test_a_faulty_session_loses_and_doubles_nothing_and_ranks_as_a_perfect_one(tmp_path: Path) -> None:
    clean, proc = sim(tmp_path, "clean")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    faulty, proc = sim(tmp_path, "faulty", "--loss", "0.2", "--corrupt", "0.02", "--duplicate", "0.05",
                       "--reorder", "0.05", "--forge", "0.05", "--kill-host", "1", "--unplug", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for lines in (clean, faulty):
        found = FINAL.match(lines[-1])
        assert found, lines[-1]
        accepted, stored, lost, doubled, _forged = map(int, found.groups())
        assert (accepted, stored, lost, doubled) == (30, 30, 0, 0)  # 5 tables x 6 boards
    assert int(FINAL.match(faulty[-1])[5]) > 0  # type: ignore[index]  # the forgeries were refused
    assert "host started 2x" in proc.stdout
    assert len(ranking(clean)) == 10 and ranking(clean) == ranking(faulty)
