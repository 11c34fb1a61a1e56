"""Issue 37: what a table is told of a result it confirmed (saved, or "the director will decide") is what the store
counts, over random sequences of terminal entries (first entries, corrections and erasures from the terminal's
director menu, a terminal and the phone spare at one table) and the director's actions at the laptop (erase, correct,
adjust, resolve, move), the frames on a channel that loses some both ways.

After each entry: an entry answered STORED (or ALREADY_STORED) is the result that counts in its slot; one answered
STORED_CONFLICT counts for nothing until the director decides, and is never the first entry for a board erased
(it is missing until one is entered); a refused one is not stored. At the end, the tally
`tenace serve` prints counts the slots whose last word (to the table or from the director) was a result that counts,
and the conflicts apart.
"""

from __future__ import annotations

import random
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tenace.collector import Collector, link_key
from tenace.collector.service import progress
from tenace.movement import mitchell
from tenace.simulation.loopback import Channel, Loopback, SimulatedTerminal
from tenace.store import (
    EntryError,
    IncomingResult,
    choose_version,
    create_event,
    enter_result,
    ingest,
    sign_in,
    states,
)
from tenace.store.director import Action
from tenace.store.encounters import encounter_pairs
from tenace.store.movement_changes import swap_pairs
from tenace.store.queries import tally
from tenace.store.versions import Slot
from tenace.web.app import create_app
from tenace_wire.control import ALREADY_STORED, STORED, STORED_CONFLICT
from tenace_wire.table_messages import PASSED_OUT, PLAYED, Erase, Result

MOVEMENT = mitchell(3, 2)  # 3 tables, 3 rounds of 2 boards
# The terminals: 101 at table 1 and 102, the phone spare, there too; 103 at table 2.
TABLE_OF = {101: 1, 102: 1, 103: 2}
TERMINALS = tuple(TABLE_OF)
# The slots the steps act on: tables 1 and 2, rounds 1 and 2 (a move changes round 2's pairs).
SLOTS = tuple(Slot("A", t, r, b) for t in (1, 2) for r in (1, 2) for b in MOVEMENT.at(t, r).boards)
# What a table keys: (level, strain 0-4 C D H S NT, declarer 0-3 N E S W, tricks); None: passed out.
KEYED = ((4, 3, 0, 10), (4, 3, 0, 9), (3, 4, 2, 9), None)
# What the director enters: (contract, declarer, tricks) corrections, and adjusted scores.
CORRECTIONS = (("4S", "N", 10), ("4S", "N", 9), ("2H", "E", 8))
ADJUSTED = (("A+", "A-"), ("A", "A"), ("A-", "A+"))
_TOLD = {STORED: "saved", ALREADY_STORED: "saved", STORED_CONFLICT: "the director decides"}

slot = st.integers(0, len(SLOTS) - 1)
# Each step's kind first (entries at the tables the most frequent), then what it needs.
STEP_OF = {
    "key": st.tuples(st.just("key"), st.sampled_from(TERMINALS), st.integers(0, 3), st.integers(0, len(KEYED) - 1)),
    "erase_at_table": st.tuples(st.just("erase_at_table"), st.sampled_from(TERMINALS), st.integers(0, 3)),
    "erase": st.tuples(st.just("erase"), slot),
    "correct": st.tuples(st.just("correct"), slot, st.integers(0, len(CORRECTIONS) - 1)),
    "adjust": st.tuples(st.just("adjust"), slot, st.integers(0, len(ADJUSTED) - 1)),
    "resolve": st.tuples(st.just("resolve"), st.integers(0, 3), st.integers(0, 3)),
    "move": st.tuples(st.just("move"), st.integers(1, 2)),
}
KINDS = ["key"] * 5 + ["erase_at_table"] + list(STEP_OF)
STEPS = st.lists(st.sampled_from(KINDS).flatmap(STEP_OF.__getitem__), min_size=1, max_size=16)


