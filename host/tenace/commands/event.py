"""`tenace event`: create an event file with its movement, show it, seat a terminal at a table, import deals."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

from tenace.commands import event_bws, event_prompt, event_sim, event_swiss
from tenace.commands.director_options import usage
from tenace.commands.options import (
    add_event_file,
    event_file,
    given_event_file,
    in_range,
    movement_error,
    read_text_option,
)
from tenace.deals.files import DealFileError, read_deals
from tenace.deals.importing import analyse_section, import_deals
from tenace.director import actions, parse
from tenace.director.errors import DirectorInputError
from tenace.errors import UsageError
from tenace.movement import MovementError, half_table, nothing_to_compare
from tenace.movement.check import span
from tenace.movement.model import team_of
from tenace.store import (
    EntryError,
    StoreError,
    connect,
    create_event,
    event_info,
    login_name,
    publication,
    terminal_status,
)
from tenace.store.encounters import section_rounds
from tenace.store.event import SCORING_METHODS, partnerships
from tenace.store.movement_changes import sit_outs
from tenace.store.teams import Team, byes, keep_teams, team_names
from tenace.teams_file import TeamsFileError, read_teams_file
from tenace_wire.frame_types import MAX_TERMINAL

HELP = ("create an event file (a Mitchell, a Howell or a team match per section), show it, seat a terminal at a "
        "table, import deals or a Bridgemate .bws")
EPILOG = """\
examples:
  tenace event new club.sqlite --name "Tuesday pairs" --tables 7 --boards-per-round 3
  tenace event new club.sqlite --name "Short" --tables 9 --boards-per-round 3 --rounds 7   a shortened Mitchell
  tenace event new club.sqlite --name "Howell" --movement howell --tables 4 --boards-per-round 3
  tenace event new match.sqlite --name "Cup" --movement teams --boards-per-round 8 --rounds 3 --teams teams.csv
  tenace event new swiss.sqlite --name "Swiss" --movement swiss --boards-per-round 7 --teams teams.csv
  tenace event next-round swiss.sqlite                           the next Swiss round, from the VP standings
  tenace event show club.sqlite
  tenace event seat club.sqlite --terminal 12 --table 3          a spare terminal replaces table 3's
  tenace event deals club.sqlite deals.pbn                      the hand records, analysed double dummy
  tenace event import-bws tuesday.bws tuesday.sqlite            an evening run with Bridgemate Control Software
  tenace event link-sim club.sqlite --sim URL --token T          the club plays a simultaneous event (a sim)
  tenace event push club.sqlite                                  push what is queued for the sim's hub, once

