"""Movement changes in the event file (tenace move's store): absent, late and leaving pairs, a table closed early,
two pairs swapped; the sit-outs they make, what they refuse, the log, and the migration that brought them."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from tenace.collector import round_plans
from tenace.movement import mitchell
from tenace.movement.variants import with_phantom
from tenace.store import (
    EntryError,
    IncomingResult,
    LateChange,
    Status,
    add_penalty,
    add_section,
    connect,
    create_event,
    director_log,
    finish_session,
    ingest,
    missing_results,
    penalties,
    sign_in,
)
from tenace.store.encounters import slot_count
from tenace.store.movement_changes import (
    changed_sections,
    close_table,
    movement_version,
    set_presence,
    sit_outs,
    swap_pairs,
)
from tenace.store.schema import MIGRATIONS

MOVEMENT = mitchell(5, 3)  # 5 tables, 5 rounds, boards 1-15: NS pairs stay at their table, EW pairs move up
SIGN = {"who": "Ann (TD)", "why": "scripted"}


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    conn = create_event(tmp_path / "club.sqlite", name="Tuesday pairs", date="2024-05-14", sections={"A": MOVEMENT})
    for table in range(1, 6):
        sign_in(conn, 100 + table, "A", table)
    return conn


def where_ew(pair: int) -> dict[int, int]:
    """Round -> table of an EW pair, from the movement itself."""
    return {e.round: e.table for e in MOVEMENT.encounters if e.ew_pair == pair}


def result_at(conn: sqlite3.Connection, table: int, round_: int, seq: int = 1) -> IncomingResult:
    e = MOVEMENT.at(table, round_)
    ns, ew = conn.execute("SELECT ns_pair, ew_pair FROM encounter WHERE section = 'A' AND table_no = ? AND round = ?",
                          (table, round_)).fetchone()
    return IncomingResult(terminal=100 + table, sequence=seq, section="A", table=table, round=round_,
                          board=e.boards[0], ns_pair=ns, ew_pair=ew, contract="4S", declarer="N", tricks=10)


def test_a_pair_that_leaves_makes_its_opponents_sit_out_and_no_result_is_expected_there(
        db: sqlite3.Connection) -> None:
    before = slot_count(db, "A")
    change = set_presence(db, "A", ("EW", 2), 4, present=False, **SIGN)
    tables = where_ew(2)
    assert change.changed == ((tables[4], 4), (tables[5], 5))
    assert sit_outs(db, "A") == {(tables[4], 4): (False, True), (tables[5], 5): (False, True)}
    assert slot_count(db, "A") == before - 6  # two rounds of three boards
    assert not any(m.round >= 4 and m.table == tables[m.round] for m in missing_results(db, "A"))
    outcome = ingest(db, result_at(db, tables[4], 4))
    assert outcome.status is Status.REFUSED and outcome.reason == "sits_out"
    assert "EW 2 is absent" in outcome.detail
    entry = director_log(db)[-1]
    assert (entry.action, entry.who, entry.why) == ("move", "Ann (TD)", "scripted")
    assert entry.detail == "section A EW 2 absent from round 4"
    assert movement_version(db) == entry.id and changed_sections(db, 0) == {"A": 4}


def test_a_late_pair_sits_out_until_it_comes_and_its_table_starts_at_that_round(db: sqlite3.Connection) -> None:
    change = set_presence(db, "A", ("NS", 3), 3, present=True, before=True, **SIGN)
    assert change.changed == ((3, 1), (3, 2)) and change.first_round == 1
    assert "late: absent until round 3" in change.detail
    assert sit_outs(db, "A") == {(3, 1): (True, False), (3, 2): (True, False)}
    assert round_plans.current_round(db, 0, 3) == 3  # the table's terminal starts where the pair came
    plan = round_plans.round_plan(db, 0, 3, 1)
    assert plan is not None and (plan.ns_pair, plan.ew_pair) == (0, MOVEMENT.at(3, 1).ew_pair)
    # The pair comes back earlier after all: present from round 2, and table 3 plays round 2 again.
    set_presence(db, "A", ("NS", 3), 2, present=True, **SIGN)
    assert sit_outs(db, "A") == {(3, 1): (True, False)}


def test_a_closed_table_sits_out_for_both_pairs_and_the_plans_say_so(db: sqlite3.Connection) -> None:
    close_table(db, "A", 4, 4, **SIGN)
    assert sit_outs(db, "A") == {(4, 4): (True, True), (4, 5): (True, True)}
    plan = round_plans.round_plan(db, 0, 4, 5)
    assert plan is not None and (plan.ns_pair, plan.ew_pair) == (0, 0)
    assert plan.boards == MOVEMENT.at(4, 5).boards


def test_two_pairs_swap_places_from_a_round_on(db: sqlite3.Connection) -> None:
    swap_pairs(db, "A", ("NS", 1), ("NS", 2), 3, **SIGN)
    pairs = {(t, r): (ns, ew) for t, r, ns, ew in db.execute(
        "SELECT table_no, round, ns_pair, ew_pair FROM encounter WHERE section = 'A'")}
    assert [pairs[(1, r)][0] for r in range(1, 6)] == [1, 1, 2, 2, 2]
    assert [pairs[(2, r)][0] for r in range(1, 6)] == [2, 2, 1, 1, 1]
    assert all(pairs[(t, r)][1] == MOVEMENT.at(t, r).ew_pair for t, r in pairs)  # EW untouched
    assert changed_sections(db, 0) == {"A": 3}
    with pytest.raises(EntryError, match="different fields"):
        swap_pairs(db, "A", ("NS", 1), ("EW", 2), 3, **SIGN)
    with pytest.raises(EntryError, match="itself"):
        swap_pairs(db, "A", ("NS", 1), ("NS", 1), 3, **SIGN)


def test_a_change_over_results_already_in_is_refused_and_nothing_is_recorded(db: sqlite3.Connection) -> None:
    tables = where_ew(2)
    assert ingest(db, result_at(db, tables[4], 4)).status is Status.STORED
    logged = len(director_log(db))
    with pytest.raises(EntryError, match=rf"table {tables[4]} round 4 already has results; erase them first"):
        set_presence(db, "A", ("EW", 2), 3, present=False, **SIGN)
    assert len(director_log(db)) == logged and sit_outs(db, "A") == {}
    set_presence(db, "A", ("EW", 2), 5, present=False, **SIGN)  # a round later is fine
    with pytest.raises(EntryError, match="changes nothing"):
        set_presence(db, "A", ("EW", 2), 5, present=False, **SIGN)


@pytest.mark.parametrize(("call", "message"), [
    (lambda c: set_presence(c, "B", ("NS", 1), 2, present=False, **SIGN), "no section 'B'"),
    (lambda c: set_presence(c, "A", ("NS", 9), 2, present=False, **SIGN), "no pair NS 9"),
    (lambda c: set_presence(c, "A", ("", 1), 2, present=False, **SIGN), "NS 1 or EW 1"),
    (lambda c: set_presence(c, "A", ("NS", 1), 6, present=False, **SIGN), "rounds 1 to 5, not 6"),
    (lambda c: set_presence(c, "A", ("NS", 1), 3, 2, present=False, **SIGN), "last round must be 3 to 5"),
    (lambda c: close_table(c, "A", 9, 2, **SIGN), "no table 9"),
    (lambda c: close_table(c, "A", 2, 0, **SIGN), "not 0"),
    (lambda c: set_presence(c, "A", ("NS", 1), 2, present=False, who="", why="x"), "who"),
    (lambda c: set_presence(c, "A", ("NS", 1), 2, present=False, who="x", why=" "), "why"),
])
def test_wrong_changes_say_what_is_wrong(db: sqlite3.Connection, call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EntryError, match=message):
        call(db)
    assert director_log(db) == []


def test_after_the_correction_period_a_change_needs_force(db: sqlite3.Connection) -> None:
    published = datetime(2024, 5, 14, 22, 0, tzinfo=UTC)
    finish_session(db, who="Ann", at=published, force=True)  # forced: no result is in yet
    later = published + timedelta(hours=1)
    with pytest.raises(LateChange):
        close_table(db, "A", 2, 5, at=later, **SIGN)
    close_table(db, "A", 2, 5, at=later, force=True, **SIGN)
    assert director_log(db)[-1].forced


def test_a_half_table_movement_has_its_phantom_absent_from_the_start(tmp_path: Path) -> None:
    movement = with_phantom(mitchell(5, 3), ("NS", 5))
    conn = create_event(tmp_path / "half.sqlite", name="Half", date="2024-05-14", sections={"A": movement})
    assert sit_outs(conn, "A") == {(5, r): (True, False) for r in range(1, 6)}
    assert director_log(conn)[0].detail == "section A NS 5 absent all session (the movement's phantom pair)"
    # The late pair takes the phantom's place from round 2.
    set_presence(conn, "A", ("NS", 5), 2, present=True, **SIGN)
    assert sit_outs(conn, "A") == {(5, 1): (True, False)}


def test_the_migration_keeps_the_directors_log_and_its_penalties(tmp_path: Path) -> None:
    # A file made by the Tenace before movement changes (schema 7), with a penalty in the director's log.
    path = tmp_path / "old.sqlite"
    old = connect(path, create=True, migrations=tuple(m for m in MIGRATIONS if m[0] <= 7))
    old.execute("INSERT INTO event (id, name, date, scoring, created)"
                " VALUES (1, 'Old', '2024-05-14', 'matchpoints', '2024-05-14T18:00:00+00:00')")
    add_section(old, "A", MOVEMENT)
    add_penalty(old, "A", 2, "NS", Fraction(1), "MP", who="Ann", why="late")
    old.close()
    conn = connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == max(v for v, _ in MIGRATIONS)
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert [e.action for e in director_log(conn)] == ["penalty"]
    assert [(p.pair, p.direction, p.why) for p in penalties(conn)] == [(2, "NS", "late")]
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM director_action")
    close_table(conn, "A", 1, 5, **SIGN)
    assert director_log(conn)[-1].action == "move"
