"""The director's actions on an open event file, each signed and logged, each answering its director's log line."""

from __future__ import annotations

import sqlite3

from tenace.director.errors import DirectorInputError
from tenace.director.inputs import (
    Adjustment,
    Artificial,
    Correction,
    Erasure,
    Finish,
    Keep,
    MovementChange,
    Penalty,
    Place,
    Resolution,
    Seating,
    Signature,
)
from tenace.director.pairs import parse_pair
from tenace.store import (
    Action,
    FinishCheck,
    Publication,
    Slot,
    add_penalty,
    choose_version,
    director_log,
    enter_result,
    event_info,
    find_slot,
    finish_check,
    finish_session,
    sign_in,
)
from tenace.store.director import forced_note
from tenace.store.movement_changes import MovementChange as Changed
from tenace.store.movement_changes import close_table, set_presence, swap_pairs
from tenace.store.versions import slot_state


def logged(conn: sqlite3.Connection) -> str:
    """The director's log's latest line, as the action's answer: what was recorded, by whom, why."""
    entry = director_log(conn)[-1]
    forced = f" ({forced_note(entry.action)}: logged)" if entry.forced else ""
    return f"{entry.action}: {entry.detail}{forced}\n  by {entry.who}: {entry.why}"


def slot(conn: sqlite3.Connection, place: Place) -> Slot:
    """The result's slot; DirectorInputError when the table or the board is missing, EntryError (the store's) when
    the event has no such slot."""
    missing = [f for f, v in (("table", place.table), ("board", place.board)) if v is None]
    if missing:
        raise DirectorInputError(missing[0], "say where the result is: " + " and ".join(f"{{{f}}}" for f in missing))
    assert place.table is not None and place.board is not None
    return find_slot(conn, place.section, place.table, place.board, place.round)


def _kind(conn: sqlite3.Connection, section: str) -> str:
    return next((s.kind for s in event_info(conn).sections if s.name == section), "mitchell")


def adjust(conn: sqlite3.Connection, adjustment: Adjustment, sign: Signature) -> str:
    """An adjusted score in place of the table's result (Law 12C)."""
    where = slot(conn, adjustment.place)
    score = adjustment.score
    if _kind(conn, where.section) == "teams":
        # A team match's adjusted scores are A+/A/A- (Law 12C2: +3/0/-3 IMPs) or assigned and weighted ones (12C1).
        if isinstance(score, Artificial) and not {score.ns, score.ew} <= {"A+", "A", "A-"}:
            raise DirectorInputError("ns", "section {teams} is a team event: its artificial scores are A+, A or A- "
                                     "(+3, 0, -3 IMPs), not percentages", teams=where.section)
        if not isinstance(score, Artificial) and score.ew_weights is not None:
            raise DirectorInputError("ew_assigned", "section {teams} is a team event: a split score ({ew_assigned}, "
                                     "{ew_weighted}) is not scored in a team match yet; give one {assigned} or "
                                     "{weighted} score for both sides", teams=where.section)
    if isinstance(score, Artificial):
        enter_result(conn, *where, who=sign.who, why=sign.why, action=Action.ADJUST, force=sign.force,
                     kind="artificial", ns_adjust=score.ns, ew_adjust=score.ew)
    else:
        enter_result(conn, *where, who=sign.who, why=sign.why, action=Action.ADJUST, force=sign.force,
                     kind="weighted", weights=score.weights, ew_weights=score.ew_weights)
    return logged(conn)


def penalise(conn: sqlite3.Connection, penalty: Penalty, sign: Signature) -> str:
    """A Law 90 procedural penalty, taken off one pair's total."""
    pair = parse_pair(penalty.pair, [s.name for s in event_info(conn).sections], penalty.section)
    if _kind(conn, pair.section) == "teams":
        raise DirectorInputError("penalty", "section {teams} is a team event: a Law 90 penalty there is in IMPs or "
                                 "VPs, which tenace does not score yet (a percentage of a top or matchpoints are for "
                                 "pairs)", teams=pair.section)
    add_penalty(conn, pair.section, pair.number, pair.field or None, penalty.amount, penalty.unit,
                who=sign.who, why=sign.why, board=penalty.board, force=sign.force)
    return logged(conn)


def correct(conn: sqlite3.Connection, correction: Correction, sign: Signature) -> str:
    """The right result in place of the table's (Law 79C)."""
    where = slot(conn, correction.place)
    r = correction.result
    enter_result(conn, *where, who=sign.who, why=sign.why, action=Action.CORRECT, force=sign.force, kind=r.kind,
                 contract=r.contract, declarer=r.declarer, tricks=r.tricks, lead=r.lead)
    return logged(conn)


