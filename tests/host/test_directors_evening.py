"""The director's evening, scripted: results from the terminals with a conflict, then resolve, adjust, a penalty,
finish, a correction inside the Law 79C period, one refused after it and one forced; the log, problems, ranking."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.movement import mitchell
from tenace.scoring.model import Artificial, Average, BoardResult, Penalty, PenaltyUnit, Played
from tenace.scoring.pairs_session import score_pairs_session
from tenace.store import IncomingResult, clock, connect, director_log, ingest, sign_in, states
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score
from tenace_rules.tricks import parse_tricks

from sample_results import session_results

EVENING = datetime(2024, 5, 14, 19, 0, tzinfo=UTC)
TABLES, BOARDS_PER_ROUND = 5, 3  # a 5-table Mitchell: 5 rounds, 15 boards, 75 results


class Clock:
    """The store's clock, moved by the script: the evening plays in seconds."""

    def __init__(self) -> None:
        self.now = EVENING

    def at(self, hour: int, minute: int) -> None:
        self.now = EVENING.replace(hour=hour, minute=minute)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    c = Clock()
    monkeypatch.setattr(clock, "now", c)
    monkeypatch.setenv("TZ", "UTC")  # the TD's wall clock in messages: 22:30, not the machine's zone
    time.tzset()
    yield c
    monkeypatch.undo()
    time.tzset()



def ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = tenace(capsys, *args)
    assert code == 0 and err == "", (args, err)
    return out


def expected_score(m: IncomingResult) -> int:
    """The Law 77 score of a sample message, computed here from its fields (not by the store)."""
    if m.kind == "passed_out":
        return 0
    assert isinstance(m.contract, str) and isinstance(m.declarer, str) and m.tricks is not None
    contract = parse_contract(m.contract)
    tricks = m.tricks if isinstance(m.tricks, int) else parse_tricks(contract, m.tricks)
    return ns_score(contract, m.declarer, vulnerability(m.board), tricks)


