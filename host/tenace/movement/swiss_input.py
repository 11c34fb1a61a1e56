"""Reading a Swiss's teams (one a line) and its results so far (a CSV line a match) into the pairing's terms."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from tenace.movement.swiss import MAX_TEAMS, Match
from tenace.scoring.vp import victory_points

MAX_VP = Decimal(20)  # the WBF scale's whole: a match's two sides share at most 20 (less after a VP penalty)
MAX_IMPS = Decimal(999)  # far above what a match of 36 boards can give (24 IMPs a board): a typo, not a score
BYE_WORDS = ("bye", "-")


class SwissInputError(ValueError):
    """A teams or results file that cannot be read as such; the message names the file and line."""


@dataclass(frozen=True)
class Teams:
    names: tuple[str, ...]  # team t is names[t - 1], in seeding order

    def number(self, text: str) -> int | None:
        """The team a results cell names: its number, or its name as the teams file writes it (any case)."""
        text = text.strip()
        if text.isdigit():
            t = int(text)
            return t if 1 <= t <= len(self.names) else None
        folded = text.casefold()
        for t, name in enumerate(self.names, 1):
            if name.casefold() == folded:
                return t
        return None


def read_teams(text: str, where: str) -> Teams:
    """One team a line in seeding order (the first is team 1); blank lines and lines starting # are passed over."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        name = line.strip()
        if not name or name.startswith("#"):
            continue
        if name.isdigit():
            raise SwissInputError(f"{where}:{n}: a team's name cannot be a bare number ({name}): results name teams "
                                  "by number or by name, and the two would be confused")
        if name.casefold() in seen:
            raise SwissInputError(f"{where}:{n}: team {name!r} is already team {seen[name.casefold()]} (line "
                                  "numbers of teams must name one team each)")
        seen[name.casefold()] = len(names) + 1
        names.append(name)
    if len(names) < 2:
        raise SwissInputError(f"{where}: a Swiss needs at least 2 teams, one a line; this file has {len(names)}")
    if len(names) > MAX_TEAMS:
        raise SwissInputError(f"{where}: a Swiss has at most {MAX_TEAMS} teams (two tables a match), not {len(names)}")
    return Teams(tuple(names))


def read_results(text: str, where: str, teams: Teams, imps_boards: int | None = None) -> list[Match]:
    """The matches played: `round,home,away,home VPs,away VPs` a line (a header line is passed over; commas,
    semicolons or tabs). `away` is `bye` for a bye, its VPs in the home column. With `imps_boards`, the two
    scores are IMPs, turned into VPs on the WBF scale for a match of that many boards.

    Every round from 1 to the last must be there, each team in each round once: played or on a bye."""
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    # The separator the first line uses most (a spreadsheet's export in some locales uses semicolons).
    delimiter = max(",;\t", key=first.count)
    matches: list[Match] = []
    for n, row in enumerate(csv.reader(lines, delimiter=delimiter), 1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if n == 1 and not cells[0].isdigit():  # a header: round,home,away,...
            continue
        matches.append(_match(cells, f"{where}:{n}", teams, imps_boards))
    _whole_rounds(matches, where, teams)
    return matches


def _match(cells: list[str], at: str, teams: Teams, imps_boards: int | None) -> Match:
    if len(cells) < 4 or len(cells) > 5:
        raise SwissInputError(f"{at}: a line is round, home team, away team (or bye), home score, away score: "
                              f"{len(cells)} cell{'s' if len(cells) != 1 else ''} here")
    if not cells[0].isdigit() or not 1 <= int(cells[0]) <= 999:
        raise SwissInputError(f"{at}: the round is a whole number from 1, not {cells[0]!r}")
    round_ = int(cells[0])
    home = teams.number(cells[1])
    if home is None:
        raise SwissInputError(f"{at}: no team {cells[1]!r} in the teams file (a number 1 to {len(teams.names)} or a "
                              "name)")
    unit = "IMPs" if imps_boards else "VPs"
    if cells[2].casefold() in BYE_WORDS:
        vps = _score(cells[3], at, "the bye's VPs", MAX_VP)
        return Match(round_, home, None, vps, Decimal(0))
    away = teams.number(cells[2])
    if away is None:
        raise SwissInputError(f"{at}: no team {cells[2]!r} in the teams file (a number 1 to {len(teams.names)}, a "
                              "name, or bye)")
    if away == home:
        raise SwissInputError(f"{at}: team {home} cannot play itself")
    if len(cells) < 5:
        raise SwissInputError(f"{at}: a match needs both teams' {unit}")
    if imps_boards:
        home_imps = _score(cells[3], at, "the home IMPs", MAX_IMPS)
        away_imps = _score(cells[4], at, "the away IMPs", MAX_IMPS)
        vp = victory_points(Fraction(home_imps - away_imps), imps_boards)
        return Match(round_, home, away, vp.home, vp.away)
    home_vps = _score(cells[3], at, "the home VPs", MAX_VP)
    away_vps = _score(cells[4], at, "the away VPs", MAX_VP)
    if home_vps + away_vps > MAX_VP:
        raise SwissInputError(f"{at}: {home_vps} + {away_vps} VPs is more than the {MAX_VP} a match shares (IMPs? "
                              "give --imps)")
    return Match(round_, home, away, home_vps, away_vps)


def _score(text: str, at: str, what: str, high: Decimal) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise SwissInputError(f"{at}: {what} must be a number, not {text!r}") from None
    if not value.is_finite() or not 0 <= value <= high:
        raise SwissInputError(f"{at}: {what} are 0 to {high}, not {text}")
    return value


def _whole_rounds(matches: Sequence[Match], where: str, teams: Teams) -> None:
    """Refuse results with a round missing, or a team twice or not at all in a round."""
    rounds = sorted({m.round for m in matches})
    for expected, r in enumerate(rounds, 1):
        if r != expected:
            raise SwissInputError(f"{where}: round {expected} is missing, yet round {r} is there")
    for r in rounds:
        seen: dict[int, int] = {}
        for m in matches:
            if m.round != r:
                continue
            for t in (m.home, m.away):
                if t is None:
                    continue
                if t in seen:
                    raise SwissInputError(f"{where}: team {t} ({teams.names[t - 1]}) plays twice in round {r}")
                seen[t] = r
        absent = [t for t in range(1, len(teams.names) + 1) if t not in seen]
        if absent:
            who = ", ".join(f"{t} ({teams.names[t - 1]})" for t in absent[:3])
            raise SwissInputError(f"{where}: in round {r} team{'s' if len(absent) > 1 else ''} {who}"
                                  f"{' ...' if len(absent) > 3 else ''} neither played nor had a bye")
