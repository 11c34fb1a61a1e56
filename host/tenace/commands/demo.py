"""`tenace demo`: a simulated club session (Mitchell movement, simulated players) scored and ranked."""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace

from tenace.commands.options import movement_error
from tenace.movement import MovementError, check_size, mitchell
from tenace.reports.session import Play, movement_pairs, session_report
from tenace.reports.text import write_text
from tenace.scoring.matchpoints import DEFAULT_OPTIONS, Units
from tenace.scoring.model import BoardResult, Played
from tenace.scoring.pairs_methods import SCORINGS, score_session
from tenace_rules.board import vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score

HELP = "play a simulated club session (Mitchell, simulated players), then print the travellers and the ranking"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help=HELP, description=HELP)
    p.add_argument("--tables", type=int, default=7, help="tables in play (default 7)")
    p.add_argument("--boards-per-round", type=int, default=3, help="boards per round (default 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of the simulated players (default 1)")
    p.add_argument("--scoring", choices=SCORINGS, default="mp",
                   help="rank by matchpoints or by Butler IMPs against each board's datum (default mp)")
    p.add_argument("--units", choices=("mp", "mp-acbl"), default="mp", help="matchpoint units (default mp)")
    p.add_argument("--travellers", action="store_true", help="also print every board's traveller")
    p.set_defaults(run=run)


def random_result(rng: random.Random) -> tuple[Contract, str, int]:
    if rng.random() < 0.04:
        return Contract(0), "N", 0
    level = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 7))
    contract = Contract(level, rng.randrange(5), rng.choice((0,) * 8 + (1, 1, 2)))
    tricks = max(0, min(13, level + 6 + round(rng.gauss(0, 1.2))))
    return contract, rng.choice("NESW"), tricks


def pair_id(number: int, direction: str) -> str:
    """The scoring engine's id of a demo pair: "3NS" (a Mitchell has an NS 3 and an EW 3)."""
    return f"{number}{direction}"


def play_session(tables: int, boards_per_round: int, seed: int) -> list[tuple[BoardResult, Play]]:
    """Every table of every round of a Mitchell, each board played by simulated players."""
    rng = random.Random(seed)
    movement = mitchell(tables, boards_per_round)
    played = []
    for e in movement.encounters:
        for board in e.boards:
            contract, declarer, tricks = random_result(rng)
            score = ns_score(contract, declarer, vulnerability(board), tricks)
            play: Play = ("Pass", None, None) if contract.passed_out else (contract.text(), declarer, tricks)
            result = BoardResult("", e.table, e.round, board, pair_id(e.ns_pair, "NS"), pair_id(e.ew_pair, "EW"),
                                 Played(score))
            played.append((result, play))
    return played


def run(args: argparse.Namespace) -> int:
    try:
        check_size(args.tables, args.boards_per_round)
    except MovementError as e:
        raise movement_error(e) from None
    played = play_session(args.tables, args.boards_per_round, args.seed)
    options = replace(DEFAULT_OPTIONS, units=Units.NORTH_AMERICAN if args.units == "mp-acbl" else Units.MP1)
    session = score_session([r for r, _ in played], args.scoring, options)
    boards = {r.board for r, _ in played}
    title = (f"Simulated session: {args.tables} tables, Mitchell, {len(boards)} boards, {len(played)} results "
             f"(seed {args.seed})")
    pairs = movement_pairs(mitchell(args.tables, args.boards_per_round), pair_id)
    plays = {(r.board, r.table): play for r, play in played}
    write_text(session_report(session, pairs, args.scoring, title, plays), sys.stdout, travellers=args.travellers)
    return 0
