"""The collector over a simulated channel: pairing, sign-in, round plans, results exactly once, refusals, restarts."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import pytest

from tenace.collector import Collector, Settings, link_key, pushes
from tenace.collector import collector as collector_module
from tenace.collector.link_key import LinkKey
from tenace.movement import mitchell
from tenace.simulation.loopback import Channel, Loopback, SimulatedTerminal
from tenace.store import EntryError, connect, create_event, finish_session, refusals, sign_in
from tenace.store.hand_records import DECLARERS, STRAINS, DoubleDummy, hand_record, keep_analysis, keep_hand_record
from tenace.store.movement_changes import movement_version, set_presence
from tenace.store.terminal_reports import plans_held
from tenace_wire.auth import Tagger
from tenace_wire.control import (
    ACCEPTED,
    ALREADY_STORED,
    EVENT_CLOSED,
    LEAD_CHECKED,
    NO_SUCH_TABLE,
    REFUSED_CLOSED,
    REFUSED_INVALID,
    REFUSED_WRONG_TABLE,
    STORED,
    TABLE_TAKEN,
)
from tenace_wire.director_messages import Ranking, Traveller
from tenace_wire.frame import encode_frame, message_type
from tenace_wire.frame_types import FRAGMENT, HAND_RECORD, HEADER_SIZE, RANKING, RESULT, ROUND_PLAN, TRAVELLER
from tenace_wire.hand_record import HandRecord
from tenace_wire.table_messages import (
    ADJUSTED,
    AVERAGE_MINUS,
    AVERAGE_PLUS,
    PASSED_OUT,
    Erase,
    Players,
    Request,
    Result,
)

MOVEMENT = mitchell(3, 2)  # 3 tables, 3 rounds of 2 boards


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    conn = create_event(tmp_path / "club.sqlite", name="Collector test", sections={"A": MOVEMENT})
    yield conn
    conn.close()


def make_loop(conn: sqlite3.Connection, tables: tuple[int, ...] = (1, 2, 3), settings: Settings | None = None,
              seed: int = 1, loss: float = 0.0) -> Loopback:
    rng = random.Random(seed)
    collector = Collector(conn, settings, rng.getrandbits)
    code = link_key(conn).code
    terminals = [SimulatedTerminal(100 + t, 0, t, code, random.Random(seed * 100 + t)) for t in tables]
    return Loopback(collector, terminals, Channel(random.Random(seed), loss))


def played(table: int, round_: int, board: int, **changes: int) -> Result:
    e = MOVEMENT.at(table, round_)
    fields = dict(section=0, table=table, round=round_, board=board, ns_pair=e.ns_pair, ew_pair=e.ew_pair,
                  level=4, strain=3, declarer=0, tricks=10, lead=52)
    fields.update(changes)
    return Result(**fields)


def settle(loop: Loopback) -> None:
    assert loop.run_until(lambda: all(t.session.pending() == 0 for t in loop.terminals) and loop.collector.session
                          .pending() == 0, 60_000)


def stored(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM result").fetchone()[0])


def test_the_link_key_is_made_once_and_kept_in_the_event_file(db: sqlite3.Connection, tmp_path: Path) -> None:
    first = link_key(db)
    assert len(first.code) == 6 and first.code.isdigit() and len(first.nonce) == 8 and len(first.key) == 16
    again = connect(tmp_path / "club.sqlite")
    assert link_key(again) == first
    again.close()


def test_terminals_pair_sign_in_and_get_the_plan_of_every_round(db: sqlite3.Connection) -> None:
    settings = Settings(player_numbers="required", lead="warn", show_traveller=True, language="fr")
    loop = make_loop(db, settings=settings)
    assert loop.run_until(lambda: loop.signed_in() and all(len(t.plans) == 3 for t in loop.terminals), 10_000)
    for t in loop.terminals:
        answer = t.answers[-1]
        assert (answer.status, answer.table, answer.round, answer.language) == (ACCEPTED, t.table, 1, "fr")
        assert (answer.player_numbers, answer.lead_entry, answer.show_traveller) == (2, LEAD_CHECKED, 1)
        assert answer.pin == link_key(db).director_pin  # the event's own director's PIN
        # The current round's plan first, then every later one: the table can play on without the laptop.
        assert [p.round for p in t.plans] == [1, 2, 3]
        plan = t.plans[0]
        e = MOVEMENT.at(t.table, 1)
        assert (plan.round, plan.ns_pair, plan.ew_pair, plan.boards) == (1, e.ns_pair, e.ew_pair, e.boards)
        # Mitchell: NS stay, EW move up a table, boards move down one.
        assert plan.ns_next == t.table and plan.ew_next == t.table % 3 + 1 and plan.boards_next == (t.table - 2) % 3 + 1
    seated = db.execute("SELECT id, table_no FROM terminal ORDER BY id").fetchall()
    assert [tuple(r) for r in seated] == [(101, 1), (102, 2), (103, 3)]


def test_round_plans_on_request_and_all_zero_next_in_the_last_round(db: sqlite3.Connection) -> None:
    loop = make_loop(db, tables=(2,))
    loop.run_until(loop.signed_in)
    t = loop.terminals[0]
    t.send(Request(what=ROUND_PLAN, section=0, table=2, round=3), loop.now)
    assert loop.run_until(lambda: any(p.round == 3 for p in t.plans), 5_000)
    last = [p for p in t.plans if p.round == 3][-1]
    assert (last.ns_next, last.ew_next, last.boards_next) == (0, 0, 0)
    assert last.boards == MOVEMENT.at(2, 3).boards
    seq = t.send(Request(what=ROUND_PLAN, section=0, table=2, round=9), loop.now)  # no round 9
    settle(loop)
    assert t.acks[seq] == REFUSED_INVALID


def test_results_are_stored_once_acknowledged_after_commit_and_the_next_round_is_pushed(db: sqlite3.Connection) -> None:
    loop = make_loop(db, tables=(1,))
    loop.run_until(lambda: loop.signed_in() and len(loop.terminals[0].plans) == 3)
    t = loop.terminals[0]
    first = t.send(played(1, 1, 1), loop.now)
    settle(loop)
    assert t.acks[first] == STORED and stored(db) == 1
    row = db.execute("SELECT contract, declarer, tricks, lead, ns_score, revision FROM result").fetchone()
    assert tuple(row) == ("4S", "N", 10, "SA", 420, 0)  # board 1: nobody vulnerable
    assert [p.round for p in t.plans] == [1, 2, 3]  # every round's, at sign-in
    second = t.send(played(1, 1, 2, kind=PASSED_OUT, level=0, strain=0, tricks=0, lead=0), loop.now)
    settle(loop)
    assert t.acks[second] == STORED and [p.round for p in t.plans] == [1, 2, 3, 2]  # round 1 complete: round 2
    # A replay of the stored frame (its bytes again) is only acknowledged again.
    frame = encode_frame(Tagger(link_key(db).key), False, RESULT, 101, first, played(1, 1, 1).encode())
    loop.collector.receive(frame, loop.now)
    settle(loop)
    assert stored(db) == 2 and loop.collector.counters()["duplicate"] == 1


def test_refused_results_adjusted_scores_erasures_and_player_numbers(db: sqlite3.Connection) -> None:
    loop = make_loop(db, tables=(1,))
    loop.run_until(loop.signed_in)
    t = loop.terminals[0]
    wrong_board = t.send(played(1, 1, 5), loop.now)
    wrong_pairs = t.send(played(1, 1, 1, ew_pair=3), loop.now)
    adjusted = t.send(played(1, 1, 2, kind=ADJUSTED, level=0, strain=0, tricks=0, lead=0, ns_adjust=AVERAGE_PLUS,
                             ew_adjust=AVERAGE_MINUS), loop.now)
    erase = t.send(Erase(section=0, table=1, round=1, board=2, version=1), loop.now)
    players = t.send(Players(section=0, table=1, round=1, north=11, east=12, south=13, west=0), loop.now)
    settle(loop)
    assert [t.acks[s] for s in (wrong_board, wrong_pairs, adjusted, erase, players)] == [
        REFUSED_INVALID, REFUSED_INVALID, STORED, STORED, STORED]
    kinds = [tuple(r) for r in db.execute("SELECT kind, ns_adjust, ew_adjust, revision FROM result ORDER BY id")]
    assert kinds == [("artificial", "A+", "A-", 0), ("erased", None, None, 1)]
    assert {r.reason for r in refusals(db)} == {"wrong_board", "wrong_pairs"}
    numbers = db.execute("SELECT north, east, south, west, terminal FROM players").fetchone()
    assert tuple(numbers) == (11, 12, 13, 0, 101)


def test_sign_in_refusals_no_such_table_table_taken_and_a_closed_event(db: sqlite3.Connection) -> None:
    loop = make_loop(db, tables=(1, 4))
    loop.run_until(lambda: all(t.answers for t in loop.terminals), 5_000)
    assert [t.answers[-1].status for t in loop.terminals] == [ACCEPTED, NO_SUCH_TABLE]
    # A second terminal at table 1 while the first is alive: taken. Once it has been silent a minute: accepted.
    spare = SimulatedTerminal(200, 0, 1, loop.terminals[0].code, random.Random(9))
    loop.terminals = [spare]
    loop.run_until(lambda: bool(spare.answers), 5_000)
    assert spare.answers[-1].status == TABLE_TAKEN
    loop.now += 61_000
    spare.session.sign_in(0, 1, loop.now)
    loop.run_until(lambda: spare.session.signed_in, 5_000)
    assert spare.answers[-1].status == ACCEPTED
    closed = Collector(db, Settings(closed=True), random.Random(2).getrandbits)
    late = Loopback(closed, [SimulatedTerminal(300, 0, 2, spare.code, random.Random(3))], Channel(random.Random(4)))
    late.run_until(lambda: bool(late.terminals[0].answers), 5_000)
    assert late.terminals[0].answers[-1].status == EVENT_CLOSED


def test_a_terminal_the_director_seats_is_let_in_at_once_while_the_old_one_is_still_heard(
        db: sqlite3.Connection) -> None:
    """`tenace event seat EVENT --terminal 200 --table 1` (store.sign_in, in another process while the collector
    runs): the spare is accepted at once though table 1's terminal was heard a moment ago, and its plan says which
    boards are in; the old terminal's own sign-in to that table is then refused while the spare lives."""
    loop = make_loop(db, tables=(1,))
    loop.run_until(loop.signed_in, 5_000)
    old = loop.terminals[0]
    old.send(played(1, 1, 1), loop.now)  # board 1 is in before the old terminal breaks
    settle(loop)
    other = connect(db.execute("PRAGMA database_list").fetchone()[2])
    sign_in(other, 200, "A", 1, who="director")
    other.close()
    spare = SimulatedTerminal(200, 0, 1, old.code, random.Random(9))
    loop.terminals = [spare]
    loop.run_until(lambda: bool(spare.answers), 5_000)
    assert spare.answers[-1].status == ACCEPTED
    assert loop.now - loop.collector.heard[old.terminal] < 60_000  # the old one was heard within the minute
    loop.run_until(lambda: bool(spare.plans), 5_000)
    assert spare.plans[0].round == 1 and spare.plans[0].done == (1,)  # it starts at board 2
    loop.terminals = [old]
    old.answers.clear()
    old.session.sign_in(0, 1, loop.now)
    loop.run_until(lambda: bool(old.answers), 5_000)
    assert old.answers[-1].status == TABLE_TAKEN


