"""`tenace results`: an event file's rankings, travellers and a pair's scorecard, while the session runs and after."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any

from tenace.commands.options import add_event_file, event_file, open_event
from tenace.errors import UsageError
from tenace.reports.event_results import (
    EventResults,
    ResultsError,
    board_report,
    event_results,
    find_pair,
    scorecard,
)
from tenace.reports.event_teams import match_document, standings_document, standings_text
from tenace.reports.json import to_document
from tenace.reports.model import Report
from tenace.reports.text import write_scorecard, write_text
from tenace.store.db import read_transaction
from tenace.store.ledger import head

HELP = "print an event file's rankings and travellers, a board's traveller or a pair's scorecard"
EPILOG = """\
examples:
  tenace results club.sqlite                       every section: travellers, then the ranking
  tenace results club.sqlite --board 7             board 7's traveller
  tenace results club.sqlite --pair "NS 3"         NS 3's scorecard: its line of each board, its place
  tenace results club.sqlite --json | jq '.sections[0].report.ranking'

The figures are the scoring engine's (matchpoints or Butler IMPs, as the event is scored) on the
results that count now. While the session runs the title says how many results are in of how many
the movement expects; conflicting results count for nothing until the director decides (tenace
resolve). A director's entry is marked [TD] on its traveller; a Law 90 penalty shows beside the
pair's total, which it is already taken from.

A team event (tenace event new --movement teams) shows each match: both rooms of every board, the
IMPs (Law 78B), the match's IMPs and its VPs on the WBF 20-point scale; then the teams' standings
by VPs (then IMP difference). The home team sits NS at its match's first table (the open room).

The last line is the event file's chain head (the SHA-256 digest of every change so far; "chain_head"
in --json): published with the results, it lets anyone check that a copy of the event file is the one
they come from (tenace check EVENT --head HEX)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("results", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    p.add_argument("--section", metavar="S", help="one section only (default: every section)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--pair", metavar="PAIR", help='one pair\'s scorecard: "NS 3", "A-EW 7"')
    what.add_argument("--board", type=int, metavar="N", help="one board's traveller")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = event_file(args)
    with open_event(path) as conn:
        try:
            # One read transaction: every section from the same moment, even while the collector writes.
            with read_transaction(conn):
                results = event_results(conn, args.section)
                chain = head(conn)
        except ResultsError as e:
            raise UsageError(str(e)) from None
    try:
        reports = chosen(results, args)
    except ResultsError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps({**document(results, reports), "chain_head": chain}, indent=2, ensure_ascii=False))
        return 0
    by_name = {s.section: s for s in results.sections}
    for i, (name, report) in enumerate(reports):
        if i:
            sys.stdout.write("\n")
        if args.pair is not None:
            write_scorecard(report, sys.stdout)
        elif len(by_name[name].matches) > 1:  # a Swiss round: every match (or a board of each)
            sys.stdout.write(report.title + "\n")
            for match in by_name[name].matches:
                shown = tuple(b for b in match.report.boards if args.board in (None, b.board))
                sys.stdout.write("\n")
                write_text(replace(match.report, title=match.report.title.split("\n")[-1], boards=shown,
                                   notes=match.report.notes if args.board is None else ()), sys.stdout)
        else:
            write_text(report, sys.stdout)
    if results.standings and args.board is None:
        sys.stdout.write("\n" + standings_text(list(results.standings)) + "\n")
    if chain:
        sys.stdout.write(f"\n{head_line(chain, path)}\n")
    return 0


def head_line(chain: str, path: object) -> str:
    """The chain's head as results are published with it: whoever holds a copy of the event file can check it."""
    return f"event file chain head: {chain} (tenace check {path} --head {chain} proves a copy)"


def chosen(results: EventResults, args: argparse.Namespace) -> list[tuple[str, Report]]:
    """The reports asked for, by section: whole, one board's traveller, or one pair's scorecard."""
    if args.pair is not None:
        if results.sections and all(s.matches for s in results.sections):
            raise ResultsError(f"--pair {args.pair}: this is a team event, its results go by match and team, not by "
                               "pair: tenace results EVENT shows every match and the standings")
        section, pair = find_pair(results.sections, args.pair)
        return [(section.section, scorecard(section, pair))]
    if args.board is not None:
        having = [s for s in results.sections if args.board in s.boards]
        if not having:
            boards = sorted({b for s in results.sections for b in s.boards})
            span = f"boards {boards[0]}-{boards[-1]}" if boards else "no boards"
            raise ResultsError(f"there is no board {args.board} in this event ({span})")
        return [(s.section, board_report(s, args.board)) for s in having]
    return [(s.section, s.report) for s in results.sections]


def document(results: EventResults, reports: list[tuple[str, Report]]) -> dict[str, Any]:
    """The JSON: the event, then each section's progress and its report (as `tenace score --json` writes one)."""
    by_name = {s.section: s for s in results.sections}
    info = results.info
    doc: dict[str, Any] = {
        "event": {"name": info.name, "date": info.date, "scoring": info.scoring, "practice": info.practice},
        "published": None if results.published is None else {
            "at": results.published.at, "who": results.published.who,
            "correction_minutes": results.published.minutes,
            "correction_period_ends": results.published.ends.isoformat()},
        "sections": [{"section": name, "results_in": by_name[name].results_in, "expected": by_name[name].expected,
                      "conflicts": by_name[name].conflicts, "complete": by_name[name].complete,
                      "report": to_document(report),
                      **({"matches": [match_document(m) for m in by_name[name].matches]}
                         if by_name[name].matches else {})} for name, report in reports],
    }
    if results.standings:
        doc["standings"] = standings_document(list(results.standings))
    return doc
