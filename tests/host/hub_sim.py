"""A simultaneous event for the hub's tests: hand records made here, a sim with clubs, and their pushes."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import psycopg

from tenace.hub import organiser
from tenace.protocol.wire import Batch, Push, SlotPush
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score

SUITS = "SHDC"
RANKS = "AKQJT98765432"


def deal_text(rng: random.Random) -> str:
    cards = [s + r for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    hands = []
    for h in range(4):
        hand = cards[h * 13:(h + 1) * 13]
        hands.append(".".join("".join(r for r in RANKS if s + r in hand) for s in SUITS))
    return "N:" + " ".join(hands)


def write_hand_records(path: Path, boards: int, seed: int = 25) -> list[str]:
    """A PBN of `boards` random deals; their Deal values."""
    rng = random.Random(seed)
    deals = [deal_text(rng) for _ in range(boards)]
    path.write_text("".join(f'[Event "Sim"]\n[Board "{b}"]\n[Dealer "{"NESW"[(b - 1) % 4]}"]\n'
                            f'[Vulnerable "None"]\n[Deal "{d}"]\n\n' for b, d in enumerate(deals, start=1)))
    return deals


def make_sim(url: str, tmp: Path, clubs: int, boards: int = 4, sim: str = "sim1",
             started: bool = True, scoring: str = "mp") -> dict[str, str]:
    """A sim of `boards` boards and `clubs` clubs (c1, c2...) scored by `scoring`; each club's token."""
    path = tmp / "deals.pbn"
    write_hand_records(path, boards)
    start = datetime.now(UTC) - timedelta(hours=3) if started else datetime.now(UTC) + timedelta(days=1)
    with psycopg.connect(url, autocommit=True) as conn:
        organiser.new_sim(conn, sim, "Spring sim", [start], boards, organiser.hand_records(path, boards), scoring)
        return {f"c{i}": organiser.add_club(conn, sim, f"c{i}", f"Club {i}") for i in range(1, clubs + 1)}


@cache
def _contracts(vul: str) -> dict[int, tuple[str, str, int]]:
    """Every NS score Law 77 gives with this vulnerability, with a contract, declarer and tricks that score it."""
    out: dict[int, tuple[str, str, int]] = {}
    for doubling in ("", "X", "XX"):
        for level in range(1, 8):
            for strain in ("NT", "S", "H", "D", "C"):
                contract = f"{level}{strain}{doubling}"
                for declarer in "NESW":
                    for tricks in range(14):
                        out.setdefault(ns_score(parse_contract(contract), declarer, vul, tricks),
                                       (contract, declarer, tricks))
    return out


def played(board: int, score: int) -> tuple[str, str, int]:
    """A contract, declarer and tricks that score `score` for NS on the board (its vulnerability by Law 2), as the
    hub derives it again; KeyError when no contract can."""
    return _contracts(vulnerability(board))[score]


def possible(board: int, scores: tuple[int, ...]) -> list[int]:
    """The scores a contract can score on the board."""
    return [s for s in scores if s in _contracts(vulnerability(board))]


def slot(section: str, table: int, board: int, score: int | None, contract: str | None = None,
         declarer: str | None = None, tricks: int | None = None, rnd: int = 1) -> SlotPush:
    """Table `table` of a Mitchell: NS pair = EW pair = table; a played result, or nothing (score None). Its contract,
    unless given, one that scores `score` (3NT by N making 9 when none can: the hub refuses it)."""
    if score is None:
        return SlotPush(section, table, rnd, board, table, table, "NS", "EW", "none")
    if contract is None and declarer is None and tricks is None and score in _contracts(vulnerability(board)):
        contract, declarer, tricks = played(board, score)
    return SlotPush(section, table, rnd, board, table, table, "NS", "EW", "result", "normal", contract or "3NT",
                    declarer or "N", 9 if tricks is None else tricks, None, score)


def batch(sim: str, club: str, first_seq: int, slots: list[SlotPush], version0: int = 100) -> Batch:
    return Batch(sim, club, tuple(Push(first_seq + i, version0 + first_seq + i, slot=s) for i, s in enumerate(slots)))
