"""Crash safety and exactly-once: a writer killed mid-ingest, frames replayed in any order, readers while writing."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tenace.movement import Movement, mitchell
from tenace.store import Status, conflicts, connect, create_event, ingest, missing_results, scoring_rows, sign_in

from conftest import TOOLS
from sample_results import session_results

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

# The collector's loop in miniature: ingest each frame and "acknowledge" it (print ACK) only once ingest returned,
# i.e. after COMMIT. With "hang N" the process stops inside its Nth transaction, after every write, before COMMIT.
WRITER = """
import sys, time
sys.path.insert(0, sys.argv.pop())  # tools/, where sample_results is
from tenace.movement import mitchell
import tenace.store.db as db
from tenace.store import connect, ingest
from sample_results import session_results

path, tables, boards, mode, arg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
if mode == "hang":
    real_commit, calls = db.commit, [0]
    def commit(conn):
        calls[0] += 1
        if calls[0] == arg:
            print("IN TRANSACTION", flush=True)
            time.sleep(60)
        real_commit(conn)
    db.commit = commit
conn = connect(path)
messages = session_results(mitchell(tables, boards))
if mode == "shuffle":
    import random
    random.Random(arg).shuffle(messages)
for m in messages:
    if ingest(conn, m).acknowledge:
        print("ACK", m.terminal, m.sequence, flush=True)