def test_the_directors_pin_is_the_events_own_unless_one_is_set(db: sqlite3.Connection) -> None:
    pin = link_key(db).director_pin
    assert 0 <= pin <= 9999 and pin == link_key(db).director_pin  # the same for the whole event
    # Derived from the event's key: another key, another PIN.
    keys = (LinkKey("123456", bytes(8), bytes(16)), LinkKey("123456", bytes(8), bytes([1] * 16)))
    assert keys[0].director_pin != keys[1].director_pin
    loop = make_loop(db, tables=(1,), settings=Settings(pin=42))
    loop.run_until(loop.signed_in, 5_000)
    assert loop.terminals[0].answers[-1].pin == 42
    with pytest.raises(ValueError, match="four digits"):
        Settings(pin=10000)


def test_after_the_director_finishes_the_session_terminals_are_refused(db: sqlite3.Connection) -> None:
    loop = make_loop(db, tables=(1, 2))
    loop.run_until(loop.signed_in, 5_000)
    t1, t2 = loop.terminals
    first = t1.send(played(1, 1, 1), loop.now)
    settle(loop)
    finish_session(db, who="TD", why="the evening is over", force=True)  # tenace finish --force, from elsewhere
    late = t1.send(played(1, 1, 2), loop.now)
    settle(loop)
    assert (t1.acks[first], t1.acks[late]) == (STORED, REFUSED_CLOSED) and stored(db) == 1
    t2.session.sign_in(0, 2, loop.now)
    loop.run_until(lambda: t2.answers[-1].status != ACCEPTED, 5_000)
    assert t2.answers[-1].status == EVENT_CLOSED


