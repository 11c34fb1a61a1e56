"""`tenace movement swiss`: the standings of a Swiss teams event and its next round, paired from them."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tenace.commands.options import movement_error
from tenace.errors import UsageError
from tenace.movement import MovementError, check
from tenace.movement.model import team_letters
from tenace.movement.serial import movement_to_json
from tenace.movement.swiss import Round, Standing, next_round, standings
from tenace.movement.swiss_input import SwissInputError, read_results, read_teams

HELP = "Swiss teams: the standings so far and the next round, top against next, no rematch while avoidable"
EPILOG = """\
files:
  TEAMS    one team a line, in seeding order: the first line is team 1 (blank lines and # lines passed over)
  RESULTS  a CSV line a match: round,home,away,home VPs,away VPs (commas, semicolons or tabs; a header
           line is passed over). Teams by number or by name; away "bye" for a bye, its VPs in the home
           column. With --imps the two scores are IMPs, turned into VPs on the WBF 20-point scale for a
           match of --boards boards.

the pairing:
  round 1  by seeding, the top half against the bottom half (1 v 5, 2 v 6... of 8), or drawn with --seed S
  later    by VPs (level teams in seeding order): the top team meets the next it has not met, and so on
           down, backing up when the rest cannot be paired; a rematch only when no pairing avoids it
  odd      the bye goes to the lowest team that has had the fewest byes
  each match takes two tables (home NS at the first, away NS at the second) on boards 1 to --boards,
  a copy a match; the round is checked as a movement (`tenace movement check` rules) before it is shown

examples:
  tenace movement swiss --teams teams.txt --seed 7              round 1, drawn
  tenace movement swiss --teams teams.txt --results vps.csv     the next round after those in vps.csv
  tenace movement swiss --teams teams.txt --results imps.csv --imps --boards 8 --json
  tenace movement swiss --teams teams.txt --results vps.csv --movement round4.json
  tenace movement check --file round4.json

exit 0 with the round; 2 for a file or option that cannot be used (one line saying where and why)."""


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = actions.add_parser("swiss", help="pair the next round of a Swiss teams event from its VP standings",
                           description=HELP, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--teams", type=Path, required=True, metavar="TEAMS", help="the teams, one a line, seeding order")
    p.add_argument("--results", type=Path, metavar="RESULTS",
                   help="the rounds played (CSV); without it, round 1 is paired")
    p.add_argument("--round", type=int, metavar="N", help="the round to pair, as a check: the one after RESULTS")
    p.add_argument("--boards", type=int, default=8, metavar="B", help="boards a match (default 8)")
    p.add_argument("--imps", action="store_true", help="RESULTS gives IMPs, not VPs: convert them (WBF scale)")
    p.add_argument("--seed", type=int, metavar="S", help="draw round 1 at random with this seed (the same seed, "
                                                         "the same draw)")
    p.add_argument("--json", action="store_true", help="write standings, matches, bye and movement as JSON")
    p.add_argument("--movement", type=Path, metavar="F.json",
                   help="also write the round's movement to this file, for `tenace movement check --file`")
    p.set_defaults(run=run_swiss)


def run_swiss(args: argparse.Namespace) -> int:
    teams_text = _read(args.teams, "--teams")
    results_text = _read(args.results, "--results") if args.results is not None else ""
    if args.imps and args.results is None:
        raise UsageError("--imps says how RESULTS gives its scores: give --results too")
    try:
        teams = read_teams(teams_text, str(args.teams))
        played = read_results(results_text, str(args.results), teams, args.boards if args.imps else None) \
            if args.results is not None else []
    except SwissInputError as e:
        raise UsageError(str(e)) from None
    try:
        paired = next_round(teams.names, played, args.boards, args.seed)
    except MovementError as e:
        raise movement_error(e, {"teams": "--teams", "boards": "--boards"}) from None
    if args.round is not None and args.round != paired.number:
        so_far = f"hold rounds 1 to {paired.number - 1}" if paired.number > 1 else "hold no round"
        raise UsageError(f"--round {args.round}: the results {so_far}, so the round to pair is {paired.number}")
    report = check(paired.movement)
    if not report.ok:  # a pairing is always a sound movement; say so loudly if this one is not
        raise AssertionError(f"round {paired.number} breaks a movement rule: {report.errors[0].message}")
    table = standings(teams.names, played)
    if args.movement is not None:
        try:
            args.movement.write_text(json.dumps(movement_to_json(paired.movement), indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise UsageError(f"--movement {args.movement}: cannot write it: {e.strerror or e}") from None
    if args.json:
        print(json.dumps(_as_json(paired, table, teams.names), indent=1, ensure_ascii=False))
    else:
        print(_as_text(paired, table, teams.names, len(played) > 0))
    return 0


def _read(path: Path, option: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise UsageError(f"{option} {path} is a folder, not a file") from None
    except UnicodeDecodeError:
        raise UsageError(f"{option} {path} is not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"{option} {path}: cannot read it: {e.strerror or e}") from None


def _team(t: int, names: tuple[str, ...]) -> str:
    return f"{t} {names[t - 1]}"


def _as_text(r: Round, table: list[Standing], names: tuple[str, ...], any_played: bool) -> str:
    lines = [f"Swiss teams: {len(names)} teams, round {r.number}: {len(r.matches)} match"
             f"{'es' if len(r.matches) != 1 else ''} of {r.movement.boards_per_round} boards"]
    if any_played:
        lines.append(f"standings after round {r.number - 1}:")
        width = max(len(_team(s.team, names)) for s in table)
        lines.append(f"  {'place':>5}  {'team':<{width}}  {'VPs':>7}  played  byes")
        for i, s in enumerate(table):
            level = (i > 0 and table[i - 1].place == s.place) or (i + 1 < len(table) and table[i + 1].place == s.place)
            place = f"{'=' if level else ''}{s.place}"
            lines.append(f"  {place:>5}  {_team(s.team, names):<{width}}  {s.vps:>7.2f}  {s.played:>6}  {s.byes:>4}")
    lines.append(f"round {r.number}:")
    width = max(len(_team(h, names)) for h, _ in r.matches)
    for i, (home, away) in enumerate(r.matches):
        again = "  (a rematch: no pairing avoids one)" if (home, away) in r.rematches else ""
        lines.append(f"  tables {2 * i + 1:>3}-{2 * i + 2:<3}  {_team(home, names):<{width}}  v  {_team(away, names)}"
                     f"{again}")
    if r.bye is not None:
        lines.append(f"  bye: {_team(r.bye, names)}")
    lines.append("seats: the home team sits NS at its match's first table, the away team NS at the second")
    return "\n".join(lines)


def _as_json(r: Round, table: list[Standing], names: tuple[str, ...]) -> dict[str, Any]:
    return {
        "round": r.number,
        "standings": [{"place": s.place, "team": s.team, "name": s.name, "letters": team_letters(s.team),
                       "vps": f"{s.vps:.2f}", "played": s.played, "byes": s.byes} for s in table],
        "matches": [{"tables": [2 * i + 1, 2 * i + 2], "home": h, "home_name": names[h - 1], "away": a,
                     "away_name": names[a - 1], "rematch": (h, a) in r.rematches}
                    for i, (h, a) in enumerate(r.matches)],
        "bye": None if r.bye is None else {"team": r.bye, "name": names[r.bye - 1]},
        "movement": movement_to_json(r.movement),
    }
