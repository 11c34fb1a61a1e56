"""The text writer: a report as the laptop's screen shows it; the one place a traveller or ranking line is formatted."""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from typing import TextIO

from tenace.reports.model import Board, HandRecord, Pair, RankingLine, Report, Room, TravellerLine
from tenace_rules.contract import STRAIN_SYMBOLS
from tenace_rules.notation import parse_contract
from tenace_rules.tricks import relative_text

_NO_TABLE = " " * 8  # the width of "table 12"


def figure(value: Decimal | None, signed: bool = False) -> str:
    """A published figure as it was rounded ("771.10"); IMPs signed ("+3.50"); "-" when there is none."""
    if value is None:
        return "-"
    return f"{value:+}" if signed else str(value)


def result_text(line: TravellerLine) -> str:
    """What happened at the table: "4♠X  by N  -1", "passed out", "A+/A-", "not played"."""
    if line.adjustment is not None:
        return line.adjustment.text
    if line.contract is None:
        return "not played"
    try:
        contract = parse_contract(line.contract)
        tricks = relative_text(contract, line.tricks) if line.tricks is not None else "?"
    except ValueError:  # a row tenace score scored by the file's own score: its contract or result as the file has it
        return f"{line.contract:<5} by {line.declarer or '?'} {line.tricks if line.tricks is not None else '?':>3}"
    if contract.passed_out:
        return "passed out"
    return f"{contract.symbol_text():<5} by {line.declarer or '?'} {tricks:>3}"


def pair_text(pair: Pair | None) -> str:
    return pair.label if pair else ""


def columns(table: list[list[str]]) -> list[str]:
    """Rows of cells as left-aligned columns two spaces apart (the field tools' tables), trailing blanks cut."""
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in table]


def traveller_line(line: TravellerLine, imps: bool) -> str:
    """One traveller line: table, pairs, result, NS score and the figures of the method (MPs and %, or IMPs)."""
    table = f"table {line.table:>2}" if line.table is not None else _NO_TABLE
    pairs = f"{pair_text(line.ns):>7} v {pair_text(line.ew):<7}" if line.ns or line.ew else " " * 17
    score = f"NS {line.ns_score:+6d}" if line.ns_score is not None else " " * 9
    text = f"  {table}  {pairs} {result_text(line):<16} {score}"
    mark = f"  [{line.marked}]" if line.marked else ""
    if imps:
        count = f" x{line.count}" if line.count != 1 else ""
        return f"{text}{count:<5} {figure(line.imp_ns, True):>7} {figure(line.imp_ew, True):>7}{mark}"
    if line.count != 1:  # a frequency table's row (PBN Multiplicity): its figures are each of its results'
        text += f" x{line.count}"
    text += f"  {figure(line.mp_ns):>6} {figure(line.mp_ew):>6}"
    if line.percent_ns is not None or line.percent_ew is not None:
        text += f" {figure(line.percent_ns):>6} {figure(line.percent_ew):>6}"
    return text + mark


def traveller_header(imps: bool, percentages: bool) -> str:
    """The column headers over a board's traveller lines, aligned with `traveller_line`."""
    text = f"  {'Table':<8}  {'NS v EW':^17} {'Result':<16} {'NS score':>9}"
    if imps:
        return f"{text}{'':<5} {'IMP NS':>7} {'IMP EW':>7}"
    text += f"  {'MP NS':>6} {'MP EW':>6}"
    return text + (f" {'% NS':>6} {'% EW':>6}" if percentages else "")


def board_heading(board: Board) -> str:
    """ "Board 7  dealer S  vulnerable both  top 12": what is known of the board and what it was scored against."""
    parts = [f"Board {board.board}"]
    if board.dealer:
        parts.append(f"dealer {board.dealer}")
    if board.vulnerable:
        parts.append(f"vulnerable {board.vulnerable}")
    if board.top is not None:
        parts.append(f"top {board.top}")
    if board.datum is not None:
        parts.append(f"datum {board.datum}")
    return "  ".join(parts)


def ranking_header(imps: bool, players: str = "", who: str = "Pair") -> str:
    """The column headers over a field's ranking lines, aligned with `ranking_line`; `players` heads the names,
    `who` the ranked ("Player" in an individual)."""
    total = f"{'IMPs':>13}" if imps else f"{'Matchpoints':>11}  {'Percent':>7}"
    return f"  {'Rank':>4}  {who:<8} {total}" + (f"  {players}" if players else "")


def one_line(text: str) -> str:
    """Free text (players' names) kept to its line: a control character or a line break, which an event file
    written before they were refused may hold, shown as a space."""
    return "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)


def ranking_line(line: RankingLine) -> str:
    """One ranking line: place, pair, its total (MPs and %, or IMPs) and the players' names when known."""
    if line.imps is not None:
        total = f"{figure(line.imps, True):>8} IMPs"
    else:
        total = f"{figure(line.mp):>8} MP  {figure(line.percent):>6}%"
    names = "".join(f"  {one_line(text)}" for text in (line.pair.names, line.pair.member_text) if text)
    penalty = f"  (Law 90 penalty -{line.penalty} MP)" if line.penalty else ""
    return f"  {line.rank:>4}  {line.pair.label:<8} {total}{names}{penalty}"


def write_travellers(report: Report, out: TextIO) -> None:
    for board in report.boards:
        out.write(f"\n{board_heading(board)}\n")
        if board.lines:
            percentages = any(line.percent_ns is not None or line.percent_ew is not None for line in board.lines)
            out.write(traveller_header(report.imps, percentages) + "\n")
        for line in board.lines:
            out.write(traveller_line(line, report.imps) + "\n")
        if board.hand is not None:
            out.write("\n" + "\n".join(hand_record_lines(board.hand)) + "\n")


