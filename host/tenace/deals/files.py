"""The deals of a PBN, LIN or Duplimate DUP file, board by board, each turned to start from North or left out saying
why (DUP by hand: no library on PyPI reads it, and its layout is a few fixed fields)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from tenace.pbn.reader import PbnError, decode_pbn, pbn_games
from tenace.store.errors import EntryError
from tenace.store.hand_records import check_deal
from tenace_rules.board import SEATS

log = logging.getLogger(__name__)

# A LIN record: `key|value|`; `md|` holds the deal, `ah|Board 7|` or `qx|o7|` its board.
_LIN_PAIR = re.compile(r"([a-zA-Z]{2})\|([^|]*)\|")
_LIN_BOARD = re.compile(r"(\d+)\s*$")
# LIN's dealer digit, and the seats of its hands in the order it lists them (South first).
_LIN_DEALERS = {"1": "S", "2": "W", "3": "N", "4": "E"}
_LIN_ORDER = "SWNE"
_RANKS = "AKQJT98765432"
# A Duplimate dealing machine's DUP file: a 156-byte record a board. Its first 78 bytes (the BRI part) are North's,
# East's and South's 13 cards as two digits each, 01 the ace of spades to 52 the two of clubs (West holds the rest);
# then 68 bytes of the same deal for the machine's display (DGE), not read here; then 10 bytes of the set, of which
# bytes 149-151 (counted from 1) are the set's lowest board number.
_DUP_RECORD = 156
_DUP_BRI = 78
_DUP_LOWEST = slice(148, 151)


class DealFileError(ValueError):
    """A file that holds no deal at all, or is neither PBN, LIN nor DUP: one line for the user."""


@dataclass(frozen=True)
class FileDeal:
    """A board's deal as a file gives it: a whole deal from North, or the reason it cannot be used."""

    line: int  # where the board starts in the file
    board: int | None  # None when the file gives no usable board number
    deal: str | None = None  # "N:AKQ.JT9.876.5432 ..." when whole
    problem: str | None = None

    def __post_init__(self) -> None:
        assert (self.deal is None) != (self.problem is None), "a deal or a problem, not both"


def read_deals(data: bytes) -> list[FileDeal]:
    """Every board of a PBN file (or a LIN file: one with `md|` records; or a DUP file), in the file's order."""
    if _looks_dup(data):
        return dup_deals(data)
    text = decode_pbn(data) if b"\0" not in data else ""
    if _LIN_PAIR.search(text) and "md|" in text and not text.lstrip().startswith(("[", "%")):
        return lin_deals(text)
    try:
        games = pbn_games(data, empty="an empty file: there is no deal in it")
    except PbnError as e:
        raise DealFileError(str(e)) from None
    deals = []
    for game in games:
        board_tag, deal_tag = game.tags.get("Board"), game.tags.get("Deal")
        if board_tag is None and deal_tag is None:
            continue  # a game of headers only (Event, Site): nothing to import, nothing wrong
        board = _board_number(board_tag)
        if board_tag is None:
            deals.append(FileDeal(game.line, None, problem="no [Board] tag: which board the deal is for is unknown"))
        elif board is None:
            deals.append(FileDeal(game.line, None, problem=f"[Board {board_tag!r}] is not a board number"))
        elif not deal_tag:
            deals.append(FileDeal(game.line, board, problem="no [Deal] tag, or an empty one"))
        else:
            deals.append(_checked(game.line, board, partial(from_north, deal_tag)))
    if not deals:
        raise DealFileError("no [Board] with a [Deal] in it: not a file of deals")
    log.info("read %d boards' deals", len(deals))
    return deals


