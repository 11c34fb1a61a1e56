"""`tenace report`: an event file's results written out for others to read: PBN 2.1 so far."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tenace.commands.options import add_event_file, cannot_write, event_file, open_event, output_file
from tenace.errors import UsageError
from tenace.reports.event_pbn import write_section_pbn
from tenace.reports.event_results import ResultsError, event_results
from tenace.store.db import read_transaction
from tenace.store.hand_records import hand_record

HELP = "write an event file's results for others to read (PBN 2.1)"
EPILOG = """\
examples:
  tenace report club.sqlite --pbn tuesday.pbn                    one section: its boards, travellers, ranking
  tenace report club.sqlite --section B --pbn tuesday-b.pbn      one file per section when there are several
  tenace report club.sqlite --pbn -                              to standard output

The PBN file holds a game per board (dealer, vulnerability, the deal when the event file has its hand
record) with its ScoreTable, and the ranking as a TotalScoreTable: `tenace score` reads it back to the
same rankings as `tenace results`."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("report", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--pbn", required=True, metavar="FILE", help="the PBN file to write ('-': standard output)")
    p.add_argument("--section", metavar="S", help="the section to write (needed when the event has several)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = event_file(args)
    target = None if args.pbn == "-" else Path(args.pbn)
    if target is not None:
        output_file("--pbn", target, not_same_as=path)
    with open_event(path) as conn:
        try:
            with read_transaction(conn):
                results = event_results(conn, args.section)
                if len(results.sections) > 1:
                    names = ", ".join(s.section for s in results.sections)
                    raise UsageError(f"this event has sections {names}: give --section, one PBN file each")
                section = results.sections[0]
                deals = {b: d for b in section.boards if (d := hand_record(conn, section.section, b)) is not None}
        except ResultsError as e:
            raise UsageError(str(e)) from None
    if target is None:
        write_section_pbn(results, section, deals, sys.stdout)
        return 0
    try:
        with target.open("w", encoding="utf-8", newline="\n") as out:
            write_section_pbn(results, section, deals, out)
    except OSError as e:
        raise cannot_write("--pbn", target, e) from None
    print(f"wrote {target}: section {section.section}, {len(section.boards)} boards, "
          f"{section.results_in} of {section.expected} results", file=sys.stderr)
    return 0
