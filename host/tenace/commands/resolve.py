"""`tenace resolve`: settle a conflict (two results for one board at one table): keep one, or enter the right one."""

from __future__ import annotations

import argparse
import re
import sqlite3
from typing import Any

from tenace.commands.director_options import (
    add_result,
    add_signature,
    add_slot,
    event,
    logged,
    result_fields,
    signature,
    slot,
)
from tenace.commands.options import add_event_file
from tenace.errors import UsageError
from tenace.store import Action, choose_version, enter_result
from tenace.store.versions import slot_state

HELP = "settle a conflict: keep one of the two results, or enter the right one"
EPILOG = """\
examples:
  tenace resolve club.sqlite --table 1 --board 1 --keep v2 --why "EW agree it went one down"
  tenace resolve club.sqlite --keep 17 --why "NS's terminal was right"     (17: the result id tenace problems shows)
  tenace resolve club.sqlite --table 1 --board 1 --contract 4H --by S --tricks 10 --why "neither was right"

`tenace problems` lists each conflict with its results, their versions (v1, v2) and result ids.
Nothing counts on a board in conflict until it is resolved; then the result kept counts at once in
`tenace results`. --why is required; after the Law 79C correction period a resolution is refused
unless --force, and the force is logged."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("resolve", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_slot(p)
    p.add_argument("--keep", metavar="ID|vN", help="keep this result: its result id (17) or its version (v2)")
    add_result(p)
    add_signature(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    who, why = signature(args)
    resolution(args)  # the options' faults before the file's
    with event(args) as conn:
        print(act(conn, args, who, why))
    return 0


def resolution(args: argparse.Namespace) -> dict[str, Any] | None:
    """The right result's fields, or None when --keep names the result kept; UsageError unless one of them."""
    fields = result_fields(args)
    if (fields is None) == (args.keep is None):
        raise UsageError("give --keep (a result id or version) or the right result (--contract ..., --passed-out, "
                         "--not-played), one of them")
    return fields


def act(conn: sqlite3.Connection, args: argparse.Namespace, who: str, why: str) -> str:
    """The resolution `args` give, entered; the director's log line. `tenace serve`'s console too."""
    fields = resolution(args)
    if fields is not None:
        where = slot(conn, args)
        enter_result(conn, *where, who=who, why=why, action=Action.RESOLVE, force=args.force, **fields)
    else:
        choose_version(conn, kept(conn, args), who=who, why=why, action=Action.RESOLVE, force=args.force)
    return logged(conn)


def kept(conn: sqlite3.Connection, args: argparse.Namespace) -> int:
    """The result id --keep names: an id as such, or a version (v2) of the slot --table and --board name."""
    text = args.keep.strip()
    version = re.fullmatch(r"[vV](\d{1,4})", text)
    if version is None and not text.isdecimal():
        raise UsageError(f"--keep {args.keep!r}: a result id (17) or a version (v2)")
    if version is None and args.table is None and args.board is None:
        return int(text)
    state = slot_state(conn, slot(conn, args))
    found = [v.id for v in state.versions if (v.version == int(version[1]) if version else v.id == int(text))]
    if not found:
        have = ", ".join(f"v{v.version} (id {v.id})" for v in state.versions) or "none"
        raise UsageError(f"--keep {text}: no such result at table {args.table} board {args.board} (there: {have})")
    return found[0]
