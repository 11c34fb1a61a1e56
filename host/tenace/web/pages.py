"""What each public page shows, from the event's results: the rankings, a board's traveller, a pair's scorecard and
debrief."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from markupsafe import Markup

from tenace.page_base.words import Words
from tenace.reports.event_results import (
    EventResults,
    ResultsError,
    SectionResults,
    board_report,
    event_results,
    find_pair,
    scorecard,
)
from tenace.reports.model import Adjustment, Board, HandRecord, Pair, Report, TravellerLine
from tenace.store.db import connect_read_only, read_transaction
from tenace.store.names import Member, roster
from tenace_rules.contract import STRAIN_SYMBOLS
from tenace_rules.notation import parse_contract
from tenace_rules.tricks import relative_text

SUITS = (("S", STRAIN_SYMBOLS[3]), ("H", STRAIN_SYMBOLS[2]), ("D", STRAIN_SYMBOLS[1]), ("C", STRAIN_SYMBOLS[0]))
STRAINS = (("NT", "NT"), *SUITS)


class NotFound(LookupError):
    """A section, board or pair the event does not have (the page answers 404): the words' `key` and its values,
    said in the page's language."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    def text(self, t: Words) -> str:
        return t(self.key, **self.values)


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
            if not self.path.exists():  # `tenace serve --new`: until the console makes it (whole, never half)
                raise NotFound("no_event")
            if self._scored is not None and self._scored[0] == generation:
                return self._scored[1]
            results = read_only_results(self.path)
            self._scored = (generation, results)
            return results


def read_only_results(path: Path) -> EventResults:
    """An event file's results, read in one read transaction on a read-only connection of its own."""
    conn = connect_read_only(path)
    try:
        with read_transaction(conn):
            return event_results(conn)
    finally:
        conn.close()


def read_only_roster(path: Path) -> dict[int, Member]:
    """An event file's roster (with the masterpoints and handicaps it keeps), read on a read-only connection."""
    conn = connect_read_only(path)
    try:
        return roster(conn)
    finally:
        conn.close()


def section_of(results: EventResults, name: str) -> SectionResults:
    for s in results.sections:
        if s.section == name:
            return s
    raise NotFound("no_section", section=name)


def board_of(section: SectionResults, board: int) -> Report:
    if board not in section.boards:
        raise NotFound("no_board", board=board, section=section.section)
    return board_report(section, board)


def pair_of(section: SectionResults, slug: str) -> tuple[Pair, Report]:
    try:
        _, pair = find_pair([section], slug)
    except ResultsError:
        raise NotFound("no_pair", pair=slug, section=section.section) from None
    return pair, scorecard(section, pair)


def player_pairs(results: EventResults, number: int) -> tuple[str, list[tuple[SectionResults, Pair, Report]]]:
    """A player's name and the pairs they played in (a section each, with its scorecard), by their roster number
    (tenace names); NotFound for a number no named pair holds."""
    name, found = "", []
    for section in results.sections:
        for pair in section.report.pairs():
            for player, shown in section.players.get(pair.label, ()):
                if player == number:
                    name = shown
                    found.append((section, pair, scorecard(section, pair)))
    if not found:
        raise NotFound("no_player", player=number)
    return name, found


def pair_slug(pair: Pair) -> str:
    """The pair in a page's address: "NS3", "EW12", "7" (a Howell pair); the section is its own part."""
    return f"{pair.direction or ''}{pair.number}"


def figure(value: Decimal | None, signed: bool = False) -> str:
    if value is None:
        return ""
    return f"{value:+}" if signed else str(value)


def weighted_text(weights: str, t: Words) -> Markup:
    """codec.weighted_text in the page's words: "assigned NS +420", "weighted NS 3/5:420 2/5:-50"."""
    if weights.startswith("1:") and " " not in weights:
        return t("assigned", score=t.ltr(f"{int(weights[2:]):+d}"))
    return t("weighted", weights=t.ltr(weights))


def adjustment_text(adjustment: Adjustment, t: Words) -> Markup:
    """Adjustment.text in the page's words: "A+/A-" and "60%/40%" as they are, an assigned, weighted or split score
    said."""
    if adjustment.weights and adjustment.ew_weights:
        return t("split", ns=weighted_text(adjustment.weights, t), ew=weighted_text(adjustment.ew_weights, t))
    if adjustment.weights:
        return weighted_text(adjustment.weights, t)
    return t.ltr(f"{adjustment.ns}/{adjustment.ew}")


