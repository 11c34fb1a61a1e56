"""Benchmark and agreement check of Tenace's matchpoints and cross-IMPs against the bridge-scorer npm package.

Each side is timed inside its own runtime on the same boards, its inputs built before the timing (the peer's
game objects; Tenace's BoardResults, and for cross-IMPs the board's NS scores as `tenace score` passes them); the
peer builds each board's games just before timing that board, and matchpoint_board's BoardResults are built the
same way (timed_mp_full), so that both find their board's objects in the caches. Both
take the best of `--repeat` runs: at 3, the peer's JIT is still warming up on small boards; after some 30 runs it
is several times faster there than CPython (0.06 against 0.25 ms for 26 boards of 10 results).

The timed region is the scoring call and nothing after it: the peer's `value`s are read off its games after its
timing, and Tenace's exact figures (Fractions) are turned into floats for the comparison after its own, so neither
side pays for the other's conversion. Both runtimes collect garbage as they always do: neither collector is
switched off or tuned.

What each side leaves per result is alike: the peer points each game at a figures object shared by equal scores
(matchpointsNS/EW); matchpoint_board's BoardScore holds, per table, a reference to the (NS, EW) SideScores shared
by equal scores (exact Fraction, published MPs and percentage each), and its `tables` makes a TableScore view of
a table when it is read, here after the timing.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from statistics import median
from typing import Any

from tenace.scoring.cross_imps import CrossImpOptions, CrossImpUnit, cross_imps_board
from tenace.scoring.imp_results import ImpLine
from tenace.scoring.matchpoints import BoardScore, matchpoint_board, mp1_raw
from tenace.scoring.model import BoardResult, Played
from tenace.scoring.mp_options import Factoring, MatchpointOptions

from simulated_scores import realistic_board

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "tools" / "bench"
NODE_SCRIPT = BENCH / "bridge_scorer_bench.js"
PER_COMPARISON = CrossImpOptions(unit=CrossImpUnit.PER_COMPARISON)
UNFACTORED = MatchpointOptions(factoring=Factoring.NONE)

Boards = list[list[int]]


def make_field(results: int, boards: int = 26, seed: int = 1) -> Boards:
    rng = random.Random(seed)
    return [realistic_board(b, results, rng) for b in range(1, boards + 1)]


# --- Tenace, timed in-process ---------------------------------------------------------------------------

def tenace_mp(boards: Boards) -> list[list[int]]:
    """Law 78A MP1 (2 per score beaten, 1 per tie), unfactored: the lowest-level per-board function."""
    return [mp1_raw(b) for b in boards]


def board_results(board: int, scores: Sequence[int]) -> list[BoardResult]:
    return [BoardResult("A", i + 1, 1, board, f"N{i + 1}", f"E{i + 1}", Played(s)) for i, s in enumerate(scores)]


def tenace_mp_full(field: list[list[BoardResult]]) -> list[BoardScore]:
    """matchpoint_board, unfactored: exact, published MPs and percentages for both sides of every table."""
    return [matchpoint_board(results, UNFACTORED) for results in field]


def timed_mp_full(boards: Boards, repeat: int) -> tuple[float, list[BoardScore]]:
    """tenace_mp_full timed as the peer times its matchpoints: each board's inputs (its BoardResults, as the peer's
    game objects) built just before that board's timing, the board times added up; best of `repeat` runs in ms.

    Built all at once before the timing instead, a field of 26 boards of 10,000 results (some 70 MB of objects)
    is out of the caches again by the time each board is scored, while the peer's board is fresh in them."""
    best = float("inf")
    value: list[BoardScore] = []
    for _ in range(repeat):
        total = 0.0
        value = []
        for b, scores in enumerate(boards):
            results = board_results(b + 1, scores)
            start = clock()
            value.append(matchpoint_board(results, UNFACTORED))
            total += clock() - start
        best = min(best, total * 1000)
    return best, value


def mp_full_values(scored: Sequence[BoardScore]) -> list[list[float]]:
    """NS exact MPs as floats, read after the timing (as the peer's values are read after its own)."""
    return [[float(t.ns.exact) if t.ns is not None else float("nan") for t in board.tables] for board in scored]


def tenace_cross(boards: Boards) -> list[tuple[ImpLine, ...]]:
    """Cross-IMPs per comparison, called as `tenace score` calls it: one entry per result in the board's order
    (here the NS scores as ints, the input the peer's games also hold), each result's line back in that order."""
    return [cross_imps_board(b, PER_COMPARISON).lines for b in boards]


def cross_values(lines: Sequence[Sequence[ImpLine]]) -> list[list[float]]:
    """NS IMPs as floats, read after the timing."""
    return [[float(line.ns_imps) for line in board] for board in lines]


# The clock both sides time with: the wall clock, or the process's CPU time (`--clock cpu`), which the other
# processes of a loaded machine do not add to.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best of `repeat` runs in milliseconds, and the last run's value."""
    best = float("inf")
    value: Any = None
    for _ in range(repeat):
        start = clock()
        value = fn()
        best = min(best, (clock() - start) * 1000)
    return best, value


