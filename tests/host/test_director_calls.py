"""The tables' calls of the director and the round clock in the event file (tenace.store.director_calls)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tenace.movement import mitchell
from tenace.store.director_calls import (
    acknowledge_call,
    calls,
    calls_to_tell,
    clock_version,
    latest_clocks,
    mark_told,
    record_call,
    set_clock,
)
from tenace.store.event import create_event


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    return create_event(tmp_path / "club.sqlite", name="Tuesday pairs", sections={"A": mitchell(5, 3, 5)})


def test_a_call_is_stored_once_answered_once_and_told_once(db: sqlite3.Connection) -> None:
    assert record_call(db, 103, 5, "A", 3, 2, 1, None)
    assert not record_call(db, 103, 5, "A", 3, 2, 1, None)  # the same frame again (a host restarted): one call
    assert record_call(db, 104, 9, "A", 4, 2, 1, 7)
    (four, three) = calls(db)  # newest first
    assert (four.table, four.round, four.call, four.left, four.acknowledged) == (4, 2, 1, 7, None)
    assert (three.table, three.left, three.terminal) == (3, None, 103)
    assert calls_to_tell(db) == []
    assert acknowledge_call(db, three.id, "TD Ana") and not acknowledge_call(db, three.id, "TD Bo")
    assert not acknowledge_call(db, 99, "TD Ana")
    assert [c.table for c in calls(db, open_only=True)] == [4]
    (told,) = calls_to_tell(db)
    assert told.id == three.id and told.acknowledged is not None and told.who == "TD Ana"
    mark_told(db, told.id)
    assert calls_to_tell(db) == []


def test_the_latest_clock_of_each_section_counts(db: sqlite3.Connection) -> None:
    assert clock_version(db) == 0 and latest_clocks(db) == {}
    start = datetime(2026, 5, 14, 19, 0, tzinfo=UTC)
    first = set_clock(db, "A", 1, 20, start)
    assert first.seconds_left(start + timedelta(minutes=5)) == 15 * 60
    assert first.seconds_left(start + timedelta(minutes=25)) == 0  # time is up: move
    again = set_clock(db, "A", 2, 18, start + timedelta(minutes=21))
    assert latest_clocks(db) == {"A": again} and clock_version(db) == again.id > first.id
    stopped = set_clock(db, "A", 2, 0)
    assert stopped.seconds_left() == 0 and latest_clocks(db)["A"].minutes == 0
    with pytest.raises(ValueError, match="round 1-127"):
        set_clock(db, "A", 0, 20)
    with pytest.raises(ValueError, match="0-255 minutes"):
        set_clock(db, "A", 1, 256)
