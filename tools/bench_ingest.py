"""Benchmark of the host store: result frames ingested per second, one transaction each as in production."""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from tenace.movement import mitchell
from tenace.store import IncomingResult, Status, connect, create_event, ingest, missing_results, scoring_rows, sign_in

from sample_results import session_results


def timed(label: str, frames: int, seconds: list[float]) -> None:
    total = sum(seconds)
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{label:<28} {frames:>6} frames  {frames / total:>8.0f} /s   "
          f"median {statistics.median(ms):.2f} ms  p99 {p99:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=30, help="tables in play (default 30)")
    parser.add_argument("--boards", type=int, default=27, help="boards each table plays (default 27)")
    parser.add_argument("--boards-per-round", type=int, default=3, help="default 3")
    parser.add_argument("--db", type=Path, help="event file to create (default: in a temporary folder)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sync", choices=("full", "normal", "off"), default="full",
                        help="PRAGMA synchronous for the run (production: full; the others show what fsync costs)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the refusals below are on purpose: no warning per frame
    movement = mitchell(args.tables, args.boards_per_round)
    rounds = min(movement.rounds, args.boards // args.boards_per_round)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "bench.sqlite"
        conn = create_event(path, name="Benchmark", sections={"A": movement})
        for table in range(1, args.tables + 1):
            sign_in(conn, table, "A", table)
        conn.execute(f"PRAGMA synchronous = {args.sync}")
        frames = [m for m in session_results(movement, seed=args.seed) if m.round <= rounds]
        print(f"{movement.name}: {rounds} rounds played, {len(frames)} results, file {path}")
        print(f"each frame: one BEGIN IMMEDIATE ... COMMIT, synchronous={args.sync.upper()}"
              + (" (on disk before the ACK)" if args.sync == "full" else " (NOT the production setting)"))

        def run(label: str, batch: list[IncomingResult], want: Status) -> None:
            seconds = []
            for m in batch:
                start = time.perf_counter()
                outcome = ingest(conn, m)
                seconds.append(time.perf_counter() - start)
                assert outcome.status is want, outcome
            timed(label, len(batch), seconds)

        run("stored (new results)", frames, Status.STORED)
        replayed = frames[:]
        random.Random(args.seed).shuffle(replayed)
        run("duplicates (replayed)", replayed, Status.DUPLICATE)
        hostile = [replace(m, sequence=m.sequence + 10_000, board=m.board + 1000) for m in frames[:300]]
        run("refused (wrong board)", hostile, Status.REFUSED)

        reader = connect(path)
        start = time.perf_counter()
        rows = scoring_rows(reader, "A")
        missing = missing_results(reader)
        elapsed = time.perf_counter() - start
        print(f"scoring input + missing list: {sum(len(r) for r in rows.values())} results on {len(rows)} boards, "
              f"{len(missing)} missing, in {elapsed * 1000:.0f} ms")
        print(f"file size {path.stat().st_size / 1024:.0f} KiB (+ WAL)")
        reader.close()
        conn.close()


if __name__ == "__main__":
    main()
