"""A progress bar on stderr: one line rewritten on a terminal, a plain line every tenth of the way elsewhere."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TextIO

_WIDTH = 30  # characters of the bar itself


@dataclass
class Progress:
    """`done of total` for a long task; `advance` after each step, `close` at the end (or when stopped)."""

    total: int
    what: str = "boards"
    label: str = "double dummy"
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    done: int = 0
    _tty: bool = field(init=False)
    _last_tenth: int = field(init=False, default=-1)
    _open: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        # A log file or a pipe would fill with carriage returns: plain lines there.
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._draw()

    def advance(self, steps: int = 1, note: str = "") -> None:
        self.done = min(self.total, self.done + steps)
        self._draw(note)

    def _draw(self, note: str = "") -> None:
        total = max(self.total, 1)
        counts = f"{self.done}/{self.total} {self.what}"
        if self._tty:
            filled = _WIDTH * self.done // total
            tail = f"  {note}" if note else ""
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (_WIDTH - filled)}] {counts}{tail}\x1b[K")
            self._open = True
        else:
            tenth = 10 * self.done // total
            if tenth == self._last_tenth:
                return
            self._last_tenth = tenth
            self.stream.write(f"{self.label}: {counts}\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line (a terminal's cursor goes back to the start of a new line)."""
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False
