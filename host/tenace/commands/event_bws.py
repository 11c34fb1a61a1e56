"""`tenace event import-bws`: a Bridgemate Control Software .bws file made into a new event file."""

from __future__ import annotations

import argparse
from pathlib import Path

from tenace.bws.importer import import_plan
from tenace.bws.mdb import MdbError, MdbFile
from tenace.bws.reader import BwsError, read
from tenace.commands.options import add_event_file, event_file
from tenace.errors import UsageError
from tenace.movement.check import check
from tenace.movement.text import render_plan, render_report
from tenace.store import EntryError, StoreError, login_name
from tenace.store.event import SCORING_METHODS

HELP = "make a new event file from a Bridgemate .bws: movement, players, deals and results"
EPILOG = """\
The .bws (a Microsoft Access file) is read with Debian's mdbtools (mdb-tables, mdb-export), which
tools/setup-env installs. Each Bridgemate section becomes a section of the event: its movement from
RoundData (Section.MissingPair as the pair whoever meets sits out), the pairs' players from
PlayerNumbers and the names from PlayerNames, the deals from HandRecord, every ReceivedData row a
version of its board's result (an erased row is kept and erased at once), the event's name and date
from Session, matchpoints unless Section.ScoringType says otherwise (or --scoring).

Where the file contradicts itself each contradiction is printed, one line each ("contradiction: ..."),
and kept in the event file: `tenace problems EVENT` lists them under IMPORTED. When the results
do not fit RoundData's movement, the event keeps the movement the results were played on and
RoundData's is printed with its check. Exit 2 with one line when the file cannot be imported.

examples:
  tenace event import-bws tuesday.bws tuesday.sqlite
  tenace movement show --event tuesday.sqlite     the movement kept
  tenace results tuesday.sqlite"""


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = actions.add_parser("import-bws", help=HELP, description=HELP, epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", type=Path, metavar="FILE.bws", help="the Bridgemate Control Software file")
    add_event_file(p, "the event file to create (never overwrites one)")
    p.add_argument("--scoring", choices=SCORING_METHODS, help="the event's scoring (default: as the file says, "
                   "else matchpoints)")
    p.add_argument("--who", help="who imports it (default: the user)")
    p.set_defaults(run=run_import)


def run_import(args: argparse.Namespace) -> int:
    path = event_file(args)
    if path.exists():
        raise UsageError(f"{path} already exists: an event file is never overwritten (name a new one)")
    if not args.file.is_file():
        raise UsageError(f"{args.file}: no such file")
    try:
        plan = read(MdbFile(args.file), args.file.stem)
    except (MdbError, BwsError) as e:
        raise UsageError(f"{args.file}: {e}") from None
    try:
        done = import_plan(plan, path, args.file.name, who=args.who or login_name(), scoring=args.scoring)
    except (StoreError, EntryError) as e:
        raise UsageError(f"{args.file}: {e}") from None
    for s in plan.sections:
        if s.as_played:
            print(f"section {s.name}: RoundData's movement (not kept: the results do not fit it):")
            print(render_plan(s.planned))
            print(render_report(check(s.planned)))
    for line in done.contradictions:
        print(f"contradiction: {line}")
    for s in plan.sections:
        m = s.movement
        print(f"section {s.name}: {m.name}, {m.tables} tables, {m.rounds} rounds, {m.boards_per_round} boards a "
              f"round{f', pair {m.phantom[1]} missing (sits out)' if m.phantom else ''}")
    print(f"created {path}: {plan.name!r}, {plan.date}, {(args.scoring or plan.scoring).replace('_', ' ')}: "
          f"{done.results} result versions ({done.erased} erased), {done.players} pairs named, {done.deals} deals, "
          f"{len(done.contradictions)} contradictions (tenace problems {path})")
    return 0
