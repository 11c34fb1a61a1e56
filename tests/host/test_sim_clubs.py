"""`tenace sim --clubs`: each direction's leaders printed; its hub and database stopped with it however it ends, or
left running with --keep, with how to reach and stop them."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx2 as httpx
import pytest

from tenace.cli import main
from tenace.simulation.clubs import leaders
from tenace.simulation.cluster import MISSING, binaries

from conftest import SESSION_ENV, processes_marked

GONE_S = 10.0


def _row(pair: str, field: str, rank: int) -> dict[str, object]:
    return {"pair": pair, "field": field, "rank": str(rank), "percent": str(70 - rank), "boards": 21}


def test_the_leaders_of_both_directions_are_printed_whichever_ranks_first() -> None:
    ranking = [_row(f"c/A{i}EW", "EW", i) for i in range(1, 11)] + [_row(f"c/A{i}NS", "NS", i) for i in range(1, 3)]
    lines = leaders(ranking, rows=3)
    assert [line.strip() for line in lines if line.endswith(":")] == ["NS (2 pairs), top 2:", "EW (10 pairs), top 3:"]
    rows = [line.split()[1] for line in lines if not line.endswith(":")]
    assert rows == ["c/A1NS", "c/A2NS", "c/A1EW", "c/A2EW", "c/A3EW"]
    assert leaders([{**_row("7", "", 1), "field": None}], rows=3)[0] == "  the field (1 pairs), top 1:"


@pytest.mark.parametrize("argv", [["--keep"], ["--clubs", "0", "--keep"], ["--clubs", "2", "--firmware-clubs", "9"],
                                  ["--keep", "--tables", "-3"]])
def test_absurd_options_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tenace sim: ") and "Traceback" not in err


@pytest.fixture
def mark() -> Iterator[str]:
    if binaries() is None:
        pytest.skip(MISSING)
    mark = secrets.token_hex(6)
    yield mark
    for pid in processes_marked(mark):  # what a failed test left
        os.kill(pid, signal.SIGKILL)


def _sim(mark: str, *more: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tenace", "sim", "--clubs", "2", "--firmware-clubs", "0", *more],
                            env={**os.environ, SESSION_ENV: mark}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _gone(mark: str) -> dict[int, str]:
    deadline = time.monotonic() + GONE_S
    while (left := processes_marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@pytest.mark.slow  # a PostgreSQL cluster and a hub of its own
def test_its_hub_and_database_stop_with_it(mark: str) -> None:
    out, err = _sim(mark).communicate(timeout=300)
    assert err == "" and out.endswith("lost=0 doubled=0\n")
    assert "  NS (14 pairs), top 5:" in out and "  EW (14 pairs), top 5:" in out
    assert _gone(mark) == {}


@pytest.mark.slow
def test_killed_its_hub_and_database_end_too(mark: str) -> None:
    sim = _sim(mark)
    deadline = time.monotonic() + 120
    while not any("hub.serving scoring" in c for c in processes_marked(mark).values()):
        assert sim.poll() is None and time.monotonic() < deadline, sim.communicate()
        time.sleep(0.05)
    sim.kill()
    sim.communicate()
    assert _gone(mark) == {}


@pytest.mark.slow
def test_keep_leaves_the_hub_running_and_says_how_to_stop_it(mark: str) -> None:
    out, err = _sim(mark, "--keep").communicate(timeout=300)
    assert err == "", err
    page = re.search(r"its JSON: (http://\S+)\)", out)
    stop = re.search(r"^to stop both: kill (\d+) (\d+) && rm -rf (\S+)$", out, re.M)
    assert page and stop, out
    assert httpx.get(page[1], timeout=10).status_code == 200
    files = re.search(r"^the clubs' event files and the hub's log: (\S+)$", out, re.M)
    for pid in stop[1], stop[2]:
        os.kill(int(pid), signal.SIGTERM)
    assert _gone(mark) == {}
    for folder in stop[3], files[1] if files else None:
        if folder:
            shutil.rmtree(folder)