def erase(conn: sqlite3.Connection, erasure: Erasure, sign: Signature) -> str:
    """The result withdrawn: the board is missing again until one is entered."""
    where = slot(conn, erasure.place)
    enter_result(conn, *where, who=sign.who, why=sign.why, kind="erased", action=Action.ERASE, force=sign.force)
    return logged(conn)


def resolve(conn: sqlite3.Connection, resolution: Resolution, sign: Signature) -> str:
    """A conflict settled: one of its results kept, or the right one entered."""
    settled = resolution.settled
    if isinstance(settled, Keep):
        choose_version(conn, kept(conn, resolution.place, settled), who=sign.who, why=sign.why,
                       action=Action.RESOLVE, force=sign.force)
    else:
        where = slot(conn, resolution.place)
        enter_result(conn, *where, who=sign.who, why=sign.why, action=Action.RESOLVE, force=sign.force,
                     kind=settled.kind, contract=settled.contract, declarer=settled.declarer, tricks=settled.tricks,
                     lead=settled.lead)
    return logged(conn)


def kept(conn: sqlite3.Connection, place: Place, keep: Keep) -> int:
    """The result id `keep` names: an id as such, or a version (v2) of the place's slot."""
    if keep.id is not None and place.table is None and place.board is None:
        return keep.id
    state = slot_state(conn, slot(conn, place))
    found = [v.id for v in state.versions if (v.version == keep.version if keep.id is None else v.id == keep.id)]
    if not found:
        have = ", ".join(f"v{v.version} (id {v.id})" for v in state.versions) or "none"
        raise DirectorInputError("keep", "{keep} {kept}: no such result at table {table_no} board {board_no} "
                                 "(there: {have})", kept=keep.text, table_no=str(place.table),
                                 board_no=str(place.board), have=have)
    return found[0]


def move(conn: sqlite3.Connection, change: MovementChange, sign: Signature) -> str:
    """A change of the movement from a round on; the log line and the table rounds changed."""
    sections = [s.name for s in event_info(conn).sections]
    made: Changed
    if change.kind == "close":
        assert change.table is not None
        made = close_table(conn, change.section, change.table, change.first_round, who=sign.who,
                           why=sign.why, force=sign.force)
    elif change.kind == "swap":
        one = parse_pair(change.pair or "", sections, change.section, field="pair")
        two = parse_pair(change.other or "", sections, change.section, field="other")
        if one.section != two.section:
            raise DirectorInputError("other", "{swap} {one} {two}: the pairs are in different sections",
                                     one=repr(change.pair), two=repr(change.other))
        made = swap_pairs(conn, one.section, (one.field, one.number), (two.field, two.number), change.first_round,
                          who=sign.who, why=sign.why, force=sign.force)
    else:
        pair = parse_pair(change.pair or "", sections, change.section)
        made = set_presence(conn, pair.section, (pair.field, pair.number), change.first_round, change.last_round,
                            present=change.kind in ("late", "present"), before=change.kind == "late",
                            who=sign.who, why=sign.why, force=sign.force)
    sits = ", ".join(f"table {t} round {r}" for t, r in made.changed)
    return f"{logged(conn)}\n  changed: {sits}"


def seat(conn: sqlite3.Connection, seating: Seating) -> str:
    """A terminal seated at a table (a spare replacing a broken one), kept in the sign-in history with who did it;
    EntryError (the store's) when the event has no such table."""
    s = seating
    sign_in(conn, s.terminal, s.section, s.table, who=s.who)
    return (f"terminal {s.terminal} is at section {s.section} table {s.table}: it is let in at once when it signs in "
            f"there")


def finish(conn: sqlite3.Connection, finishing: Finish, sign: Signature) -> tuple[str, Publication]:
    """The session closed and its results published: the log line, and the publication (when the period ends).
    Refused (EntryError) while conflicts stand or when already finished, unless forced."""
    published = finish_session(conn, who=sign.who, why=sign.why, minutes=finishing.minutes, force=sign.force)
    return logged(conn), published


def finish_warnings(conn: sqlite3.Connection) -> FinishCheck:
    """What finishing now would be refused for without force (already finished, conflicts, missing or damaged
    results): the console shows it before the director confirms."""
    return finish_check(conn)
