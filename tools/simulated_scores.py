"""Simulated fields of NS scores for benchmarks: Law 77 scores spread around a board's likely contract."""

from __future__ import annotations

import random

from tenace_rules.board import SEATS, vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score


def realistic_board(board: int, results: int, rng: random.Random) -> list[int]:
    """Law 77 NS scores around a board's likely contract, as a real field spreads: few distinct scores."""
    vul = vulnerability(board)
    level, strain, declarer = rng.randint(1, 6), rng.randint(0, 4), rng.choice(SEATS)
    scores = []
    for _ in range(results):
        lvl = min(max(level + rng.choice((-1, 0, 0, 0, 1)), 1), 7)
        seat = declarer if rng.random() < 0.8 else SEATS[(SEATS.index(declarer) + 1) % 4]
        doubling = 1 if rng.random() < 0.08 else 0
        tricks = min(max(int(rng.gauss(lvl + 6, 1.2)), 0), 13)
        scores.append(ns_score(Contract(lvl, strain, doubling), seat, vul, tricks))
    return scores
