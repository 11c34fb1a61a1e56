"""The end of a simulated session: what the tables accepted against what the store holds, and the two rankings."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from tenace.movement import Movement
from tenace.scoring.imp_pairs_session import ImpSessionScore
from tenace.scoring.model import BoardResult, Played
from tenace.scoring.pairs_methods import AnySessionScore, score_session
from tenace.store import current_results
from tenace.store.queries import doubled_terminal_results, refusal_count
from tenace.store.scoring_input import board_results, pair_id

SECTION = "A"  # the Mitchell's section
HOWELL_SECTION = "B"  # the Howell's, when asked for
TEAMS_SECTION = "T"  # the team match's, when asked for
Slot = tuple[str, int, int, int]  # section, table, round, board
Seats = dict[int, tuple[str, int]]  # terminal id -> (section, table)


@dataclass(frozen=True)
class Comparison:
    accepted: int  # results the tables' opponents accepted
    stored: int  # slots holding a terminal's result in the store
    lost: int  # accepted, but missing from the store or different there
    doubled: int  # terminal results stored beyond one per slot
    unexpected: int  # stored, but no table accepted it
    refused_forged: int  # frames refused for a wrong authentication tag
    terminal_faults: int  # errors the terminals' apps caught to stay alive: each one a bug
    rankings_equal: bool  # in every section
    store_rankings: dict[str, AnySessionScore]  # by section
    accepted_rankings: dict[str, AnySessionScore]

    @property
    def line(self) -> str:
        return (f"accepted={self.accepted} stored={self.stored} lost={self.lost} doubled={self.doubled} "
                f"refused_forged={self.refused_forged} terminal_faults={self.terminal_faults}")

    @property
    def ok(self) -> bool:
        return (self.lost == 0 and self.doubled == 0 and self.unexpected == 0 and self.terminal_faults == 0
                and self.rankings_equal)


def read_accepted(storage: Path, seats: Seats) -> dict[Slot, str]:
    """Every terminal's accepted.txt ("round board result" lines) under `storage` (a folder per terminal id),
    by slot."""
    accepted: dict[Slot, str] = {}
    for log in sorted(storage.glob("*/accepted.txt")):
        section, table = seats[int(log.parent.name)]
        for line in log.read_text(encoding="utf-8").split("\n")[:-1]:  # whole lines: a table may be writing one
            round_, board, result = line.split(" ", 2)
            accepted[(section, table, int(round_), int(board))] = result
    return accepted


def stored_line(contract: str | None, declarer: str | None, tricks: int | None, ns_score: int | None) -> str:
    """A stored result in the same words as accepted.txt: "4S N 10 +420", "Pass 0"."""
    if contract is None or contract == "Pass" or declarer is None or tricks is None:
        return "Pass 0"
    return f"{contract} {declarer} {tricks} {ns_score or 0:+d}"


def compare(conn: sqlite3.Connection, accepted: dict[Slot, str], movements: dict[str, Movement],
            scoring: str = "mp", terminal_faults: int = 0) -> Comparison:
    stored = {(v.section, v.table, v.round, v.board): stored_line(v.contract, v.declarer, v.tricks, v.ns_score)
              for v in current_results(conn) if v.source == "terminal"}
    lost = sum(1 for slot, line in accepted.items() if stored.get(slot) != line)
    store_rankings = {s: score_session(board_results(conn, s), scoring) for s in movements}
    accepted_rankings = {s: score_session(accepted_results(accepted, s, m), scoring) for s, m in movements.items()}
    return Comparison(
        accepted=len(accepted), stored=len(stored), lost=lost, doubled=doubled_terminal_results(conn),
        unexpected=sum(1 for slot in stored if slot not in accepted), refused_forged=refusal_count(conn, "bad_tag"),
        terminal_faults=terminal_faults,
        rankings_equal=all(ranking_rows(store_rankings[s]) == ranking_rows(accepted_rankings[s]) for s in movements),
        store_rankings=store_rankings, accepted_rankings=accepted_rankings)


def accepted_results(accepted: dict[Slot, str], section: str, movement: Movement) -> list[BoardResult]:
    """A section's accepted results as the scoring engine takes them, pairs from the movement."""
    out = []
    for (where, table, round_, board), line in sorted(accepted.items()):
        if where != section:
            continue
        e = movement.at(table, round_)
        ns, ew = ("NS", "EW") if movement.two_fields else ("", "")  # a Howell's pairs are named by number
        out.append(BoardResult(section, table, round_, board, pair_id(section, e.ns_pair, ns),
                               pair_id(section, e.ew_pair, ew), Played(int(line.rsplit(" ", 1)[1]))))
    return out


def ranking_rows(session: AnySessionScore) -> list[tuple[str, str, str, str]]:
    """(place, pair, MPs, percentage) or (place, pair, exact IMPs, "") of every pair, field by field."""
    if isinstance(session, ImpSessionScore):
        return [(p.text, p.pair, str(session.totals[p.pair].imps), "") for p in session.ranking]
    return [(p.text, p.pair, str(session.totals[p.pair].mp), str(session.totals[p.pair].percent))
            for p in session.ranking]
