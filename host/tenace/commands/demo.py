"""`tenace demo`: a simulated club session (Mitchell movement, simulated players) scored and ranked."""

from __future__ import annotations

import argparse
import random
from dataclasses import replace
from fractions import Fraction

from tenace.commands.options import movement_error
from tenace.movement import MovementError, check_size, mitchell
from tenace.scoring.imp_pairs_session import ImpSessionScore
from tenace.scoring.matchpoints import DEFAULT_OPTIONS, Units
from tenace.scoring.model import BoardResult, Played
from tenace.scoring.pairs_methods import SCORINGS, AnySessionScore, score_session
from tenace.scoring.pairs_session import SessionScore
from tenace.scoring.rounding import to_decimal
from tenace_rules.board import dealer, vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score
from tenace_rules.tricks import relative_text

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


def play_session(tables: int, boards_per_round: int, seed: int) -> list[tuple[BoardResult, str]]:
    """Every table of every round of a Mitchell, each board played by simulated players."""
    rng = random.Random(seed)
    movement = mitchell(tables, boards_per_round)
    played = []
    for e in movement.encounters:
        for board in e.boards:
            contract, declarer, tricks = random_result(rng)
            score = ns_score(contract, declarer, vulnerability(board), tricks)
            text = "passed out" if contract.passed_out else \
                f"{contract.symbol_text():<5} by {declarer} {relative_text(contract, tricks):>3}"
            result = BoardResult("", e.table, e.round, board, f"{e.ns_pair}NS", f"{e.ew_pair}EW", Played(score))
            played.append((result, text))
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
    print(f"Simulated session: {args.tables} tables, Mitchell, {len(boards)} boards, {len(played)} results "
          f"(seed {args.seed})")
    if args.travellers:
        texts = dict(((r.board, r.table), text) for r, text in played)
        if isinstance(session, ImpSessionScore):
            print_imp_travellers(session, texts)
        else:
            print_travellers(session, texts)
    print_ranking(session)
    return 0


def print_travellers(session: SessionScore, texts: dict[tuple[int, int], str]) -> None:
    for board in session.boards:
        print(f"\nBoard {board.board}  dealer {dealer(board.board)}  vulnerable {vulnerability(board.board)}"
              f"  top {board.top}")
        for t in sorted(board.tables, key=lambda t: t.result.table):
            ns, ew = t.ns, t.ew
            assert ns is not None and ew is not None and isinstance(t.result.outcome, Played)
            print(f"  table {t.result.table:>2}  {t.result.ns_pair:>4} v {t.result.ew_pair:<4} "
                  f"{texts[(board.board, t.result.table)]:<16} NS {t.result.outcome.ns_score:+6d}  "
                  f"{ns.mp:>6} {ew.mp:>6}")


def print_imp_travellers(session: ImpSessionScore, texts: dict[tuple[int, int], str]) -> None:
    for (section, board, group), butler in session.boards.items():
        print(f"\nBoard {board}  dealer {dealer(board)}  vulnerable {vulnerability(board)}  datum {butler.datum}")
        lines = [(r, line) for r, line in session.results if (r.section, r.board, r.fouled_group) == (section, board,
                                                                                                     group)]
        for r, line in sorted(lines, key=lambda item: item[0].table):
            assert isinstance(r.outcome, Played)
            print(f"  table {r.table:>2}  {r.ns_pair:>4} v {r.ew_pair:<4} {texts[(board, r.table)]:<16} "
                  f"NS {r.outcome.ns_score:+6d}  {_imps(line.ns_imps):>6} {_imps(line.ew_imps):>6}")


def print_ranking(session: AnySessionScore) -> None:
    field = None
    for placing in session.ranking:
        if placing.field != field:
            field = placing.field
            print(f"\nRanking {field}".rstrip())
        if isinstance(session, ImpSessionScore):
            print(f"  {placing.text:>4}  pair {placing.pair:<5} {_imps(session.totals[placing.pair].imps):>8} IMPs")
        else:
            total = session.totals[placing.pair]
            print(f"  {placing.text:>4}  pair {placing.pair:<5} {total.mp:>8} MP  {total.percent:>6}%")


def _imps(value: Fraction) -> str:
    return f"{to_decimal(value, 1):+}"
