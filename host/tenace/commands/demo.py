"""`tenace demo`: a short club session played out with the shared rules, for the README's main command."""

from __future__ import annotations

import argparse
import random

from tenace_rules.board import dealer, vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score
from tenace_rules.tricks import relative_text

HELP = "play a small simulated club session and print every board's traveller, scored by Law 77"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help=HELP, description=HELP)
    p.add_argument("--tables", type=int, default=4, help="tables in play (default 4)")
    p.add_argument("--boards", type=int, default=8, help="boards in the session (default 8)")
    p.add_argument("--seed", type=int, default=1, help="seed of the simulated players (default 1)")
    p.set_defaults(run=run)


def random_result(rng: random.Random) -> tuple[Contract, str, int]:
    if rng.random() < 0.04:
        return Contract(0), "-", 0
    level = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 7))
    contract = Contract(level, rng.randrange(5), rng.choice((0,) * 8 + (1, 1, 2)))
    tricks = max(0, min(13, level + 6 + round(rng.gauss(0, 1.2))))
    return contract, rng.choice("NESW"), tricks


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    for board in range(1, args.boards + 1):
        print(f"Board {board}  dealer {dealer(board)}  vulnerable {vulnerability(board)}")
        for table in range(1, args.tables + 1):
            contract, declarer, tricks = random_result(rng)
            if contract.passed_out:
                line = "passed out"
            else:
                line = f"{contract.symbol_text():<5} by {declarer}  {relative_text(contract, tricks):>3}"
            score = ns_score(contract, declarer, vulnerability(board), tricks)
            print(f"  table {table:>2}: {line:<18} NS {score:+6d}")
    return 0
