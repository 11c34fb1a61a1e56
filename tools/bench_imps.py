"""Benchmark of the IMP engine: cross-IMPs and Butler on 26 boards at 10 to 10,000 results per board."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tenace.scoring.butler import butler_board
from tenace.scoring.cross_imps import cross_imps_board
from tenace.scoring.imps import imps

from simulated_scores import realistic_board


def spread_board(results: int, rng: random.Random) -> list[int]:
    """The worst case for grouping: any multiple of 10 from -7600 to 7600, so nearly every score differs."""
    return [rng.randint(-760, 760) * 10 for _ in range(results)]


def naive_cross(scores: list[int]) -> list[int]:
    return [sum(imps(s - o) for o in scores) for s in scores]


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Best of `repeat` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--boards", type=int, default=26)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1_000, 10_000])
    ap.add_argument("--naive-max", type=int, default=100, help="also time all-pairs cross-IMPs up to this size")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{args.boards} boards; times are the best of {args.repeat} runs over all boards")
    print(f"{'field':>9} {'results/board':>13} {'distinct':>8} {'cross-IMPs':>11} {'Butler':>9} {'all pairs':>10}")
    for field in ("realistic", "spread"):
        for n in args.sizes:
            rng = random.Random(args.seed)
            boards = [realistic_board(b, n, rng) if field == "realistic" else spread_board(n, rng)
                      for b in range(1, args.boards + 1)]
            distinct = statistics.mean(len(set(b)) for b in boards)
            cross = timed(lambda boards=boards: [cross_imps_board(b) for b in boards], args.repeat)
            butler = timed(lambda boards=boards: [butler_board(b) for b in boards], args.repeat)
            naive = (f"{timed(lambda boards=boards: [naive_cross(b) for b in boards], 1):8.1f} ms"
                     if n <= args.naive_max else f"{'-':>11}")
            print(f"{field:>9} {n:>13,} {distinct:>8.0f} {cross:>8.1f} ms {butler:>6.1f} ms {naive}")


if __name__ == "__main__":
    main()
