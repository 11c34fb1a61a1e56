"""A teams CSV file (team number, name, optionally four players' numbers): read strictly, the first bad line named."""

from __future__ import annotations

import csv
import io

from tenace.store.teams import MAX_TEAM, Team


class TeamsFileError(ValueError):
    """A line of a teams file that cannot be read; the message names the line and why."""


def read_teams_file(text: str, where: str) -> list[Team]:
    """`number,name[,p1,p2,p3,p4]` a line (comma, semicolon or tab; a header line and # lines passed over): p1 p2
    are the players of the team's first pair (North-South at home), p3 p4 of its second. A team twice is refused:
    a file that names the teams is checked whole, so that nothing is half imported."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(",;\t", key=first.count)  # the separator the first line uses most
    teams: list[Team] = []
    seen: dict[int, int] = {}
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    for row in reader:
        line = reader.line_num
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        at = f"{where}:{line}"
        if not cells[0].isdigit():
            if not teams and not seen and line == 1:
                continue  # a header: "team,name,..."
            raise TeamsFileError(f"{at}: the team number {cells[0]!r} is not a whole number")
        number = int(cells[0])
        if not 1 <= number <= MAX_TEAM:
            raise TeamsFileError(f"{at}: a team number is 1 to {MAX_TEAM}, not {number}")
        if number in seen:
            raise TeamsFileError(f"{at}: team {number} again (it is on line {seen[number]})")
        if len(cells) < 2 or not cells[1]:
            raise TeamsFileError(f"{at}: team {number} has no name (a line is number, name and optionally four "
                                 "player numbers)")
        rest = [c for c in cells[2:] if c]
        players: tuple[int, int, int, int] | None = None
        if rest:
            if len(rest) != 4 or not all(c.isdigit() for c in rest):
                raise TeamsFileError(f"{at}: team {number}: give its four players' numbers (first pair's two, then "
                                     f"the second pair's), or none; not {' '.join(rest)!r}")
            players = (int(rest[0]), int(rest[1]), int(rest[2]), int(rest[3]))
        seen[number] = line
        teams.append(Team(number, cells[1], players))
    if not teams:
        raise TeamsFileError(f"{where}: no team in it (a line is number, name and optionally four player numbers)")
    return teams
