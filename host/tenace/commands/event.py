"""`tenace event`: create an event file with its movement, show it, seat a terminal at a table."""

from __future__ import annotations

import argparse
from pathlib import Path

from tenace.commands import event_prompt
from tenace.commands.options import in_range, movement_error
from tenace.errors import UsageError
from tenace.movement import MovementError, mitchell, nothing_to_compare
from tenace.store import EntryError, StoreError, connect, create_event, event_info, sign_in, terminal_status
from tenace.store.encounters import section_rounds
from tenace.store.event import SCORING_METHODS
from tenace_wire.frame_types import MAX_TERMINAL

HELP = "create an event file (a plain Mitchell per section), show it, or seat a terminal at a table"
EPILOG = """\
examples:
  tenace event new --db club.sqlite --name "Tuesday pairs" --tables 7 --boards-per-round 3
  tenace event show --db club.sqlite
  tenace event seat --db club.sqlite --terminal 12 --table 3     a spare terminal replaces table 3's

One SQLite file holds one event: its movement, the terminals, every frame received and every result
version. `tenace problems --db FILE` lists what the director must look at."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("event", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="create a new event file with a plain Mitchell movement",
                             description="Create a new event file (never overwrites one) with a plain Mitchell. "
                                         "Run at a terminal without the flags, it asks for them.")
    new.add_argument("--db", type=Path, metavar="FILE", help="the event file to create")
    new.add_argument("--name", help="the event's name, as printed on results")
    new.add_argument("--tables", type=int, metavar="N", help="tables in play (2 or more)")
    new.add_argument("--boards-per-round", type=int, metavar="M", help="boards played each round")
    new.add_argument("--date", metavar="YYYY-MM-DD", help="the event's date (default: today)")
    new.add_argument("--scoring", choices=SCORING_METHODS, default="matchpoints", help="default: matchpoints")
    new.add_argument("--section", default="A", help="section name (default A)")
    new.set_defaults(run=run_new)

    show = actions.add_parser("show", help="print the event, its sections and their movements",
                              description="Print the event, its sections and their movements.")
    show.add_argument("--db", type=Path, required=True, metavar="FILE", help="the event file")
    show.set_defaults(run=run_show)

    seat = actions.add_parser("seat", help="sign a terminal in to a table from the laptop",
                              description="Sign a terminal in to a table from the laptop (e.g. a replacement).")
    seat.add_argument("--db", type=Path, required=True, metavar="FILE", help="the event file")
    seat.add_argument("--terminal", type=int, required=True, help="the terminal's id")
    seat.add_argument("--table", type=int, required=True, help="the table it now serves")
    seat.add_argument("--section", default="A", help="section (default A)")
    seat.add_argument("--who", default="director", help="who seated it (default: director)")
    seat.set_defaults(run=run_seat)


def run_new(args: argparse.Namespace) -> int:
    event_prompt.fill_in(args)
    try:
        movement = mitchell(args.tables, args.boards_per_round)
        why = nothing_to_compare(movement)
        if why is not None:
            raise UsageError(why)
        conn = create_event(args.db, name=args.name, date=args.date, scoring=args.scoring,
                            sections={args.section: movement})
    except MovementError as e:
        raise movement_error(e) from None
    except (ValueError, StoreError) as e:
        raise UsageError(str(e)) from None
    conn.close()
    print(f"created {args.db}: {args.name!r}, section {args.section}: {movement.name}, boards 1-{movement.boards}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        conn = connect(args.db)
        info = event_info(conn)
    except StoreError as e:
        raise UsageError(str(e)) from None
    print(f"{info.name}, {info.date}, {info.scoring.replace('_', ' ')}")
    for s in info.sections:
        print(f"section {s.name}: {s.movement}")
        for round_, table, ns, ew, boards in section_rounds(conn, s.name):
            print(f"  round {round_:>2} table {table:>2}: NS {ns:>2} v EW {ew:>2}  boards {boards}")
    terminals = terminal_status(conn)
    print(f"terminals: {len(terminals) or 'none signed in'}")
    for t in terminals:
        heard = t.last_heard or "never"
        print(f"  terminal {t.terminal}: section {t.section} table {t.table}, signed in {t.signed_in}, "
              f"last seq {t.last_sequence if t.last_sequence is not None else '-'}, last heard {heard}, "
              f"{t.stored} stored, {t.refused} refused")
    conn.close()
    return 0


def run_seat(args: argparse.Namespace) -> int:
    in_range("--terminal", args.terminal, 1, MAX_TERMINAL)  # the ids a terminal can have on the wire
    try:
        conn = connect(args.db)
        sign_in(conn, args.terminal, args.section, args.table, who=args.who)
    except (StoreError, EntryError) as e:
        raise UsageError(str(e)) from None
    conn.close()
    print(f"terminal {args.terminal} is at section {args.section} table {args.table}")
    return 0
