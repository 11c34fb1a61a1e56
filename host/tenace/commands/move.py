"""`tenace move`: change the movement from a round on (a late pair, a pair gone, a table closed, two pairs swapped)."""

from __future__ import annotations

import argparse
import sqlite3

from tenace.commands.director_options import add_signature, event, logged, signature
from tenace.commands.options import add_event_file
from tenace.commands.pair_option import parse_pair
from tenace.errors import UsageError
from tenace.store import event_info
from tenace.store.movement_changes import MovementChange, close_table, set_presence, swap_pairs

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


def run(args: argparse.Namespace) -> int:
    who, why = signature(args)
    rounds(args)  # the options' faults before the file's
    with event(args) as conn:
        print(act(conn, args, who, why))
    return 0


def rounds(args: argparse.Namespace) -> int:
    """The first round the change applies to; UsageError when --round is missing or --to misplaced."""
    if args.round is None:
        raise UsageError("say from which round: --round R")
    if args.to is not None and args.absent is None and args.present is None:
        raise UsageError("--to goes with --absent or --present")
    first: int = args.round
    return first


def act(conn: sqlite3.Connection, args: argparse.Namespace, who: str, why: str) -> str:
    """The movement change `args` give, made; the director's log line and the table rounds changed. `tenace serve`'s
    console too."""
    first = rounds(args)
    sign = {"who": who, "why": why, "force": args.force}
    sections = [s.name for s in event_info(conn).sections]
    change: MovementChange
    if args.close is not None:
        change = close_table(conn, args.section, args.close, first, **sign)
    elif args.swap is not None:
        one, two = (parse_pair(text, sections, args.section) for text in args.swap)
        if one.section != two.section:
            raise UsageError(f"--swap {args.swap[0]!r} {args.swap[1]!r}: the pairs are in different sections")
        change = swap_pairs(conn, one.section, (one.field, one.number), (two.field, two.number), first, **sign)
    else:
        option, text = next(((o, t) for o, t in (("--late", args.late), ("--leave", args.leave),
                                                  ("--absent", args.absent), ("--present", args.present))
                             if t is not None), (None, None))
        if option is None or text is None:
            raise UsageError("say what changes: --late, --leave, --absent, --present, --close or --swap "
                             "(tenace move --help)")
        pair = parse_pair(text, sections, args.section)
        change = set_presence(conn, pair.section, (pair.field, pair.number), first, args.to,
                              present=option in ("--late", "--present"), before=option == "--late", **sign)
    sits = ", ".join(f"table {t} round {r}" for t, r in change.changed)
    return f"{logged(conn)}\n  changed: {sits}"
