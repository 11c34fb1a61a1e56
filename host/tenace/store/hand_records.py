"""Each board's deal in the event file: a PBN deal from North ("N:AKQ.... ... ... ..."), per section and board."""

from __future__ import annotations

import sqlite3

from tenace.store.db import transaction
from tenace.store.errors import EntryError
from tenace_rules.notation import CARD_RANKS

_SUITS = 4
_CARDS = 52


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
