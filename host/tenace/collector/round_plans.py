"""Round plans from the stored movement: pairs, boards, where each goes next, and a table's current round."""

from __future__ import annotations

import sqlite3

from tenace.collector.wire_results import section_letter
from tenace.store import encounters
from tenace.store.encounters import encounter_pairs, section_rounds
from tenace.store.event import partnerships
from tenace.store.fields import one_field
from tenace_wire.director_messages import MAX_BOARDS, RoundPlan

__all__ = ["current_round", "encounter_pairs", "round_complete", "round_plan", "rounds_of", "table_exists"]


def table_exists(conn: sqlite3.Connection, section: int, table: int) -> bool:
    """True when the movement seats pairs at this table in some round."""
    return encounters.table_exists(conn, section_letter(section), table)


def rounds_of(conn: sqlite3.Connection, section: int, table: int) -> list[int]:
    return encounters.table_rounds(conn, section_letter(section), table)


def current_round(conn: sqlite3.Connection, section: int, table: int) -> int:
    """The table's first round with a board not yet in; its last round when all are in; 0 for no such table."""
    name = section_letter(section)
    first_open = encounters.first_open_round(conn, name, table)
    if first_open is not None:
        return first_open
    last = encounters.last_round(conn, name, table)
    return last if last is not None else 0


def round_complete(conn: sqlite3.Connection, section: str, table: int, round_: int) -> bool:
    """True when every board of the table's round is in."""
    return encounters.open_board_count(conn, section, table, round_) == 0


def round_plan(conn: sqlite3.Connection, section: int, table: int, round_: int) -> RoundPlan | None:
    """The table's plan for a round (0: the current one), or None when the movement has no such round there.

    ns_next / ew_next / boards_next: the table where this round's NS pair, EW pair and boards are in the
    next round; all three 0 in the table's last round, which is how the terminal knows it is the last (an
    individual's: its players' next tables too, see _players).
    ns_next_ew / ew_next_ns: 1 when the NS pair sits East-West there, the EW pair North-South (a Howell).
    A pair absent in the round (tenace move) is 0: the other sits out.
    """
    name = section_letter(section)
    if round_ == 0:
        round_ = current_round(conn, section, table)
    pairs = encounter_pairs(conn, name, table, round_)
    if pairs is None or round_ > 127:
        return None
    boards = encounters.round_boards(conn, name, table, round_)
    if not 1 <= len(boards) <= MAX_BOARDS or max(pairs) > 1023:
        return None  # the wire cannot carry it; the terminal asks again and the director sees the log
    ns_next = ew_next = boards_next = ns_turns = ew_turns = 0
    following = round_ + 1
    if following in rounds_of(conn, section, table):
        single = one_field(conn, name)
        ns_next, ns_turns = _seat_next(conn, name, following, pairs[0], "NS", single)
        ew_next, ew_turns = _seat_next(conn, name, following, pairs[1], "EW", single)
        boards_next = _on_wire(encounters.table_of_board(conn, name, following, boards[0]))
    # A pair that is not there goes on the wire as pair 0: the terminal shows a sit-out and takes no result.
    ns_out, ew_out = encounters.sitting_out(conn, name, table, round_)
    return RoundPlan(section=section, table=table, round=round_, ns_pair=0 if ns_out else pairs[0],
                     ew_pair=0 if ew_out else pairs[1], boards=tuple(boards), ns_next=ns_next, ew_next=ew_next,
                     boards_next=boards_next, ns_next_ew=ns_turns, ew_next_ns=ew_turns,
                     players=_players(conn, name, round_, pairs),
                     done=tuple(encounters.boards_in(conn, name, table, round_)))


def _players(conn: sqlite3.Connection, section: str, round_: int,
             pairs: tuple[int, int]) -> tuple[tuple[int, int, int], ...]:
    """An individual's four players at the table, North, East, South, West, each with the table and seat (0-3, N E
    S W) they take next round ((0, 0) in the last); () for a pairs section. Its partnerships are numbered on the
    wire like pairs, but each one sits down once: the ns_next/ew_next of a partnership say nothing."""
    partners = partnerships(conn, section)
    if not partners:
        return ()
    after: dict[int, tuple[int, int]] = {}
    for r, table, ns, ew, _ in section_rounds(conn, section):
        if r == round_ + 1:
            (north, south), (east, west) = partners[ns], partners[ew]
            after.update({north: (table, 0), east: (table, 1), south: (table, 2), west: (table, 3)})
    (north, south), (east, west) = partners[pairs[0]], partners[pairs[1]]
    return tuple((p, *after.get(p, (0, 0))) for p in (north, east, south, west))


def _seat_next(conn: sqlite3.Connection, section: str, round_: int, pair: int, direction: str,
               single: bool) -> tuple[int, int]:
    """(table, 1 when it sits the other way) of a pair sitting `direction` now, in round `round_`.

    A Mitchell's pair keeps its direction (NS 3 and EW 3 are two pairs); a Howell's pair is one number,
    found in either column of the movement."""
    table = _on_wire(encounters.table_of_pair(conn, section, round_, direction, pair))
    if table or not single:
        return table, 0
    table = _on_wire(encounters.table_of_pair(conn, section, round_, "EW" if direction == "NS" else "NS", pair))
    return table, 1 if table else 0


def _on_wire(table: int | None) -> int:
    """A table number as a round plan carries it: 0 for none, or for one the wire cannot carry."""
    return table if table is not None and table <= 1023 else 0
