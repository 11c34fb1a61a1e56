"""`tenace correct`: enter the right result for a board at a table in place of the one the table entered (Law 79C)."""

from __future__ import annotations

import argparse

from tenace.commands.director_options import add_result, add_signature, add_slot, perform, place, result
from tenace.commands.options import add_event_file
from tenace.director import actions, parse

HELP = "enter the right result for a board at a table in place of the table's (Law 79C)"
EPILOG = """\
examples:
  tenace correct club.sqlite --table 2 --board 5 --contract 4S --by N --tricks 10 --why "NS agree: made, not -1"
  tenace correct club.sqlite --table 2 --board 5 --contract 3NT --by S --tricks -1 --lead HK --why "wrong declarer"
  tenace correct club.sqlite --table 6 --board 9 --passed-out --why "keyed 1C by mistake"
  tenace correct club.sqlite --table 6 --board 9 --not-played --why "late arrival, no time"

The table's result stays in the event file's history; the correction counts at once in
`tenace results`, marked on the board's traveller, and is listed by `tenace problems` in the
director's log with who, when and why. --why is required. When the event file has the board's hand
record, --lead must be a card the leader (declarer's left-hand opponent) holds, as the terminals
check. After the Law 79C correction period (tenace finish) corrections are refused unless --force,
and the force is logged. A conflict
(two results from the table) is settled with `tenace resolve`; an adjusted score is `tenace adjust`."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("correct", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_slot(p)
    add_result(p)
    add_signature(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return perform(args, lambda a: parse.correction(place(a), result(a)), actions.correct)
