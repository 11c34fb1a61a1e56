"""`tenace move`: change the movement from a round on (a late pair, a pair gone, a table closed, two pairs swapped)."""

from __future__ import annotations

import argparse

from tenace.commands.director_options import add_signature, perform, usage
from tenace.commands.options import add_event_file
from tenace.director import actions, parse
from tenace.director.errors import DirectorInputError
from tenace.director.inputs import MOVE_KINDS, MovementChange
from tenace.errors import UsageError

HELP = "change the movement from a round on: a late pair, a pair that leaves, a table closed early, a swap"
EPILOG = """\
examples:
  tenace move club.sqlite --late "NS 7" --round 3 --why "arrived after two rounds"
  tenace move club.sqlite --leave "EW 4" --round 6 --why "had to go home"
  tenace move club.sqlite --absent "EW 4" --round 2 --to 3 --why "stuck in traffic"
  tenace move club.sqlite --present "NS 5" --round 2 --why "the half table filled"
  tenace move club.sqlite --close 8 --round 7 --why "table 8 finished early"
  tenace move club.sqlite --swap "NS 3" "NS 6" --round 4 --why "NS 3 cannot climb the stairs"

A pair is written as directors do: "NS 3" or "EW 3" in a Mitchell, "7" where pairs change direction
(a Howell), "B-NS 3" in section B. Whoever meets an absent pair sits out: the terminals show the
sit-out and take no result there, and those boards are scored on the results of the other tables.
A half table's phantom pair is absent from the start; a late pair takes its place with --present.
The change reaches the terminals without a restart (the collector sends the new round plans). A
table round that already has a result is never changed: erase it first, or start a round later.
--why is required and logged with who and when; after the Law 79C correction period the change is
refused unless --force, and the force is logged."""

def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("move", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    what = p.add_argument_group("the change (one of)").add_mutually_exclusive_group()
    what.add_argument("--late", metavar="PAIR", help="the pair comes at --round: absent before, present from then")
    what.add_argument("--leave", metavar="PAIR", help="the pair leaves: absent from --round to the end")
    what.add_argument("--absent", metavar="PAIR", help="the pair is absent from --round (to --to, or the end)")
    what.add_argument("--present", metavar="PAIR", help="the pair plays from --round (to --to, or the end)")
    what.add_argument("--close", type=int, metavar="TABLE", help="nobody plays at the table from --round on")
    what.add_argument("--swap", nargs=2, metavar=("PAIR", "PAIR"),
                      help="two pairs of one direction change places from --round on")
    p.add_argument("--round", type=int, metavar="R", help="the first round the change applies to (required)")
    p.add_argument("--to", type=int, metavar="R", help="the last round of --absent or --present (default: the last)")
    p.add_argument("--section", metavar="S", help="the section (needed only when the event has several)")
    add_signature(p)
    p.set_defaults(run=run)


# The pair given with --late, --leave, --absent, --present or --swap is quoted as it was typed, without its option.
NAMES = {"pair": "", "other": ""}


def run(args: argparse.Namespace) -> int:
    return perform(args, change, actions.move, NAMES)


def change(args: argparse.Namespace) -> MovementChange:
    """The movement change the options give."""
    kind = next((k for k in MOVE_KINDS if getattr(args, k) is not None), None)
    pair, other = args.swap if kind == "swap" else (getattr(args, kind) if kind not in (None, "close") else None, None)
    try:
        return parse.movement_change(kind, first_round=args.round, last_round=args.to, pair=pair, other=other,
                                     table=args.close, section=args.section)
    except DirectorInputError as e:
        if e.field != "change":
            raise
        raise UsageError(f"{usage(e)} (tenace move --help)") from None
