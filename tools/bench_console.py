"""Benchmark of the director's console: each page's server time, and a result's time from its commit to the grid's
live part showing it, for a 30-table event of two sections (15 tables each, two boards a round)."""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

from starlette.testclient import TestClient

from tenace.movement import mitchell
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.model import IncomingResult
from tenace.web.app import create_app
from tenace.web.console import Director

from sample_results import session_results

PASSWORD = "bench"
SAME = {"Origin": "http://testserver"}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def store(path: Path, message: IncomingResult, committed: list[float]) -> None:
    """The result stored a moment later on a connection of its own, as the collector's; when it was committed."""
    time.sleep(0.05)
    conn = connect(path)
    ingest(conn, message)
    committed.append(time.perf_counter())
    conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=100, help="requests per page (default 100)")
    parser.add_argument("--results", type=int, default=60, help="results timed from commit to grid (default 60)")
    args = parser.parse_args()
    movement = mitchell(15, 2)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        conn = create_event(path, name="Benchmark", date="2024-05-14", sections={"A": movement, "B": movement})
        messages = {s: session_results(movement, section=s, seed=i + 1, terminal_of=lambda t, i=i: 100 * i + t)
                    for i, s in enumerate(("A", "B"))}
        for i, s in enumerate(("A", "B")):
            for table in range(1, 16):
                sign_in(conn, 100 * i + table, s, table)
        # Two thirds of the evening in; the rest is what the live part is timed with.
        kept = {s: len(ms) * 2 // 3 for s, ms in messages.items()}
        for s, ms in messages.items():
            for m in ms[:kept[s]]:
                ingest(conn, m)
        print(f"2 sections of {movement.name}: {sum(kept.values())} results in; each page asked {args.repeat} times")
        with TestClient(create_app(path, director=Director(password=PASSWORD))) as client:
            client.post("/director/login", data={"name": "bench", "password": PASSWORD}, headers=SAME)
            pages = ["/director", "/director/grid/A", "/director/grid/A?part=1", "/director/grid/B",
                     "/director/slot/A/1/1/1", "/director/terminals", "/director/problems.txt"]
            for page in pages:
                assert client.get(page).status_code == 200, page
                times = []
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    client.get(page)
                    times.append((time.perf_counter() - started) * 1000)
                print(f"  {page:28} p50 {percentile(times, 0.5):6.1f} ms  p99 {percentile(times, 0.99):6.1f} ms")
            latencies = []
            for m in messages["A"][kept["A"]:kept["A"] + args.results]:
                seen = int(client.get("/director/grid/A?part=1").headers["x-generation"])
                committed: list[float] = []

                writer = threading.Thread(target=store, args=(path, m, committed))
                writer.start()
                target = re.compile(rf'id="s-{m.table}-{m.round}-{m.board}" class="c (entered|adjusted)"')
                while True:  # as the page's script does: ask again until the cell shows the result
                    answer = client.get(f"/director/grid/A?part=1&since={seen}")
                    seen = int(answer.headers["x-generation"])
                    if target.search(answer.text):
                        break
                shown = time.perf_counter()
                writer.join()
                latencies.append((shown - committed[0]) * 1000)
        conn.close()
    print(f"store to grid p50/p99: {percentile(latencies, 0.5):.0f} ms / {percentile(latencies, 0.99):.0f} ms "
          f"({len(latencies)} results, max {max(latencies):.0f} ms; the watcher polls every 0.1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
