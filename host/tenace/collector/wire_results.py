"""A RESULT or ERASE message off the air as the store's IncomingResult (the store re-validates every field)."""

from __future__ import annotations

from dataclasses import replace

from tenace.store.model import IncomingResult, Kind
from tenace_rules.board import SEATS
from tenace_rules.contract import Contract
from tenace_rules.notation import CARD_RANKS, CARD_SUITS, card_text
from tenace_wire.table_messages import ADJUSTED, NOT_PLAYED, PASSED_OUT, PLAYED, Erase, Result, card_code

_ADJUSTS = {1: "A-", 2: "A", 3: "A+"}


def section_letter(section: int) -> str:
    """The wire's section number 0-25 as the event's section name A-Z."""
    return chr(65 + section)


def section_number(name: str) -> int | None:
    """A section name as the wire's number, or None when the wire cannot name it (not one letter A-Z)."""
    return ord(name) - 65 if len(name) == 1 and "A" <= name <= "Z" else None


def lead_text(code: int) -> str | None:
    """A card_code 1-52 as the store's lead text ("SA", "HT"); 0 is no lead."""
    if not 1 <= code <= 52:
        return None
    return card_text((code - 1) // 13, (code - 1) % 13)


def lead_code(text: str | None) -> int:
    """The store's lead text back as a card_code (0: none), for travellers."""
    if not text or len(text) != 2 or text[0] not in CARD_SUITS or text[1] not in CARD_RANKS:
        return 0
    return card_code(CARD_SUITS.index(text[0]), CARD_RANKS.index(text[1]))


def incoming_result(msg: Result, terminal: int, seq: int, raw: bytes | None = None) -> IncomingResult:
    """The store's view of a RESULT: kind, contract text, declarer letter, declarer's tricks, lead card."""
    base = IncomingResult(terminal=terminal, sequence=seq, section=section_letter(msg.section), table=msg.table,
                          round=msg.round, board=msg.board, ns_pair=msg.ns_pair, ew_pair=msg.ew_pair,
                          revision=msg.version, raw=raw, kind=Kind.NOT_PLAYED)
    if msg.kind == PLAYED:
        return replace(base, kind=Kind.NORMAL, contract=Contract(msg.level, msg.strain, msg.doubling).text(),
                     declarer=SEATS[msg.declarer], tricks=msg.tricks, lead=lead_text(msg.lead))
    if msg.kind == PASSED_OUT:
        return replace(base, kind=Kind.PASSED_OUT)
    if msg.kind == ADJUSTED:
        return replace(base, kind=Kind.ARTIFICIAL, ns_adjust=_ADJUSTS.get(msg.ns_adjust),
                     ew_adjust=_ADJUSTS.get(msg.ew_adjust))
    assert msg.kind == NOT_PLAYED
    return base


def incoming_erase(msg: Erase, terminal: int, seq: int, pairs: tuple[int, int], raw: bytes | None = None,
                   ) -> IncomingResult:
    """An ERASE as an "erased" version; the wire does not carry the pairs, the movement's are given."""
    return IncomingResult(terminal=terminal, sequence=seq, section=section_letter(msg.section), table=msg.table,
                          round=msg.round, board=msg.board, ns_pair=pairs[0], ew_pair=pairs[1], kind=Kind.ERASED,
                          revision=msg.version, raw=raw)