@contextmanager
def evening(seed: int, loss: float) -> Iterator[Loopback]:
    """A fresh event with its collector and the three terminals signed in (the spare beside the terminal at table 1:
    hold_ms 0 lets it in while the other is alive)."""
    with tempfile.TemporaryDirectory() as folder:
        conn = create_event(Path(folder) / "club.sqlite", name="Told and counted", sections={"A": MOVEMENT})
        conn.execute("PRAGMA synchronous = OFF")  # durability is the crash tests' subject
        rng = random.Random(seed)
        collector = Collector(conn, random_bits=rng.getrandbits, hold_ms=0)
        code = link_key(conn).code
        terminals = [SimulatedTerminal(t, 0, TABLE_OF[t], code, random.Random(seed * 1000 + t)) for t in TERMINALS]
        loop = Loopback(collector, terminals, Channel(random.Random(seed), 0.0))
        try:
            assert loop.run_until(loop.signed_in, 60_000)
            loop.channel.loss = loss
            yield loop
        finally:
            collector.close()
            conn.close()


def own_slot(terminal: int, choice: int) -> Slot:
    """The terminal's table's `choice`-th slot among SLOTS (each table has four)."""
    mine = [s for s in SLOTS if s.table == TABLE_OF[terminal]]
    return mine[choice % len(mine)]


def result(conn: sqlite3.Connection, where: Slot, revision: int, keyed: tuple[int, int, int, int] | None) -> Result:
    """A table's RESULT with the pairs the movement seats there now (a terminal gets the plan of a move)."""
    pairs = encounter_pairs(conn, "A", where.table, where.round)
    assert pairs is not None
    r = Result(section=0, table=where.table, round=where.round, board=where.board, ns_pair=pairs[0],
               ew_pair=pairs[1], version=revision, kind=PASSED_OUT if keyed is None else PLAYED)
    if keyed is not None:
        r.level, r.strain, r.declarer, r.tricks = keyed
    return r


