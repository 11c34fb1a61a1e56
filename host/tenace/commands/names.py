"""`tenace names`: who the pairs are: a club roster from CSV, a pair's players set by hand, the list of pairs."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from tenace.commands.event import read_teams_option
from tenace.commands.options import add_event_file, event_file, open_event, read_text_option
from tenace.commands.pair_option import parse_pair
from tenace.director.errors import DirectorInputError
from tenace.director.pairs import Pair, pair_label
from tenace.director.setup import NoMember, import_roster, in_two_pairs, name_pairs
from tenace.errors import UsageError
from tenace.movement.model import team_of
from tenace.roster import Skipped
from tenace.store import EntryError, event_info, login_name
from tenace.store.director import chosen_section
from tenace.store.names import (
    individual_members,
    names_of,
    pair_players,
    roster,
    set_individual_player,
    set_pair_players,
)
from tenace.store.teams import keep_teams, team_names

HELP = "who the pairs are: import the club's roster, set a pair's players, list the pairs' names"
EPILOG = """\
examples:
  tenace names club.sqlite --roster members.csv          number, name and club id of every member
  tenace names club.sqlite --pair "NS 3" --players 101 117
  tenace names club.sqlite --pairs pairs.txt             a pair a line: "NS 3, 101, Bob Baker" or "Ann - Bob"
  tenace names club.sqlite --player 8 --member 117       an individual's player 8 is member 117
  tenace names club.sqlite                               every pair with its players
  tenace names match.sqlite --teams teams.csv            a team match's teams: number, name, four players

