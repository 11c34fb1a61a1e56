"""`tenace championship`: an event of several sessions ranked as one (with strata and handicaps), and a later session
seeded from the ranking so far."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path

from tenace.commands.report import usebio_target, write_usebio_tree
from tenace.errors import UsageError
from tenace.reports.championship import (
    Championship,
    ChampionshipError,
    combine,
    combined_document,
    combined_json,
    combined_text,
    read_championship,
)
from tenace.reports.championship_usebio import championship_usebio
from tenace.reports.event_usebio import UsebioError
from tenace.seeding import SeedingError, seed_session, unseated
from tenace.store import EntryError, StoreError
from tenace.usebio.schema import UsebioSchemaError
from tenace.web.championship_page import championship_page

HELP = "rank an event of several sessions as one (strata, handicaps), or seed a later session from it"
EPILOG = """\
examples:
  tenace championship rank spring.toml             the combined ranking (then strata, handicaps)
  tenace championship rank spring.toml --json
  tenace championship rank spring.toml --html --out spring.html   the page, as the results pages look
  tenace championship rank spring.toml --usebio spring.xml --club "Riga BC"   the sessions in one USEBIO file
  tenace championship seed spring.toml             make the next session's event file, seeded

The championship file (TOML) names its sessions' event files in order, beside it:

  name = "Spring pairs"
  combine = "neuberg"            # or "percentage"
  [[session]]
  event = "spring-1.sqlite"
  carry_over = 0.5               # optional: this session counts half (a carry-over)
  [[session]]
  event = "spring-2.sqlite"

combine = "neuberg": each pair's matchpoints, every board factored by Neuberg's formula to the
common top (the board with the most results in any session), added over the sessions;
"percentage": the average of the sessions' percentages. A carry-over counts that share of the
session. Pairs are known across sessions by their two players (tenace names, or keyed at the
tables); a pair whose players are unknown stands alone. A pair missing from a session scores
nothing there (neuberg) or is averaged over the sessions it played (percentage).

Strata and handicaps, optional, in the same file:

  strata = { A = 1500, B = 500, C = 0 }   # each stratum's lowest masterpoints
  stratum_by = "higher"          # the pair's better player's, or "average"
  handicap = "sum"               # or "average" of the players' handicaps: a handicap ranking

A pair ranks in its own stratum and every stratum above it (ACBL's way); the handicap ranking
is the percentage plus the pair's handicap, beside the scratch one. The players' masterpoints and
handicaps are those each session's event file keeps, from the roster CSV imported into it
(tenace names EVENT --roster ratings.csv: number, name, club id, masterpoints, handicap), the
first session's that has a player's: a CSV edited later changes no ranking.

seed: makes the first session named in the file whose event file does not exist yet, with the
sections and movements of the session before it (or --like EVENT), and its pairs named by the
combined ranking of the sessions before it, placed by a serpentine over the fields: the NS
fields of every section, then the EW ones (a Howell's one field among them), the best pair to
the first, the next to the second, ..., back from the last: the strongest pairs are spread over
the sections. seed --stratified seats by the file's strata instead: the highest stratum's
pairs fill the first section, then the next stratum's. Pairs whose players are unknown cannot
be seeded and are left out, named; a seat no pair takes is named.

rank --usebio FILE --club NAME: the sessions as one USEBIO 1.2 file (checked against tenace's schema
of it): one EVENT named as the championship, SESSION_COUNT its sessions, DATE the first session's,
and a SECTION for each session's section, its SECTION_ID the session's number then the section's
letter ("2A"), holding that session's pairs (TOTAL_SCORE, PERCENTAGE and PLACE in the session, the
players by number) and travellers as the session's own tenace report --usebio has them (tenace score
FILE --section 2A reads one back). What it cannot hold (USEBIO 1.2 as tenace writes it has no
SESSION element, and no PARTICIPANTS for the whole EVENT beside its SECTIONs): the combined ranking,
the carry-over, the strata and the handicap ranking (the text, --json and --html have them), and the
hand records (one HANDSET, by board number, and each session deals its own: each session's file has
them)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("championship", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    rank = actions.add_parser("rank", help="print the combined ranking (text, or --json)",
                              description="Print the combined ranking of a championship's sessions: total "
                                          "matchpoints with boards factored to a common top (Neuberg) or average "
                                          "percentage, as the file says; then its strata and handicap rankings.")
    rank.add_argument("file", type=Path, metavar="CHAMPIONSHIP", help="the championship file (TOML)")
    rank.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    rank.add_argument("--html", action="store_true", help="a web page (the results pages' rankings page) instead")
    rank.add_argument("--out", type=Path, metavar="FILE", help="write it to FILE instead of printing it")
    rank.add_argument("--usebio", metavar="FILE",
                      help="also write the sessions as one USEBIO 1.2 file ('-': standard output): one EVENT, a "
                           "SECTION for each session's section, each with its session's figures (USEBIO has no place "
                           "for the combined ranking, strata or handicaps)")
    rank.add_argument("--club", metavar="NAME", help="--usebio: the club that ran the championship (CLUB_NAME)")
    rank.add_argument("--club-id", metavar="NUMBER", help="--usebio: the club's number (USEBIO's CLUB_ID_NUMBER)")
    rank.add_argument("--force", action="store_true", help="--usebio: write over a file that is there")
    rank.set_defaults(run=run_rank)
    seed = actions.add_parser("seed", help="make the next session's event file, its pairs seeded by the ranking",
                              description="Make the next session's event file (the first the championship file "
                                          "names that does not exist), its pairs placed by the combined ranking of "
                                          "the sessions before it. The rule: a serpentine over the fields, every "
                                          "section's NS field then the EW ones (a Howell's one field among them), "
                                          "the best pair to the first field, the next to the second, ..., back from "
                                          "the last: the strongest pairs spread over the sections.")
    seed.add_argument("file", type=Path, metavar="CHAMPIONSHIP", help="the championship file (TOML)")
    seed.add_argument("--like", type=Path, metavar="EVENT",
                      help="copy this event file's sections and movements (default: the session before)")
    seed.add_argument("--name", help="the new session's name (default: the championship's, session N)")
    seed.add_argument("--date", metavar="YYYY-MM-DD", help="the new session's date (default: today)")
    seed.add_argument("--stratified", action="store_true",
                      help="by the file's strata instead: the pairs of the highest stratum fill the first section, "
                           "then the next stratum's (each stratum in ranked order, NS 1, EW 1, NS 2, ...)")
    seed.set_defaults(run=run_seed)


def _championship(path: Path) -> Championship:
    try:
        return read_championship(path)
    except ChampionshipError as e:
        raise UsageError(str(e)) from None


def run_rank(args: argparse.Namespace) -> int:
    if args.json and args.html:
        raise UsageError("--json or --html: one of them")
    usebio = usebio_target(args, args.file)
    if args.usebio == "-" and args.out is None:
        raise UsageError("--usebio - and the ranking would both go to standard output: give the ranking --out FILE, "
                         "or the USEBIO file a name")
    championship = _championship(args.file)
    try:
        combined = combine(championship)
    except ChampionshipError as e:
        raise UsageError(str(e)) from None
    if args.html:
        text = championship_page(combined)
    elif args.json:
        text = combined_json(combined_document(combined))
    else:
        text = combined_text(combined)
    if args.out is None:
        sys.stdout.write(text)
    else:
        try:
            args.out.write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"--out {args.out}: {e.strerror}") from None
        print(f"wrote {args.out}", file=sys.stderr if args.usebio == "-" else sys.stdout)
    if args.usebio is not None:
        try:
            tree, written = championship_usebio(championship, args.club.strip(), args.club_id)
        except (ChampionshipError, UsebioError, UsebioSchemaError) as e:
            raise UsageError(f"--usebio: {e}") from None
        write_usebio_tree(tree, written, usebio, "tenace championship rank")
    return 0