def test_the_directors_evening(tmp_path: Path, wall: Clock, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    ok(capsys, "event", "new", db, "--name", "Tuesday pairs", "--tables", str(TABLES),
       "--boards-per-round", str(BOARDS_PER_ROUND), "--date", "2024-05-14")
    movement = mitchell(TABLES, BOARDS_PER_ROUND)
    messages = session_results(movement)
    conn = connect(db)
    for table in range(1, TABLES + 1):
        sign_in(conn, table, "A", table, at=EVENING)
    # A spare terminal (21) at table 2 as well: it keys round 1's first board too, differently. A conflict.
    sign_in(conn, 21, "A", 2, who="TD", at=EVENING)
    first_at_2 = next(m for m in messages if m.table == 2 and m.round == 1)
    rival = replace(first_at_2, terminal=21, sequence=1, kind="normal", contract="3NT", declarer="S", tricks=9,
                    lead=None)

    # Rounds come in as the collector stores them, one frame at a time, 20 minutes a round.
    for i, m in enumerate(messages):
        assert ingest(conn, m, at=EVENING + timedelta(minutes=20 * m.round, seconds=i)).acknowledge
        if m == first_at_2:
            assert ingest(conn, rival, at=EVENING + timedelta(minutes=20, seconds=i + 1)).conflict
        if i == 30:  # mid-session: partial results, the conflict left out
            conn.close()
            wall.at(19, 45)
            partial = json.loads(ok(capsys, "results", db, "--json"))["sections"][0]
            assert (partial["results_in"], partial["expected"], partial["conflicts"]) == (30, 75, 1)
            assert "30 of 75 results in: provisional" in ok(capsys, "results", db)
            conn = connect(db)
    conn.close()

    problems = ok(capsys, "problems", db)
    assert "CONFLICTS: 1" in problems and f"table 2 round 1 board {first_at_2.board}" in problems
    assert "DIRECTOR'S LOG: none (session running)" in problems

    board = str(first_at_2.board)
    adjusted = next(m for m in messages if m.table == 4 and m.round == 3)
    corrected = next(m for m in messages if m.table == 5 and m.round == 5 and m.kind == "normal")
    late = next(m for m in messages if m.table == 1 and m.round == 4)

    # 21:50 the conflict: table 2 agrees the terminal at the table (v1) was right.
    wall.at(21, 50)
    out = ok(capsys, "resolve", db, "--table", "2", "--board", board, "--keep", "v1", "--who", "TD Ana",
             "--why", "both pairs agree on the first entry")
    assert out.startswith(f"resolve: section A table 2 round 1 board {board}: v3 replaces v1, v2")
    # 21:52 a fouled board at table 4: A+ to NS, A- to EW; 21:53 a Law 90 penalty for slow play.
    wall.at(21, 52)
    ok(capsys, "adjust", db, "--table", "4", "--board", str(adjusted.board), "--ns", "A+", "--ew", "A-",
       "--who", "TD Ana", "--why", "fouled board, NS not at fault")
    wall.at(21, 53)
    ok(capsys, "adjust", db, "--pair", "EW 3", "--penalty", "25%", "--who", "TD Ana", "--why", "Law 90: slow play")

    # 22:00 the session is finished and the results published: corrections until 22:30.
    wall.at(22, 0)
    out = ok(capsys, "finish", db, "--who", "TD Ana")
    assert "correction period 30 minutes, until 22:30" in out

    # 22:10 inside the period: table 5 round 5 made one trick fewer.
    wall.at(22, 10)
    assert isinstance(corrected.tricks, int) and corrected.tricks > 0
    one_down = str(corrected.tricks - 1)
    ok(capsys, "correct", db, "--table", "5", "--board", str(corrected.board), "--contract", str(corrected.contract),
       "--by", str(corrected.declarer), "--tricks", one_down, "--who", "TD Ana", "--why", "EW's revoke undone, Law 64")

    # 22:45 outside it: refused, nothing recorded; then forced, and the force logged.
    wall.at(22, 45)
    fix = ("correct", db, "--table", "1", "--board", str(late.board), "--passed-out", "--who", "TD Bo",
           "--why", "NS appeal: the board was passed out")
    code, out, err = tenace(capsys, *fix)
    assert code == 2 and out == ""
    assert err == ("tenace correct: the Law 79C correction period ended at 22:30 (30 minutes after the results were "
                   "published at 22:00): changes are refused unless forced: --force makes the change anyway, and "
                   "the force is logged\n")
    wall.at(22, 46)
    out = ok(capsys, *fix, "--force")
    assert "FORCED after the correction period" in out

    # The log: every action, in order, with when, who and why; only the last one forced.
    conn = connect(db)
    log = director_log(conn)
    slots = states(conn)
    conn.close()
    assert [(e.action, e.at[11:16], e.who, e.forced) for e in log] == [
        ("resolve", "21:50", "TD Ana", False), ("adjust", "21:52", "TD Ana", False),
        ("penalty", "21:53", "TD Ana", False), ("finish", "22:00", "TD Ana", False),
        ("correct", "22:10", "TD Ana", False), ("correct", "22:46", "TD Bo", True)]
    assert log[-1].why == "NS appeal: the board was passed out"
    assert not any(s.conflict for s in slots.values())
    assert sum(len(s.versions) for s in slots.values()) == 75 + 1 + 4  # the rival, and four director's versions

    # The problems list: no conflict, the log with the force, the session finished.
    problems = ok(capsys, "problems", db)
    assert "CONFLICTS: none" in problems
    assert "DIRECTOR'S LOG: 6 (finished at 22:00:00, correction period until 22:30:00)" in problems
    assert "22:46:00 correct by TD Bo FORCED after the correction period" in problems
    assert "penalty by TD Ana: section A EW 3: 25% of a top" in problems
    doc = json.loads(ok(capsys, "problems", db, "--json"))
    assert [e["forced"] for e in doc["director_log"]] == [False] * 5 + [True]

    # The results: the adjusted and corrected lines marked, the penalty beside EW 3, the title says published.
    text = ok(capsys, "results", db)
    assert "all 75 results in; published at 22:00, corrections until 22:30 (Law 79C)" in text
    assert text.count("[TD: ") == 4 and "[TD: adjusted]" in text and "(Law 90 penalty -" in text
    assert "(after the correction period, forced)" in text

    # The ranking is the engine's on the evening's results as they now stand, fed directly from this script.
    final: list[BoardResult] = []
    for m in messages:
        outcome: Played | Artificial = Played(expected_score(m))
        if m == adjusted:
            outcome = Artificial(Average.PLUS, Average.MINUS)
        elif m == corrected:
            outcome = Played(expected_score(replace(m, tricks=int(one_down))))
        elif m == late:
            outcome = Played(0)
        final.append(BoardResult("A", m.table, m.round, m.board, f"NS {m.ns_pair}", f"EW {m.ew_pair}", outcome))
    engine = score_pairs_session(final, penalties=[Penalty("EW 3", Fraction(25), PenaltyUnit.PERCENT_OF_TOP)])
    want = [(p.field, p.pair, p.text, engine.totals[p.pair].mp, engine.totals[p.pair].percent)
            for p in engine.ranking]
    ranking = json.loads(ok(capsys, "results", db, "--json"))["sections"][0]["report"]["ranking"]
    got = [(r["field"], r["pair"], r["rank"], Decimal(str(r["mp"])).quantize(Decimal("0.01")),
            Decimal(str(r["percent"])).quantize(Decimal("0.01"))) for r in ranking]
    assert got == want
    assert next(r for r in ranking if r["pair"] == "EW 3")["penalty"] == pytest.approx(
        float(engine.totals["EW 3"].penalty))