def test_travellers_and_rankings_from_the_scoring_engine(db: sqlite3.Connection) -> None:
    loop = make_loop(db, settings=Settings(show_traveller=True))
    loop.run_until(loop.signed_in)
    t1, t2, _ = loop.terminals
    t1.send(played(1, 1, 1, tricks=10), loop.now)  # 4S= by N: NS +420
    settle(loop)
    sheets = [m for m in t1.messages if isinstance(m, Traveller)]
    assert [(line.ns_score, line.ns_percent) for line in sheets[-1].lines] == [(420, 5000)]
    # Board 1 reaches table 3 in round 2 (boards move down): 4S-1 there.
    t3 = loop.terminals[2]
    t3.send(played(3, 1, 5), loop.now)
    t3.send(played(3, 1, 6), loop.now)
    t2.send(played(2, 1, 3), loop.now)
    t2.send(played(2, 1, 4), loop.now)
    t1.send(played(1, 1, 2), loop.now)
    settle(loop)
    t3.send(played(3, 2, 1, tricks=9), loop.now)
    settle(loop)
    last = [m for m in t3.messages if isinstance(m, Traveller)][-1]
    # Two of the board's three results: Neuberg factoring, (M+1)*E/N - 1 = 3.5 of a top of 4 for the winner.
    assert sorted((line.ns_score, line.ns_percent) for line in last.lines) == [(-50, 1250), (420, 8750)]
    t1.send(Request(what=TRAVELLER, section=0, table=1, round=0, board=1), loop.now)
    t1.send(Request(what=RANKING, section=0, table=1, round=0, board=0), loop.now)
    settle(loop)
    assert isinstance(t1.messages[-2], Traveller) and len(t1.messages[-2].lines) == 2
    ranking = t1.messages[-1]
    assert isinstance(ranking, Ranking) and len(ranking.lines) == 6 and ranking.lines[0].rank == 1


DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def test_hand_records_are_kept_checked_and_sent_to_the_table_that_asks(db: sqlite3.Connection) -> None:
    keep_hand_record(db, "A", 1, DEAL)
    assert hand_record(db, "A", 1) == DEAL and hand_record(db, "A", 2) is None
    bad_deals = ((DEAL.replace("N:", "E:"), "starts with 'N:'"), (DEAL[:-1] + "2", "dealt twice"),
                 (DEAL.replace("AKQJ.T98", "AKQJ.T9", 1), "12 cards"), (DEAL.replace("432.A", "432A", 1), "3 suits"),
                 (DEAL.replace("AKQJ.T98.765.432 ", "", 1), "four hands"), (DEAL.replace("J", "B", 1), "not a rank"))
    for bad, why in bad_deals:
        with pytest.raises(EntryError, match=why):
            keep_hand_record(db, "A", 2, bad)
    assert hand_record(db, "A", 2) is None  # nothing half-kept
    loop = make_loop(db, tables=(1,))
    loop.run_until(loop.signed_in)
    t = loop.terminals[0]
    t.send(Request(what=HAND_RECORD, section=0, table=1, round=1, board=1), loop.now)
    t.send(Request(what=HAND_RECORD, section=0, table=1, round=1, board=2), loop.now)  # none kept: only acknowledged
    settle(loop)
    deals = [m for m in t.messages if isinstance(m, HandRecord)]
    assert len(deals) == 1 and deals[0].board == 1
    # Card codes count from the clubs (suit 0) and the two (rank 0): the aces of spades, clubs, diamonds and
    # hearts are North's, East's, South's and West's.
    owners = deals[0].owners
    assert [owners[suit * 13 + 12] for suit in (3, 0, 1, 2)] == [0, 1, 2, 3]
    assert sorted(owners) == [seat for seat in range(4) for _ in range(13)]


