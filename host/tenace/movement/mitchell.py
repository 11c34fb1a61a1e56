"""Mitchell movements: NS pairs sit still, EW pairs move up a table and boards down a table each round."""

from __future__ import annotations

from tenace.movement.model import (
    MAX_BOARDS,
    MAX_BOARDS_PER_ROUND,
    MAX_ROUNDS,
    MAX_TABLES,
    MIN_TABLES,
    Encounter,
    Movement,
    MovementError,
)


def mitchell(tables: int, boards_per_round: int, rounds: int | None = None) -> Movement:
    """A plain Mitchell: NS sit still at their table number, EW move up one table, boards down one.

    With an even number of tables the EW pairs skip one table after half the rounds (a skip
    Mitchell), so that no EW pair meets a board set twice; that allows tables - 1 rounds.

    With `rounds` given, the boards are duplicated instead (one copy per table, as clubs with a
    dealing machine do): every table plays set r in round r, so a session of `rounds` rounds of
    `boards_per_round` boards has every board played at every table, whatever the number of tables.
    """
    check_size(tables, boards_per_round, rounds)
    if rounds is not None:
        return _duplicated_mitchell(tables, boards_per_round, rounds)
    even = tables % 2 == 0
    rounds = tables - 1 if even else tables
    encounters = []
    for r in range(rounds):
        skip = 1 if even and r >= tables // 2 else 0
        for t in range(tables):
            ew = (t - r - skip) % tables + 1
            board_set = (t + r) % tables
            first = board_set * boards_per_round + 1
            boards = tuple(range(first, first + boards_per_round))
            encounters.append(Encounter(t + 1, r + 1, t + 1, ew, boards))
    plural = "s" if rounds > 1 else ""
    name = f"{'skip ' if even else ''}Mitchell, {tables} tables, {rounds} round{plural} of {boards_per_round} boards"
    return Movement(name, tables, rounds, boards_per_round, tuple(encounters))


def check_size(tables: int, boards_per_round: int, rounds: int | None = None) -> None:
    """MovementError unless a Mitchell of this size (`rounds` None: a plain one) can be played and numbered."""
    if tables < MIN_TABLES:
        raise MovementError("tables", f"a Mitchell needs at least {MIN_TABLES} tables, not {tables}")
    if tables > MAX_TABLES:
        raise MovementError("tables", f"a Mitchell has at most {MAX_TABLES} tables, not {tables}")
    if boards_per_round < 1:
        raise MovementError("boards_per_round", f"each round needs at least 1 board, not {boards_per_round}")
    if boards_per_round > MAX_BOARDS_PER_ROUND:
        raise MovementError("boards_per_round",
                            f"a round has at most {MAX_BOARDS_PER_ROUND} boards, not {boards_per_round}")
    if rounds is None:  # a plain Mitchell: one round per table (one fewer when even), one board set per table
        if (tables - 1 if tables % 2 == 0 else tables) > MAX_ROUNDS:
            raise MovementError("tables", f"a plain Mitchell of {tables} tables has more than the {MAX_ROUNDS} "
                                f"rounds a terminal can number: at most {MAX_ROUNDS + 1} tables")
        sets = tables
    else:
        if not 1 <= rounds <= min(tables, MAX_ROUNDS):
            raise MovementError("rounds", f"a Mitchell of {tables} tables has 1 to {min(tables, MAX_ROUNDS)} "
                                f"rounds, not {rounds}")
        sets = rounds
    if sets * boards_per_round > MAX_BOARDS:
        raise MovementError("boards_per_round", f"{sets} sets of {boards_per_round} boards make "
                            f"{sets * boards_per_round} boards; a terminal numbers boards up to {MAX_BOARDS}")


def _duplicated_mitchell(tables: int, boards_per_round: int, rounds: int) -> Movement:
    encounters = []
    for r in range(rounds):
        first = r * boards_per_round + 1
        boards = tuple(range(first, first + boards_per_round))
        for t in range(tables):
            encounters.append(Encounter(t + 1, r + 1, t + 1, (t - r) % tables + 1, boards))
    name = f"Mitchell with duplicated boards, {tables} tables, {rounds} rounds of {boards_per_round} boards"
    return Movement(name, tables, rounds, boards_per_round, tuple(encounters), copies=tables)


