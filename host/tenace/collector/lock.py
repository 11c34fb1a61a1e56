"""One collector per event file: an exclusive lock on FILE.lock beside it, held for the collector's life.

The operating system holds the lock for the open file (flock on Linux and macOS, a locked byte on
Windows) and drops it when the process ends however it ends, so a collector killed with SIGKILL or a
laptop that lost power leaves no stale lock behind. The file keeps the holder's PID for the message
a second collector gives; it stays after use (removing it would let two collectors lock two files).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO


class LockHeld(Exception):
    """Another process holds the event file's collector lock: `pid` (None when it could not be read)."""

    def __init__(self, path: Path, pid: int | None) -> None:
        holder = f" (PID {pid})" if pid is not None else ""
        super().__init__(f"another tenace collect{holder} is already collecting into {path}: "
                         "stop it first (Ctrl-C in its window), or go on with that one")
        self.pid = pid


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


class CollectorLock:
    """Held from `acquire` until `release` (or the process's end)."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.path = lock_path(db)
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock; LockHeld when another process has it, OSError when the lock file cannot be made."""
        handle = open(self.path, "a+", encoding="ascii")  # noqa: SIM115 (held open for the collector's life)
        try:
            if not _try_lock(handle):
                handle.seek(0)
                text = handle.read(32).strip()
                raise LockHeld(self.db, int(text) if text.isdigit() else None)
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()}\n")
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
