"""The hub's national ranking equals an across-the-field matchpointing of every pushed result computed here, in the
test (2 per score beaten, 1 per tie, Neuberg to the most results any board has, each board's MPs published to 2
decimals and added), not by the hub's code."""

from __future__ import annotations

import itertools
import random
import time
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

from starlette.testclient import TestClient

from tenace.hub.pages import hub_app
from tenace.protocol import wire

from hub_sim import batch, make_sim, possible, slot

SCORES = (-200, -100, -50, 110, 120, 140, 400, 420, 430, 450, 460, 620, 650)


def test_the_national_ranking_is_the_fields_matchpointing_computed_here(hub_db: str, tmp_path: Path) -> None:
    rng = random.Random(7)
    boards = 4
    tokens = make_sim(hub_db, tmp_path, clubs=5, boards=boards)
    pushed: list[tuple[str, int, int, object]] = []  # (club, table, board, NS score or "A" for an average)
    with TestClient(hub_app(hub_db)) as client:
        for n, (club, token) in enumerate(sorted(tokens.items())):
            tables = 3 + n % 3  # 3 to 5 tables: counts differ across the field
            slots = []
            for board in range(1, boards + 1):
                for table in range(1, tables + 1):
                    if board == 4 and table == 1 and n % 2:  # not played: board 4 has fewer results
                        continue
                    if board == 2 and table == 2 and n == 3:
                        s = wire.SlotPush("A", table, 1, board, table, table, "NS", "EW", "result", "artificial",
                                          ns_adjust="A", ew_adjust="A")
                        pushed.append((club, table, board, "A"))
                    else:
                        score = rng.choice(possible(board, SCORES))
                        s = slot("A", table, board, score)
                        pushed.append((club, table, board, score))
                    slots.append(s)
            r = client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", club, 1, slots)),
                            headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
        ranking: list[dict[str, str]] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # the worker scores after the pushes' NOTIFY
            ranking = client.get("/api/sim/sim1/national").json()
            if len(ranking) == sum(3 + n % 3 for n in range(5)) * 2:
                break
            time.sleep(0.1)

    # The field's matchpoints, here: E is the most results a board has; a board with fewer is factored up
    # (Neuberg: (M + 1) E / N - 1); an artificial average is half the top and takes no part in the comparisons.
    expected = max(sum(1 for p in pushed if p[2] == b) for b in range(1, boards + 1))
    top = 2 * (expected - 1)
    got: dict[str, list[Fraction]] = {}
    for b in range(1, boards + 1):
        on_board = [p for p in pushed if p[2] == b]
        played = [int(p[3]) for p in on_board if p[3] != "A"]  # type: ignore[call-overload]
        n = len(played)
        for club, table, _, score in on_board:
            if score == "A":
                ns = ew = Fraction(top, 2)
            else:
                raw = 2 * sum(1 for s in played if s < score) + sum(1 for s in played if s == score) - 1  # type: ignore[operator]
                ns = (raw + 1) * Fraction(expected, n) - 1
                ew = (2 * (n - 1) - raw + 1) * Fraction(expected, n) - 1
            got.setdefault(f"{club}/A{table}NS", []).append(ns)
            got.setdefault(f"{club}/A{table}EW", []).append(ew)
    def two(x: Fraction | Decimal) -> Decimal:
        return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal("0.01"), ROUND_HALF_UP)

    # A pair's total adds its boards' MPs each published to 2 decimals, as a club adds them; its percentage is of that.
    totals = {p: sum(map(two, mps), Decimal(0)) for p, mps in got.items()}
    percent = {p: Fraction(totals[p]) * 100 / (top * len(mps)) for p, mps in got.items()}
    assert {r["pair"] for r in ranking} == set(percent)
    for r in ranking:
        assert (Decimal(r["mp"]), Decimal(r["percent"])) == (totals[r["pair"]], two(percent[r["pair"]])), r
    # A pair's page adds up: its boards' national MPs are its national total.
    with TestClient(hub_app(hub_db)) as client:
        for r in ranking[:6]:
            club, _, pair = r["pair"].partition("/")
            card = client.get(f"/api/sim/sim1/pair/{club}/{pair}").json()
            assert sum(Decimal(board[5]) for board in card["boards"]) == Decimal(r["mp"]), card
    for direction in ("NS", "EW"):
        order = [r["pair"] for r in ranking if r["pair"].endswith(direction)]
        values = [percent[p] for p in order]
        assert all(a >= b - Fraction(1, 50) for a, b in itertools.pairwise(values)), (direction, values)
        ranks = [r["rank"] for r in ranking if r["pair"].endswith(direction)]
        assert ranks[0] in ("1", "1=")
