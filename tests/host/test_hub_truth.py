"""The hub keeps scoring whatever one club sends: a weighted score as the club writes it is scored, a slot no pass
can read (old data, stored before the push refused such outcomes) is quarantined and named to the organiser, and
neither stops its own sim or any other; the national ranking checked against one computed here, not by the hub."""

from __future__ import annotations

import time
from dataclasses import asdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb
from starlette.testclient import TestClient

from tenace.hub import organiser
from tenace.hub.pages import hub_app
from tenace.protocol import wire

from hub_sim import batch, make_sim, possible, slot

ORIGIN = {"Origin": "http://testserver"}
SCORES = (-200, -100, -50, 110, 120, 140, 400, 420, 430, 450, 460, 620, 650)
WEIGHTED = ((Fraction(3, 5), 620), (Fraction(2, 5), -100))  # as the club stores and pushes it: "3/5:620 2/5:-100"
UNREADABLE = wire.SlotPush("A", 1, 1, 1, 1, 1, "NS", "EW", "result", "artificial", ns_adjust="ZZ", ew_adjust="ZZ")


def _post(client: TestClient, token: str, b: wire.Batch) -> None:
    r = client.post(wire.PUSH_PATH, content=wire.encode(b), headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def _stored_unchecked(url: str, sim: str, club: str, push: wire.SlotPush) -> None:
    """A push as a hub that took anything stored it (pending: the club's next push applies it), bypassing the push's
    refusal."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO pushes (sim, club, seq, key, digest, body) VALUES (%s, %s, 1, 'old', 'old', %s)",
                     (sim, club, Jsonb({"slot": asdict(push), "penalty": None, "version": 1})))


def _independent(tables: dict[tuple[str, int, int], tuple[tuple[Fraction, int], ...]]
                 ) -> dict[str, tuple[str, str, str]]:
    """The national ranking, here: every club's results of a board compared (Law 78A, 2 per score beaten and 1 per
    equal one; a weighted score's parts each compared, counting the product of the weights: Law 12C1(c)), each
    board's top 2 (n - 1); each board's MPs to 2 decimals, half up, added into a pair's total (as a club adds them),
    its percentage to 2 decimals; ranked in its direction on its total, equal totals sharing a place. pair -> (rank,
    MP, %)."""
    mps: dict[str, list[Fraction]] = {}
    boards = {b for _, _, b in tables}
    top = 0
    for board in boards:
        on = {k: parts for k, parts in tables.items() if k[2] == board}
        top = 2 * (len(on) - 1)
        for (club, table, _), parts in on.items():
            ns = sum((w * v * (2 if s > c else 1 if s == c else 0)
                      for other, others in on.items() if other != (club, table, board)
                      for w, s in parts for v, c in others), Fraction(0))
            mps.setdefault(f"{club}/A{table}NS", []).append(ns)
            mps.setdefault(f"{club}/A{table}EW", []).append(top - ns)

    def two(x: Fraction) -> Decimal:
        return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal("0.01"), ROUND_HALF_UP)

    totals = {pair: sum(map(two, v), Decimal(0)) for pair, v in mps.items()}
    out = {}
    for pair, mp in totals.items():
        same = [p for p, t in totals.items() if p[-2:] == pair[-2:] and p != pair]
        rank = 1 + sum(1 for p in same if totals[p] > mp)
        tied = any(totals[p] == mp for p in same)
        out[pair] = (f"{rank}=" if tied else str(rank), str(mp),
                     str(two(Fraction(mp) * 100 / (top * len(mps[pair])))))
    return out


def test_a_weighted_score_and_another_sims_unreadable_slot_stop_no_scoring(hub_db: str, tmp_path: Path) -> None:
    # "autumn" is scored before "spring" (sims in order): its unreadable slot comes first.
    old = make_sim(hub_db, tmp_path, clubs=1, sim="autumn")
    tokens = make_sim(hub_db, tmp_path, clubs=3, sim="spring")
    _stored_unchecked(hub_db, "autumn", "c1", UNREADABLE)
    tables: dict[tuple[str, int, int], tuple[tuple[Fraction, int], ...]] = {}
    with TestClient(hub_app(hub_db)) as client:
        _post(client, old["c1"], batch("autumn", "c1", 2, [slot("A", 2, 1, 420)]))  # applies the old push too
        for n, (club, token) in enumerate(sorted(tokens.items())):
            slots = []
            for board in range(1, 5):
                for table in range(1, 4):
                    if (club, table, board) == ("c2", 3, 2):  # the director's weighted score, board 2 NS vulnerable
                        slots.append(wire.SlotPush("A", table, 1, board, table, table, "NS", "EW", "result",
                                                   "weighted", weights="3/5:620 2/5:-100"))
                        tables[club, table, board] = WEIGHTED
                    else:
                        scores = possible(board, SCORES)
                        score = scores[(7 * n + 5 * table + 3 * board) % len(scores)]
                        slots.append(slot("A", table, board, score))
                        tables[club, table, board] = ((Fraction(1), score),)
            _post(client, token, batch("spring", club, 1, slots))

        # Every push of the sim counted: each of the 18 pairs with its 4 boards (polled: the worker scores after the
        # pushes' NOTIFY, in well under the issue's 2 s on a quiet machine).
        ranking: list[dict[str, Any]] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            ranking = client.get("/api/sim/spring/national").json()
            if len(ranking) == 18 and all(r["boards"] == 4 for r in ranking):
                break
            time.sleep(0.05)
        assert len(ranking) == 18 and all(r["boards"] == 4 for r in ranking), ranking
        assert {r["pair"]: (r["rank"], r["mp"], r["percent"]) for r in ranking} == _independent(tables)

        # The other sim went on too: its readable result is scored, the unreadable one left out and recorded.
        autumn: list[dict[str, Any]] = []
        while time.monotonic() < deadline and len(autumn) != 2:
            autumn = client.get("/api/sim/autumn/national").json()
            time.sleep(0.05)
        assert sorted(r["pair"] for r in autumn) == ["c1/A2EW", "c1/A2NS"]
        with psycopg.connect(hub_db) as conn:
            quarantined = conn.execute("SELECT sim, club, section, table_no, round, board, reason FROM quarantine"
                                       ).fetchall()
        assert [q[:6] for q in quarantined] == [("autumn", "c1", "A", 1, 1, 1)] and "'ZZ'" in quarantined[0][6]


@pytest.mark.slow  # scrypt, for the organiser's login
def test_old_datas_unreadable_slot_is_named_on_the_organisers_page_until_the_club_corrects_it(
        hub_db: str, tmp_path: Path) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=2)
    with psycopg.connect(hub_db, autocommit=True) as conn:
        organiser.set_organiser(conn, "alice", "correct horse")
        # A slot as an older hub stored it: its outcome column as that hub's SQL wrote it from the body.
        conn.execute("INSERT INTO slots (sim, club, section, table_no, round, board, seq, body, outcome) VALUES "
                     "('sim1', 'c1', 'A', 1, 1, 1, 1, %s, 'AZZ|ZZ')", (Jsonb(asdict(UNREADABLE)),))
    with TestClient(hub_app(hub_db)) as client:
        _post(client, tokens["c2"], batch("sim1", "c2", 1, [slot("A", 1, 1, 420), slot("A", 2, 1, 400)]))
        ok = client.post("/console/login", data={"login": "alice", "password": "correct horse"}, headers=ORIGIN)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "Quarantined" not in client.get("/console").text:
            time.sleep(0.05)
        page = client.get("/console").text
        assert ok.status_code == 200 and "Quarantined results" in page and "AZZ|ZZ" in page
        assert len(client.get("/api/sim/sim1/national").json()) == 4  # c2's two tables, scored without it
        # The club's corrected push replaces it: out of quarantine, scored.
        _post(client, tokens["c1"], batch("sim1", "c1", 1, [slot("A", 1, 1, 400)], version0=200))
        while time.monotonic() < deadline and len(client.get("/api/sim/sim1/national").json()) != 6:
            time.sleep(0.05)
        assert len(client.get("/api/sim/sim1/national").json()) == 6
        assert "Quarantined" not in client.get("/console").text


def test_a_fault_in_one_sims_pass_holds_back_that_sim_alone(hub_db: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever else may fail in a pass (here: one sim's, made to), the sims after it in order are scored."""
    from tenace.hub import scorer
    make_sim(hub_db, tmp_path, clubs=1, sim="autumn")
    tokens = make_sim(hub_db, tmp_path, clubs=1, sim="spring")
    faulty = scorer._rescore

    def failing(conn: psycopg.Connection[Any], sim: str, full: bool) -> bool | None:
        if sim == "autumn":
            raise RuntimeError("a fault of ours")
        return faulty(conn, sim, full)

    monkeypatch.setattr(scorer, "_rescore", failing)
    ranking: list[dict[str, Any]] = []
    # The in-process hub raises the faults it logged as it stops: outside the block, so that it hides no assertion.
    with pytest.raises(RuntimeError, match="scoring failed"), TestClient(hub_app(hub_db)) as client:
        with psycopg.connect(hub_db, autocommit=True) as conn:  # autumn has work queued, and is scored first
            conn.execute("INSERT INTO slot_changes (sim, club, section, table_no, round, board) "
                         "VALUES ('autumn', '', '', 0, 0, 0)")
        _post(client, tokens["c1"], batch("spring", "c1", 1, [slot("A", 1, 1, 420), slot("A", 2, 1, 400)]))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(ranking) != 4:
            ranking = client.get("/api/sim/spring/national").json()
            time.sleep(0.05)
    assert len(ranking) == 4