def test_the_analysis_goes_with_the_deal_it_was_made_of_and_only_with_it(db: sqlite3.Connection) -> None:
    # DEAL's table as DDS gives it is not needed here: what is sent is what the event file keeps.
    tricks = {d: {s: 7 + i + j % 3 for j, s in enumerate(STRAINS)} for i, d in enumerate(DECLARERS)}
    analysis = DoubleDummy(tricks, -430, ("4S E +1", "4S W +1"))
    keep_hand_record(db, "A", 1, DEAL)
    keep_analysis(db, "A", 1, DEAL, analysis)
    other = "N:T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765 765.432.AKQJ.T98"  # NS and EW swapped
    keep_hand_record(db, "A", 2, other)
    keep_analysis(db, "A", 2, DEAL, analysis)  # the analysis of a deal the director has since replaced
    keep_hand_record(db, "A", 3, DEAL)  # not analysed (yet)
    loop = make_loop(db, tables=(1,))
    loop.run_until(loop.signed_in)
    t = loop.terminals[0]
    for board in (1, 2, 3):
        t.send(Request(what=HAND_RECORD, section=0, table=1, round=1, board=board), loop.now)
    settle(loop)
    sent = {m.board: m for m in t.messages if isinstance(m, HandRecord)}
    assert sorted(sent) == [1, 2, 3]
    assert list(sent[1].tricks) == [tricks[d][s] for d in DECLARERS for s in STRAINS] and sent[1].par == -430
    assert (sent[2].tricks, sent[2].par) == (b"", 0) and sent[2].owners != sent[1].owners
    assert (sent[3].tricks, sent[3].par) == (b"", 0) and sent[3].owners == sent[1].owners


def test_frames_from_a_terminal_at_another_table_or_not_signed_in_are_refused_and_recorded(
        db: sqlite3.Connection) -> None:
    loop = make_loop(db, tables=(1,))
    loop.run_until(loop.signed_in)
    t = loop.terminals[0]
    seq = t.send(played(2, 1, 3), loop.now)  # table 2's board, from the terminal at table 1
    settle(loop)
    assert t.acks[seq] == REFUSED_WRONG_TABLE
    tagger = Tagger(link_key(db).key)
    loop.collector.receive(encode_frame(tagger, False, RESULT, 555, 1, played(1, 1, 1).encode()), loop.now)
    forged = bytearray(encode_frame(Tagger(b"another event key"), False, RESULT, 101, 40, played(1, 1, 1).encode()))
    loop.collector.receive(bytes(forged), loop.now)
    loop.collector.receive(b"\x00" * 20, loop.now)  # noise: counted, not recorded
    reasons = sorted(r.reason for r in refusals(db))
    assert reasons == ["bad_tag", "not_signed_in", "wrong_table"]
    assert refusals(db, "bad_tag")[0].raw_hex == bytes(forged).hex()
    counts = loop.collector.counters()
    assert counts["bad_crc"] == 1 and counts["bad_tag"] == 1 and stored(db) == 0
    loop.collector.close()
    assert dict(db.execute("SELECT reason, count FROM link_counter").fetchall())["bad_crc"] == 1


