"""`tenace problems`: what the director must look at: conflicts, refused frames, missing results, corrections, and
the director's log."""

from __future__ import annotations

import argparse
import json

from tenace.commands.options import add_event_file, event_file, open_event
from tenace.reports.problems import gather, render, to_json
from tenace.store.db import read_transaction

HELP = "list conflicts, refused frames, missing results, corrections and the director's log"
EPILOG = """\
examples:
  tenace problems club.sqlite
  tenace problems club.sqlite --json | jq '.conflicts'

Conflicts: two different results for the same board at the same table; nothing counts there until the
director decides. Refused frames are grouped by reason with their latest examples. Missing results are
listed for the rounds under way (up to the latest round any result came in for); later rounds are
summed up as not started. Each terminal that paired is listed with how: with the club key, or with
the code alone (an eavesdropper can forge those: tenace flash --club-key). The director's log lists
every action taken with tenace adjust, correct, erase, resolve and finish: when, who, why, and
FORCED for one taken after the correction period.
Exit code 0 whatever the list holds; 2 when the file cannot be read."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("problems", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--json", action="store_true", help="write the list as JSON instead of text")
    p.add_argument("--examples", type=int, default=3, metavar="N",
                   help="latest refused frames shown per reason (default 3)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = event_file(args)
    # One read transaction: every part of the list is from the same moment, even while the collector writes.
    with open_event(path) as conn, read_transaction(conn):
        report = gather(conn, max(args.examples, 0))
    if args.json:
        print(json.dumps(to_json(report), indent=2, ensure_ascii=False))
    else:
        print(render(report, path))
    return 0


