"""A Howell section end to end: the event file keeps its kind, the collector tells each table where its pairs sit
next (a Howell's pairs change direction), and the store ranks its pairs as one field, named by number alone."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.collector import Collector, link_key
from tenace.collector.round_plans import round_plan
from tenace.movement import Movement, howell, mitchell
from tenace.reports.event_results import event_results
from tenace.scoring.model import BoardResult, Played
from tenace.scoring.pairs_session import score_pairs_session
from tenace.simulation.loopback import Channel, Loopback, SimulatedTerminal
from tenace.store import EntryError, add_penalty, connect, create_event, event_info, ingest, sign_in
from tenace.store.db import migrate
from tenace.store.fields import one_field
from tenace.store.model import IncomingResult
from tenace.store.names import pair_players, set_pair_players
from tenace.store.schema import MIGRATIONS
from tenace_rules.board import SEATS, vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score
from tenace_wire.control import ALREADY_STORED, STORED
from tenace_wire.director_messages import FIELD, Ranking
from tenace_wire.frame_types import RANKING
from tenace_wire.table_messages import Request, Result

from sample_results import session_results

HOWELL = howell(4, 2)  # 8 pairs, 7 rounds of 2 boards, 14 boards each played at 4 tables


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    conn = create_event(tmp_path / "howell.sqlite", name="Howell night", sections={"A": HOWELL})
    yield conn
    conn.close()


def test_the_event_file_keeps_the_kind_and_an_older_file_is_a_mitchell(db: sqlite3.Connection,
                                                                        tmp_path: Path) -> None:
    section = event_info(db).sections[0]
    assert (section.kind, section.one_field, section.rounds) == ("howell", True, 7) and one_field(db, "A")
    # A file made before migration 7 held only Mitchells: brought up to date, it says so.
    old = connect(tmp_path / "old.sqlite", create=True, migrations=MIGRATIONS[:6])
    old.execute("INSERT INTO event (id, name, date, scoring, created) VALUES (1, 'Old', '2024-05-14', "
                "'matchpoints', '2024-05-14T19:00:00+00:00')")
    old.execute("INSERT INTO section (name, movement, tables, rounds, boards_per_round) VALUES ('A', 'Mitchell', 3, "
                "3, 2)")
    assert migrate(old) == max(v for v, _ in MIGRATIONS)
    assert [(s.kind, s.one_field) for s in event_info(old).sections] == [("mitchell", False)]
    assert not one_field(old, "A") and not one_field(old, "Z")
    with pytest.raises(sqlite3.IntegrityError):  # the kinds a movement has, no other
        old.execute("INSERT INTO section (name, movement, tables, rounds, boards_per_round, kind) "
                    "VALUES ('B', 'x', 3, 3, 2, 'pairs')")
    old.close()


def seat_next(movement: Movement, pair: int, round_: int) -> tuple[int, str]:
    """(table, "NS"/"EW") where a pair sits in a round, read off the movement itself."""
    for e in movement.round_plan(round_):
        if pair in (e.ns_pair, e.ew_pair):
            return e.table, "NS" if pair == e.ns_pair else "EW"
    raise AssertionError(f"pair {pair} does not play round {round_}")


def test_each_round_plan_says_where_each_pair_sits_next_and_which_way(db: sqlite3.Connection) -> None:
    turns = 0
    for e in HOWELL.encounters:
        plan = round_plan(db, 0, e.table, e.round)
        assert plan is not None and (plan.ns_pair, plan.ew_pair, plan.boards) == (e.ns_pair, e.ew_pair, e.boards)
        if e.round == HOWELL.rounds:
            assert (plan.ns_next, plan.ew_next, plan.boards_next, plan.ns_next_ew, plan.ew_next_ns) == (0,) * 5
            continue
        ns_table, ns_way = seat_next(HOWELL, e.ns_pair, e.round + 1)
        ew_table, ew_way = seat_next(HOWELL, e.ew_pair, e.round + 1)
        assert (plan.ns_next, plan.ns_next_ew) == (ns_table, int(ns_way == "EW")), (e, plan)
        assert (plan.ew_next, plan.ew_next_ns) == (ew_table, int(ew_way == "NS")), (e, plan)
        turns += plan.ns_next_ew + plan.ew_next_ns
    assert turns > 0  # pairs do change direction in this Howell (pair 8 alone sits NS all evening)


def test_a_mitchells_pairs_never_turn(tmp_path: Path) -> None:
    conn = create_event(tmp_path / "m.sqlite", name="M", sections={"A": mitchell(5, 2)})
    plans = [round_plan(conn, 0, t, r) for t in range(1, 6) for r in range(1, 5)]
    assert all(p is not None and p.ns_next == p.table and p.ns_next_ew == p.ew_next_ns == 0 for p in plans)
    conn.close()


def random_result(e_table: int, e_round: int, board: int, ns: int, ew: int, rng: random.Random) -> Result:
    level = rng.randint(1, 7)
    return Result(section=0, table=e_table, round=e_round, board=board, ns_pair=ns, ew_pair=ew, level=level,
                  strain=rng.randint(0, 4), doubling=rng.choice((0, 0, 0, 1)), declarer=rng.randint(0, 3),
                  tricks=max(0, min(13, level + 6 + rng.randint(-3, 2))), lead=52)


def test_a_whole_howell_through_the_collector_ranks_as_the_engine_does(db: sqlite3.Connection) -> None:
    rng = random.Random(7)
    collector = Collector(db, None, rng.getrandbits)
    code = link_key(db).code
    terminals = [SimulatedTerminal(100 + t, 0, t, code, random.Random(t)) for t in range(1, 5)]
    loop = Loopback(collector, terminals, Channel(random.Random(3)))
    assert loop.run_until(lambda: loop.signed_in() and all(len(t.plans) == 7 for t in terminals), 60_000)
    loop.channel.loss = 0.1  # a tenth of the results' frames and acknowledgements lost: retransmitted
    # Every table plays every round; the engine gets the same results, pairs named by number alone.
    expected: list[BoardResult] = []
    sent: dict[int, list[int]] = {t.table: [] for t in terminals}
    for e in sorted(HOWELL.encounters, key=lambda e: (e.round, e.table)):
        t = terminals[e.table - 1]
        plan = next(p for p in t.plans if p.round == e.round)
        for board in plan.boards:
            r = random_result(e.table, e.round, board, plan.ns_pair, plan.ew_pair, rng)
            sent[e.table].append(t.send(r, loop.now))
            score = ns_score(Contract(r.level, r.strain, r.doubling), SEATS[r.declarer], vulnerability(board),
                             r.tricks)
            expected.append(BoardResult("A", e.table, e.round, board, str(e.ns_pair), str(e.ew_pair),
                                        Played(score)))
    assert loop.run_until(lambda: all(t.session.pending() == 0 for t in terminals)
                          and collector.session.pending() == 0, 600_000)
    # Stored, or stored already (its acknowledgement was lost and the result sent again): never refused.
    assert all(t.acks[seq] in (STORED, ALREADY_STORED) for t in terminals for seq in sent[t.table])
    assert db.execute("SELECT count(*) FROM result").fetchone()[0] == len(expected) == 56

    engine = score_pairs_session(expected)
    want = [(p.text, p.pair, engine.totals[p.pair].mp, engine.totals[p.pair].percent) for p in engine.ranking]
    assert {p.field for p in engine.ranking} == {""} and len(want) == 8  # every pair sat both ways: one field
    section = event_results(db).sections[0]
    assert section.complete
    got = [(line.rank, line.pair.number, line.mp, line.percent) for line in section.report.ranking]
    assert got == want
    assert all(line.pair.direction is None and line.pair.label == line.pair.number and line.field == ""
               for line in section.report.ranking)
    # The terminals' ranking (menu 3): one field, each line's direction FIELD, the same order and figures.
    t1 = terminals[0]
    t1.send(Request(what=RANKING, section=0, table=1, round=0, board=0), loop.now)
    assert loop.run_until(lambda: any(isinstance(m, Ranking) for m in t1.messages), 60_000)
    ranking = [m for m in t1.messages if isinstance(m, Ranking)][-1]
    assert [(line.rank, line.pair, line.score, line.direction) for line in ranking.lines] == [
        (int(rank.rstrip("=")), int(pair), int(percent * 100), FIELD) for rank, pair, _, percent in want]


def test_after_one_round_a_howell_is_already_one_field(db: sqlite3.Connection) -> None:
    for table in range(1, 5):
        sign_in(db, table, "A", table)
    for e in HOWELL.round_plan(1):
        for seq, board in enumerate(e.boards, 1):
            ingest(db, IncomingResult(terminal=e.table, sequence=seq, section="A", table=e.table, round=1,
                                      board=board, ns_pair=e.ns_pair, ew_pair=e.ew_pair, contract="4S",
                                      declarer="N", tricks=9 + e.table % 3))
    ranking = event_results(db).sections[0].report.ranking
    # Nobody has sat both ways yet: still one field of 8 pairs, not NS and EW apart.
    assert len(ranking) == 8 and {line.field for line in ranking} == {""}
    assert sorted(int(line.pair.number) for line in ranking) == list(range(1, 9))


def test_a_howell_pair_is_named_and_penalised_by_its_number(db: sqlite3.Connection) -> None:
    set_pair_players(db, "A", 7, "", (101, 117), who="TD")
    with pytest.raises(EntryError, match="is a Howell: its pairs have no direction, name it 7"):
        set_pair_players(db, "A", 7, "NS", (101, 117), who="TD")
    with pytest.raises(EntryError, match="has no pair 9"):
        set_pair_players(db, "A", 9, "", (101, 117), who="TD")
    assert pair_players(db, "A") == {(7, ""): (101, 117)}
    entry = add_penalty(db, "A", 7, None, Fraction(25), "%top", who="TD", why="Law 90: slow play")
    assert entry.direction is None and entry.text == "7: 25% of a top"
    with pytest.raises(EntryError, match="is a Howell"):
        add_penalty(db, "A", 7, "EW", Fraction(25), "%top", who="TD", why="x")
    with pytest.raises(EntryError, match="pair 7 does not play board 30"):
        add_penalty(db, "A", 7, None, Fraction(1), "MP", who="TD", why="x", board=30)



def test_the_directors_commands_name_a_howell_pair_by_its_number(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "howell.sqlite"
    code, out, err = tenace(capsys, "event", "new", str(db), "--name", "Howell night", "--movement", "howell",
                            "--tables", "4", "--boards-per-round", "2", "--date", "2024-05-14")
    assert code == 0 and "Howell, 4 tables, 7 rounds of 2 boards, boards 1-14" in out, err
    conn = connect(db)
    for table in range(1, 5):
        sign_in(conn, table, "A", table)
    for m in session_results(HOWELL):
        ingest(conn, m)
    conn.close()
    code, out, _ = tenace(capsys, "names", str(db), "--pair", "7", "--players", "101", "117")
    assert code == 0 and out == "7: #101 - #117\n"
    code, _, err = tenace(capsys, "names", str(db), "--pair", "NS 7", "--players", "101", "117")
    assert code == 2 and err == "tenace names: section A is a Howell: its pairs have no direction, name it 7\n"
    code, out, _ = tenace(capsys, "adjust", str(db), "--pair", "7", "--penalty", "25%", "--who", "TD Ana",
                          "--why", "Law 90: slow play")
    assert code == 0 and out.startswith("penalty: section A 7: 25% of a top"), out
    code, _, err = tenace(capsys, "adjust", str(db), "--pair", "EW 7", "--penalty", "25%", "--why", "x")
    assert code == 2 and "is a Howell" in err and err.count("\n") == 1
    code, out, _ = tenace(capsys, "results", str(db), "--json")
    assert code == 0
    document = json.loads(out)
    ranking = document["sections"][0]["report"]["ranking"]
    assert len(ranking) == 8 and {line["field"] for line in ranking} == {""}
    assert sorted(line["pair"] for line in ranking) == [str(n) for n in range(1, 9)]
    # Pair 8 sits North-South at table 1 all evening; the others sit both ways. Each plays all 14 boards.
    assert {line["pair"]: line["directions"] for line in ranking} == {**{str(n): "EW/NS" for n in range(1, 8)},
                                                                      "8": "NS"}
    assert all(line["boards"] == 14 for line in ranking)
    seven = next(line for line in ranking if line["pair"] == "7")
    assert seven["names"] == "#101 - #117" and seven["penalty"] == 1.5  # 25% of a top of 6
    code, out, _ = tenace(capsys, "results", str(db), "--pair", "7")
    assert code == 0 and "Scorecard of 7 (#101 - #117)" in out and "Law 90 penalty, 7: 25% of a top" in out, out
    boards = [line.split()[0] for line in out.splitlines() if re.match(r"^\s+\d+\s+table", line)]
    assert boards == [str(b) for b in range(1, 15)], out  # pair 7 plays every board, sitting both ways
    code, out, _ = tenace(capsys, "event", "show", str(db))
    assert code == 0 and "round  1 table  1:  8 (NS) v  1 (EW)  boards 1 2" in out, out
