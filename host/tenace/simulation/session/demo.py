"""The simulated club session of `tenace demo`: a Mitchell, every board played by random players."""

from __future__ import annotations

import random

from tenace.movement import mitchell
from tenace.reports.session import Play
from tenace.scoring.model import BoardResult, Played
from tenace_rules.board import vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score


def random_result(rng: random.Random) -> tuple[Contract, str, int]:
    if rng.random() < 0.04:
        return Contract(0), "N", 0
    level = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 7))
    contract = Contract(level, rng.randrange(5), rng.choice((0,) * 8 + (1, 1, 2)))
    tricks = max(0, min(13, level + 6 + round(rng.gauss(0, 1.2))))
    return contract, rng.choice("NESW"), tricks


def pair_id(number: int, direction: str) -> str:
    """The scoring engine's id of a demo pair: "3NS" (a Mitchell has an NS 3 and an EW 3)."""
    return f"{number}{direction}"


def play_session(tables: int, boards_per_round: int, seed: int) -> list[tuple[BoardResult, Play]]:
    """Every table of every round of a Mitchell, each board played by simulated players."""
    rng = random.Random(seed)
    movement = mitchell(tables, boards_per_round)
    played = []
    for e in movement.encounters:
        for board in e.boards:
            contract, declarer, tricks = random_result(rng)
            score = ns_score(contract, declarer, vulnerability(board), tricks)
            play: Play = ("Pass", None, None) if contract.passed_out else (contract.text(), declarer, tricks)
            result = BoardResult("", e.table, e.round, board, pair_id(e.ns_pair, "NS"), pair_id(e.ew_pair, "EW"),
                                 Played(score))
            played.append((result, play))
    return played