def test_a_restarted_collector_resumes_duplicates_acknowledged_and_host_numbers_not_reused(
        db: sqlite3.Connection, tmp_path: Path) -> None:
    loop = make_loop(db, tables=(1,))
    loop.run_until(lambda: loop.signed_in() and len(loop.terminals[0].plans) == 3)
    t = loop.terminals[0]
    first = t.send(played(1, 1, 1), loop.now)
    # The host stores it, then dies before its ACK goes out (its frames are never taken from it).
    for frame in t.frames(loop.now):
        loop.collector.receive(frame, loop.now)
    assert stored(db) == 1
    used = loop.collector.session.next_seq(101)
    conn2 = connect(tmp_path / "club.sqlite")
    again = Collector(conn2, None, random.Random(5).getrandbits)
    assert again.session.bindings[101] == (0, 1) and again.session.next_seq(101) >= used
    loop.collector = again
    settle(loop)
    assert t.acks[first] == ALREADY_STORED and stored(conn2) == 1
    t.send(Request(what=ROUND_PLAN, section=0, table=1, round=0), loop.now)  # a host frame under a fresh number
    assert loop.run_until(lambda: len(t.plans) == 4, 5_000)
    conn2.close()


def test_where_the_lead_is_checked_later_rounds_come_with_their_hand_records_paced(
        db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pushes, "PUSH_FRAMES", 2)  # this small movement pushes fewer than 24 frames
    for board in range(1, 7):
        keep_hand_record(db, "A", board, DEAL)
    loop = make_loop(db, tables=(1,), settings=Settings(lead="warn"))
    t = loop.terminals[0]
    collector = loop.collector
    in_flight = []
    assert loop.run_until(lambda: in_flight.append(collector.session.pending(101)) or (
        len(t.plans) == 3 and len({m.board for m in t.messages if isinstance(m, HandRecord)}) == 4), 30_000)
    # Round 1's plan, then rounds 2 and 3, each round's deals in the round's order; round 1's the terminal asks for.
    assert [p.round for p in t.plans] == [1, 2, 3]
    deals = [m.board for m in t.messages if isinstance(m, HandRecord)]
    assert deals == [*MOVEMENT.at(1, 2).boards, *MOVEMENT.at(1, 3).boards], deals
    # Paced: the sign-in's answer and round 1's plan go at once, the rest 2 frames at a time (10 frames at once
    # unpaced).
    assert 2 <= max(in_flight) <= 4, in_flight
    without = make_loop(db, tables=(2,), settings=Settings(lead="on"))
    assert without.run_until(lambda: len(without.terminals[0].plans) == 3, 30_000)
    assert not any(isinstance(m, HandRecord) for m in without.terminals[0].messages)  # no lead check, no deals


