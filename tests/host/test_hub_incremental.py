"""The hub's incremental scoring (only the boards a push changed re-scored, the field's E applied afterwards) equals a
full re-score by scoring.pairs_session after a random sequence of pushes, corrections, erasures, artificial and
weighted scores and penalties, at every checkpoint; and a pair's national boards equal the full session's."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tenace.hub import club_field, field, field_imps, scorer
from tenace.hub.ingest import club_of, take
from tenace.protocol import wire
from tenace.scoring.pairs_session import score_pairs_session

from hub_sim import make_sim, played, possible

SCORES = (-200, -100, -50, 110, 120, 140, 400, 420, 430)
ADJUSTS = (("A+", "A-"), ("A", "A"), ("A-", "A+"), ("60%", "40%"))


def _random_slot(rng: random.Random, table: int, board: int) -> wire.SlotPush:
    roll = rng.random()
    base = ("A", table, 1, board, table, table, "NS", "EW")
    if roll < 0.12:
        return wire.SlotPush(*base, "none")  # an erasure: the slot counts for nothing now
    if roll < 0.2:
        ns, ew = rng.choice(ADJUSTS)
        return wire.SlotPush(*base, "result", "artificial", ns_adjust=ns, ew_adjust=ew)
    if roll < 0.25:
        return wire.SlotPush(*base, "result", "weighted", weights=f"1/3:{rng.choice(SCORES)} 2/3:{rng.choice(SCORES)}")
    if roll < 0.28:
        return wire.SlotPush(*base, "result", "not_played")
    score = rng.choice(possible(board, SCORES))
    return wire.SlotPush(*base, "result", "normal", *played(board, score), None, score)


def _check(conn: psycopg.Connection[Any], sim: str, scoring: str) -> int:
    """Score incrementally, then compare with the full re-score of what the hub holds; the pairs compared."""
    scorer.rescore_until_current(conn, sim)
    row = conn.execute("SELECT field FROM scores WHERE sim = %s", (sim,)).fetchone()
    assert row is not None
    got = row[0]["national"] if row[0] else []
    results, penalties = field.load(conn, sim)
    if scoring != "mp":  # the IMP field's engines from scratch (field_imps' own test checks them against the scale)
        assert got == field_imps.full_national_imps(results, penalties, scoring)
        return len(got)
    assert got == field.full_national(results, penalties)
    every = [r for rs in results.values() for r in rs]
    if every:  # a pair's national boards, read from the figures, are the full session's boards
        session = score_pairs_session(every, field.NATIONAL, [p for ps in penalties.values() for p in ps])
        for pair in sorted({r.ns_pair for r in every})[:3]:
            cards = club_field.pair_cards(conn, sim, pair)
            boards = {b.board: side for b in session.boards for p, side in b.pair_sides() if p == pair}
            assert cards is not None
            assert {c[0]: (c[5], c[6]) for c in cards} == {b: (str(s.mp), str(s.percent)) for b, s in boards.items()}
    return len(got)


@pytest.mark.parametrize(("seed", "scoring"), [(1, "mp"), (2, "mp"), (3, "cross-imps"), (4, "butler")])
def test_incremental_scores_equal_a_full_rescore(hub_db: str, tmp_path: Path, seed: int, scoring: str) -> None:
    rng = random.Random(seed)
    boards, sim = 5, "sim1"
    tokens = make_sim(hub_db, tmp_path, clubs=4, boards=boards, sim=sim, scoring=scoring)
    tables = {club: 2 + i for i, club in enumerate(sorted(tokens))}  # counts differ: Neuberg, and E grows
    seqs = dict.fromkeys(tokens, 0)
    version = 1000
    checked = 0
    with psycopg.connect(hub_db, autocommit=True) as conn:
        clubs = {name: club_of(conn, token) for name, token in tokens.items()}
        for step in range(60):
            name = rng.choice(sorted(tokens))
            pushes = []
            for _ in range(rng.randint(1, 6)):
                seqs[name] += 1
                version += 1
                if rng.random() < 0.05:
                    pen = wire.PenaltyPush("A", rng.randint(1, tables[name]), rng.choice(("NS", "EW")),
                                           rng.choice(("1", "3/2")), rng.choice(("MP", "%top")), None)
                    pushes.append(wire.Push(seqs[name], version, penalty=pen))
                else:
                    s = _random_slot(rng, rng.randint(1, tables[name]), rng.randint(1, boards))
                    pushes.append(wire.Push(seqs[name], version, slot=s))
            club = clubs[name]
            assert club is not None
            assert take(conn, club, wire.Batch(sim, name, tuple(pushes))).acked == seqs[name]
            if step % 7 == 6 or rng.random() < 0.1:
                checked += _check(conn, sim, scoring)
        checked += _check(conn, sim, scoring)
        # A full pass from scratch gives what the incremental ones left.
        row = conn.execute("SELECT field FROM scores WHERE sim = %s", (sim,)).fetchone()
        assert row is not None
        assert scorer.rescore(conn, sim, full=True) is True
        again = conn.execute("SELECT field FROM scores WHERE sim = %s", (sim,)).fetchone()
        assert again is not None and again[0] == row[0]
    assert checked > 0
