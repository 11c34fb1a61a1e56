"""`tenace demo`: a simulated club session (Mitchell movement, simulated players) scored and ranked."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from tenace.commands.options import movement_error
from tenace.errors import UsageError
from tenace.movement import MovementError, check_size, mitchell, nothing_to_compare
from tenace.reports.session import movement_pairs, session_report
from tenace.reports.text import write_text
from tenace.scoring.mp_options import DEFAULT_OPTIONS, Units
from tenace.scoring.pairs_methods import SCORINGS, score_session
from tenace.simulation.session.demo import pair_id, play_session

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


def run(args: argparse.Namespace) -> int:
    try:
        check_size(args.tables, args.boards_per_round)
    except MovementError as e:
        raise movement_error(e) from None
    why = nothing_to_compare(mitchell(args.tables, args.boards_per_round))
    if why is not None:
        raise UsageError(why)
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
