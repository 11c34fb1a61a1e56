"""Which tables are still playing which boards: each table's current round and the boards not in yet there."""

from __future__ import annotations

import sqlite3
import threading
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from tenace.store.db import connect_read_only, read_transaction
from tenace.store.encounters import section_rounds, sitting_out
from tenace.store.event import event_info
from tenace.store.queries import missing_results


@dataclass(frozen=True)
class TableNow:
    """One table as it stands: `round` None once every board it plays is in."""

    table: int
    round: int | None
    rounds: int  # how many rounds the table plays
    ns: str  # the pairs the movement seats there in `round` ("NS 3" or "3" in a Howell)
    ew: str
    boards: tuple[int, ...]  # of `round`, not in yet
    later: int  # boards of the rounds after `round` not in yet
    ns_out: bool = False  # the movement's NS pair of `round` is not there (tenace move): EW sits out
    ew_out: bool = False


@dataclass(frozen=True)
class SectionNow:
    section: str
    tables: tuple[TableNow, ...]

    @property
    def playing(self) -> int:
        return sum(1 for t in self.tables if t.round is not None)


def still_playing(conn: sqlite3.Connection) -> list[SectionNow]:
    """Every section's tables, from the movement and the results in (read in the caller's transaction).

    A table's current round is its first with a board not in. A round where it sits out (tenace move) has no
    board to come in: it is the current round until a result of a later round arrives, then it is behind it;
    a table with nothing but sit-outs left has finished."""
    out = []
    for info in event_info(conn).sections:
        missing: dict[tuple[int, int], list[int]] = defaultdict(list)
        for m in missing_results(conn, info.name):
            missing[(m.table, m.round)].append(m.board)
        rounds: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)  # table -> [(round, NS, EW, boards)]
        for round_, table, ns, ew, boards in section_rounds(conn, info.name):
            rounds[table].append((round_, ns, ew, len(boards.split())))
        prefix = ("", "") if info.one_field else ("NS ", "EW ")
        tables = []
        for table in sorted(rounds):
            plan = rounds[table]
            outs = {r: sitting_out(conn, info.name, table, r) for r, _, _, _ in plan}
            # A round with a result in: not all its boards missing (a sit-out round has none to miss).
            played = {r for r, _, _, n in plan if len(missing.get((table, r), ())) < n and not any(outs[r])}
            current = None
            for i, (round_, _, _, _) in enumerate(plan):
                after = [r for r, _, _, _ in plan[i + 1:]]
                # A sit-out with nothing left to play after it is not waited for: the table has finished.
                if missing.get((table, round_)) or (
                        any(outs[round_]) and not any(r in played for r in after)
                        and any(missing.get((table, r)) for r in after)):
                    current = i
                    break
            if current is None:
                tables.append(TableNow(table, None, len(plan), "", "", (), 0))
                continue
            round_, ns, ew, _ = plan[current]
            ns_text, ew_text = f"{prefix[0]}{ns}", f"{prefix[1]}{ew}"
            tables.append(TableNow(
                table, round_, len(plan), ns_text, ew_text, tuple(missing.get((table, round_), ())),
                sum(len(missing.get((table, r), ())) for r, _, _, _ in plan[current + 1:]), *outs[round_]))
        out.append(SectionNow(info.name, tuple(tables)))
    return out


class Playing:
    """The still-playing view as of a generation of the event file, read once and shared by every page."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._read: tuple[int, list[SectionNow]] | None = None

    def sections(self, generation: int) -> list[SectionNow]:
        with self._lock:
            if self._read is not None and self._read[0] == generation:
                return self._read[1]
            conn = connect_read_only(self.path)
            try:
                with read_transaction(conn):
                    sections = still_playing(conn)
            finally:
                conn.close()
            self._read = (generation, sections)
            return sections
