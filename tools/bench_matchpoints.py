"""Benchmark of the matchpoint engine: a full rescore of a large pairs session."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tenace.scoring.model import Artificial, Average, BoardResult, Played
from tenace.scoring.mp_options import MAGIC_CONTEST_FFB
from tenace.scoring.pairs_session import score_pairs_session

# Typical spreads of NS scores on a board, so boards have many ties as in real play.
SCORE_POOL = (-1430, -650, -620, -600, -420, -200, -170, -140, -110, -100, -50, 0, 50, 90, 100, 110, 120, 140,
              150, 170, 200, 300, 400, 420, 430, 450, 500, 620, 630, 650, 680, 800, 980, 1100, 1430)


def session(tables: int, boards: int, seed: int) -> list[BoardResult]:
    """Every board played once at every table: NS pair t, EW pair 1000+t (a Mitchell), a few averages."""
    rng = random.Random(seed)
    out = []
    for b in range(1, boards + 1):
        centre = rng.randrange(len(SCORE_POOL))
        for t in range(1, tables + 1):
            if rng.random() < 0.002:
                outcome: Played | Artificial = Artificial(Average.PLUS, Average.MINUS)
            else:
                i = min(max(int(rng.gauss(centre, 2.0)), 0), len(SCORE_POOL) - 1)
                outcome = Played(SCORE_POOL[i])
            out.append(BoardResult("A", t, b, b, str(t), str(1000 + t), outcome))
    return out


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tables", type=int, default=300)
    ap.add_argument("--boards", type=int, default=27)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    results = session(args.tables, args.boards, args.seed)
    opts = MAGIC_CONTEST_FFB
    full = timed(lambda: score_pairs_session(results, opts), 5)
    print(f"full rescore of {args.tables} tables x {args.boards} boards ({len(results)} results, "
          f"{2 * args.tables} pairs): median {statistics.median(full):.1f} ms, best {min(full):.1f} ms")


if __name__ == "__main__":
    main()
