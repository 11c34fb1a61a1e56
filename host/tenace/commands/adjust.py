"""`tenace adjust`: an adjusted score for a board at a table (Law 12C), or a Law 90 procedural penalty for a pair."""

from __future__ import annotations

import argparse
import sqlite3

from tenace.commands.director_options import add_signature, add_slot, perform, place
from tenace.commands.options import add_event_file
from tenace.director import actions, parse
from tenace.director.inputs import Adjustment, Penalty, Signature

HELP = "give an adjusted score (A+/A/A-, percentages, assigned, weighted) or a Law 90 penalty"
EPILOG = """\
examples:
  tenace adjust club.sqlite --table 3 --board 7 --ns A+ --ew A- --why "fouled board, NS not at fault"
  tenace adjust club.sqlite --table 3 --board 7 --percent 60/40 --why "regulation: 60% to the non-offenders"
  tenace adjust club.sqlite --table 2 --board 5 --assigned +420 --why "Law 23: 4S making"
  tenace adjust club.sqlite --table 2 --board 5 --weighted "0.6:+420,0.4:-50" --why "Law 12C1(c)"
  tenace adjust club.sqlite --table 2 --board 5 --assigned +420 --ew-assigned -50 --why "Law 12C1(b): split"
  tenace adjust club.sqlite --pair "NS 3" --penalty 25% --board 4 --why "Law 90: slow play"
  tenace adjust club.sqlite --pair "EW 2" --penalty 1.5MP --why "Law 90: mobile phone"

An adjusted score replaces the table's result (the result stays in the event file's history); it
counts at once in `tenace results`, marked on the board's traveller. Artificial scores are A+, A, A-
or a percentage of the top for each side (Law 12C2); an assigned score is the NS score the TD
assigns (Law 12C1(b)); a weighted score gives weights to NS scores, adding up to 1 (Law 12C1(c)). The
two sides' scores need not balance (Law 12C1(b)): with --ew-assigned or --ew-weighted, East-West get
their own (still written as NS scores) and --assigned/--weighted is North-South's alone; each side is
then compared with its own field on its own score.
A penalty is taken off one pair's total, in MPs or in percent of a top (of the board's top when
--board is given): it never changes the table's result. --why is required; every action is in
`tenace problems` under the director's log. After the Law 79C correction period (tenace finish)
changes are refused unless --force, and the force is logged."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("adjust", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_slot(p)
    score = p.add_argument_group("the adjusted score (one of)")
    score.add_argument("--ns", metavar="A", help="NS's artificial score: A+, A, A- or a percentage, 60%%")
    score.add_argument("--ew", metavar="A", help="EW's artificial score: A+, A, A- or a percentage, 40%%")
    score.add_argument("--percent", metavar="NS/EW", help="both sides' percentages of the top: 60/40")
    score.add_argument("--assigned", metavar="SCORE", help="an assigned NS score: +420, -50")
    score.add_argument("--weighted", metavar="W:SCORE,...",
                       help='weighted NS scores, weights adding up to 1: "0.6:+420,0.4:-50" (or 3/5, 60%%)')
    score.add_argument("--ew-assigned", metavar="SCORE",
                       help="East-West's own assigned score, as an NS score, when the sides' scores need not balance")
    score.add_argument("--ew-weighted", metavar="W:SCORE,...",
                       help="East-West's own weighted NS scores, when the sides' scores need not balance")
    penalty = p.add_argument_group("a Law 90 procedural penalty")
    penalty.add_argument("--penalty", metavar="AMOUNT", help="taken off the pair's total: 25%% (of a top) or 1.5MP")
    penalty.add_argument("--pair", metavar="PAIR", help='the pair penalised: "NS 3", "A-EW 7", a Howell\'s "7"')
    add_signature(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return perform(args, adjustment, act)


def adjustment(args: argparse.Namespace) -> Adjustment | Penalty:
    """The adjusted score, or the Law 90 penalty, the options give."""
    return parse.adjustment(place(args), pair=args.pair, penalty=args.penalty, ns=args.ns, ew=args.ew,
                            percent=args.percent, assigned=args.assigned, weighted=args.weighted,
                            ew_assigned=args.ew_assigned, ew_weighted=args.ew_weighted)


def act(conn: sqlite3.Connection, given: Adjustment | Penalty, signed: Signature) -> str:
    if isinstance(given, Penalty):
        return actions.penalise(conn, given, signed)
    return actions.adjust(conn, given, signed)
