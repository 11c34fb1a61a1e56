#!/usr/bin/env python3
"""Link benchmark: bytes on air per result, delivery latency under loss, and the host's ingest rate.

(a) and (b) run N simulated terminals (tenace_wire TerminalSession) against the Collector on a real event
file, over a simulated channel that loses each frame with a given probability each way, on a simulated
clock (20 ms steps): every frame both ways counts (HELLO, pairing, sign-in, round plans, retransmissions,
ACKs), divided by the results stored. (c) times authentic RESULT frames through Collector.receive into the
store, each committed and acknowledged as in production, on this machine's disk.
"""

from __future__ import annotations

import argparse
import logging
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tenace.collector import Collector, link_key
from tenace.movement import Movement, mitchell
from tenace.simulation.loopback import Channel, Loopback, SimulatedTerminal
from tenace.store import create_event
from tenace_wire.auth import Tagger
from tenace_wire.frame import encode_frame, peek_header
from tenace_wire.frame_types import RESULT
from tenace_wire.table_messages import Result


def movement_for(terminals: int, results: int) -> Movement:
    rounds = terminals - 1 if terminals % 2 == 0 else terminals
    return mitchell(terminals, max(1, math.ceil(results / rounds)))


def results_of(movement: Movement, table: int, count: int, rng: random.Random) -> list[Result]:
    out = []
    for e in sorted((e for e in movement.encounters if e.table == table), key=lambda e: e.round):
        for board in e.boards:
            level = rng.randint(1, 7)
            out.append(Result(section=0, table=table, round=e.round, board=board, ns_pair=e.ns_pair,
                              ew_pair=e.ew_pair, level=level, strain=rng.randrange(5), declarer=rng.randrange(4),
                              tricks=min(13, max(0, level + 6 + rng.randint(-2, 1))), lead=rng.randint(1, 52)))
    return out[:count]


def session(folder: Path, name: str, terminals: int, results: int, loss: float, seed: int,
            interval_ms: int) -> tuple[float, list[int], int]:
    """(bytes on air per result, latencies in ms from queue to stored, results stored)."""
    movement = movement_for(terminals, results)
    conn = create_event(folder / f"{name}.sqlite", name="Link benchmark", sections={"A": movement})
    rng = random.Random(seed)
    collector = Collector(conn, None, rng.getrandbits)
    code = link_key(conn).code
    sims = [SimulatedTerminal(100 + t, 0, t, code, random.Random(seed * 1000 + t)) for t in range(1, terminals + 1)]
    loop = Loopback(collector, sims, Channel(random.Random(seed + 1), loss))
    todo = {s.terminal: results_of(movement, s.table, results, rng) for s in sims}
    queued: dict[tuple[int, int], int] = {}
    latencies: list[int] = []
    next_at = {s.terminal: 0 for s in sims}
    total = sum(len(v) for v in todo.values())

    def receive(frame: bytes, now: int) -> None:
        before = collector.results_stored
        real_receive(frame, now)
        if collector.results_stored > before:
            header = peek_header(frame)
            if header is not None:
                latencies.append(now - queued[header[1:]])

    real_receive = collector.receive
    collector.receive = receive  # type: ignore[method-assign]
    while collector.results_stored < total:
        for s in sims:
            if s.session.signed_in and todo[s.terminal] and loop.now >= next_at[s.terminal]:
                seq = s.send(todo[s.terminal].pop(0), loop.now)
                queued[(s.terminal, seq)] = loop.now
                next_at[s.terminal] = loop.now + interval_ms
        loop.step()
        if loop.now > 24 * 3600 * 1000:
            raise SystemExit("the session did not finish in a simulated day")
    # Let the last ACKs reach the tables: their bytes are part of the cost.
    loop.run_until(lambda: all(s.session.pending() == 0 for s in sims), 120_000)
    conn.close()
    channel = loop.channel
    return (channel.bytes_up + channel.bytes_down) / total, latencies, total


def ingest_rate(folder: Path, count: int, seed: int) -> float:
    movement = movement_for(8, max(1, count // 8))
    conn = create_event(folder / "ingest.sqlite", name="Ingest benchmark", sections={"A": movement})
    rng = random.Random(seed)
    collector = Collector(conn, None, rng.getrandbits)
    key = link_key(conn)
    sims = [SimulatedTerminal(100 + t, 0, t, key.code, random.Random(t)) for t in range(1, 9)]
    loop = Loopback(collector, sims, Channel(rng))
    loop.run_until(loop.signed_in)
    tagger = Tagger(key.key)
    frames = []
    for s in sims:
        seq = s.session.next_seq + 100
        for r in results_of(movement, s.table, count // 8, rng):
            frames.append(encode_frame(tagger, False, RESULT, s.terminal, seq, r.encode()))
            seq += 1
    start = time.perf_counter()
    for i, frame in enumerate(frames):
        collector.receive(frame, loop.now + i)
        collector.due(loop.now + i)  # the ACK, made after the commit
    elapsed = time.perf_counter() - start
    assert collector.results_stored == len(frames), "every frame should be stored"
    conn.close()
    return len(frames) / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--terminals", type=int, default=10, help="tables, one terminal each (default 10)")
    parser.add_argument("--results", type=int, default=27, help="results per terminal (default 27)")
    parser.add_argument("--loss", type=float, default=0.2, help="frame loss each way for (b) (default 0.2)")
    parser.add_argument("--interval", type=int, default=2000, metavar="MS",
                        help="simulated time between a table's results (default 2000 ms)")
    parser.add_argument("--ingest", type=int, default=2000, help="frames for the ingest rate (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.terminals < 2 or args.results < 1 or not 0 <= args.loss < 1:
        parser.error("at least 2 terminals and 1 result each; loss from 0 to below 1")
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"{args.terminals} terminals x {args.results} results, one every {args.interval} ms (simulated)")
        for name, loss in (("clean", 0.0), ("lossy", args.loss)):
            per_result, latencies, total = session(folder, name, args.terminals, args.results, loss, args.seed,
                                                   args.interval)
            q = statistics.quantiles(latencies, n=100, method="inclusive")
            print(f"(a) loss {loss:.0%} each way: {per_result:.1f} bytes on air per result ({total} results)")
            print(f"(b) loss {loss:.0%} each way: delivery latency (20 ms steps) p50 {q[49]:.0f} ms, "
                  f"p99 {q[98]:.0f} ms, max {max(latencies)} ms")
        rate = ingest_rate(folder, args.ingest, args.seed)
        print(f"(c) host ingest: {rate:,.0f} RESULT frames/s through Collector.receive, each committed "
              f"(synchronous=FULL) and acknowledged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