One SQLite file holds one event: its movement, the terminals, every frame received and every result
version. `tenace problems EVENT` lists what the director must look at. Each command takes the event
file as EVENT; --db EVENT is the same (the older form)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("event", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="create a new event file with a Mitchell, a Howell or a team match",
                             description="Create a new event file (never overwrites one) with a plain Mitchell, a "
                                         "Howell or a two-table team match. Run at a terminal without the flags, it "
                                         "asks for them.")
    add_event_file(new, "the event file to create (asked for at a terminal when left out)")
    new.add_argument("--name", help="the event's name, as printed on results")
    new.add_argument("--tables", type=int, metavar="N", help="tables in play (2 or more)")
    new.add_argument("--boards-per-round", type=int, metavar="M", help="boards played each round")
    new.add_argument("--movement", choices=event_prompt.MOVEMENTS,
                     help="mitchell (NS and EW are two fields; the default), howell (3 to 10 tables, one field: "
                          "every pair meets every other), individual (2 to 5 tables of four players, each "
                          "partnering every other once; ranked by player), teams (a two-table match, team 1 at home "
                          "against team 2, scored in IMPs and VPs; --rounds R plays it in R segments) or swiss (Swiss "
                          "teams: round 1 from --teams, each next round with tenace event next-round)")
    new.add_argument("--rounds", type=int, metavar="R",
                     help="fewer rounds than the whole movement (a shortened Howell or Mitchell)")
    new.add_argument("--half-table", action="store_true",
                     help="one pair short: a Mitchell's NS pair of the last table or a Howell's pair 2N is absent, "
                          "whoever meets it sits out (a late pair takes its place with tenace move --present)")
    new.add_argument("--date", metavar="YYYY-MM-DD", help="the event's date (default: today)")
    new.add_argument("--scoring", choices=SCORING_METHODS,
                     help="default: matchpoints (imps for teams, the only scoring of a team match)")
    new.add_argument("--seed", type=int, metavar="S",
                     help="with --movement swiss: draw round 1 at random with this seed (default: by seeding, the top "
                          "half against the bottom half)")
    event_swiss.add_bye_vps(new)
    new.add_argument("--teams", type=Path, metavar="FILE",
                     help="with --movement teams or swiss (in seeding order): the teams, a CSV line each: number, "
                          "name and optionally its four players' numbers (first pair's two, then the second pair's), "
                          "as tenace names --teams")
    new.add_argument("--section", default="A", metavar="A[,B...]",
                     help="the section's name, or several comma-separated, each with this movement (default A)")
    event_sim.add_sim_options(new)
    new.set_defaults(run=run_new)
    event_swiss.register(actions)
    event_bws.register(actions)
    event_sim.register(actions)

    show = actions.add_parser("show", help="print the event, its sections and their movements",
                              description="Print the event, its sections and their movements.")
    add_event_file(show)
    show.set_defaults(run=run_show)

    seat = actions.add_parser("seat", help="sign a terminal in to a table from the laptop",
                              description="Sign a terminal in to a table from the laptop (e.g. a spare replacing a "
                              "broken one): the collector then lets it in at once when it signs in there, even while "
                              "the old terminal is still heard; the old one's own sign-in to that table is refused "
                              "while the spare is in use, and its results still count.")
    add_event_file(seat)
    seat.add_argument("--terminal", type=int, required=True, help="the terminal's id")
    seat.add_argument("--table", type=int, required=True, help="the table it now serves")
    seat.add_argument("--section", default="A", help="section (default A)")
    seat.add_argument("--who", default="director", help="who seated it (default: director)")
    seat.set_defaults(run=run_seat)

    deals = actions.add_parser("deals", help="import the hand records from a PBN, LIN or DUP file, analysed double "
                                             "dummy",
                               description=DEALS_HELP, epilog=DEALS_EPILOG,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(deals)
    deals.add_argument("file", nargs="?", metavar="FILE",
                       help="the PBN, LIN or DUP (Duplimate) file of deals; - reads standard input")
    deals.add_argument("--section", metavar="S", help="the section the deals are for (default: the only one)")
    deals.add_argument("--analyse", action="store_true",
                       help="analyse the deals already kept that have no analysis yet (no FILE needed)")
    deals.add_argument("--no-analysis", action="store_true", help="import only: analyse later with --analyse")
    deals.add_argument("--force", action="store_true",
                       help="import after the results were published (tenace finish); logged with --who and --why")
    deals.add_argument("--who", metavar="NAME", help="who imports them after publication (default: the user)")
    deals.add_argument("--why", metavar="TEXT", help="why they change after publication (required then: logged)")
    deals.set_defaults(run=run_deals)


DEALS_HELP = """\
Import each board's deal from a PBN file ([Board] with its [Deal]; a deal given from another seat is
turned to North first), a LIN file (BBO's md| records, the board from ah|Board N| or qx|o N|) or a
Duplimate dealing machine's DUP file (numbered from the set's lowest board) into the event file, then
compute each board's double-dummy table and par with endplay (DDS), with a progress bar on stderr. The
terminals check the opening lead against the deal, and `tenace results EVENT --board N` shows the deal,
the tricks each declarer makes and par."""
DEALS_EPILOG = """\
examples:
  tenace event deals club.sqlite deals.pbn
  tenace event deals club.sqlite - < deals.lin --section B
  tenace event deals club.sqlite --analyse        analyse what an interrupted import left

A board the event does not play, a board given twice, a malformed or incomplete deal is listed
(file:line: board: why) and skipped; the others are kept (a board's deal imported again is replaced).
Exit 2 with one line when nothing could be imported. After the results are published (tenace finish)
an import changes what was published: it is refused unless --force, with --why, and is then an entry
of the director's log (a correction, with who and why)."""


def run_new(args: argparse.Namespace) -> int:
    if args.movement == "swiss" and (args.tables is not None or args.rounds is not None or args.half_table):
        raise UsageError("a Swiss's tables come from its teams (two a match) and its rounds are paired one by one "
                         "(tenace event next-round): give no --tables, --rounds or --half-table")
    event_prompt.fill_in(args)
    linked = event_sim.sim_options(args, required=False)  # checked before the file is made
    if linked is not None and args.movement == "swiss":
        raise UsageError("a sim is a pairs event: a Swiss cannot be linked to one")
    if args.seed is not None and args.movement != "swiss":
        raise UsageError("--seed draws the first round of a Swiss: give --movement swiss too")
    if args.bye_vps is not None and args.movement != "swiss":
        raise UsageError("--bye-vps is for a Swiss's bye: give --movement swiss too")
    if args.movement == "swiss" and args.teams is None:
        raise UsageError("a Swiss needs its teams: give --teams FILE (a line a team, in seeding order)")
    scoring = _scoring(args.movement, args.scoring)
    if args.teams is not None and args.movement not in event_prompt.TEAM_MOVEMENTS:
        raise UsageError("--teams names the teams of a team event: give --movement teams (or swiss) too")
    named = read_teams_option(args.teams, "--teams") if args.teams is not None else []
    if args.movement == "swiss":
        event_swiss.new_swiss(args, named, scoring, args.seed)
        return 0
    try:
        movement = event_prompt.movement_of(args.movement, args.tables, args.boards_per_round, args.rounds)
        if args.half_table:
            movement = half_table(movement)
        why = nothing_to_compare(movement)
        if why is not None:
            raise UsageError(why)
        seated = {team_of(p) for e in movement.encounters for p in (e.ns_pair, e.ew_pair)}
        unknown = [t.number for t in named if t.number not in seated]
        if unknown:
            raise UsageError(f"--teams {args.teams}: team {unknown[0]}: the match has no such team (its teams are "
                             f"{', '.join(map(str, sorted(seated)))})")
        conn = create_event(args.db, name=args.name, date=args.date, scoring=scoring,
                            sections=dict.fromkeys(_section_names(args.section), movement))
    except MovementError as e:
        raise movement_error(e, event_prompt.OPTIONS) from None
    except (ValueError, StoreError) as e:
        raise UsageError(str(e)) from None
    linked_line = None
    try:
        if named:
            keep_teams(conn, named, who=login_name())
        if linked is not None:
            try:
                linked_line = event_sim.link(conn, linked)
            except UsageError as e:
                raise UsageError(f"{e} (the event file is made: link it with tenace event link-sim)") from None
    except EntryError as e:
        raise UsageError(f"--teams {args.teams}: {e} (the event file is made: name the teams with tenace names "
                         "--teams)") from None
    finally:
        conn.close()
    names = _section_names(args.section)
    print(f"created {args.db}: {args.name!r}, section{'s' if len(names) > 1 else ''} {', '.join(names)}: "
          f"{movement.name}, boards 1-{movement.boards}")
    if linked_line:
        print(linked_line)
    return 0


def _team(number: int, names: dict[int, str]) -> str:
    return f"{number} {names[number]}" if number in names else f"team {number}"


def _scoring(movement: str | None, scoring: str | None) -> str:
    """The event's scoring: as given, else matchpoints; a team match is scored in IMPs (and VPs), nothing else."""
    if movement in event_prompt.TEAM_MOVEMENTS:
        if scoring not in (None, "imps"):
            raise UsageError(f"--scoring {scoring}: a team match is scored in IMPs and VPs (--scoring imps, the "
                             "default for teams)")
        return "imps"
    return scoring or "matchpoints"


def read_teams_option(path: Path, option: str) -> list[Team]:
    """The teams a --teams FILE names; UsageError with the file and line for one that cannot be read."""
    text = read_text_option(option, path, "the teams as CSV, UTF-8")
    try:
        return read_teams_file(text, str(path))
    except TeamsFileError as e:
        raise UsageError(str(e)) from None


def _section_names(text: str) -> list[str]:
    """The sections of --section A,B (each name checked by the store); UsageError for one given twice."""
    names = [n.strip() for n in text.split(",")]
    if len(set(names)) != len(names):
        raise UsageError(f"--section {text!r}: a section named twice")
    return names


def run_show(args: argparse.Namespace) -> int:
    try:
        conn = connect(event_file(args))
        info = event_info(conn)
    except StoreError as e:
        raise UsageError(str(e)) from None
    print(f"{info.name}, {info.date}, {info.scoring.replace('_', ' ')}")
    teams = team_names(conn)
    rested = byes(conn)
    for number, name in sorted(teams.items()):
        print(f"team {number}: {name}, pairs {2 * number - 1} and {2 * number}")
    for s in info.sections:
        print(f"section {s.name}: {s.movement}")
        if s.name in rested:
            print(f"  bye: {_team(rested[s.name][0], teams)} ({rested[s.name][1]} VPs)")
        out = sit_outs(conn, s.name)  # after tenace move, or a half table's phantom
        players = partnerships(conn, s.name)
        for round_, table, ns, ew, boards in section_rounds(conn, s.name):
            # A Howell's pair is named by its number alone; where it sits this round follows it. An individual's
            # partnership by its players, North or East first.
            if players:
                seated = f"{'+'.join(map(str, players[ns]))} (NS) v {'+'.join(map(str, players[ew]))} (EW)"
            else:
                seated = f"{ns:>2} (NS) v {ew:>2} (EW)" if s.one_field else f"NS {ns:>2} v EW {ew:>2}"
            if s.kind == "teams":  # whose pairs they are: "team 1 v team 2 (1 Lions v 2 Tigers)"
                seated += f"  {_team(team_of(ns), teams)} v {_team(team_of(ew), teams)}"
            absent = out.get((table, round_))
            note = "" if absent is None else "  sit-out: " + (
                "both pairs out" if all(absent) else f"{'NS' if absent[0] else 'EW'} {ns if absent[0] else ew} absent")
            print(f"  round {round_:>2} table {table:>2}: {seated}  boards {boards}{note}")
    for line in event_sim.show_lines(conn):
        print(line)
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
        given = parse.seating(args.terminal, args.table, args.section, args.who)
    except DirectorInputError as e:
        raise usage(e) from None
    try:
        conn = connect(event_file(args))
        done = actions.seat(conn, given)
    except (StoreError, EntryError) as e:
        raise UsageError(str(e)) from None
    conn.close()
    print(done)
    return 0


def run_deals(args: argparse.Namespace) -> int:
    file = args.file
    if args.db is not None and file is None and args.event is not None:  # `--db EVENT FILE`: the positional is FILE
        args.event, file = None, str(args.event)
    if given_event_file(args) is None:
        raise UsageError("name the event file: tenace event deals EVENT FILE (e.g. club.sqlite deals.pbn)")
    path = event_file(args)
    if file is None and not args.analyse:
        raise UsageError("name the file of deals (PBN, LIN or DUP, - for standard input), or give --analyse")
    if file is not None and args.analyse and args.no_analysis:
        raise UsageError("--analyse and --no-analysis ask for opposite things: give one")
    try:
        conn = connect(path)
    except StoreError as e:
        raise UsageError(str(e)) from None
    try:
        section = _deal_section(conn, args.section)
        if file is not None:
            _import_file(conn, section, file, _deals_signature(conn, args), args.force)
        if not args.no_analysis:
            done = analyse_section(conn, section, stream=sys.stderr)
            print(f"double dummy: {len(done)} board{'s' if len(done) != 1 else ''} analysed" if done
                  else "double dummy: every kept deal is analysed already")
    finally:
        conn.close()
    return 0


def _deal_section(conn: sqlite3.Connection, wanted: str | None) -> str:
    names = [s.name for s in event_info(conn).sections]
    if wanted is None:
        if len(names) > 1:
            raise UsageError(f"the event has sections {', '.join(names)}: say which with --section")
        return names[0]
    if wanted not in names:
        raise UsageError(f"there is no section {wanted!r} in this event (sections: {', '.join(names)})")
    return str(wanted)


def _deals_signature(conn: sqlite3.Connection, args: argparse.Namespace) -> tuple[str, str]:
    """Who and why for an import after publication, which needs --force and --why; before it, the setup's."""
    published = publication(conn)
    if published is None:
        return args.who or login_name(), args.why or "hand records imported"
    at = datetime.fromisoformat(published.at).astimezone()
    if not args.force:
        raise UsageError(f"the results were published at {at:%H:%M} by {published.who} (tenace finish): hand "
                         "records imported now change what was published: --force imports them, and it is logged")
    if args.why is None or not args.why.strip():
        raise UsageError("--why is required after publication: say why the hand records change (it is logged)")
    return args.who or login_name(), args.why


def _import_file(conn: sqlite3.Connection, section: str, file: str, signed: tuple[str, str], force: bool) -> None:
    name = "<stdin>" if file == "-" else file
    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as e:
        raise UsageError(f"cannot read {file}: {e.strerror or e}") from None
    try:
        outcome = import_deals(conn, section, read_deals(data), who=signed[0], why=signed[1], force=force)
    except DealFileError as e:
        raise UsageError(f"{name}: {e}") from None
    except EntryError as e:
        raise UsageError(str(e)) from None
    for skip in outcome.skipped:
        print(f"skipped {skip.text(name)}", file=sys.stderr)
    if not outcome.boards:
        raise UsageError(f"{name}: no deal imported ({len(outcome.skipped)} skipped, listed above)")
    replaced = f", {len(outcome.replaced)} replacing another deal" if outcome.replaced else ""
    print(f"section {section}: {len(outcome.boards)} deal{'s' if len(outcome.boards) != 1 else ''} kept"
          f" (boards {span(outcome.boards)}){replaced}, {len(outcome.skipped)} skipped")