# Suits as the hand diagram lists them (spades first) and strains as the double-dummy table heads them.
_SUIT_SYMBOLS = tuple(STRAIN_SYMBOLS[i] for i in (3, 2, 1, 0))
_TABLE_STRAINS = (("NT", "NT"), ("S", STRAIN_SYMBOLS[3]), ("H", STRAIN_SYMBOLS[2]), ("D", STRAIN_SYMBOLS[1]),
                  ("C", STRAIN_SYMBOLS[0]))
_PAR_STRAINS = {"S": STRAIN_SYMBOLS[3], "H": STRAIN_SYMBOLS[2], "D": STRAIN_SYMBOLS[1], "C": STRAIN_SYMBOLS[0]}


def hand_record_lines(hand: HandRecord) -> list[str]:
    """The deal as a diagram (North at the top), then the double-dummy tricks and par when analysed."""
    hands = {seat: [f"{symbol} {holding or '-'}" for symbol, holding in zip(_SUIT_SYMBOLS, text.split("."),
                                                                              strict=True)]
             for seat, text in hand.hands().items()}
    width = max(len(row) for row in hands["W"]) + 4
    lines = [f"  {'':<{width}}{row}" for row in hands["N"]]
    lines += [f"  {w:<{width}}{'':<{width}}{e}".rstrip() for w, e in zip(hands["W"], hands["E"], strict=True)]
    lines += [f"  {'':<{width}}{row}" for row in hands["S"]]
    if hand.double_dummy is not None:
        lines.append("")
        lines.append("  Double dummy  " + " ".join(f"{symbol:>2}" for _, symbol in _TABLE_STRAINS))
        for seat in "NSEW":
            tricks = hand.double_dummy[seat]
            lines.append(f"  {seat:<12}  " + " ".join(f"{tricks[strain]:>2}" for strain, _ in _TABLE_STRAINS))
    if hand.par_score is not None:
        contracts = ", ".join(par_contract_text(c) for c in hand.par_contracts) or "passed out"
        lines.append(f"  Par NS {hand.par_score:+d}: {contracts}")
    return lines


def par_contract_text(contract: str) -> str:
    """ "4S N =" as "4♠ by N =", "4CX S -1" as "4♣X by S -1"."""
    bid, declarer, done = (*contract.split(" "), "", "")[:3]
    level, strain = bid[:1], bid[1:].rstrip("X")
    return f"{level}{_PAR_STRAINS.get(strain, strain)}{bid[1 + len(strain):]} by {declarer} {done}".rstrip()


def write_ranking(report: Report, out: TextIO) -> None:
    """The ranking field by field, each under its heading ("Ranking NS", or "Ranking" for one field)."""
    field = None
    names, members = (any(getattr(line.pair, kind) for line in report.ranking) for kind in ("names", "members"))
    players = " ".join(word for word, shown in (("Players", names), ("[member ids]", members)) if shown)
    for line in report.ranking:
        if line.field != field:
            field = line.field
            out.write(f"\nRanking {field}".rstrip() + "\n")
            who = "Player" if report.settings.get("ranked") == "players" else "Pair"
            out.write(ranking_header(line.imps is not None, players, who) + "\n")
        out.write(ranking_line(line) + "\n")


def _room(room: Room | None) -> str:
    """A room's result in its columns; a room not played (a board scored by its file's IMPs) as "-"."""
    if room is None:
        return f"{'-':>5} {'':1} {'':>2} {'':>6}"
    return f"{room.contract:>5} {room.declarer} {room.tricks:>2} {room.ns_score:>+6}"


def write_match(report: Report, out: TextIO) -> None:
    """A team match: both rooms of every board, the IMPs, the total and the VPs."""
    out.write("Board  Open room           Closed room          Diff   Home  Away\n")
    for b in report.boards:
        if b.rooms is None:
            continue
        r = b.rooms
        diff = f"{r.difference:>+6}" if r.difference is not None else f"{'-':>6}"
        out.write(f"{b.board:>5}  {_room(r.open)}    {_room(r.closed)}  {diff} "
                  f"{figure(r.imp_home):>6}{figure(r.imp_away):>6}\n")
    m = report.match
    if m is not None:
        out.write(f"\nHome: {m.home or '?'} (NS in the open room)\nAway: {m.away or '?'} (EW in the open room)\n"
                  f"IMPs {figure(m.imps_home)} - {figure(m.imps_away)}")
        if m.vp_home is not None:
            out.write(f"   VPs {figure(m.vp_home)} - {figure(m.vp_away)}")
        out.write("\n")


def write_text(report: Report, out: TextIO, travellers: bool = True) -> None:
    """The whole report: its title, the travellers (or the match), the ranking and the notes."""
    if report.title:
        out.write(report.title + "\n")
    if report.match is not None:
        write_match(report, out)
    elif travellers:
        write_travellers(report, out)
    write_ranking(report, out)
    for note in report.notes:
        out.write(f"\nNote: {note}\n")


def write_scorecard(report: Report, out: TextIO) -> None:
    """A pair's scorecard: its line of every board it played, board by board under one header, then its place."""
    if report.title:
        out.write(report.title + "\n")
    lines = [(b.board, line) for b in report.boards for line in b.lines]
    if lines:
        percentages = any(line.percent_ns is not None or line.percent_ew is not None for _, line in lines)
        out.write(f"\n  {'Board':>5}{traveller_header(report.imps, percentages)}\n")
        for board, line in lines:
            out.write(f"  {board:>5}{traveller_line(line, report.imps)}\n")
    write_ranking(report, out)
    for note in report.notes:
        out.write(f"\nNote: {note}\n")
