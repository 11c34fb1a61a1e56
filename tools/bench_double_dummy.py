"""Benchmark of `tenace event deals` (import, double dummy and par of a session) against endplay's bulk call.

Both sides are whole processes on the same PBN file of random deals, timed from start to exit (interpreter start and
imports included, as a director waits for them) by the wall clock and by the CPU time they used (all their threads;
the figure a loaded machine's other processes do not add to): Tenace imports the file into a fresh copy of a
Mitchell event of as many boards and analyses every deal; the peer is a Python process that reads the same deals,
calls endplay's calc_all_tables on all of them at once and par on each table, and exits. The two run in interleaved
rounds (the order alternating) so that both see the same load; each figure is the median of the rounds', the ratio
the median of the rounds' ratios, its range beside it.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
TENACE = Path(sys.executable).with_name("tenace")
RANKS = "AKQJT98765432"

# The peer: endplay's bulk call on the file's deals, and par from its tables (dealer and vulnerability by Law 2).
PEER = """
import re, sys
from endplay.dds import calc_all_tables, par
from endplay.types import Deal, Player, Vul
text = open(sys.argv[1]).read()
boards = [int(b) for b in re.findall(r'\\[Board "(\\d+)"\\]', text)]
deals = [Deal(d) for d in re.findall(r'\\[Deal "([^"]+)"\\]', text)]
tables = calc_all_tables(deals)
vuls = [Vul.none, Vul.ns, Vul.ew, Vul.both, Vul.ns, Vul.ew, Vul.both, Vul.none,
        Vul.ew, Vul.both, Vul.none, Vul.ns, Vul.both, Vul.none, Vul.ns, Vul.ew]
for b, t in zip(boards, tables):
    p = par(t, vuls[(b - 1) % 16], Player((b - 1) % 4))
    print(b, p.score, [str(c) for c in p])
"""


def random_deals(boards: int, seed: int) -> str:
    """A PBN file of `boards` random deals from North."""
    rng = random.Random(seed)
    lines = []
    for board in range(1, boards + 1):
        cards = [(suit, rank) for suit in range(4) for rank in range(13)]
        rng.shuffle(cards)
        hands = []
        for h in range(4):
            hand = sorted(cards[13 * h:13 * h + 13], key=lambda c: c[1])
            hands.append(".".join("".join(RANKS[r] for s, r in hand if s == suit) for suit in range(4)))
        lines += [f'[Board "{board}"]', f'[Deal "N:{" ".join(hands)}"]', ""]
    return "\n".join(lines)


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds from start to exit of a process that must succeed, and the CPU seconds (user and system, all
    its threads) it used: the figure the machine's other processes do not add to."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--boards", type=int, default=27, help="deals in the session (default 27: 9 tables x 3)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds of both (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.boards < 3 or args.boards % 3:
        ap.error(f"--boards is a multiple of 3 (a Mitchell of 3-board rounds), 3 or more, not {args.boards}")
    if args.rounds < 1:
        ap.error(f"--rounds is 1 or more, not {args.rounds}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        deals = work / "deals.pbn"
        deals.write_text(random_deals(args.boards, args.seed))
        base = work / "base.sqlite"
        subprocess.run([str(TENACE), "event", "new", str(base), "--name", "bench", "--tables", str(args.boards // 3),
                        "--boards-per-round", "3"], check=True, stdout=subprocess.DEVNULL)
        peer_script = work / "peer.py"
        peer_script.write_text(PEER)
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        for r in range(args.rounds):
            event = work / f"event{r}.sqlite"
            shutil.copy(base, event)
            tenace = [str(TENACE), "event", "deals", str(event), str(deals)]
            peer = [sys.executable, str(peer_script), str(deals)]
            if r % 2:
                theirs.append(run(peer))
                ours.append(run(tenace))
            else:
                ours.append(run(tenace))
                theirs.append(run(peer))
    print(f"{args.boards} random deals (seed {args.seed}), whole processes, {args.rounds} interleaved rounds; "
          "medians (range)")
    for i, what in ((0, "wall"), (1, "CPU")):
        mine = [o[i] for o in ours]
        peers = [t[i] for t in theirs]
        ratios = [o / t for o, t in zip(mine, peers, strict=True)]
        print(f"{what} seconds: tenace event deals (import, double dummy, par, stored) {median(mine):.2f} "
              f"({min(mine):.2f}-{max(mine):.2f}), endplay calc_all_tables + par {median(peers):.2f} "
              f"({min(peers):.2f}-{max(peers):.2f})")
        print(f"  {what} double-dummy ratio to endplay's bulk call: {median(ratios):.2f}x "
              f"({min(ratios):.2f}-{max(ratios):.2f})")

if __name__ == "__main__":
    main()
