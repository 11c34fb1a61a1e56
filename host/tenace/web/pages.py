"""What each public page shows, from the event's results: the rankings, a board's traveller, a pair's scorecard."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from tenace.reports.event_results import (
    EventResults,
    ResultsError,
    SectionResults,
    board_report,
    event_results,
    find_pair,
    scorecard,
)
from tenace.reports.model import HandRecord, Pair, Report, TravellerLine
from tenace.reports.text import par_contract_text
from tenace.store.db import connect_read_only, read_transaction
from tenace_rules.contract import STRAIN_SYMBOLS
from tenace_rules.notation import parse_contract
from tenace_rules.tricks import relative_text

SUITS = (("S", STRAIN_SYMBOLS[3]), ("H", STRAIN_SYMBOLS[2]), ("D", STRAIN_SYMBOLS[1]), ("C", STRAIN_SYMBOLS[0]))
STRAINS = (("NT", "NT"), *SUITS)


class NotFound(LookupError):
    """A section, board or pair the event does not have (the page answers 404)."""


class EventFile:
    """The event's results, scored once per change of the file and shared by every page and every phone.

    Each scoring reads in one read transaction on a read-only connection of its own (renders run in worker
    threads); the lock keeps two threads from scoring the same moment twice.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._scored: tuple[int, EventResults] | None = None

    def results(self, generation: int) -> EventResults:
        """The results as of `generation` (the caller reads it before asking, so a later change is never missed)."""
        with self._lock:
            if self._scored is not None and self._scored[0] == generation:
                return self._scored[1]
            conn = connect_read_only(self.path)
            try:
                with read_transaction(conn):
                    results = event_results(conn)
            finally:
                conn.close()
            self._scored = (generation, results)
            return results


def section_of(results: EventResults, name: str) -> SectionResults:
    for s in results.sections:
        if s.section == name:
            return s
    raise NotFound(f"there is no section {name!r}")


def board_of(section: SectionResults, board: int) -> Report:
    if board not in section.boards:
        raise NotFound(f"there is no board {board} in section {section.section}")
    return board_report(section, board)


def pair_of(section: SectionResults, slug: str) -> tuple[Pair, Report]:
    try:
        _, pair = find_pair([section], slug)
    except ResultsError as e:
        raise NotFound(str(e)) from None
    return pair, scorecard(section, pair)


def pair_slug(pair: Pair) -> str:
    """The pair in a page's address: "NS3", "EW12", "7" (a Howell pair); the section is its own part."""
    return f"{pair.direction or ''}{pair.number}"


def figure(value: Decimal | None, signed: bool = False) -> str:
    if value is None:
        return ""
    return f"{value:+}" if signed else str(value)


def result_cells(line: TravellerLine) -> tuple[str, str, str]:
    """(contract, declarer, tricks relative to the contract) as a phone shows them: ("4♠X", "N", "-1")."""
    if line.adjustment is not None:
        return (line.adjustment.text, "", "")
    if line.contract is None:
        return ("not played", "", "")
    contract = parse_contract(line.contract)
    if contract.passed_out:
        return ("passed out", "", "")
    tricks = relative_text(contract, line.tricks) if line.tricks is not None else "?"
    return (contract.symbol_text(), line.declarer or "", tricks)


@dataclass(frozen=True)
class Diagram:
    """A hand record as the board page lays it out: each seat's suits, double-dummy rows, par."""

    hands: dict[str, list[tuple[str, str]]]  # seat -> [(suit symbol, holding or "-")]
    double_dummy: list[tuple[str, list[int]]]  # (declarer, tricks in NT S H D C)
    par: str


def diagram(hand: HandRecord) -> Diagram:
    hands = {seat: [(symbol, holding or "-") for (_, symbol), holding in zip(SUITS, text.split("."), strict=True)]
             for seat, text in hand.hands().items()}
    rows = [] if hand.double_dummy is None else [
        (seat, [hand.double_dummy[seat][strain] for strain, _ in STRAINS]) for seat in "NSEW"]
    par = "" if hand.par_score is None else (
        f"Par NS {hand.par_score:+d}: " + (", ".join(par_contract_text(c) for c in hand.par_contracts) or "passed out"))
    return Diagram(hands, rows, par)