print("DONE", flush=True)
"""


def new_event(path: Path, movement: Movement) -> None:
    conn = create_event(path, name="Crash test", sections={"A": movement})
    for table in range(1, movement.tables + 1):
        sign_in(conn, table, "A", table)
    conn.close()


def start_writer(path: Path, movement: Movement, mode: str = "run", arg: int = 0) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(movement.tables),
                             str(movement.boards_per_round), mode, str(arg), str(TOOLS)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def check_exactly_once(path: Path, acknowledged: set[tuple[int, int]]) -> int:
    """Every acknowledged frame stored once with its one result; nothing half-written anywhere. The count stored."""
    conn = connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    stored = {(t, s): n for t, s, n in conn.execute(
        "SELECT f.terminal, f.seq, count(r.id) FROM frame f LEFT JOIN result r ON r.frame = f.id "
        "WHERE f.outcome = 'stored' GROUP BY f.id")}
    assert all(n == 1 for n in stored.values()), "a stored frame without exactly one result"
    assert acknowledged <= set(stored), f"acknowledged but lost: {sorted(acknowledged - set(stored))[:5]}"
    assert conn.execute("SELECT count(*) FROM result").fetchone()[0] == len(stored)
    assert conn.execute("SELECT count(*) FROM frame WHERE outcome = 'refused'").fetchone()[0] == 0
    # One version per slot: a frame sent again after the crash was a duplicate, never a second result.
    assert conn.execute("SELECT count(*) FROM (SELECT 1 FROM result GROUP BY section, table_no, round, board "
                        "HAVING count(*) > 1)").fetchone()[0] == 0
    conn.close()
    return len(stored)


def read_acks(proc: subprocess.Popen[str], acknowledged: set[tuple[int, int]], stop_after: int | None) -> str:
    """Collect ACK lines until `stop_after` new ones (then return "STOP"), or a line that is not an ACK."""
    assert proc.stdout is not None
    seen = 0
    for line in proc.stdout:
        if not line.endswith("\n"):
            return "CUT"  # killed while printing: an acknowledgement that never got out
        if not line.startswith("ACK"):
            return line.strip()
        _, terminal, sequence = line.split()
        key = (int(terminal), int(sequence))
        seen += key not in acknowledged  # count new acknowledgements: a retransmitted duplicate is no progress
        acknowledged.add(key)
        if stop_after is not None and seen >= stop_after:
            return "STOP"
    return "EOF"


def test_a_writer_killed_at_random_moments_loses_no_acknowledged_result(tmp_path: Path) -> None:
    movement = mitchell(9, 3)  # 243 results
    path = tmp_path / "crash.sqlite"
    new_event(path, movement)
    rng = random.Random(7)
    acknowledged: set[tuple[int, int]] = set()
    kills = 0
    while True:
        # Like the terminals after a host crash: every frame not yet acknowledged is sent again, in order.
        proc = start_writer(path, movement)
        what = read_acks(proc, acknowledged, stop_after=rng.randint(5, 60))
        if what == "STOP":
            time.sleep(rng.random() * 0.005)  # land anywhere: between frames, mid-transaction, mid-COMMIT
            proc.send_signal(signal.SIGKILL)
            read_acks(proc, acknowledged, None)  # ACKs printed before the kill landed are acknowledgements too
            proc.wait(10)
            kills += 1
            check_exactly_once(path, acknowledged)
            continue
        assert what == "DONE", proc.stderr.read() if proc.stderr else what
        proc.wait(10)
        break
    assert kills >= 3
    assert check_exactly_once(path, acknowledged) == 243 == len(acknowledged)


def test_a_transaction_interrupted_before_commit_leaves_nothing_behind(tmp_path: Path) -> None:
    movement = mitchell(5, 3)
    path = tmp_path / "hang.sqlite"
    new_event(path, movement)
    acknowledged: set[tuple[int, int]] = set()
    proc = start_writer(path, movement, "hang", 11)  # the 11th frame: frame and result rows written, no COMMIT
    assert read_acks(proc, acknowledged, None) == "IN TRANSACTION"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert len(acknowledged) == 10
    assert check_exactly_once(path, acknowledged) == 10
    conn = connect(path)
    eleventh = session_results(movement)[10]
    assert conn.execute("SELECT count(*) FROM frame WHERE terminal = ? AND seq = ?",
                        (eleventh.terminal, eleventh.sequence)).fetchone()[0] == 0
    conn.close()
    proc = start_writer(path, movement)  # the retransmissions: ten duplicates, then the rest
    assert read_acks(proc, acknowledged, None) == "DONE"
    proc.wait(10)
    assert check_exactly_once(path, acknowledged) == 75


def test_1000_frames_replayed_three_times_in_shuffled_order_are_each_stored_once(tmp_path: Path) -> None:
    movement = mitchell(20, 3)  # 1,140 results; the first 1,000 frames are sent
    path = tmp_path / "replay.sqlite"
    new_event(path, movement)
    frames = session_results(movement)[:1000]
    traffic = frames * 3
    random.Random(3).shuffle(traffic)
    conn = connect(path)
    outcomes = [ingest(conn, m).status for m in traffic]
    assert outcomes.count(Status.STORED) == 1000 and outcomes.count(Status.DUPLICATE) == 2000
    assert conn.execute("SELECT count(*) FROM result").fetchone()[0] == 1000
    assert conn.execute("SELECT count(*) FROM frame").fetchone()[0] == 1000
    assert conflicts(conn) == [] and len(missing_results(conn)) == 140
    stored = sum(len(rows) for rows in scoring_rows(conn, "A").values())
    assert stored == 1000


def test_readers_rank_while_the_collector_writes(tmp_path: Path) -> None:
    movement = mitchell(15, 2)  # 450 results
    path = tmp_path / "live.sqlite"
    new_event(path, movement)
    seen: list[int] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def rank() -> None:
        """A ranking query in a read transaction: a consistent snapshot, never blocked, never a locked error."""
        conn = connect(path)
        mine: list[int] = []
        try:
            while not done.is_set():
                conn.execute("BEGIN")
                rows = scoring_rows(conn, "A")
                frames = conn.execute("SELECT count(*) FROM frame WHERE outcome = 'stored'").fetchone()[0]
                conn.execute("COMMIT")
                totals: dict[int, int] = {}
                for board_rows in rows.values():
                    for r in board_rows:
                        totals[r.ns_pair] = totals.get(r.ns_pair, 0) + (r.ns_score or 0)
                sorted(totals.items(), key=lambda kv: -kv[1])
                count = sum(len(r) for r in rows.values())
                assert count == frames, "a reader saw a result without its frame, or the reverse"
                assert not mine or count >= mine[-1], "a reader went back in time"
                mine.append(count)
                seen.append(count)
        except BaseException as e:  # reported to the test thread
            errors.append(e)
        finally:
            conn.close()

    readers = [threading.Thread(target=rank) for _ in range(3)]
    for t in readers:
        t.start()
    proc = start_writer(path, movement, "shuffle", 5)
    acknowledged: set[tuple[int, int]] = set()
    assert read_acks(proc, acknowledged, None) == "DONE"
    proc.wait(30)
    done.set()
    for t in readers:
        t.join(30)
    assert not errors, errors
    assert len(acknowledged) == 450 and max(seen) <= 450
    assert any(0 < n < 450 for n in seen), "the readers never ran while the writer was writing"
    assert check_exactly_once(path, acknowledged) == 450


def test_a_second_writer_waits_for_the_first(tmp_path: Path) -> None:
    """Two collectors on one file (e.g. serial and TCP) serialise on BEGIN IMMEDIATE: no frame stored twice."""
    movement = mitchell(7, 3)
    path = tmp_path / "two.sqlite"
    new_event(path, movement)
    first, second = start_writer(path, movement, "shuffle", 1), start_writer(path, movement, "shuffle", 2)
    acks: set[tuple[int, int]] = set()
    assert read_acks(first, acks, None) == "DONE" and read_acks(second, acks, None) == "DONE"
    first.wait(10)
    second.wait(10)
    assert check_exactly_once(path, acks) == 147
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM frame").fetchone()[0] == 147
