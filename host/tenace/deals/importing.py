"""Importing a file's deals into an event section, and analysing the section's deals double dummy."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from tenace.deals.analysis import Job, analyse_in_background
from tenace.deals.files import FileDeal
from tenace.deals.progress import Progress
from tenace.store.director import keep_published_deals
from tenace.store.encounters import section_boards
from tenace.store.hand_records import hand_records, keep_analysis

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Skipped:
    """A board of the file that was not imported, and why."""

    line: int
    board: int | None
    reason: str

    def text(self, file: str) -> str:
        """One line for the director: `deals.pbn:14: board 3: a deal has four hands, not 3`."""
        where = f"board {self.board}: " if self.board is not None else ""
        return f"{file}:{self.line}: {where}{self.reason}"


@dataclass(frozen=True)
class Imported:
    """What an import did: the boards whose deals are now kept (`replaced`: those that had another deal)."""

    section: str
    boards: tuple[int, ...]
    replaced: tuple[int, ...]
    skipped: tuple[Skipped, ...]


def import_deals(conn: sqlite3.Connection, section: str, deals: Sequence[FileDeal], *, who: str = "director",
                 why: str = "hand records imported", force: bool = False) -> Imported:
    """Keep the file's whole deals for the section's boards (in one transaction); the others are skipped:
    malformed or incomplete deals, boards the section does not play, a board given a second time. After the
    results were published they are refused (EntryError) unless `force`, and logged with `who` and `why`."""
    playing = set(section_boards(conn, section))
    kept = {board: record.deal for board, record in hand_records(conn, section).items()}
    chosen: dict[int, str] = {}
    first_line: dict[int, int] = {}
    skipped: list[Skipped] = []
    for d in deals:
        if d.problem is not None or d.deal is None:
            skipped.append(Skipped(d.line, d.board, d.problem or "no deal"))
        elif d.board is None or d.board not in playing:
            span = f"{min(playing)}-{max(playing)}" if playing else "none"
            skipped.append(Skipped(d.line, d.board, f"section {section} has no board {d.board} (its boards: {span})"))
        elif d.board in chosen:
            first = first_line[d.board]
            same = f"the same deal as at line {first}" if chosen[d.board] == d.deal else f"not line {first}'s deal"
            skipped.append(Skipped(d.line, d.board, f"board {d.board} again ({same}): the first is kept"))
        else:
            chosen[d.board] = d.deal
            first_line[d.board] = d.line
    if chosen:
        keep_published_deals(conn, section, chosen, who=who, why=why, force=force)
    replaced = tuple(sorted(b for b, deal in chosen.items() if b in kept and kept[b] != deal))
    log.info("section %s: kept %d deals, %d skipped", section, len(chosen), len(skipped))
    return Imported(section, tuple(sorted(chosen)), replaced, tuple(skipped))


def analyse_section(conn: sqlite3.Connection, section: str, stream: TextIO | None = None,
                    again: bool = False, on_board: Callable[[int, int], None] | None = None) -> list[int]:
    """Analyse the section's deals that have no analysis of their deal yet (every one with `again`), in bulk
    calls of up to 40 deals, each batch stored as soon as it is done so that an interruption keeps what was done;
    the boards analysed. A progress bar goes to `stream` when given; `on_board(done, of)` is told after each board
    is stored (the console's progress)."""
    records = hand_records(conn, section).values()
    jobs = [Job(r.board, r.deal) for r in records if again or r.analysis is None]
    progress = Progress(len(jobs), stream=stream) if stream is not None and jobs else None
    done = []
    try:
        for job, analysis in analyse_in_background(jobs):
            keep_analysis(conn, section, job.board, job.deal, analysis)
            done.append(job.board)
            if on_board is not None:
                on_board(len(done), len(jobs))
            if progress is not None:
                progress.advance(note=f"board {job.board}")
    finally:
        if progress is not None:
            progress.close()
    return done
