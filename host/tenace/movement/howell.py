"""Howell movements for 3 to 10 tables: every pair meets every other pair, changing direction as it goes."""

from __future__ import annotations

from functools import cache

from tenace.movement.model import MAX_BOARDS, MAX_BOARDS_PER_ROUND, Encounter, Movement, MovementError
from tenace.movement.variants import shortened

MIN_HOWELL_TABLES = 3
MAX_HOWELL_TABLES = 10

# No 3-table Howell of 5 sets has every pair play every set once with the three tables on three different
# sets every round (that would be a Room square of side 5, and there is none), so one round has all three
# tables share one set. Found by trying the six 1-factorisations of the six pairs against the circle
# schedule; the shared round is put last so that a shortened 3-table Howell has none. Per round, per table:
# (NS pair, EW pair, set), sets numbered from 0.
THREE_TABLES = (
    ((6, 1, 0), (2, 5, 1), (3, 4, 2)),
    ((6, 2, 2), (3, 1, 1), (4, 5, 3)),
    ((6, 3, 3), (4, 2, 0), (5, 1, 2)),
    ((6, 4, 1), (5, 3, 0), (1, 2, 3)),
    ((6, 5, 4), (1, 4, 4), (2, 3, 4)),
)

# The tables whose two pairs swap directions (every round) against the starter's order: the choice that spreads
# the comparisons most evenly, found by trying every choice against this construction (see the tests). 4, 6
# and 8 tables are then balanced; the others are within 2 boards (4 at 10 tables) of it.
TURNED: dict[int, frozenset[int]] = {5: frozenset({4}), 6: frozenset({6}), 8: frozenset({2, 3, 4, 6, 7, 8}),
                                     9: frozenset({5, 6}), 10: frozenset({8, 10})}


def howell(tables: int, boards_per_round: int, rounds: int | None = None) -> Movement:
    """A complete Howell of `tables` tables: 2n pairs, 2n - 1 rounds, 2n - 1 board sets; every pair meets every
    other pair once and plays every board once. With `rounds` fewer than 2n - 1, its first rounds (shortened).

    Built the standard cyclic way (a starter and an adder, i.e. a cyclic Room square): pair 2n sits North-South
    at table 1 all evening; the other 2n - 1 pairs step round a circle of positions, a pair at position x going
    to x + 1 each round, and meet as the starter pairs the positions; each table's board set goes up by one each
    round, the sets no table plays that round resting on relay stands. For 3 tables, see THREE_TABLES.
    """
    check_howell_size(tables, boards_per_round, rounds)
    m = 2 * tables - 1
    plan = THREE_TABLES if tables == 3 else _cyclic_plan(tables)
    encounters = []
    for r, row in enumerate(plan):
        for t, (ns, ew, board_set) in enumerate(row):
            first = board_set * boards_per_round + 1
            encounters.append(Encounter(t + 1, r + 1, ns, ew, tuple(range(first, first + boards_per_round))))
    relays = ((1, 2, 3),) if tables == 3 else ()
    name = f"Howell, {tables} tables, {m} rounds of {boards_per_round} boards"
    movement = Movement(name, tables, m, boards_per_round, tuple(encounters), kind="howell", relays=relays)
    return movement if rounds is None else shortened(movement, rounds)


def check_howell_size(tables: int, boards_per_round: int, rounds: int | None = None) -> None:
    """MovementError unless a Howell of this size exists here and its boards can be numbered."""
    if not MIN_HOWELL_TABLES <= tables <= MAX_HOWELL_TABLES:
        raise MovementError("tables", f"a Howell is for {MIN_HOWELL_TABLES} to {MAX_HOWELL_TABLES} tables, not "
                            f"{tables}" + (" (play a Mitchell)" if tables > MAX_HOWELL_TABLES else ""))
    if not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise MovementError("boards_per_round", f"a round has 1 to {MAX_BOARDS_PER_ROUND} boards, not "
                            f"{boards_per_round}")
    if tables == 3 and boards_per_round < 3 and rounds in (None, 5):  # its last round: three tables on one set
        raise MovementError("boards_per_round", "a 3-table Howell needs at least 3 boards a round (in its last "
                            f"round the three tables share one set), not {boards_per_round}")
    m = 2 * tables - 1
    if rounds is not None and not 1 <= rounds <= m:
        raise MovementError("rounds", f"a Howell of {tables} tables has 1 to {m} rounds, not {rounds}")
    if m * boards_per_round > MAX_BOARDS:
        raise MovementError("boards_per_round", f"{m} sets of {boards_per_round} boards make "
                            f"{m * boards_per_round} boards; a terminal numbers boards up to {MAX_BOARDS}")


def _cyclic_plan(tables: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per round, per table: (NS pair, EW pair, set) from the starter and adder of `_starter_adder`."""
    m = 2 * tables - 1
    pairs_and_adders = _starter_adder(m)
    turned = TURNED.get(tables, frozenset())
    plan = []
    for r in range(m):
        row = [(2 * tables, r + 1, r)]  # the stationary pair meets the pair at position 0 (position r moved on)
        for table, (a, b, c) in enumerate(pairs_and_adders, start=2):
            ns, ew = (b, a) if table in turned else (a, b)
            row.append(((ns + r) % m + 1, (ew + r) % m + 1, (r + c) % m))
        plan.append(tuple(row))
    return tuple(plan)


@cache
def _starter_adder(m: int) -> tuple[tuple[int, int, int], ...]:
    """A starter of Z_m (the positions 1..m-1 paired so that every difference ±d occurs once) with an adder:
    a distinct non-zero shift c for each pair such that the pairs shifted back by c, with {0}, cover Z_m.

    The positions a + r and b + r meet in round r on set r + c. The pair at position x plays set x - (a - c) when
    x - r is a, so it plays m different sets in its m rounds exactly when the a - c and b - c (and 0 for the
    stationary pair's opponent) are all different; different shifts put the tables on different sets in a
    round. A depth-first search, smallest position first: under half a second for m up to 19.
    """
    def search(unpaired: frozenset[int], differences: frozenset[int], shifts: frozenset[int],
               covered: frozenset[int]) -> list[tuple[int, int, int]] | None:
        if not unpaired:
            return []
        a = min(unpaired)
        for b in sorted(unpaired - {a}):
            d = min((b - a) % m, (a - b) % m)
            if d in differences:
                continue
            for c in range(1, m):
                if c in shifts or (a - c) % m in covered or (b - c) % m in covered:
                    continue
                rest = search(unpaired - {a, b}, differences | {d}, shifts | {c},
                              covered | {(a - c) % m, (b - c) % m})
                if rest is not None:
                    return [(a, b, c), *rest]
        return None

    found = search(frozenset(range(1, m)), frozenset(), frozenset({0}), frozenset({0}))
    if found is None:  # only m = 3 and 5 have none, and those are not built here
        raise AssertionError(f"no starter and adder for Z_{m}")
    return tuple(found)