def director(conn: sqlite3.Connection, step: tuple[object, ...]) -> tuple[bool, Slot | None]:
    """The director's action of `step` at the laptop: whether it was done, and the slot it settled."""
    what = step[0]
    sign = {"who": "TD", "why": "a ruling"}
    try:
        if what == "move":  # NS 1 and NS 2 change places from a round (refused once it has results at their tables)
            swap_pairs(conn, "A", ("NS", 1), ("NS", 2), int(str(step[1])), **sign)
            return True, None
        if what == "resolve":  # one of the conflicting results kept, in one of the slots in conflict
            standing = [s for s in states(conn).values() if s.conflict]
            if not standing:
                return False, None
            state = standing[int(str(step[1])) % len(standing)]
            choose_version(conn, state.heads[int(str(step[2])) % len(state.heads)].id, **sign)
            return True, state.slot
        where = SLOTS[int(str(step[1]))]
        if what == "erase":
            enter_result(conn, *where, kind="erased", action=Action.ERASE, **sign)
        elif what == "correct":
            contract, declarer, tricks = CORRECTIONS[int(str(step[2]))]
            enter_result(conn, *where, contract=contract, declarer=declarer, tricks=tricks, **sign)
        elif what == "adjust":
            ns, ew = ADJUSTED[int(str(step[2]))]
            enter_result(conn, *where, kind="artificial", ns_adjust=ns, ew_adjust=ew, action=Action.ADJUST, **sign)
    except EntryError:
        return False, None  # refused (erased already, a move over a round with results): nothing recorded
    return True, where


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, seed=st.integers(1, 10_000), loss=st.sampled_from((0.0, 0.3)))
def test_what_the_table_is_told_is_what_the_store_counts(steps: list[tuple[object, ...]], seed: int,
                                                        loss: float) -> None:
    with evening(seed, loss) as loop:
        conn = loop.collector.conn
        revisions: dict[tuple[int, Slot], int] = {}  # (terminal, slot) -> the revision it sent last
        last_word: dict[Slot, str] = {}  # slot -> "counts", "conflict" or "missing": what was said of it last
        for step in steps:
            if step[0] not in ("key", "erase_at_table"):
                done, settled = director(conn, step)
                event(f"the director's {step[0]} {'done' if done else 'refused'}")
                if settled is not None:
                    last_word[settled] = "missing" if step[0] == "erase" else "counts"
                continue
            terminal = int(str(step[1]))
            where = own_slot(terminal, int(str(step[2])))
            before = revisions.get((terminal, where))
            if step[0] == "erase_at_table" and before is None:
                continue  # the director menu changes a board this terminal has keyed
            revision = 0 if before is None else before + 1
            if revision > 15:
                continue
            revisions[terminal, where] = revision
            if step[0] == "key":
                msg: Result | Erase = result(conn, where, revision, KEYED[int(str(step[3]))])
            else:
                msg = Erase(section=0, table=where.table, round=where.round, board=where.board, version=revision)
            t = loop.terminals[TERMINALS.index(terminal)]
            seq = t.send(msg, loop.now)
            assert loop.run_until(lambda t=t, seq=seq: seq in t.acks and t.session.pending() == 0, 120_000)
            told = t.acks[seq]
            event(f"a table told {_TOLD.get(told, 'refused')}")  # pytest --hypothesis-show-statistics
            state = states(conn).get(where)
            mine = [v for v in state.versions if v.terminal == terminal and v.sequence == seq] if state else []
            counts = state.current if state is not None else None
            what = "nothing (a conflict)" if counts is None else counts.describe()
            if told in (STORED, ALREADY_STORED):
                assert len(mine) == 1, (step, told)
                assert counts is not None and counts.content() == mine[0].content(), (
                    f"{step}: told saved, but what counts is {what}")
                last_word[where] = "missing" if mine[0].kind == "erased" else "counts"
            elif told == STORED_CONFLICT:
                # An erased board is missing until a result is entered: the next one entered is its result.
                assert last_word.get(where) != "missing", f"{step}: an entry for an erased board stored as a conflict"
                assert len(mine) == 1 and counts is None, f"{step}: told the director will decide, but {what} counts"
                last_word[where] = "conflict"
            else:
                assert not mine, (step, told)  # refused: nothing stored
        counted = tally(conn)
        assert counted.counted == sum(1 for w in last_word.values() if w == "counts"), (counted, last_word)
        assert counted.conflicts == sum(1 for w in last_word.values() if w == "conflict"), (counted, last_word)
        assert counted.expected == len(MOVEMENT.encounters) * 2


def test_the_progress_line_and_the_pages_count_the_results_that_count_and_the_conflicts_apart(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    conn = create_event(path, name="Tally", sections={"A": MOVEMENT})
    try:
        sign = {"who": "TD", "why": "entered"}
        enter_result(conn, "A", 1, 1, 1, contract="4S", declarer="N", tricks=10, **sign)
        enter_result(conn, "A", 1, 1, 2, contract="4S", declarer="N", tricks=10, **sign)
        sign_in(conn, 101, "A", 1)
        # Table 1 keys board 2 otherwise: a conflict, counting for nothing until the director decides.
        told = ingest(conn, IncomingResult(terminal=101, sequence=1, section="A", table=1, round=1, board=2, ns_pair=1,
                                           ew_pair=1, contract="3NT", declarer="S", tricks=9))
        assert told.conflict
        line = progress(conn, Collector(conn)).line()
        assert line == "results 1/18, conflicts 1 (tenace problems), terminals heard 0, refused frames 0", line
    finally:
        conn.close()
    with TestClient(create_app(path)) as client:  # the rankings page, the public one and the console's
        html = client.get("/").text
        assert "1 of 18 results in, 1 awaiting the director: provisional" in html, html