def _board_number(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() and int(text) >= 1 else None


def _checked(line: int, board: int, make: Callable[[], str]) -> FileDeal:
    """The deal `make()` builds, checked whole; a FileDeal with the reason when it is not."""
    try:
        deal = make()
        check_deal(deal)
    except (EntryError, ValueError) as e:
        return FileDeal(line, board, problem=str(e))
    return FileDeal(line, board, deal=deal)


def from_north(deal: str) -> str:
    """A PBN deal from any seat ("E:...") as one from North, the hands turned round; ValueError when not a deal."""
    first, colon, hands_text = deal.strip().partition(":")
    first = first.strip().upper()
    if not colon or first not in SEATS:
        raise ValueError(f"a deal starts with the first hand's seat, N: E: S: or W:, not {deal[:2]!r}")
    hands = hands_text.split()
    if len(hands) != 4 or "-" in hands:
        raise ValueError(f"an incomplete deal: {len(hands) - hands.count('-')} hands given, 4 wanted")
    start = SEATS.index(first)
    # hands[i] is the seat start + i clockwise; North's is the one with (start + i) % 4 == 0.
    by_seat = {SEATS[(start + i) % 4]: hand.upper() for i, hand in enumerate(hands)}
    return "N:" + " ".join(by_seat[seat] for seat in SEATS)


def lin_deals(text: str) -> list[FileDeal]:
    """Every `md|` deal of a LIN file (BBO's), each with its board from the `ah|Board N|` after it or the
    `qx|o7|` before it."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def line_of(offset: int) -> int:
        return sum(1 for s in starts if s <= offset)

    records = [(m.group(1).lower(), m.group(2), m.start()) for m in _LIN_PAIR.finditer(text)]
    deals = []
    last_qx: int | None = None
    for i, (key, value, offset) in enumerate(records):
        if key == "qx":
            last_qx = _lin_board(value)
        if key != "md":
            continue
        board = last_qx
        for later_key, later_value, _ in records[i + 1:]:
            if later_key == "md":
                break
            if later_key == "ah":
                board = _lin_board(later_value) or board
        line = line_of(offset)
        if board is None:
            deals.append(FileDeal(line, None, problem="no board number (ah|Board N| or qx|o N|) for this md| deal"))
        else:
            deals.append(_checked(line, board, partial(lin_deal, value)))
        last_qx = None
    if not deals:
        raise DealFileError("no md| record in it: not a LIN file of deals")
    return deals


def _lin_board(value: str) -> int | None:
    m = _LIN_BOARD.search(value)
    return int(m.group(1)) if m and int(m.group(1)) >= 1 else None


def lin_deal(md: str) -> str:
    """A LIN `md|` value ("3SAKQ...HJ..D..C..,S...,S...,") as a PBN deal from North; the fourth hand may be
    left out (it holds the cards the others do not). ValueError when it is not a deal."""
    md = md.strip()
    if not md or md[0] not in _LIN_DEALERS:
        raise ValueError(f"md|{md[:6]}...: a LIN deal starts with the dealer, 1 to 4")
    parts = md[1:].split(",")
    if len(parts) < 3:
        raise ValueError(f"md|{md[:10]}...: {len(parts)} hands, 3 or 4 wanted")
    hands: dict[str, dict[str, str]] = {}
    for seat, part in zip(_LIN_ORDER, parts[:4], strict=False):
        if part.strip():
            hands[seat] = _lin_hand(part.strip())
    missing = [seat for seat in _LIN_ORDER if seat not in hands]
    if len(missing) > 1:
        raise ValueError(f"an incomplete deal: {4 - len(missing)} hands given, 3 or 4 wanted")
    if missing:  # the fourth hand: every card the other three do not hold
        hands[missing[0]] = {suit: "".join(r for r in _RANKS if all(r not in h[suit] for h in hands.values()))
                             for suit in "SHDC"}
    return "N:" + " ".join(".".join(hands[seat][suit] for suit in "SHDC") for seat in SEATS)


def _lin_hand(text: str) -> dict[str, str]:
    """ "SAKQHJT9D87C65432" as its holdings by suit; ValueError for a card before any suit letter."""
    holdings = {suit: "" for suit in "SHDC"}
    suit: str | None = None
    for ch in text.upper():
        if ch in "SHDC":
            suit = ch
        elif suit is None:
            raise ValueError(f"hand {text!r}: {ch!r} before any suit letter (S, H, D or C)")
        else:
            holdings[suit] += ch
    # Ranks high to low, as PBN writes them (LIN files usually do already).
    return {s: "".join(sorted(h, key=lambda r: _RANKS.index(r) if r in _RANKS else -1)) for s, h in holdings.items()}


def _looks_dup(data: bytes) -> bool:
    """Whole 156-byte records, each opening with 78 digits: no PBN or LIN file does."""
    return bool(data) and len(data) % _DUP_RECORD == 0 and all(
        data[i:i + _DUP_BRI].isdigit() for i in range(0, len(data), _DUP_RECORD))


def dup_deals(data: bytes) -> list[FileDeal]:
    """Every record of a DUP file, numbered from the set's lowest board (1 when the record does not say)."""
    deals = []
    for index, start in enumerate(range(0, len(data), _DUP_RECORD)):
        record = data[start:start + _DUP_RECORD]
        lowest = record[_DUP_LOWEST].strip()
        board = (int(lowest) if lowest.isdigit() and int(lowest) >= 1 else 1) + index
        deals.append(_checked(index + 1, board, partial(dup_deal, record[:_DUP_BRI].decode("ascii"))))
    log.info("read %d boards' deals from a DUP file", len(deals))
    return deals


def dup_deal(bri: str) -> str:
    """A DUP record's 78 digits (North's, East's and South's cards, 01 = ace of spades ... 52 = two of clubs) as a
    PBN deal from North; ValueError when they are not 39 different cards."""
    numbers = [int(bri[i:i + 2]) for i in range(0, _DUP_BRI, 2)]
    wrong = [n for n in numbers if not 1 <= n <= 52]
    if wrong:
        raise ValueError(f"card number {wrong[0]:02d}: DUP numbers the cards 01 to 52")
    if len(set(numbers)) != len(numbers):
        twice = next(n for n in numbers if numbers.count(n) > 1)
        raise ValueError(f"card {_dup_card(twice)} is dealt twice")
    west = [n for n in range(1, 53) if n not in numbers]
    hands = [numbers[0:13], numbers[13:26], numbers[26:39], west]  # N, E, S, W

    def holding(hand: list[int], suit: int) -> str:  # suit 0-3: spades to clubs, 13 numbers each from the ace
        return "".join(_RANKS[(n - 1) % 13] for n in sorted(hand) if (n - 1) // 13 == suit)
    return "N:" + " ".join(".".join(holding(hand, suit) for suit in range(4)) for hand in hands)


def _dup_card(number: int) -> str:
    return "SHDC"[(number - 1) // 13] + _RANKS[(number - 1) % 13]
