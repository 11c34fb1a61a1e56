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

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

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
    for lines in (clean, faulty):  # the simulated director's call answered, the round clock's "move" at every table
        assert 'the director acknowledged it and the table showed "Director coming"' in "\n".join(lines)
        assert 'the round clock reached "move" on 5 of 5 terminals' in lines
    assert "host started 2x" in proc.stdout
    assert len(ranking(clean)) == 10 and ranking(clean) == ranking(faulty)


def test_the_tables_play_on_while_the_host_is_down_and_the_event_file_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "kept" / "club.sqlite"
    proc = subprocess.run([sys.executable, "-m", "tenace", "sim", "--tables", "5", "--boards", "15", "--seed", "4",
                           "--kill-host", "1", "--down", "6", "--db", str(db)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    found = FINAL.match(lines[-1])
    assert found and found.groups()[:4] == ("75", "75", "0", "0"), lines[-1]
    # With every round's plan kept, the five tables went on through two rounds and more while the host was dead.
    down = re.search(r"while the host was down the tables went on and accepted (\d+) results", proc.stdout)
    assert down and int(down[1]) >= 10, proc.stdout
    results = subprocess.run([sys.executable, "-m", "tenace", "results", str(db)], capture_output=True, text=True,
                             timeout=120)
    assert results.returncode == 0, results.stdout + results.stderr
    assert len(ranking(results.stdout.splitlines())) == 10, results.stdout
    again = subprocess.run([sys.executable, "-m", "tenace", "sim", "--tables", "3", "--boards", "9", "--db", str(db)],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "exists already" in again.stderr and again.stderr.count("\n") == 1, again.stderr


def test_a_two_section_evening_with_names_hands_a_movement_change_and_the_host_down(tmp_path: Path) -> None:
    """The director's evening of the issue: a Mitchell and a Howell, names from the roster, hand records with
    checked leads, a pair leaving mid-session (tenace move), the collector down for rounds; then the event file."""
    db = tmp_path / "evening.sqlite"
    # Both sections play 5 rounds of 3 boards, so that the host is down while both play.
    proc = subprocess.run([sys.executable, "-m", "tenace", "sim", "--tables", "5", "--boards", "15", "--howell", "3",
                           "--change", "--kill-host", "1", "--down", "6", "--loss", "0.05", "--seed", "2",
                           "--db", str(db)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    lines = out.splitlines()
    found = FINAL.match(lines[-1])
    # 75 Mitchell slots less the rounds EW 1's opponents sat out, and 45 in the Howell (3 tables, 5 rounds of 3).
    assert found and found[1] == found[2] and found.groups()[2:4] == ("0", "0"), lines[-1]
    change = re.search(r"the director changed the movement: section A EW 1 absent (?:in|from) round (\d)", out)
    assert change, out
    sat_out = 3 * (6 - int(change[1]))
    # The simulated director held section A's tables until the new plans had reached every one of them.
    assert re.search(r"the change reached every table of section A in \d+\.\d s", proc.stderr), proc.stderr
    assert int(found[1]) == 75 - sat_out + 45, (lines[-1], sat_out)
    down = re.search(r"while the host was down the tables went on and accepted (\d+) results", out)
    assert down and int(down[1]) >= 10, out
    assert "ranking from the event file equals the ranking of what the tables accepted" in out
    assert "section A (matchpoints; all" in out and "section B (matchpoints; all 45 results in)" in out
    assert 'the round clock reached "move" on 8 of 8 terminals' in lines  # both sections' clocks
    howell = [line for line in lines if re.match(r"^\s+\d+=?\s+B-\d ", line)]
    assert len(howell) == 6 and all(" - " in line for line in howell), howell  # one field of 6, players named

    def tenace(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "tenace", *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    results = tenace("results", str(db))
    assert results.count("Ranking") == 3, results  # A's NS and EW fields, B's one field
    board = tenace("results", str(db), "--board", "1", "--section", "B")
    assert "Par" in board or "par" in board, board  # the hand record's analysis with the traveller
    problems = tenace("problems", str(db))
    assert "move by simulator: section A EW 1 absent" in problems, problems
    assert "MISSING RESULTS: none" in problems, problems