def test_a_movement_change_that_meets_a_busy_event_file_is_sent_at_the_next_look(
        db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """The collector looks for movement changes every second; a look that fails part-way (the file busy) must not
    count as done, or the terminals it had not reached yet would never hear of the change."""
    loop = make_loop(db, tables=(1, 2))
    assert loop.run_until(lambda: loop.signed_in() and all(len(t.plans) == 3 for t in loop.terminals), 10_000)
    set_presence(db, "A", ("EW", 2), 3, present=False, who="TD", why="left")  # EW 2 meets NS 1 in round 3
    changed = next(t for t in (1, 2) if MOVEMENT.at(t, 3).ew_pair == 2)  # the table whose plan changes
    real = collector_module.round_plans.current_round
    failed: list[int] = []

    def busy_once(conn: sqlite3.Connection, section: int, table: int) -> int:
        if table == changed and not failed:
            failed.append(table)
            raise sqlite3.OperationalError("database is locked")
        return real(conn, section, table)

    monkeypatch.setattr(collector_module.round_plans, "current_round", busy_once)
    terminal = next(t for t in loop.terminals if t.table == changed)
    before = len(terminal.plans)
    assert loop.run_until(lambda: any(p.round == 3 and p.ew_pair == 0 for p in terminal.plans[before:]), 10_000)
    assert failed == [changed]


class DropOnce(Channel):
    """A perfect channel but for the `nth` frame down (host to terminals), lost once."""

    def __init__(self, nth: int) -> None:
        super().__init__(random.Random(1))
        self.nth = nth

    def down(self, frames: Iterable[bytes]) -> list[bytes]:
        kept = []
        for frame in frames:
            if super().down([frame]) and self.frames_down != self.nth:
                kept.append(frame)
        return kept


def test_a_pushed_frame_lost_once_is_not_overtaken_beyond_the_terminals_replay_window(tmp_path: Path) -> None:
    """The terminal refuses for good a host frame 64 numbers older than the newest it has (a replay); while a lost
    frame waits to be sent again, the pushes after it must not run that far ahead, or it is never taken."""
    movement = mitchell(15, 4)  # a sign-in pushes 14 later plans, each with 4 hand records: 70 frames
    conn = create_event(tmp_path / "big.sqlite", name="Big", sections={"A": movement})
    for board in range(1, 61):
        keep_hand_record(conn, "A", board, DEAL)
    collector = Collector(conn, Settings(lead="warn"), random.Random(1).getrandbits)
    t = SimulatedTerminal(101, 0, 1, link_key(conn).code, random.Random(2))
    loop = Loopback(collector, [t], DropOnce(nth=6))  # an early pushed frame of the sign-in's
    assert loop.run_until(lambda: len({p.round for p in t.plans}) == 15 and collector.session.pending(101) == 0,
                          120_000), (sorted({p.round for p in t.plans}), t.session.counters)
    assert "replay" not in t.session.counters
    conn.close()


class HoldBack(Channel):
    """A perfect channel but for the frames of the message of type `ftype` that follows `skip` such messages:
    each of them is lost its first `times` times on the air."""

    def __init__(self, ftype: int, skip: int, times: int) -> None:
        super().__init__(random.Random(1))
        self.ftype, self.skip, self.times = ftype, skip, times
        self.seen = 0  # messages of that type that began
        self.held: dict[bytes, int] = {}  # the held message's frames -> how often each was lost

    def down(self, frames: Iterable[bytes]) -> list[bytes]:
        kept = []
        for frame in super().down(frames):
            if message_type(frame) == self.ftype and frame not in self.held:
                fragment = frame[0] & 0x1F == FRAGMENT
                if not fragment or frame[HEADER_SIZE + 1] == 0:  # a whole message, or its first fragment
                    self.seen += 1
                if self.seen == self.skip + 1:
                    self.held[frame] = 0
            if frame in self.held and self.held[frame] < self.times:
                self.held[frame] += 1
                continue
            kept.append(frame)
        return kept


def test_a_round_plan_sent_before_a_movement_change_does_not_land_after_it(db: sqlite3.Connection) -> None:
    """Round 3's plan from the sign-in is lost and sent again, with its back-off, while the director changes round
    3: that old plan must not reach the terminal after the new one (it would undo the change there)."""
    table = next(t for t in (1, 2, 3) if MOVEMENT.at(t, 3).ew_pair == 2)  # the table where EW 2 plays round 3
    channel = HoldBack(ROUND_PLAN, skip=2, times=4)  # round 1's and 2's plans pass; round 3's is lost 4 times
    collector = Collector(db, None, random.Random(1).getrandbits)
    t = SimulatedTerminal(100 + table, 0, table, link_key(db).code, random.Random(2))
    loop = Loopback(collector, [t], channel)
    assert loop.run_until(lambda: bool(channel.held) and [p.round for p in t.plans] == [1, 2], 10_000)
    set_presence(db, "A", ("EW", 2), 3, present=False, who="TD", why="left")
    assert loop.run_until(lambda: any(p.round == 3 and p.ew_pair == 0 for p in t.plans), 10_000)
    loop.run_until(lambda: False, 30_000)  # long enough for the old one's back-off to run out
    assert [p.ew_pair for p in t.plans if p.round == 3][-1] == 0, [p for p in t.plans if p.round == 3]


def test_the_event_file_says_which_terminal_holds_its_current_round_plans(db: sqlite3.Connection) -> None:
    """What the console's Terminals page shows: once every plan sent to a terminal is acknowledged, the collector
    records the movement change it holds (0: none), and after a change the new one once its plans are in."""
    table = next(t for t in (1, 2, 3) if MOVEMENT.at(t, 3).ew_pair == 2)
    terminal = 100 + table
    channel = HoldBack(ROUND_PLAN, skip=2, times=4)  # round 3's plan is lost 4 times: not held meanwhile
    collector = Collector(db, None, random.Random(1).getrandbits)
    t = SimulatedTerminal(terminal, 0, table, link_key(db).code, random.Random(2))
    loop = Loopback(collector, [t], channel)
    assert loop.run_until(lambda: bool(channel.held) and [p.round for p in t.plans] == [1, 2], 10_000)
    assert terminal not in plans_held(db)
    assert loop.run_until(lambda: plans_held(db).get(terminal) == 0, 30_000)
    assert [p.round for p in t.plans] == [1, 2, 3]
    set_presence(db, "A", ("EW", 2), 3, present=False, who="TD", why="left")
    latest = movement_version(db)
    assert latest and plans_held(db)[terminal] == 0  # not yet
    assert loop.run_until(lambda: plans_held(db).get(terminal) == latest, 10_000)
    assert [p.ew_pair for p in t.plans if p.round == 3][-1] == 0


class SecondHalves(Channel):
    """A perfect channel but for the second fragment of the `first`..`last`-th fragmented messages down: each lost
    once, so that the terminal holds more unfinished messages than it has room for."""

    def __init__(self, first: int, last: int) -> None:
        super().__init__(random.Random(1))
        self.first, self.last = first, last
        self.messages = 0  # fragmented messages begun
        self.lost: set[bytes] = set()

    def down(self, frames: Iterable[bytes]) -> list[bytes]:
        kept = []
        for frame in super().down(frames):
            if frame[0] & 0x1F == FRAGMENT and frame not in self.lost:
                index = frame[HEADER_SIZE + 1]
                self.messages += index == 0
                if index == 1 and self.first <= self.messages <= self.last:
                    self.lost.add(frame)
                    continue
            kept.append(frame)
        return kept


def test_a_message_the_terminal_had_no_room_to_finish_comes_again(tmp_path: Path) -> None:
    """The terminal finishes two fragmented messages at a time; a third begun drops the oldest. Its parts must not
    have been acknowledged then, or the host never sends them again and the message (here a round plan) is lost."""
    conn = create_event(tmp_path / "seven.sqlite", name="Seven", sections={"A": mitchell(7, 2)})
    channel = SecondHalves(2, 5)  # the sign-in's plans of rounds 2 to 5: four unfinished at once
    collector = Collector(conn, None, random.Random(1).getrandbits)
    t = SimulatedTerminal(101, 0, 1, link_key(conn).code, random.Random(2))
    loop = Loopback(collector, [t], channel)
    every = set(range(1, 8))
    assert loop.run_until(lambda: {p.round for p in t.plans} == every and collector.session.pending(101) == 0,
                          60_000), ([p.round for p in t.plans], collector.session.pending(101), len(channel.lost))
    assert len(channel.lost) == 4
    conn.close()
