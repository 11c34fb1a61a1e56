"""Each board's deal in the event file: a PBN deal from North ("N:AKQ.... ... ... ..."), per section and board."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tenace.store.db import transaction
from tenace.store.errors import EntryError
from tenace_rules.notation import CARD_RANKS

_SUITS = 4
_CARDS = 52
# The double-dummy table's order, as stored: declarers, then for each the strains (NT last, as DDS counts them).
DECLARERS = "NESW"
STRAINS = ("C", "D", "H", "S", "NT")


@dataclass(frozen=True)
class DoubleDummy:
    """A deal's double-dummy analysis: the tricks each declarer takes in each strain, and par for the board."""

    tricks: dict[str, dict[str, int]]  # declarer (N E S W) -> strain (C D H S NT) -> tricks
    par_score: int  # NS's score at par (negative: EW's)
    par_contracts: tuple[str, ...]  # "4S N =", "4CX S -1": contract, declarer, result

    def encoded(self) -> str:
        """The 20 hexadecimal digits the event file keeps (declarers N E S W, each strains C D H S NT)."""
        return "".join(f"{self.tricks[d][s]:X}" for d in DECLARERS for s in STRAINS)

    @classmethod
    def decoded(cls, tricks: str, par_score: int, par_contracts: str) -> DoubleDummy:
        digits = iter(tricks)
        table = {d: {s: int(next(digits), 16) for s in STRAINS} for d in DECLARERS}
        return cls(table, par_score, tuple(c for c in par_contracts.split(";") if c))


@dataclass(frozen=True)
class HandRecord:
    """A board's kept deal and, once analysed, its double-dummy table and par (None until then)."""

    section: str
    board: int
    deal: str
    analysis: DoubleDummy | None = None


def check_deal(deal: str) -> None:
    """EntryError unless `deal` is a whole PBN deal from North: four hands of 13 distinct cards, 52 in all."""
    if not deal.startswith("N:"):
        raise EntryError(f"a deal starts with 'N:' (North's hand first), not {deal[:2]!r}")
    hands = deal[2:].split(" ")
    if len(hands) != 4:
        raise EntryError(f"a deal has four hands, not {len(hands)}")
    seen: set[tuple[int, str]] = set()
    for seat, hand in zip("NESW", hands, strict=True):
        suits = hand.split(".")
        if len(suits) != _SUITS:
            raise EntryError(f"{seat}'s hand {hand!r} has {len(suits)} suits, not 4 (spades.hearts.diamonds.clubs)")
        cards = [(i, rank) for i, holding in enumerate(suits) for rank in holding]
        if len(cards) != 13:
            raise EntryError(f"{seat}'s hand {hand!r} holds {len(cards)} cards, not 13")
        for card in cards:
            if card[1] not in CARD_RANKS:
                raise EntryError(f"{seat}'s hand {hand!r}: {card[1]!r} is not a rank ({CARD_RANKS})")
            if card in seen:
                raise EntryError(f"{'SHDC'[card[0]]}{card[1]} is dealt twice")
            seen.add(card)
    if len(seen) != _CARDS:
        raise EntryError(f"the deal holds {len(seen)} cards, not 52")


def keep_hand_record(conn: sqlite3.Connection, section: str, board: int, deal: str) -> None:
    """Store (or replace) a board's deal, committed; EntryError for a deal that is not whole."""
    check_deal(deal)
    with transaction(conn):
        conn.execute("INSERT INTO hand_record (section, board, deal) VALUES (?, ?, ?)"
                     " ON CONFLICT (section, board) DO UPDATE SET deal = excluded.deal", (section, board, deal))


def hand_record(conn: sqlite3.Connection, section: str, board: int) -> str | None:
    """The board's deal, or None when the event file has none."""
    row = conn.execute("SELECT deal FROM hand_record WHERE section = ? AND board = ?", (section, board)).fetchone()
    return str(row[0]) if row else None


def keep_hand_records(conn: sqlite3.Connection, section: str, deals: Mapping[int, str]) -> None:
    """Store (or replace) several boards' deals in one transaction: all or none; EntryError for one not whole."""
    for deal in deals.values():
        check_deal(deal)
    with transaction(conn):
        put_hand_records(conn, section, deals)


def put_hand_records(conn: sqlite3.Connection, section: str, deals: Mapping[int, str]) -> None:
    """Store (or replace) deals already checked, in the caller's transaction."""
    conn.executemany("INSERT INTO hand_record (section, board, deal) VALUES (?, ?, ?)"
                     " ON CONFLICT (section, board) DO UPDATE SET deal = excluded.deal",
                     [(section, board, deal) for board, deal in sorted(deals.items())])


def keep_analysis(conn: sqlite3.Connection, section: str, board: int, deal: str, analysis: DoubleDummy) -> None:
    """Store a board's double-dummy analysis of `deal`, committed (it replaces an older one of the board)."""
    with transaction(conn):
        conn.execute("INSERT INTO double_dummy (section, board, deal, tricks, par_score, par_contracts)"
                     " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (section, board) DO UPDATE SET deal = excluded.deal,"
                     " tricks = excluded.tricks, par_score = excluded.par_score,"
                     " par_contracts = excluded.par_contracts",
                     (section, board, deal, analysis.encoded(), analysis.par_score,
                      ";".join(analysis.par_contracts)))


_WITH_ANALYSIS = ("SELECT h.board, h.deal, d.tricks, d.par_score, d.par_contracts FROM hand_record h"
                  " LEFT JOIN double_dummy d ON d.section = h.section AND d.board = h.board AND d.deal = h.deal"
                  " WHERE h.section = ?")


def _with_analysis(section: str, row: tuple[Any, ...]) -> HandRecord:
    board, deal, tricks, score, contracts = row
    analysis = None if tricks is None else DoubleDummy.decoded(str(tricks), int(score), str(contracts))
    return HandRecord(section, int(board), str(deal), analysis)


def hand_records(conn: sqlite3.Connection, section: str) -> dict[int, HandRecord]:
    """The section's kept deals by board, each with its analysis when one of that same deal is kept."""
    rows = conn.execute(_WITH_ANALYSIS + " ORDER BY h.board", (section,)).fetchall()
    return {record.board: record for record in (_with_analysis(section, row) for row in rows)}


def board_hand_record(conn: sqlite3.Connection, section: str, board: int) -> HandRecord | None:
    """One board's kept deal with its analysis when one of that same deal is kept; None without a deal."""
    row = conn.execute(_WITH_ANALYSIS + " AND h.board = ?", (section, board)).fetchone()
    return None if row is None else _with_analysis(section, row)
