"""The scoring worker's shortcuts: a board of played scores counted without the engine gives the engine's figures,
and a worker whose memory of the sim is not the last pass's (another worker scored meanwhile) reads the sim whole
instead of missing what the other one took off the queue; and an IMP sim's pages, scored by it, show IMPs."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from tenace.hub import field, scorer
from tenace.hub.ingest import club_of, take
from tenace.hub.pages import hub_app
from tenace.protocol import wire
from tenace.scoring.model import BoardResult, Penalty
from tenace.scoring.ranking import FieldMode

from hub_sim import batch, make_sim, slot

VULNERABLE = {420: 620, -50: -100, 450: 650}  # a score non-vulnerable, the same contract vulnerable

def test_played_boards_counted_directly_equal_the_engine() -> None:
    rng = random.Random(7)
    for _ in range(200):
        scores = rng.sample(range(-1400, 1500, 10), rng.randint(1, 12))
        counts = {f"P{s}": rng.randint(1, 40) for s in scores}
        fast = field.board_figures(3, counts)
        assert fast[0] == sum(counts.values())
        assert sorted(fast[1]) == sorted(field._engine_figures(3, counts)[1])



def test_an_artificial_percentage_alone_on_a_board_keeps_its_percentage() -> None:
    """A director's 60%/40% on a board no other table has reported yet: 60 and 40 % of the field's top (it was 50/50,
    scored at a top of 0), as the club scores it."""
    entries, figures = field.board_figures(14, {"A60%|40%": 1})
    assert entries == 1
    assert sorted((d, Fraction(n, den)) for d, _, art, n, den, _ in figures if art) == [
        ("EW", Fraction(2, 5)), ("NS", Fraction(3, 5))]
    assert field.board_figures(14, {"P420": 1})[1] == field._engine_figures(14, {"P420": 1})[1]

def _ranking(conn: psycopg.Connection[object]) -> list[dict[str, object]]:
    row = conn.execute("SELECT field FROM scores WHERE sim = 'sim1'").fetchone()
    assert row is not None
    rows: list[dict[str, object]] = row[0]["national"]
    return rows


def test_a_worker_whose_memory_is_stale_reads_the_sim_whole(hub_db: str, tmp_path: Path) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=2, boards=3)
    with psycopg.connect(hub_db, autocommit=True) as conn:
        clubs = {name: club_of(conn, token) for name, token in tokens.items()}
        seq = dict.fromkeys(tokens, 0)

        def push(club: str, *slots: wire.SlotPush) -> None:
            pushes = []
            for s in slots:
                seq[club] += 1
                pushes.append(wire.Push(seq[club], 100 + seq[club], slot=s))
            got = clubs[club]
            assert got is not None
            take(conn, got, wire.Batch("sim1", club, tuple(pushes)))

        scorer.forget()
        push("c1", slot("A", 1, 1, 420), slot("A", 2, 1, 400))
        assert scorer.rescore(conn, "sim1") is True
        mine = scorer._CACHES["sim1"]
        # Another worker scores the next push: it takes it off the queue, this worker never sees it there.
        scorer.forget("sim1")
        push("c2", slot("A", 1, 1, -50), slot("A", 2, 1, 430))
        assert scorer.rescore(conn, "sim1") is True
        scorer._CACHES["sim1"] = mine  # this worker again, with its memory of the first pass
        push("c1", slot("A", 1, 2, 110))
        assert scorer.rescore(conn, "sim1") is True
        results, penalties = field.load(conn, "sim1")
        assert _ranking(conn) == field.full_national(results, penalties)
        assert {r["pair"] for r in _ranking(conn)} >= {"c2/A1NS", "c2/A2EW"}
        assert scorer._CACHES["sim1"] is not mine  # read whole, into a new memory
        scorer.forget()


def test_an_imp_sims_pages_show_imps(hub_db: str, tmp_path: Path) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=2, boards=2, scoring="butler")
    with TestClient(hub_app(hub_db)) as client:
        for club, scores in (("c1", (420, 170)), ("c2", (-50, 450))):
            # board 2 North-South vulnerable (Law 2): its scores are the vulnerable ones
            slots = [slot("A", table, board, score if board == 1 else VULNERABLE.get(score, score))
                     for board in (1, 2) for table, score in enumerate(scores, 1)]
            r = client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", club, 1, slots)),
                            headers={"Authorization": f"Bearer {tokens[club]}"})
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 20
        rows: list[dict[str, object]] = []
        while time.monotonic() < deadline and len(rows) < 8:
            rows = client.get("/api/sim/sim1/national").json()
            time.sleep(0.05)
        assert len(rows) == 8 and all(r["imps"] is not None and r["percent"] is None for r in rows)
        page = client.get("/sim/sim1").text
        assert ">IMPs</th>" in page and "Butler-scored across the field" in page and "None" not in page
        pair = client.get("/sim/sim1/pair/c1/A1NS").text
        assert "National IMPs" in pair and "None" not in pair
        card = client.get("/api/sim/sim1/pair/c1/A1NS").json()
        assert card["national_imps"] == next(r["imps"] for r in rows if r["pair"] == "c1/A1NS")


@pytest.mark.parametrize(("seed", "howell"), [(1, False), (2, False), (3, True), (4, True)])
def test_the_live_head_is_the_whole_rankings_first_rows(seed: int, howell: bool) -> None:
    """The head of the ranking made from the pairs that can be in it equals the whole ranking's first rows, for
    every length: scores from a short list (many ties), averages, a weighted score and penalties."""
    rng = random.Random(seed)
    cache = scorer.FieldCache()
    played: dict[tuple[int, int], str] = {}
    for club in ("c1", "c2", "c3", "c4"):  # c2 plays c1's results again: their pairs tie
        for table in range(1, 9 if club in ("c1", "c2") else rng.randint(4, 9)):
            for board in range(1, 7):
                ns, ew = (f"{club}/A{table}", f"{club}/A{(table + board) % 8 + 1}") if howell else (
                    f"{club}/A{table}NS", f"{club}/A{table}EW")
                roll = rng.random()
                outcome = ("AA+|A-" if roll < 0.05 else "AA|A" if roll < 0.08 else "W1/2:420 1/2:-50|" if roll < 0.1
                           else f"P{rng.choice((-100, -50, 110, 140, 420, 450))}")
                if club == "c2":
                    outcome = played[table, board]
                played[table, board] = outcome
                cache.put((club, "A", table, 1, board), ns, ew, outcome)
    cache.rescore_boards()
    penalties = [("c1", {"section": "A", "pair": 2, "field": "" if howell else "NS", "amount": "1", "unit": "MP",
                         "board": None, "withdrawn": False}),
                 ("c2", {"section": "A", "pair": 3, "field": "" if howell else "EW", "amount": "25", "unit": "%top",
                         "board": None, "withdrawn": False})]
    whole = scorer.national(cache, penalties).whole()
    assert len(whole) > 20 and any(r["rank"].endswith("=") for r in whole)  # ties, which a cut may split
    for rows in range(0, len(whole) + 2):
        assert scorer.national(cache, penalties, head=rows).head == whole[:rows]


def _sections_field(seed: int, howell: bool) -> tuple[scorer.FieldCache, dict[str, list[BoardResult]],
                                                      list[tuple[str, dict[str, Any]]]]:
    """Three clubs of two sections each (a Mitchell, or each table's two pairs changing seats board by board), scores
    from a short list with averages and a weighted score, and two penalties: the scorer's cache of them, and the
    results and penalties as hub.field.load reads them."""
    rng = random.Random(seed)
    cache = scorer.FieldCache()
    results: dict[str, list[BoardResult]] = {}
    for club in ("c1", "c2", "c3"):
        for section in ("A", "B"):
            for table in range(1, rng.randint(3, 7)):
                for board in range(1, 5):
                    ns, ew = (table, "NS"), (table, "EW")
                    if howell:
                        ns, ew = ((2 * table - 1, ""), (2 * table, "")) if board % 2 else (
                            (2 * table, ""), (2 * table - 1, ""))
                    roll = rng.random()
                    outcome = ("AA+|A-" if roll < 0.05 else "W1/2:420 1/2:-50|" if roll < 0.08
                               else f"P{rng.choice((-100, -50, 110, 140, 420, 450))}")
                    slot = {"section": section, "table": table, "round": 1, "board": board, "ns_pair": ns[0],
                            "ns_field": ns[1], "ew_pair": ew[0], "ew_field": ew[1]}
                    got = field.result_of(club, slot, outcome)
                    assert got is not None
                    results.setdefault(club, []).append(got)
                    cache.put((club, section, table, 1, board), got.ns_pair, got.ew_pair, outcome)
    cache.rescore_boards()
    penalties: list[tuple[str, dict[str, Any]]] = [
        ("c1", {"section": "A", "pair": 2, "field": "" if howell else "NS", "amount": "1", "unit": "MP",
                "board": None, "withdrawn": False}),
        ("c2", {"section": "B", "pair": 1, "field": "" if howell else "EW", "amount": "25", "unit": "%top",
                "board": None, "withdrawn": False})]
    return cache, results, penalties


@pytest.mark.parametrize("howell", [False, True])
@pytest.mark.parametrize(("options", "fields"), [
    ({}, (2, 1)), ({"fields": FieldMode.ONE}, (1, 1)), ({"fields": FieldMode.BY_DIRECTION}, (2, 1)),
    ({"rank_by_section": True}, (12, 6))], ids=["auto", "one", "by-direction", "by-section"])
def test_the_pass_ranks_as_scoring_ranks_the_field(howell: bool, options: dict[str, Any], fields: tuple[int, int],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass's ranking, whole and its head of any length, is scoring.pairs_session's of the same results, under
    any fielding the national options may ask (the pass holds no ranking of its own: it hands its candidates to
    rank_session, fielded as the whole field is); `fields`: how many, of the Mitchell and of the other."""
    national = replace(field.NATIONAL, **options)
    monkeypatch.setattr(field, "NATIONAL", national)
    monkeypatch.setattr(scorer, "NATIONAL", national)
    cache, results, penalties = _sections_field(5 + howell, howell)
    by_club: dict[str, list[Penalty]] = {}
    for club, body in penalties:
        by_club.setdefault(club, []).append(field.penalty_of(club, body))
    whole = scorer.national(cache, penalties).whole()
    assert whole == field.full_national(results, by_club)
    assert len({r["field"] for r in whole}) == fields[howell]
    for rows in range(0, len(whole) + 2):
        assert scorer.national(cache, penalties, head=rows).head == whole[:rows]