def run_seed(args: argparse.Namespace) -> int:
    championship = _championship(args.file)
    missing = [i for i, s in enumerate(championship.sessions) if not s.event.exists()]
    if not missing:
        raise UsageError(f"{args.file}: every session's event file exists already: name the next session in it "
                         "([[session]] event = \"FILE\") to seed it")
    made = missing[0]
    if made == 0:
        raise UsageError(f"{args.file}: session 1's event file {championship.sessions[0].event} does not exist: "
                         "seeding places pairs by the sessions before")
    target = championship.sessions[made].event
    strata = championship.strata
    if args.stratified and (strata is None or not strata.limits):
        raise UsageError(f"--stratified: {args.file} names no strata (strata = {{ A = 1500, B = 500, C = 0 }})")
    # The strata with the players' figures as the sessions before keep them (a pair's stratum), only when seated by.
    before = replace(championship, sessions=championship.sessions[:made], strata=strata if args.stratified else None)
    try:
        combined = combine(before)
    except ChampionshipError as e:
        raise UsageError(str(e)) from None
    ranked = [line.entrant for line in combined.lines]
    known = [e for e in ranked if len(e.players) == 2]
    strata = combined.strata
    if args.stratified and strata is not None:
        order = [name for name, _ in strata.limits]
        known.sort(key=lambda e: order.index(strata.stratum(e.players) or order[-1]))  # stable: ranked within
    seeded = [(e.players[0], e.players[1]) for e in known]
    unknown = [e.names for e in ranked if len(e.players) != 2]
    like = args.like or championship.sessions[made - 1].event
    name = args.name or f"{championship.name}, session {made + 1}"
    try:
        seats = seed_session(seeded, like, target, name=name, date=args.date, stratified=args.stratified)
    except (SeedingError, EntryError, StoreError, sqlite3.DatabaseError) as e:
        raise UsageError(f"{target}: {e}") from None
    after = "session 1" if made == 1 else f"sessions 1-{made}"
    print(f"{target}: session {made + 1}, {len(seats)} pairs seeded from the ranking of {after}")
    for seat in seats:
        where = f"{seat.section}-{seat.direction} {seat.pair}".replace("- ", "-").strip()
        print(f"  {seat.rank:>3}  {where:<10} {known[seat.rank - 1].names}")
    if unknown:
        print(f"not seeded (players unknown: name them with tenace names): {', '.join(unknown)}")
    empty = [f"{section}-{direction} {pair}".replace("- ", "-") for section, direction, pair in unseated(seats, target)]
    if empty:
        print(f"no pair seeded at {', '.join(empty)}: a pair short there (tenace move marks it absent)")
    return 0
