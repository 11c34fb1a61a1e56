"""Swiss teams: the standings from the rounds played, and the next round paired from them as a team movement."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from tenace.movement.model import MAX_BOARDS_PER_ROUND, MAX_TABLES, Encounter, Movement, MovementError

# A pairing search that has not found a way without rematches after this many tries takes the next best (one
# rematch more allowed) rather than keep the director waiting: a field of 40 teams still pairs in well under a second.
SEARCH_LIMIT = 200_000
MAX_TEAMS = MAX_TABLES // 2  # each match takes two tables


@dataclass(frozen=True)
class Match:
    """One match of a round played: home team, away team (None: the home team had a bye) and their VPs."""

    round: int
    home: int
    away: int | None
    home_vps: Decimal
    away_vps: Decimal


@dataclass(frozen=True)
class Standing:
    team: int
    name: str
    vps: Decimal
    played: int  # matches played, byes not counted
    byes: int
    place: int  # equal VPs share a place (the lower seeding number is listed first)


@dataclass(frozen=True)
class Round:
    """The next round: its matches (home, away), best placed first, the team with the bye, and the matches that
    repeat an earlier one (empty unless no pairing without one exists)."""

    number: int
    matches: tuple[tuple[int, int], ...]
    bye: int | None
    rematches: tuple[tuple[int, int], ...]
    movement: Movement


def standings(names: Sequence[str], played: Sequence[Match]) -> list[Standing]:
    """Every team with its VPs, most first; teams level on VPs keep their seeding order (team number)."""
    vps = dict.fromkeys(range(1, len(names) + 1), Decimal(0))
    games: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for m in played:
        vps[m.home] += m.home_vps
        if m.away is None:
            byes[m.home] += 1
        else:
            vps[m.away] += m.away_vps
            games[m.home] += 1
            games[m.away] += 1
    order = sorted(vps, key=lambda t: (-vps[t], t))
    table: list[Standing] = []
    for i, t in enumerate(order):
        place = table[-1].place if table and vps[table[-1].team] == vps[t] else i + 1
        table.append(Standing(t, names[t - 1], vps[t], games[t], byes[t], place))
    return table


def next_round(names: Sequence[str], played: Sequence[Match], boards: int, seed: int | None = None) -> Round:
    """Pair the round after `played`: top against next down the standings, no rematch while one can be avoided,
    the bye (an odd count) to the lowest team that has had the fewest. The first round goes by seeding (the top
    half against the bottom half: 1 v 5, 2 v 6... of 8), or drawn at random when `seed` is given."""
    teams = len(names)
    if not 2 <= teams <= MAX_TEAMS:
        raise MovementError("teams", f"a Swiss needs 2 to {MAX_TEAMS} teams, not {teams}")
    if not 1 <= boards <= MAX_BOARDS_PER_ROUND:
        raise MovementError("boards", f"a match has 1 to {MAX_BOARDS_PER_ROUND} boards, not {boards}")
    number = max((m.round for m in played), default=0) + 1
    met = {frozenset((m.home, m.away)) for m in played if m.away is not None}
    byes = Counter(m.home for m in played if m.away is None)
    if number == 1:
        order = list(range(1, teams + 1))
        if seed is not None:
            random.Random(seed).shuffle(order)
            bye = order.pop() if teams % 2 else None
            pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        else:
            bye = order.pop() if teams % 2 else None
            half = len(order) // 2
            pairs = list(zip(order[:half], order[half:], strict=True))
        return _round(number, pairs, bye, met, boards)
    order = [s.team for s in standings(names, played)]
    # A second bye is worse than a rematch: the teams with the fewest byes take it, whatever it costs in rematches;
    # among them the lowest whose absence leaves the others to pair with the fewest rematches.
    for group in _bye_candidates(order, byes):
        for allowed in range(len(order)):
            for bye in group:
                found = _pair([t for t in order if t != bye], met, allowed, [0])
                if found is not None:
                    return _round(number, found, bye, met, boards)
    raise AssertionError("some pairing always exists once every rematch is allowed")


def _bye_candidates(order: list[int], byes: Counter[int]) -> list[list[int | None]]:
    """Who may have the bye, in groups to try one after the other (the fewest byes so far first), each group from
    the bottom of the standings up; [[None]] for an even count."""
    if len(order) % 2 == 0:
        return [[None]]
    return [[t for t in reversed(order) if byes[t] == n] for n in sorted({byes[t] for t in order})]


def _pair(order: list[int], met: set[frozenset[int]], allowed: int, tries: list[int]) -> list[tuple[int, int]] | None:
    """The top team against the next it may meet, then the rest the same way, backing up when the rest cannot be
    paired; at most `allowed` rematches. None when there is no such pairing (or the search ran past its limit)."""
    if not order:
        return []
    top, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        tries[0] += 1
        if tries[0] > SEARCH_LIMIT:
            return None
        again = frozenset((top, other)) in met
        if again and allowed == 0:
            continue
        found = _pair(rest[:i] + rest[i + 1:], met, allowed - again, tries)
        if found is not None:
            return [(top, other), *found]
    return None


def _round(number: int, pairs: list[tuple[int, int]], bye: int | None, met: set[frozenset[int]],
           boards: int) -> Round:
    rematches = tuple(p for p in pairs if frozenset(p) in met)
    return Round(number, tuple(pairs), bye, rematches, round_movement(number, pairs, boards))


def round_movement(number: int, pairs: Sequence[tuple[int, int]], boards: int) -> Movement:
    """The round as a team movement: match i at tables 2i - 1 and 2i, as tenace.movement.teams seats a match (the
    home team NS at the first table, the away team NS at the second; team t's pairs are 2t - 1 and 2t), every
    match on boards 1 to `boards`, one copy a match that its two tables exchange."""
    encounters = []
    for i, (home, away) in enumerate(pairs):
        played = tuple(range(1, boards + 1))
        encounters.append(Encounter(2 * i + 1, 1, 2 * home - 1, 2 * away, played))
        encounters.append(Encounter(2 * i + 2, 1, 2 * away - 1, 2 * home, played))
    tables = 2 * len(pairs)
    name = f"Swiss teams round {number}, {len(pairs)} match{'es' if len(pairs) > 1 else ''} of {boards} boards"
    return Movement(name, tables, 1, boards, tuple(encounters), kind="teams", copies=len(pairs),
                    relays=tuple((t, t + 1) for t in range(1, tables, 2)))
