"""Hostile result messages (wrong boards, pairs, rounds, tables, tricks, contracts, huge and negative numbers,
text where numbers go): the store never crashes, stores none of them, and records each refusal with a reason."""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenace.movement import mitchell
from tenace.store import IncomingResult, Kind, Status, connect, create_event, ingest, sign_in
from tenace.store.validate import REASONS
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score
from tenace_wire.frame_types import MAX_SEQ, MAX_TERMINAL

MOVEMENT = mitchell(5, 3)
ENCOUNTERS = MOVEMENT.encounters
SEQUENCES = itertools.count(1)  # a fresh sequence number per example, so each refusal is a new frame

HOSTILE_NUMBERS = st.one_of(
    st.integers(max_value=-1), st.integers(min_value=MAX_SEQ + 1), st.just(2**64), st.just(-(2**63)),
    st.floats(allow_nan=True), st.text(max_size=12), st.none(), st.booleans(), st.binary(max_size=8),
    st.lists(st.integers(), max_size=3), st.just(10**100),
)
ANYTHING = st.one_of(HOSTILE_NUMBERS, st.integers(min_value=0, max_value=20), st.text(max_size=300),
                     st.sampled_from(["N", "4S", "3NT", "=", "+1", "SA", "A+", "normal", "A", "Pass", "passed_out"]))
KINDS = {k.value for k in Kind}
NOT_TEXT = HOSTILE_NUMBERS.filter(lambda v: v is not None and not isinstance(v, str))
NOT_A_CONTRACT = st.text(max_size=20).filter(lambda t: not _parses(t))


def _parses(text: str) -> bool:
    try:
        parse_contract(text)
    except ValueError:
        return False
    return True


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite"
    conn = create_event(path, name="Fuzz", sections={"A": MOVEMENT})
    for table in range(1, 6):
        sign_in(conn, table, "A", table)
    # Durability is the crash tests' subject; here an fsync per refused frame would only make the fuzzing slow.
    conn.execute("PRAGMA synchronous = OFF")
    return conn


@st.composite
def valid_results(draw: st.DrawFn) -> IncomingResult:
    e = draw(st.sampled_from(ENCOUNTERS))
    return IncomingResult(terminal=e.table, sequence=next(SEQUENCES), section="A", table=e.table, round=e.round,
                          board=draw(st.sampled_from(e.boards)), ns_pair=e.ns_pair, ew_pair=e.ew_pair,
                          contract=draw(st.sampled_from(["1C", "4S", "3NTX", "7NTXX", "2HX"])),
                          declarer=draw(st.sampled_from("NESW")), tricks=draw(st.integers(0, 13)))


def corruptions(base: IncomingResult) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """(expected reason, changes) that make `base` wrong in exactly one way."""
    e = MOVEMENT.at(base.table, base.round)
    other_tables = [t for t in range(1, 6) if t != base.table]
    return st.one_of(
        st.tuples(st.just("bad_identity"), st.fixed_dictionaries({"terminal": HOSTILE_NUMBERS})),
        st.tuples(st.just("bad_identity"), st.fixed_dictionaries({"sequence": HOSTILE_NUMBERS})),
        st.tuples(st.just("not_signed_in"), st.fixed_dictionaries({"terminal": st.integers(6, MAX_TERMINAL)})),
        st.tuples(st.just("wrong_table"), st.fixed_dictionaries({"terminal": st.sampled_from(other_tables)})),
        st.tuples(st.just("bad_section"), st.fixed_dictionaries({"section": st.one_of(
            HOSTILE_NUMBERS.filter(lambda v: not isinstance(v, str)), st.just(""), st.text(min_size=9),
            st.just("A\x00"), st.just("\ud800"))})),
        st.tuples(st.just("unknown_section"), st.fixed_dictionaries({"section": st.sampled_from(["B", "a", "Z9"])})),
        st.tuples(st.just("bad_table"), st.fixed_dictionaries({"table": HOSTILE_NUMBERS})),
        st.tuples(st.just("bad_round"), st.fixed_dictionaries({"round": st.one_of(HOSTILE_NUMBERS, st.just(0))})),
        st.tuples(st.just("no_such_round"), st.fixed_dictionaries({"round": st.integers(6, 999)})),
        st.tuples(st.just("bad_board"), st.fixed_dictionaries({"board": st.one_of(HOSTILE_NUMBERS, st.just(0))})),
        st.tuples(st.just("wrong_board"), st.fixed_dictionaries({"board": st.integers(1, 9999).filter(
            lambda b: b not in e.boards)})),
        st.tuples(st.just("bad_pair"), st.fixed_dictionaries({"ns_pair": HOSTILE_NUMBERS})),
        st.tuples(st.just("bad_pair"), st.fixed_dictionaries({"ew_pair": HOSTILE_NUMBERS})),
        st.tuples(st.just("wrong_pairs"), st.fixed_dictionaries({"ns_pair": st.integers(1, 9999).filter(
            lambda p: p != e.ns_pair)})),
        st.tuples(st.just("wrong_pairs"), st.fixed_dictionaries({"ew_pair": st.integers(1, 9999).filter(
            lambda p: p != e.ew_pair)})),
        st.tuples(st.just("bad_kind"), st.fixed_dictionaries({"kind": st.one_of(
            HOSTILE_NUMBERS.filter(lambda v: not (isinstance(v, str) and v in KINDS)),
            st.sampled_from(["weighted", "NORMAL", "forfeit", ""]))})),
        st.tuples(st.just("bad_contract"), st.fixed_dictionaries({"contract": st.one_of(
            NOT_A_CONTRACT, st.sampled_from(["8S", "0NT", "4Z", "4SXXX", "7NT" * 5]),
            HOSTILE_NUMBERS.filter(lambda v: v is not None and not isinstance(v, str)))})),
        st.tuples(st.just("bad_declarer"), st.fixed_dictionaries({"declarer": st.one_of(
            st.text(max_size=10).filter(lambda t: t.strip().upper() not in {"N", "E", "S", "W", "NORTH", "EAST",
                                                                              "SOUTH", "WEST"}),
            HOSTILE_NUMBERS.filter(lambda v: not isinstance(v, str)))})),
        st.tuples(st.just("bad_tricks"), st.fixed_dictionaries({"tricks": st.one_of(
            st.integers(max_value=-1), st.integers(min_value=14), st.sampled_from(["+9", "-14", "x", "", "13.0"]),
            HOSTILE_NUMBERS.filter(lambda v: v is not None and not isinstance(v, (int, str))))})),
        st.tuples(st.just("bad_lead"), st.fixed_dictionaries({"lead": st.one_of(
            st.sampled_from(["S1", "ZA", "SAA", "", "10", "♠♠"]), NOT_TEXT)})),
        st.tuples(st.just("score_mismatch"), st.fixed_dictionaries({"claimed_ns_score": st.integers().filter(
            lambda s: s != _score(base))})),
        st.tuples(st.just("inconsistent"), st.fixed_dictionaries({"ns_adjust": st.just("A+")})),
        st.tuples(st.just("bad_revision"), st.fixed_dictionaries({"revision": st.one_of(
            HOSTILE_NUMBERS, st.just(16))})),
        st.tuples(st.just("bad_text"), st.fixed_dictionaries({"who": st.one_of(
            st.text(min_size=81), st.just("\n"), NOT_TEXT)})),
    )


