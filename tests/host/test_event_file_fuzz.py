"""A fuzz test of the event file: random bit and byte flips in its rows, and truncations, each read back by
`tenace results`, `tenace problems` and `tenace check`. Every run must end in the unchanged output, a named problem
or a clear refusal: never an impossible score, never an internal error, never a changed ranking that `tenace check`
calls sound."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from cli_runner import tenace
from event_state import club_with_a_conflict

from tenace import crash_report
from tenace.store.schema import CHAINED
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract, parse_declarer
from tenace_rules.score import ns_score

# Runs per chunk, and chunks (the full run spreads them over the cores).
RUNS = 400
CHUNKS = 5
TD = ("--who", "TD Ana")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[tuple[int, int]]]:
    """A club evening's event file, as bytes, with every kind of director's action in it; and the byte ranges of its
    rows (the cell areas of the pages of every chained table)."""
    path = club_with_a_conflict(tmp_path_factory.mktemp("fuzz") / "club.sqlite")
    capsys = _NoCapture()
    db = str(path)
    steps = [
        ("resolve", db, "--table", "1", "--board", "1", "--keep", "v1", "--why", "NS right"),
        ("adjust", db, "--table", "2", "--board", "3", "--ns", "A+", "--ew", "A-", "--why", "fouled"),
        ("adjust", db, "--table", "2", "--board", "4", "--percent", "60/40", "--why", "regulation"),
        ("adjust", db, "--table", "3", "--board", "5", "--assigned", "+620", "--why", "Law 23"),
        ("adjust", db, "--table", "3", "--board", "6", "--weighted", "0.6:+420,40%:-100", "--why", "12C1c"),
        ("adjust", db, "--table", "4", "--board", "1", "--assigned", "+420", "--ew-assigned", "-50", "--why", "split"),
        ("adjust", db, "--pair", "NS 2", "--penalty", "25%", "--board", "4", "--why", "slow play"),
        ("correct", db, "--table", "4", "--board", "7", "--contract", "4S", "--by", "N", "--tricks", "=",
         "--why", "wrong declarer"),
        ("erase", db, "--table", "4", "--board", "8", "--why", "wrong table"),
    ]
    for step in steps:
        code = tenace(capsys, *step, *TD)[0]  # type: ignore[arg-type]
        assert code == 0, step
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    tables = tuple(table for table, _, _ in CHAINED)
    try:
        pages = conn.execute(f"SELECT pageno FROM dbstat WHERE pagetype = 'leaf' AND name IN "
                             f"({', '.join('?' * len(tables))})", tables).fetchall()
    except sqlite3.OperationalError as e:  # SQLite built without SQLITE_ENABLE_DBSTAT_VTAB
        pytest.fail(f"this SQLite has no dbstat table, which the fuzz test needs to find the rows: {e}")
    conn.close()
    data = path.read_bytes()
    ranges = []
    for (page,) in pages:
        start = (page - 1) * page_size
        # A table leaf page: its header's bytes 5-6 say where its cells (the rows) begin.
        header = start + (100 if page == 1 else 0)
        cells = int.from_bytes(data[header + 5:header + 7], "big") or 65536
        if cells < page_size:  # a page with no rows has none to flip
            ranges.append((start + cells, start + page_size))
    return data, ranges


class _NoCapture:
    """capsys for a module-scoped fixture: tenace's output is read through pytest's capture all the same."""

    def readouterr(self) -> tuple[str, str]:
        return "", ""


def test_the_pristine_file_is_sound(pristine: tuple[bytes, list[tuple[int, int]]], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.sqlite"
    path.write_bytes(pristine[0])
    code, out, _ = tenace(capsys, "check", str(path))
    assert code == 0 and ": sound:" in out, out
    assert len(pristine[1]) >= 5  # the rows of results, their history, the log, penalties, the chain...


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_flipped_and_cut_files_end_unchanged_named_or_refused(
        pristine: tuple[bytes, list[tuple[int, int]]], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    data, ranges = pristine

    def internal_error(command: str, error: BaseException, folder: Path | None = None) -> str:
        raise AssertionError(f"tenace {command}: internal error") from error
    monkeypatch.setattr(crash_report, "write", internal_error)

    path = tmp_path / "club.sqlite"
    path.write_bytes(data)
    expected = _outputs(path, capsys)
    outcomes: Counter[str] = Counter()
    for run in range(chunk * RUNS, (chunk + 1) * RUNS):
        rng = random.Random(run)
        mutated, how = _mutate(data, ranges, rng)
        for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            leftover.unlink(missing_ok=True)
        path.write_bytes(mutated)
        outcome = _outcome(path, capsys, expected, f"run {run} ({how})")
        outcomes[outcome] += 1
    print(f"fuzz chunk {chunk}: {RUNS} runs: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    assert sum(outcomes.values()) == RUNS


def _mutate(data: bytes, ranges: list[tuple[int, int]], rng: random.Random) -> tuple[bytes, str]:
    """One random bit flipped or byte replaced in a row (nine runs in ten), or the file cut short."""
    if rng.random() < 0.1:
        cut = rng.randrange(0, len(data))
        return data[:cut], f"cut at byte {cut}"
    start, end = rng.choice(ranges)
    offset = rng.randrange(start, end)
    out = bytearray(data)
    if rng.random() < 0.5:
        bit = rng.randrange(8)
        out[offset] ^= 1 << bit
        return bytes(out), f"bit {bit} of byte {offset} flipped"
    value = rng.randrange(256)
    out[offset] = value
    return bytes(out), f"byte {offset} set to {value}"


def _outputs(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[tuple[int, str], tuple[int, str]]:
    results = tenace(capsys, "results", str(path), "--json")
    problems = tenace(capsys, "problems", "--db", str(path), "--json")
    return (results[0], results[1]), (problems[0], problems[1])


def _outcome(path: Path, capsys: pytest.CaptureFixture[str], expected: tuple[tuple[int, str], tuple[int, str]],
             run: str) -> str:
    """unchanged, named (tenace check names what is wrong) or refused (one line, exit 2); anything else fails."""
    got = _outputs(path, capsys)
    check_code, check_out, check_err = tenace(capsys, "check", str(path))
    for (code, out), command in zip(got, ("results", "problems"), strict=True):
        if code == 0:
            _no_impossible_score(out, run) if command == "results" else json.loads(out)
        else:
            assert code == 2, f"{run}: tenace {command} exit {code}"
    if check_code == 2:
        assert check_err.count("\n") == 1, f"{run}: tenace check refused in more than one line: {check_err}"
        return "refused"
    if check_code == 1:
        assert check_out.strip(), f"{run}: tenace check exit 1 names nothing"
        return "named"
    assert check_code == 0, f"{run}: tenace check exit {check_code}"
    # The file is sound by every check: then nothing a reader sees may have changed.
    assert got == expected, f"{run}: the results changed and tenace check says the file is sound"
    return "unchanged"


def _no_impossible_score(text: str, run: str) -> None:
    """Every traveller line that shows a contract shows its Law 77 score."""
    for section in json.loads(text)["sections"]:
        for board in section["report"]["boards"]:
            for line in board["lines"]:
                if line.get("contract") in (None, "", "Pass") or line.get("declarer") is None:
                    continue
                score = ns_score(parse_contract(line["contract"]), parse_declarer(line["declarer"]),
                                 vulnerability(board["board"]), line["tricks"])
                assert line["ns_score"] == score, f"{run}: board {board['board']} {line}: an impossible score"