def skip_mitchell(tables: int, boards_per_round: int) -> Movement:
    """The skip Mitchell of an even number of tables: `mitchell`'s own for an even count, refused for an odd one."""
    if tables % 2:
        raise MovementError("tables", f"a skip Mitchell is for an even number of tables; {tables} tables play "
                            "a plain Mitchell")
    return mitchell(tables, boards_per_round)


def relay_mitchell(tables: int, boards_per_round: int) -> Movement:
    """A Mitchell of an even number of tables with a relay and a bye stand, played for `tables` rounds.

    Tables 1 and N share one set (the relay) and a bye stand between tables N/2 and N/2 + 1 holds one set
    that nobody plays that round. With the relay counted once and the bye stand counted, the boards go round
    N places, so no EW pair (moving up one table each round) meets a set twice and every EW pair meets
    every NS pair once: every pair plays every board, which a skip Mitchell does not manage.
    """
    if tables % 2:
        raise MovementError("tables", f"a relay and bye stand Mitchell is for an even number of tables; {tables} "
                            "tables play a plain Mitchell")
    check_size(tables, boards_per_round)
    if tables > MAX_ROUNDS:
        raise MovementError("tables", f"a relay Mitchell of {tables} tables has more than the {MAX_ROUNDS} rounds "
                            f"a terminal can number: at most {MAX_ROUNDS - 1} tables")
    half = tables // 2
    # The N places the boards go round, in the order boards move down: the relay (tables 1 and N), tables 2
    # to N/2, the bye stand (None), tables N/2 + 1 to N - 1; a set moves to the place before its own.
    places: list[tuple[int, ...] | None] = [(1, tables), *((t,) for t in range(2, half + 1)), None,
                                            *((t,) for t in range(half + 1, tables))]
    encounters = []
    for r in range(tables):
        for place, at in enumerate(places):
            board_set = (place + r) % tables
            first = board_set * boards_per_round + 1
            boards = tuple(range(first, first + boards_per_round))
            for t in at or ():
                encounters.append(Encounter(t, r + 1, t, (t - 1 - r) % tables + 1, boards))
    encounters.sort(key=lambda e: (e.round, e.table))
    name = (f"Mitchell with a relay and a bye stand, {tables} tables, {tables} rounds of {boards_per_round} "
            "boards")
    return Movement(name, tables, tables, boards_per_round, tuple(encounters), relays=((1, tables),))


def appendix_mitchell(tables: int, boards_per_round: int) -> Movement:
    """The 1½-table appendix Mitchell: `tables` tables and one pair more (EW tables + 1), played on a base of
    tables - 1 tables.

    The boards go round the base as in its own Mitchell (down one table; a skip after half the rounds when the
    base is even) and never visit the appendix table, N, which sits beside table 1 and shares its set. The EW
    pairs move up one table as in a plain Mitchell of N + 1 tables: through tables 1 to N and a bye stand after
    table N, where the pair that is there sits out (the extra pair, EW N + 1, starts there). With one place more
    than the base has sets, no EW pair meets a set twice, and the base's N - 1 rounds have no revenge round.
    A club with N tables and a half plays it where a Mitchell of N + 1 would take too many boards.
    """
    if tables < 4:
        raise MovementError("tables", f"an appendix Mitchell is a base of at least 3 tables and its appendix table: "
                            f"4 tables or more, not {tables}")
    base = tables - 1
    check_size(base, boards_per_round)
    if boards_per_round < 2:  # tables 1 and N play one set in turn: each needs a board of it at the start
        raise MovementError("boards_per_round", f"tables 1 and {tables} share a set in an appendix Mitchell: it "
                            "needs at least 2 boards a round")
    places = tables + 1  # the tables, then the bye stand
    skip_after = base // 2 if base % 2 == 0 else base
    encounters = []
    for r in range(base):
        skip = 1 if r >= skip_after else 0
        for t in range(tables):
            board_set = ((t if t < base else 0) + r) % base  # the appendix table plays table 1's set
            first = board_set * boards_per_round + 1
            encounters.append(Encounter(t + 1, r + 1, t + 1, (t - r - skip) % places + 1,
                                        tuple(range(first, first + boards_per_round))))
    name = (f"Appendix Mitchell, {tables} tables and a half (EW {tables + 1}), on a base of {base}"
            f"{' (skip)' if base % 2 == 0 else ''} with table {tables} sharing table 1's boards, {base} rounds of "
            f"{boards_per_round} boards")
    return Movement(name, tables, base, boards_per_round, tuple(encounters), relays=((1, tables),))
