"""Individual movements for 2 to 5 tables: 4n players, each partnering every other once and meeting each twice."""

from __future__ import annotations

from dataclasses import replace

from tenace.movement.model import MAX_BOARDS_PER_ROUND, Encounter, Movement, MovementError
from tenace.movement.variants import shortened

MIN_INDIVIDUAL_TABLES = 2
MAX_INDIVIDUAL_TABLES = 5

# Cyclic whist tournaments (Z-cyclic Wh(4n)) by their starter: player 4n keeps North at table 1 with the player at
# position 0; the other 4n - 1 players step round a circle of positions, the player at position x going to x + 1
# each round. Per table, the positions of its North-South and its East-West partnership in the first round (table
# 1's North-South is player 4n and position 0). The partnerships' differences ±(a - b) cover every non-zero
# residue once (each two players partner once) and the opponents' differences cover each twice (each two
# players meet twice as opponents): found by a depth-first search over starters (under a second for up to 4
# tables, about three minutes for 5) and proven for each size by `tenace movement check` in the tests.
STARTERS: dict[int, tuple[tuple[tuple[int, int], tuple[int, int]], ...]] = {
    2: (((0, 0), (1, 3)), ((2, 6), (4, 5))),
    3: (((0, 0), (1, 3)), ((2, 9), (6, 7)), ((4, 10), (5, 8))),
    4: (((0, 0), (1, 2)), ((3, 6), (9, 11)), ((4, 13), (8, 12)), ((5, 10), (7, 14))),
    5: (((0, 0), (1, 2)), ((3, 5), (9, 15)), ((4, 14), (12, 17)), ((6, 18), (10, 13)), ((7, 11), (8, 16))),
}


def individual(tables: int, boards_per_round: int, rounds: int | None = None) -> Movement:
    """A complete individual of `tables` tables: 4n players, 4n - 1 rounds; every player partners every other
    player once and meets each twice as an opponent. With `rounds` fewer than 4n - 1, its first rounds.

    Every table plays the round's set on its own copy of the boards (duplicated boards): round r plays set r, so
    no player meets a board twice however the players move. Partnerships are the movement's "pairs", numbered in
    the order they first sit down; `Movement.partners` names each one's two players (North or East first).
    """
    check_individual_size(tables, boards_per_round, rounds)
    players = 4 * tables
    m = players - 1
    partners: dict[tuple[int, int], int] = {}

    def partnership(first: int, second: int) -> int:
        return partners.setdefault((first, second), len(partners) + 1)

    def player(position: int, r: int) -> int:
        return players if position < 0 else (position + r) % m + 1

    encounters = []
    for r in range(m):
        boards = tuple(range(r * boards_per_round + 1, (r + 1) * boards_per_round + 1))
        for t, ((a, b), (c, d)) in enumerate(STARTERS[tables], start=1):
            north = player(-1 if t == 1 else a, r)  # table 1: player 4n stays North
            ns = partnership(north, player(b, r))
            ew = partnership(player(c, r), player(d, r))
            encounters.append(Encounter(t, r + 1, ns, ew, boards))
    by_number = tuple(pair for pair, _ in sorted(partners.items(), key=lambda item: item[1]))
    name = f"Individual, {tables} tables, {players} players, {m} rounds of {boards_per_round} boards"
    movement = Movement(name, tables, m, boards_per_round, tuple(encounters), kind="individual", copies=tables,
                        partners=by_number)
    if rounds is None:
        return movement
    short = shortened(movement, rounds)
    seated = max(max(e.ns_pair, e.ew_pair) for e in short.encounters)  # the partnerships that sit down
    return replace(short, partners=short.partners[:seated])


def check_individual_size(tables: int, boards_per_round: int, rounds: int | None = None) -> None:
    """MovementError unless an individual of this size exists here and its boards can be numbered."""
    if not MIN_INDIVIDUAL_TABLES <= tables <= MAX_INDIVIDUAL_TABLES:
        raise MovementError("tables", f"an individual is for {MIN_INDIVIDUAL_TABLES} to {MAX_INDIVIDUAL_TABLES} "
                            f"tables ({4 * MIN_INDIVIDUAL_TABLES} to {4 * MAX_INDIVIDUAL_TABLES} players), not "
                            f"{tables}")
    if not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise MovementError("boards_per_round", f"a round has 1 to {MAX_BOARDS_PER_ROUND} boards, not "
                            f"{boards_per_round}")
    m = 4 * tables - 1
    if rounds is not None and not 1 <= rounds <= m:
        raise MovementError("rounds", f"an individual of {tables} tables has 1 to {m} rounds, not {rounds}")
    # 19 sets of at most 36 boards: always under MAX_BOARDS, so the boards need no check of their own
