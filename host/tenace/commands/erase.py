"""`tenace erase`: withdraw the result of a board at a table; the board is missing again until one is entered."""

from __future__ import annotations

import argparse
import sqlite3

from tenace.commands.director_options import add_signature, add_slot, event, logged, signature, slot
from tenace.commands.options import add_event_file
from tenace.store import Action, enter_result

HELP = "withdraw the result of a board at a table (it is missing again until one is entered)"
EPILOG = """\
example:
  tenace erase club.sqlite --table 4 --board 11 --why "keyed at the wrong table"

The erased result stays in the event file's history. The board is listed as missing by
`tenace problems` (marked erased) and counts for neither pair in `tenace results` until the table
or the director enters a result. --why is required; after the Law 79C correction period erasures
are refused unless --force, and the force is logged."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("erase", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_slot(p)
    add_signature(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    who, why = signature(args)
    with event(args) as conn:
        print(act(conn, args, who, why))
    return 0


def act(conn: sqlite3.Connection, args: argparse.Namespace, who: str, why: str) -> str:
    """The erasure `args` give, entered; the director's log line. `tenace serve`'s console too."""
    where = slot(conn, args)
    enter_result(conn, *where, who=who, why=why, kind="erased", action=Action.ERASE, force=args.force)
    return logged(conn)