# --- bridge-scorer, timed inside Node -------------------------------------------------------------------

def node() -> str | None:
    return shutil.which("node")


def ensure_peer() -> None:
    """Install the pinned bridge-scorer from tools/bench/package-lock.json if it is not there yet."""
    if not (BENCH / "node_modules" / "bridge-scorer" / "package.json").exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is needed to install bridge-scorer (tools/bench)")
        subprocess.run([npm, "ci", "--prefix", str(BENCH), "--silent", "--no-audit", "--no-fund"], check=True,
                       stdout=subprocess.DEVNULL)


def run_peer(boards: Boards, methods: Sequence[str] = ("matchpoints", "crossImps"), repeat: int = 3,
             cap_seconds: float = 60.0, values: bool = True, clock_name: str = "wall") -> dict[str, dict[str, Any]]:
    """Run tools/bench/bridge_scorer_bench.js on `boards`; its JSON: per method ms, runs, values."""
    exe = node()
    if exe is None:
        raise RuntimeError("node is not installed")
    ensure_peer()
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "boards.json"
        spec.write_text(json.dumps({"boards": boards, "methods": list(methods), "repeat": repeat,
                                    "cap_seconds": cap_seconds, "values": values, "clock": clock_name}))
        done = subprocess.run([exe, str(NODE_SCRIPT), str(spec)], check=True, capture_output=True, text=True)
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return result


# --- Agreement ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Agreement:
    compared: int
    mismatches: int
    example: str = ""


def compare(ours: Sequence[Sequence[float]], peer: Sequence[Sequence[float]], tolerance: float = 0.0) -> Agreement:
    """Value by value over the boards the peer computed (all, unless its run was capped)."""
    compared = mismatches = 0
    example = ""
    for b, (mine, theirs) in enumerate(zip(ours, peer, strict=False)):
        if len(mine) != len(theirs):
            raise ValueError(f"board {b + 1}: {len(mine)} values against {len(theirs)}")
        for i, (x, y) in enumerate(zip(mine, theirs, strict=True)):
            compared += 1
            if abs(x - y) > tolerance:
                mismatches += 1
                example = example or f"board {b + 1} result {i + 1}: Tenace {x!r}, bridge-scorer {y!r}"
    return Agreement(compared, mismatches, example)


def agreement(boards: Boards) -> dict[str, Agreement]:
    """Both conventions the two programs share, value by value.

    Matchpoints: the peer's `matchpoints` is win 2 / tie 1, unfactored, so its matchpointsNS.value must
    equal Tenace's MP1 raw score exactly (and matchpoint_board's unfactored exact MPs).
    Cross-IMPs: the peer does not round; impsNS.value is the integer IMP sum over the other results divided
    by (n - 1) in double precision, the correctly rounded value of Tenace's exact Fraction, so these
    must be equal as doubles too (a tolerance of 1e-9 is allowed for safety and never needed).
    """
    peer = run_peer(boards, repeat=1)
    full = mp_full_values(tenace_mp_full([board_results(b + 1, s) for b, s in enumerate(boards)]))
    mp = [[float(v) for v in row] for row in tenace_mp(boards)]
    return {
        "matchpoints": compare(mp, peer["matchpoints"]["values"]),
        "matchpoint_board": compare(full, peer["matchpoints"]["values"]),
        "crossImps": compare(cross_values(tenace_cross(boards)), peer["crossImps"]["values"], tolerance=1e-9),
    }