A --pairs list has a pair a line: the pair and its two players ("NS 3, 101, 117", "A-EW 7; Ann Archer;
Bob Baker"), or the two players alone ("Ann Archer - Bob Baker", "101, 117"), who are then the section's
next pair not named on another line (a Mitchell's NS 1, 2, ... then EW 1, 2, ...; a Howell's 1, 2, ...).
A player is a member number or a name as in the roster (any case). Lines starting with # are passed
over. A list with a wrong line sets no pair: each wrong line is named (file:line) and nothing changes.

A pair's players are those the director sets here, else the numbers keyed at its table (tenace collect
--players optional|required). Their names come from the roster and appear in tenace results and the
published reports; a number missing from the roster shows as #117. The roster CSV has a member a line:
number, name, and optionally a club id (then masterpoints and handicap, kept in the event file for
tenace championship's strata and handicaps, and an e-mail address, which tenace report --email reads
from the CSV itself; comma, semicolon or tab; a header line is passed over; a line whose name holds
a line break or a control character, or whose e-mail is not an address, is left out, named). A player
set in two pairs of a section is kept with a warning naming both pairs.
In a team match team 1's pairs are 1 (North-South at home, table 1) and 2 (East-West at table 2),
team 2's are 3 and 4; a teams file's line is "1,Lions,101,102,103,104": team 1 is the Lions, pair 1
is players 101 and 102, pair 2 players 103 and 104."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("names", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    what = p.add_mutually_exclusive_group()
    what.add_argument("--roster", metavar="FILE", help="import the club's roster from a CSV file ('-': standard input)")
    what.add_argument("--teams", type=Path, metavar="FILE",
                      help="name the teams of a team match: a CSV line a team, number, name and optionally its four "
                           "players' numbers (first pair's two, then the second pair's)")
    what.add_argument("--pair", metavar="PAIR", help='the pair whose players --players names: "NS 3", "A-EW 7", "7"')
    p.add_argument("--players", type=int, nargs=2, metavar="N", help="the pair's two player numbers")
    what.add_argument("--pairs", metavar="FILE", help="name many pairs at once from a text file, a pair a line "
                                                      "(see below; '-': standard input)")
    what.add_argument("--player", type=int, metavar="N", help="an individual's player (by the movement's number) whom "
                                                             "--member names")
    p.add_argument("--member", type=int, metavar="M", help="the player's member number (as in the roster)")
    p.add_argument("--section", metavar="S", help="the individual's section, or the section of --pairs lines "
                                                  "that name none, when the event has several")
    p.add_argument("--who", help="who sets them (default: the user's login name)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if (args.pair is None) != (args.players is None):
        raise UsageError("--pair and --players go together: --pair \"NS 3\" --players 101 117")
    if (args.player is None) != (args.member is None):
        raise UsageError("--player and --member go together: --player 8 --member 117")
    with open_event(event_file(args)) as conn:
        try:
            if args.roster is not None:
                _import(conn, args.roster)
            elif args.player is not None:
                section = chosen_section(conn, args.section)
                set_individual_player(conn, section, args.player, args.member, who=args.who or login_name())
                print(f"player {args.player}: {names_of((args.member,), roster(conn))}")
            elif args.teams is not None:
                teams = read_teams_option(args.teams, "--teams")
                keep_teams(conn, teams, who=args.who or login_name())
                print(f"teams: {len(teams)} named")
                _warn_twice(conn, None)
            elif args.pairs is not None:
                _name_pairs(conn, args.pairs, args.section, who=args.who or login_name())
            elif args.pair is not None:
                pair = parse_pair(args.pair, [s.name for s in event_info(conn).sections], option="--pair")
                set_pair_players(conn, pair.section, pair.number, pair.field, tuple(args.players),
                                 who=args.who or login_name())
                members = roster(conn)
                print(f"{args.pair}: {names_of(args.players, members)}")
                _warn_twice(conn, set(args.players))
            else:
                _list(conn)
        except EntryError as e:
            raise UsageError(str(e)) from None
    return 0


def _import(conn: sqlite3.Connection, source: str) -> None:
    text = read_text_option("--roster", source, "the roster as CSV, UTF-8", stdin=True)
    try:
        done = import_roster(conn, text)
    except NoMember as e:
        _skipped(source, e.skipped)
        raise UsageError(f"--roster {source}: {e.said({'roster': ''}).lstrip()}") from None
    _skipped(source, done.skipped)
    print(f"roster: {done.kept} member{'s' if done.kept != 1 else ''} kept"
          + (f", {_lines(len(done.skipped))} skipped" if done.skipped else ""))


def _skipped(source: str, skipped: tuple[Skipped, ...]) -> None:
    for s in skipped:
        print(f"skipped {source}:{s.line}: {s.why}", file=sys.stderr)


def _name_pairs(conn: sqlite3.Connection, source: str, section: str | None, *, who: str) -> None:
    text = read_text_option("--pairs", source, "the list of pairs as UTF-8", stdin=True)
    try:
        done = name_pairs(conn, text, section, who=who)
    except DirectorInputError as e:
        if "individual" in e.message:
            raise UsageError("an individual's players are named one by one: --player N --member M") from None
        raise UsageError(f"--pairs {source}: {e.said({'pairs': ''}).lstrip()}") from None
    for w in done.wrong:
        print(f"{source}:{w.line}: {w.error.said({'pairs': '', 'pair': '', 'section': '--section'})}", file=sys.stderr)
    if done.wrong:
        raise UsageError(f"--pairs {source}: {_lines(len(done.wrong))} wrong, no pair named (correct them and run it "
                         "again)")
    members = roster(conn)
    several = len(event_info(conn).sections) > 1
    for p in done.named:
        print(f"{pair_label(p.pair, several)}: {names_of(p.players, members)}")
    print(f"pairs: {len(done.named)} named")
    _warn_twice(conn, {n for p in done.named for n in p.players})


def _warn_twice(conn: sqlite3.Connection, players: set[int] | None) -> None:
    """A warning on stderr for each player (of `players`, or any) now in two pairs of a section: kept as said, since
    the director may be setting the pairs one after the other, but never without a word."""
    for twice in in_two_pairs(conn, players):
        print(f"warning: player {twice.player} is in two pairs: {' and '.join(twice.pairs)} (a player plays in one "
              "pair: set the other pair's players)", file=sys.stderr)


def _lines(n: int) -> str:
    return f"{n} line{'' if n == 1 else 's'}"


def _list(conn: sqlite3.Connection) -> None:
    members = roster(conn)
    print(f"roster: {len(members)} member{'s' if len(members) != 1 else ''}")
    sections = event_info(conn).sections
    teams = team_names(conn)
    for number, name in sorted(teams.items()):
        print(f"  team {number}: {name} (pairs {2 * number - 1} and {2 * number})")
    for s in sections:
        for player, member in sorted(individual_members(conn, s.name).items()):
            print(f"  {f'{s.name}-' if len(sections) > 1 else ''}player {player}: {names_of((member,), members)}")
        players = pair_players(conn, s.name)
        for (pair, direction), numbers in sorted(players.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            label = pair_label(Pair(s.name, direction, pair), len(sections) > 1)
            team = f" (team {team_of(pair)}{': ' + teams[team_of(pair)] if team_of(pair) in teams else ''})" \
                if s.kind == "teams" else ""
            print(f"  {label}{team}: {names_of(numbers, members)}")