def _score(m: IncomingResult) -> int:
    assert isinstance(m.contract, str) and isinstance(m.declarer, str) and isinstance(m.tricks, int)
    return ns_score(parse_contract(m.contract), m.declarer, vulnerability(m.board), m.tricks)


def stored_count(conn: sqlite3.Connection) -> tuple[int, int]:
    return (conn.execute("SELECT count(*) FROM result").fetchone()[0],
            conn.execute("SELECT count(*) FROM frame WHERE outcome = 'stored'").fetchone()[0])


FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.filter_too_much,
                                                                         HealthCheck.too_slow])


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_a_result_wrong_in_any_one_way_is_refused_with_its_reason_and_recorded(
        db: sqlite3.Connection, data: st.DataObject) -> None:
    base = data.draw(valid_results())
    reason, changes = data.draw(corruptions(base))
    before_refusals = db.execute("SELECT count(*) FROM refusal").fetchone()[0]
    before = stored_count(db)
    outcome = ingest(db, replace(base, **changes))
    assert outcome.status is Status.REFUSED and not outcome.acknowledge
    assert outcome.reason == reason, (changes, outcome)
    assert outcome.detail
    assert stored_count(db) == before
    rows = db.execute("SELECT reason, detail, message FROM refusal WHERE id > 0 ORDER BY id DESC LIMIT 1").fetchall()
    if outcome.repeat:  # hypothesis replaying an example: the same frame, refused again, recorded once
        assert db.execute("SELECT count(*) FROM refusal").fetchone()[0] == before_refusals
    else:
        assert db.execute("SELECT count(*) FROM refusal").fetchone()[0] == before_refusals + 1
        assert tuple(rows[0])[:2] == (reason, outcome.detail) and rows[0][2]


@FUZZ
@given(fields=st.fixed_dictionaries({name: ANYTHING for name in (
    "terminal", "sequence", "section", "table", "round", "board", "ns_pair", "ew_pair", "kind", "contract",
    "declarer", "tricks", "lead", "ns_adjust", "ew_adjust", "revision", "who", "why", "claimed_ns_score", "raw")}))
def test_arbitrary_garbage_never_crashes_and_whatever_is_stored_is_valid(
        db: sqlite3.Connection, fields: dict[str, Any]) -> None:
    outcome = ingest(db, IncomingResult(**fields))
    if outcome.status is Status.REFUSED:
        assert outcome.reason in REASONS and outcome.detail
        return
    # Stored (or a replayed duplicate): it must be a real result of this movement, scored by the host.
    row = db.execute("SELECT table_no, round, board, ns_pair, ew_pair, kind, contract, declarer, tricks, ns_score "
                     "FROM result WHERE id = ?", (outcome.result_id,)).fetchone()
    e = MOVEMENT.at(row[0], row[1])
    assert row[2] in e.boards and (row[3], row[4]) == (e.ns_pair, e.ew_pair)
    if row[5] == Kind.NORMAL:
        assert row[9] == ns_score(parse_contract(row[6]), row[7], vulnerability(row[2]), row[8])


def test_the_fuzzing_left_a_readable_event(db: sqlite3.Connection) -> None:
    conn = connect(db.execute("PRAGMA database_list").fetchone()[2])
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    reasons = {r for (r,) in conn.execute("SELECT DISTINCT reason FROM refusal")}
    assert reasons <= set(REASONS)
