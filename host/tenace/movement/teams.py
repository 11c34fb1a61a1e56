"""The two-table team match: each team's pairs sit NS at one table and EW at the other, on the same boards."""

from __future__ import annotations

from tenace.movement.model import MAX_BOARDS, MAX_BOARDS_PER_ROUND, MAX_ROUNDS, Encounter, Movement, MovementError

# Pair numbers, one field: team A's pairs 1 (NS at table 1) and 2 (EW at table 2), team B's 3 (NS at table 2)
# and 4 (EW at table 1); tenace.movement.model.pair_label names them A1, A2, B1, B2.
TEAM_A_NS, TEAM_A_EW, TEAM_B_NS, TEAM_B_EW = 1, 2, 3, 4


def teams(boards_per_round: int, rounds: int = 1, tables: int = 2) -> Movement:
    """A match between teams A and B: A's NS pair meets B's EW pair at table 1, B's NS pair meets A's EW pair
    at table 2, both on the same set each round (the two tables exchange its boards within the round), so
    each board is played once each way round and the teams compare on it. Pairs do not move."""
    if tables != 2:
        raise MovementError("tables", f"a team match is played at 2 tables, not {tables}")
    if not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise MovementError("boards_per_round", f"a round has 1 to {MAX_BOARDS_PER_ROUND} boards, not "
                            f"{boards_per_round}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise MovementError("rounds", f"a match has 1 to {MAX_ROUNDS} rounds, not {rounds}")
    if rounds * boards_per_round > MAX_BOARDS:
        raise MovementError("boards_per_round", f"{rounds} rounds of {boards_per_round} boards make "
                            f"{rounds * boards_per_round} boards; a terminal numbers boards up to {MAX_BOARDS}")
    encounters = []
    for r in range(rounds):
        first = r * boards_per_round + 1
        boards = tuple(range(first, first + boards_per_round))
        encounters.append(Encounter(1, r + 1, TEAM_A_NS, TEAM_B_EW, boards))
        encounters.append(Encounter(2, r + 1, TEAM_B_NS, TEAM_A_EW, boards))
    name = f"Team match, 2 tables, {rounds} round{'s' if rounds > 1 else ''} of {boards_per_round} boards"
    return Movement(name, 2, rounds, boards_per_round, tuple(encounters), kind="teams", relays=((1, 2),))
