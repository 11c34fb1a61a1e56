"""What an input file held that could not be scored, and why: one line for the user each (`tenace score`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LeftOut:
    """A row or board of the input that could not be scored and was left out, and why (ScoredAsGiven: one that
    could not be read, scored by the file's own score)."""

    line: int | None  # the file line it starts on, when known
    board: int | None  # None when not even the board number could be read
    row: str | None  # "row 3" of a board's ScoreTable, "closed room" of a team board; None for the whole board
    reason: str

    def text(self, file: str) -> str:
        """One line for the user: `club.pbn:14: board 2 row 3: contract '8S' must start with a level 1 to 7`."""
        where = " ".join(part for part in (f"board {self.board}" if self.board is not None else None, self.row)
                         if part)
        return f"{file}:{self.line if self.line is not None else '?'}: {f'{where}: ' if where else ''}{self.reason}"


@dataclass(frozen=True)
class ScoredAsGiven(LeftOut):
    """A row or room whose contract or result could not be read, scored by the score the file gives it (Score_NS,
    a Score tag) rather than left out: its board is scored as published, and the director is told."""