def result_cells(line: TravellerLine, t: Words) -> tuple[Markup, str, str]:
    """(contract, declarer, tricks relative to the contract) as a phone shows them: ("4♠X", "N", "-1"); the contract
    in the page's words, kept left to right (Words.ltr) on a Hebrew page."""
    if line.adjustment is not None:
        return (adjustment_text(line.adjustment, t), "", "")
    if line.contract is None:
        return (t("not_played"), "", "")
    contract = parse_contract(line.contract)
    if contract.passed_out:
        return (t("passed_out"), "", "")
    tricks = relative_text(contract, line.tricks) if line.tricks is not None else "?"
    return (t.ltr(contract.symbol_text()), line.declarer or "", tricks)


def marked_text(marked: str, t: Words) -> Markup:
    """A traveller line's mark (event_results: "TD: adjusted" for a director's entry) in the page's words; one this
    page does not know as it is."""
    known = {"TD: adjusted": t("mark_adjusted"), "TD: corrected": t("mark_corrected"), "TD: decided": t("mark_decided"),
             "TD: erased": t("mark_erased"), "TD: entered": t("mark_entered")}
    return known.get(marked) or t.ltr(marked)


@dataclass(frozen=True)
class Diagram:
    """A hand record as the board page lays it out: each seat's suits, double-dummy rows, par."""

    hands: dict[str, list[tuple[str, str]]]  # seat -> [(suit symbol, holding or "-")]
    double_dummy: list[tuple[str, list[int]]]  # (declarer, tricks in NT S H D C)
    par_score: str  # "+460", "" when the hand record has no par
    par: Markup  # "3NT by N +2, 3NT by S +2" in the page's words


def par_contract(text: str, t: Words) -> Markup:
    """ "4S N =" as "4♠ by N =", "4CX S -1" as "4♣X by S -1", in the page's words."""
    bid, declarer, done = (*text.split(" "), "", "")[:3]
    said = t("by", contract=t.ltr(parse_contract(bid).symbol_text()), seat=declarer)
    return said + " " + t.ltr(done) if done else said


def diagram(hand: HandRecord, t: Words) -> Diagram:
    hands = {seat: [(symbol, holding or "-") for (_, symbol), holding in zip(SUITS, text.split("."), strict=True)]
             for seat, text in hand.hands().items()}
    rows = [] if hand.double_dummy is None else [
        (seat, [hand.double_dummy[seat][strain] for strain, _ in STRAINS]) for seat in "NSEW"]
    score = "" if hand.par_score is None else f"{hand.par_score:+d}"
    par = Markup(", ").join(par_contract(c, t) for c in hand.par_contracts) or t("passed_out")
    return Diagram(hands, rows, score, par if score else Markup(""))


@dataclass(frozen=True)
class Debrief:
    """One board a pair played, as its debrief shows it: the whole traveller (with the hand record when kept), the
    pair's own lines of it (marked), its figures on them, and the public notes on the board."""

    board: Board
    mine: tuple[TravellerLine, ...]
    figures: tuple[tuple[str, Decimal | None, Decimal | None], ...]  # (their side, MP or IMPs, percentage) a line
    notes: tuple[str, ...]


def own_side(line: TravellerLine, pair: Pair) -> str:
    """The side the pair (or an individual's player, in each partnership "8+1" naming them) sat on that line."""
    def plays(side: Pair | None) -> bool:
        return side is not None and (side == pair or (side.section == pair.section and "+" in side.number
                                                      and pair.number in side.number.split("+")))
    return "NS" if plays(line.ns) else "EW"


def debriefs(section: SectionResults, pair: Pair, card: Report) -> list[Debrief]:
    """Each board of the pair's scorecard with the field's results on it (board_report: the same traveller and hand
    record as the board's page)."""
    shown = []
    for own in card.boards:
        whole = board_report(section, own.board)
        board = whole.boards[0] if whole.boards else own
        figures: list[tuple[str, Decimal | None, Decimal | None]] = []
        for line in own.lines:
            ns = own_side(line, pair) == "NS"
            if card.imps:
                figures.append(("NS" if ns else "EW", line.imp_ns if ns else line.imp_ew, None))
            else:
                figures.append(("NS" if ns else "EW", line.mp_ns if ns else line.mp_ew,
                                line.percent_ns if ns else line.percent_ew))
        shown.append(Debrief(board, own.lines, tuple(figures), whole.shown_notes()))
    return shown
