"""One collector per event file: an exclusive lock on FILE.lock beside it, held for the collector's life.

The operating system holds the lock for the open file (flock on Linux and macOS, a locked byte on
Windows) and drops it when the process ends however it ends, so a collector killed with SIGKILL or a
laptop that lost power leaves no stale lock behind. The file keeps the holder's PID and command ("4242 tenace
serve") for the message a second collector gives; it stays after use (removing it would let two collectors lock
two files).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

# Who holds the lock when the file does not say (written by an older tenace, or not yet written).
SOMEONE = "another collector"


class LockHeld(Exception):
    """Another process holds the event file's collector lock: `pid` and `holder` ("tenace serve") as its lock file
    says (None and SOMEONE when it could not be read)."""

    def __init__(self, path: Path, pid: int | None, holder: str = SOMEONE) -> None:
        shown = f" (PID {pid})" if pid is not None else ""
        super().__init__(f"{holder}{shown} is already collecting into {path}: "
                         "stop it first (Ctrl-C in its window), or go on with that one")
        self.pid = pid
        self.holder = holder


def read_holder(text: str) -> tuple[int | None, str]:
    """(PID, command) from a lock file's text "4242 tenace serve"; a bare PID (an older tenace) has no command."""
    pid, _, holder = text.strip().partition(" ")
    # Only a command of ours is named: the file is anybody's to write, and the message is shown as it is.
    known = holder if holder.startswith("tenace ") and holder[7:].isalpha() else SOMEONE
    return (int(pid) if pid.isdigit() else None), known


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


class CollectorLock:
    """Held from `acquire` until `release` (or the process's end) by `holder`, the command that collects (named to
    a second one that is refused)."""

    def __init__(self, db: Path, holder: str = "tenace collect") -> None:
        self.db = db
        self.holder = holder
        self.path = lock_path(db)
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock; LockHeld when another process has it, OSError when the lock file cannot be made."""
        handle = open(self.path, "a+", encoding="ascii")  # noqa: SIM115 (held open for the collector's life)
        try:
            if not _try_lock(handle):
                handle.seek(0)
                raise LockHeld(self.db, *read_holder(handle.read(64)))
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()} {self.holder}\n")
            handle.flush()
        except BaseException:
            handle.close()
            raise
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing drops the lock
            self._file = None

    def __enter__(self) -> CollectorLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def collector_running(db: Path) -> bool:
    """Whether a collector holds the event file's lock now (tried, and let go at once, without writing the PID)."""
    path = lock_path(db)
    if not path.exists():
        return False
    with open(path, "a+", encoding="ascii") as handle:
        return not _try_lock(handle)  # a lock taken here is dropped when the file is closed


if sys.platform == "win32":
    import msvcrt

    def _try_lock(handle: IO[str]) -> bool:
        # A byte far past the PID, so that a second collector can still read the PID at the start.
        handle.seek(1 << 20)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _try_lock(handle: IO[str]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