# --- Report ---------------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--boards", type=int, default=26, help="boards in the field (default 26, a club session)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1_000, 10_000], help="results per board")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side; the best counts (default 3)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="matchpoint rounds, each a peer run then a Tenace run, interleaved so that both see the "
                         "same load; the ratio is the median of the rounds' (default 5)")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="what both sides time with: the wall clock (default) or the process's CPU time, which a "
                         "loaded machine's other processes do not add to (Node's counts its helper threads too)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap-seconds", type=float, default=60.0,
                    help="a peer run longer than this stops and is extrapolated to all boards")
    args = ap.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    for flag, value, least in (("--boards", args.boards, 1), ("--repeat", args.repeat, 1),
                               ("--rounds", args.rounds, 1), ("--sizes", min(args.sizes), 2)):
        if value < least:
            ap.error(f"{flag} is {least} or more, not {value}")
    if not args.cap_seconds > 0:
        ap.error(f"--cap-seconds is more than 0, not {args.cap_seconds:g}")
    if node() is None:
        raise SystemExit("node is not installed: this benchmark needs it for bridge-scorer")
    ensure_peer()
    print(f"{args.boards} boards of realistic Law 77 scores (seed {args.seed}); {args.clock} times in ms, best of "
          f"{args.repeat} runs over all boards, each side timed inside its own runtime, start-up excluded; "
          f"matchpoints in {args.rounds} interleaved rounds (peer, then Tenace), each figure the median of the "
          f"rounds' and the ratio the median of their ratios, its range beside it (the machine's noise), then the "
          f"ratio of each side's fastest round")
    print("Tenace matchpoints: mp1_raw per board; Tenace matchpoint_board: full board (BoardResult in, exact + "
          "published MPs and % for NS and EW, unfactored); Tenace cross-IMPs: cross_imps_board on the board's NS "
          "scores, one per result (one round: the peer's run is capped); values converted for the comparison "
          "after the timing, on both sides\n")
    header = (f"{'method':<20} {'results/board':>13} {'Tenace ms':>11} {'bridge-scorer ms':>17} {'ratio':>9}"
              f" {'range':>13} {'best/best':>9} {'compared':>9} {'mismatches':>10}")
    print(header)
    print("-" * len(header))
    notes: list[str] = []
    faster: dict[tuple[str, int], bool] = {}
    ratios: list[float] = []
    for n in args.sizes:
        boards = make_field(n, args.boards, args.seed)
        peer = run_peer(boards, repeat=args.repeat, cap_seconds=args.cap_seconds, clock_name=args.clock)
        t_cross, cross = timed(partial(tenace_cross, boards), args.repeat)
        # Matchpoints, round by round: the peer's run and Tenace's just after it, under the same load.
        rounds: dict[str, list[tuple[float, float]]] = {"matchpoints": [], "matchpoint_board": []}
        mp: list[list[int]] = []
        full: list[BoardScore] = []
        for r in range(args.rounds):
            theirs = peer["matchpoints"] if r == 0 else run_peer(
                boards, methods=("matchpoints",), repeat=args.repeat, cap_seconds=args.cap_seconds,
                values=False, clock_name=args.clock)["matchpoints"]
            t_mp, mp = timed(partial(tenace_mp, boards), args.repeat)
            t_full, full = timed_mp_full(boards, args.repeat)
            rounds["matchpoints"].append((t_mp, theirs["ms"]))
            rounds["matchpoint_board"].append((t_full, theirs["ms"]))
        rows = [
            ("matchpoints", rounds["matchpoints"], peer["matchpoints"],
             compare([[float(v) for v in r] for r in mp], peer["matchpoints"]["values"])),
            ("matchpoint_board", rounds["matchpoint_board"], peer["matchpoints"],
             compare(mp_full_values(full), peer["matchpoints"]["values"])),
            ("cross-IMPs", [(t_cross, peer["crossImps"]["ms"])], peer["crossImps"],
             compare(cross_values(cross), peer["crossImps"]["values"], 1e-9)),
        ]
        for name, timings, theirs, agree in rows:
            mark = "*" if theirs["extrapolated"] else ""
            ours = median(t for t, _ in timings)
            peer_ms_value = median(p for _, p in timings)
            each = [p / t if t else float("inf") for t, p in timings]
            ratio = median(each)
            ratios.append(ratio)
            peer_ms = f"{peer_ms_value:,.1f}{mark}"
            spread = f"{min(each):.2f}-{max(each):.2f}" if len(each) > 1 else "-"
            # Each side's fastest round against the other's: the least disturbed run of each, the load aside.
            fastest = min(p for _, p in timings) / min(t for t, _ in timings)
            print(f"{name:<20} {n:>13,} {ours:>11,.2f} {peer_ms:>17} {ratio:>8.2f}x {spread:>13} {fastest:>8.2f}x"
                  f" {agree.compared:>9,} {agree.mismatches:>10,}")
            if agree.mismatches:
                notes.append(f"{name} at {n:,}: {agree.example}")
            if theirs["extrapolated"]:
                notes.append(f"* {name} at {n:,}: bridge-scorer ran once and passed {args.cap_seconds:g} s after "
                             f"{theirs['boards_timed']} of {args.boards} boards; its time is extrapolated to all "
                             f"boards and only those {theirs['boards_timed']} boards were compared")
            elif theirs["runs"] < args.repeat:
                notes.append(f"{name} at {n:,}: bridge-scorer ran {theirs['runs']} time(s), not {args.repeat} "
                             f"(a run took over a quarter of the {args.cap_seconds:g} s cap)")
            faster[(name, n)] = ratio >= 1.0
    if notes:
        print()
        for note in dict.fromkeys(notes):
            print(note)
    big = [n for n in args.sizes if n in (1_000, 10_000)]
    if big:
        primary = ("matchpoints", "cross-IMPs")
        verdict = all(faster[(m, n)] for m in primary for n in big)
        sizes = " and ".join(f"{n:,}" for n in big)
        detail = "; ".join(f"{m}: " + ", ".join(f"{n:,} {'yes' if faster[(m, n)] else 'no'}" for n in big)
                           for m in (*primary, "matchpoint_board"))
        print(f"\nTenace is {'at least as fast as' if verdict else 'NOT at least as fast as'} bridge-scorer at "
              f"{sizes} results per board for both matchpoints and cross-IMPs ({detail}).")
    # The yardstick: every method at every size, the full paths (matchpoint_board, cross-IMPs) included.
    print(f"\nslowest full-path ratio: {min(ratios):.2f}")


if __name__ == "__main__":
    main()
