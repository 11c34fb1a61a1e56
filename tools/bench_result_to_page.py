"""Benchmark of the live page: time from a result's commit to an open rankings page showing it, 30 tables."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from tenace.movement import mitchell
from tenace.store import create_event, ingest, sign_in

from live_page import PHONE, chromium, served
from sample_results import session_results


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=30, help="tables in play (default 30)")
    parser.add_argument("--boards-per-round", type=int, default=3, help="default 3")
    parser.add_argument("--before", type=int, default=300, help="results already in when the page opens (300)")
    parser.add_argument("--results", type=int, default=100, help="results stored one by one and timed (100)")
    parser.add_argument("--gap", type=float, default=0.3, help="seconds between two results (default 0.3)")
    args = parser.parse_args()
    browser_path = chromium()
    if browser_path is None:
        print("bench_result_to_page: chromium is not installed (tools/setup-env installs it)", file=sys.stderr)
        return 2
    movement = mitchell(args.tables, args.boards_per_round)
    results = session_results(movement)
    if args.before + args.results > len(results):
        print(f"bench_result_to_page: the movement has {len(results)} results, fewer than --before + --results",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        conn = create_event(path, name="Benchmark", date="2024-05-14", sections={"A": movement})
        for table in range(1, args.tables + 1):
            sign_in(conn, table, "A", table)
        for m in results[:args.before]:
            ingest(conn, m)
        print(f"{movement.name}: {args.before} of {len(results)} results in; {args.results} more, one every "
              f"{args.gap:g} s, each timed from its commit to the open page showing it (chromium {browser_path})")
        latencies: list[float] = []
        with served(path) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
            page = browser.new_page(viewport=PHONE)
            page.goto(f"{url}/")
            page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            for i, m in enumerate(results[args.before:args.before + args.results]):
                ingest(conn, m)
                committed_ms = time.time() * 1000
                shown = args.before + i + 1
                # The page has shown this result once its count says so (an update may carry two results).
                page.wait_for_function(f"document.querySelector('p.state').dataset.resultsIn >= {shown}",
                                       timeout=30_000, polling="raf")
                latencies.append(float(page.evaluate("document.body.dataset.updated")) - committed_ms)
                time.sleep(args.gap)
            browser.close()
        conn.close()
    print(f"result to page p50/p99: {percentile(latencies, 0.5):.0f} ms / {percentile(latencies, 0.99):.0f} ms "
          f"({len(latencies)} results, max {max(latencies):.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
