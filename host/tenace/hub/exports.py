"""The sim's exports once released: each board's hand record and traveller, the whole field's or one club's, as
PBN (tenace.pbn.writer) here and as USEBIO in hub.usebio_export; nothing before release."""

from __future__ import annotations

import io
from typing import Any

import psycopg

from tenace.hub import queries
from tenace.hub.field import PairId
from tenace.pbn.reader import PbnColumn, PbnGame, PbnTable
from tenace.pbn.writer import write_pbn

_COLUMNS = [PbnColumn("Section"), PbnColumn("Table"), PbnColumn("PairId_NS"), PbnColumn("PairId_EW"),
            PbnColumn("Contract"), PbnColumn("Declarer"), PbnColumn("Result"), PbnColumn("Score_NS")]


def released_sim(conn: psycopg.Connection[Any], sim: str) -> tuple[str, str] | None:
    """The sim's name and scoring once released; None before release, or when there is no such sim (the same
    answer: an export's route does not say which)."""
    row = queries.released_sim(conn, sim)
    return None if row is None else (str(row[0]), str(row[1]))


def export_refusal(conn: psycopg.Connection[Any], sim: str, club: str | None) -> str | None:
    """Why the sim (or its club) has no export, in one line for the organiser; None when it has one."""
    row = queries.sim_released_at(conn, sim)
    if row is None:
        return f"there is no sim {sim!r}"
    if row[0] is None:
        return f"sim {sim!r} is not released: its exports are made after `tenace hub release`"
    if club is not None and not queries.club_exists(conn, sim, club):
        return f"sim {sim!r} has no club {club!r}"
    return None


def field_pbn(conn: psycopg.Connection[Any], sim: str, club: str | None = None) -> str | None:
    """The PBN export of the sim (of one club's results when `club` is given); None before release."""
    row = released_sim(conn, sim)
    if row is None:
        return None
    deals = queries.deals(conn, sim)
    by_board: dict[int, list[list[str]]] = {}
    for slot_club, body in queries.played_results(conn, sim, club):
        s = body
        ns = PairId(slot_club, s["section"], s["ns_pair"], s["ns_field"]).text
        ew = PairId(slot_club, s["section"], s["ew_pair"], s["ew_field"]).text
        score = s["ns_score"] if s["ns_score"] is not None else s["ns_adjust"] or s["weights"] or "-"
        by_board.setdefault(s["board"], []).append(
            [f"{slot_club}/{s['section']}", str(s["table"]), ns, ew, s["contract"] or "-", s["declarer"] or "-",
             "-" if s["tricks"] is None else str(s["tricks"]), str(score)])
    games = []
    for board, dealer, vulnerable, deal in deals:
        game = PbnGame(tags={"Event": row[0], "Board": str(board), "Dealer": dealer, "Vulnerable": vulnerable,
                             "Deal": deal, "ScoreTable": ""})
        game.tables["ScoreTable"] = PbnTable("ScoreTable", _COLUMNS, by_board.get(board, []))
        games.append(game)
    out = io.StringIO()
    write_pbn(games, out, [f"{row[0]}: {'club ' + club if club else 'the whole field'}"])
    return out.getvalue()
