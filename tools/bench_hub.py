"""Benchmark of the hub's ingest: CLUBS clubs x 10 tables x 24 boards pushed at an evening's pace, then in a burst.

Each club's pushes are what its outbox would hold (wire.SlotPush, one per result, gapless), sent by worker threads
over HTTP to a hub (`tenace hub serve`) on a throwaway PostgreSQL. Prints, as the issue asks:
  hub ingest: N results/s
  club commit to national page p50/p99: X ms / Y ms
  full-field rescore: S s
  lost=0 doubled=0

usage: .venv/bin/python tools/bench_hub.py [--clubs N] [--threads T]   (default: 1,000 clubs, 240,000 results)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

from tenace.hub import wire
from tenace.hub.club_push import send
from tenace.hub.club_sim import HubProcess, new_sim
from tenace.hub.cluster import Cluster
from tenace.hub.field import rescore
from tenace.movement import mitchell
from tenace.store.hub_outbox import SimLink

TABLES, BOARDS_PER_ROUND, ROUNDS = 10, 3, 8  # 10 tables x 24 boards a club


def club_pushes(seed: int) -> list[wire.Push]:
    movement = mitchell(TABLES, BOARDS_PER_ROUND, ROUNDS)
    out: list[wire.Push] = []
    for e in sorted(movement.encounters, key=lambda e: (e.round, e.table)):
        for board in e.boards:
            tricks = 7 + (seed * 31 + board * 7 + e.table) % 5
            score = (tricks - 9) * 30 + (400 if tricks >= 9 else -50)
            slot = wire.SlotPush("A", e.table, e.round, board, e.ns_pair, e.ew_pair, "NS", "EW", "result",
                                 "normal", "3NT", "NESW"[board % 4], tricks, None, score)
            out.append(wire.Push(len(out) + 1, len(out) + 1, slot=slot))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clubs", type=int, default=1000, help="clubs (default 1000: 240,000 results)")
    parser.add_argument("--threads", type=int, default=16, help="clubs pushing at once (default 16)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-hub-") as tmp, Cluster.start() as cluster:
        folder = Path(tmp)
        names = [f"c{i:04d}" for i in range(1, args.clubs + 1)]
        tokens = new_sim(cluster.url, folder, "bench", names, mitchell(TABLES, BOARDS_PER_ROUND, ROUNDS).boards)
        hub = HubProcess(cluster.url, folder / "hub.log")
        hub.start()
        try:
            links = {c: SimLink(hub.url, "bench", c, tokens[c], "", 0, None, None) for c in names}
            pushes = {c: club_pushes(i) for i, c in enumerate(names)}
            half = len(next(iter(pushes.values()))) // 2
            latencies: list[float] = []
            lock = threading.Lock()

            def paced(club: str) -> None:  # the evening: a round's results at a time, each batch timed
                for start in range(0, half, TABLES * BOARDS_PER_ROUND):
                    t0 = time.perf_counter()
                    send(links[club], pushes[club][start:min(start + TABLES * BOARDS_PER_ROUND, half)], 30)
                    with lock:
                        latencies.append(time.perf_counter() - t0)

            def burst(club: str) -> None:  # every club back at once with its backlog
                send(links[club], pushes[club][half:], 30)

            started = time.perf_counter()
            with ThreadPoolExecutor(args.threads) as pool:
                list(pool.map(paced, names))
            with ThreadPoolExecutor(args.threads) as pool:
                list(pool.map(burst, names))
            elapsed = time.perf_counter() - started
            total = sum(len(p) for p in pushes.values())
            with psycopg.connect(cluster.url, autocommit=True) as conn:
                conn.execute("UPDATE scores SET generation = generation + 1 WHERE sim = 'bench'")
                t0 = time.perf_counter()
                while rescore(conn, "bench") is None:
                    time.sleep(0.05)
                rescored = time.perf_counter() - t0
                held = conn.execute("SELECT count(*) FROM slots WHERE sim = 'bench'").fetchone()
                stored = conn.execute("SELECT count(*) FROM pushes WHERE sim = 'bench'").fetchone()
        finally:
            hub.stop()
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    # The push's round trip (commit at the hub included) plus the rescore that puts it on the national page.
    print(f"hub ingest: {total / elapsed:.0f} results/s")
    print(f"club commit to national page p50/p99: {(statistics.median(ordered) + rescored) * 1000:.0f} ms / "
          f"{(p99 + rescored) * 1000:.0f} ms")
    print(f"full-field rescore: {rescored:.1f} s")
    lost = total - int(held[0] if held else 0)
    doubled = int(stored[0] if stored else 0) - total
    print(f"lost={max(lost, 0)} doubled={max(doubled, 0)}")
    return 0 if lost == 0 and doubled == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
