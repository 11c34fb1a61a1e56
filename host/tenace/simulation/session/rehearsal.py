"""A rehearsal: the director's own event (movement, names, deals) copied, for simulated terminals to play."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from tenace.errors import Refused, UsageError
from tenace.movement import Movement
from tenace.store import StoreError, connect, event_info
from tenace.store.encounters import stored_movement
from tenace.store.queries import result_count

# What the scripted players can play: pairs at their tables and a team match's two rooms (not an individual's
# changing partnerships); the terminal signs in to a section by one letter.
PLAYABLE = ("mitchell", "howell", "teams")


def default_copy(event: Path) -> Path:
    """Where a rehearsal of `event` goes unless told: beside it, club.sqlite -> club-rehearsal.sqlite."""
    return event.with_name(f"{event.stem}-rehearsal{event.suffix or '.sqlite'}")


def copy_event(event: Path, copy: Path) -> tuple[dict[str, Movement], str]:
    """Copy the event file to `copy` (a new file) with SQLite's backup, the original opened read-only so that
    nothing can change it, and read back each section's movement and the scoring ("mp" or "butler") from the copy.
    UsageError, the copy removed, for an event the simulated terminals cannot play."""
    if not event.is_file():
        raise UsageError(f"--event {event}: no such event file")
    try:
        with closing(sqlite3.connect(f"file:{event}?mode=ro", uri=True)) as source, \
                closing(sqlite3.connect(copy)) as target:
            source.backup(target)
    except sqlite3.DatabaseError as e:
        copy.unlink(missing_ok=True)
        raise UsageError(f"--event {event}: cannot be read as an event file ({e})") from None
    try:
        with closing(connect(copy)) as conn:
            return _playable(conn, event)
    except StoreError as e:
        copy.unlink(missing_ok=True)
        raise UsageError(f"--event {event}: {e}".replace(str(copy), str(event))) from None
    except UsageError:
        copy.unlink(missing_ok=True)
        raise


def practice_play(event: Path) -> tuple[dict[str, Movement], str]:
    """Each section's movement and the scoring of a practice event that simulated terminals are to play into
    themselves (not a copy). UsageError, in one line, for a real event: it never takes simulated terminals."""
    if not event.is_file():
        raise UsageError(f"--event {event}: no such event file")
    try:
        with closing(connect(event)) as conn:
            if not event_info(conn).practice:
                raise Refused("real_event", f"{event.name} is a real event: simulated tables play only into a "
                              "practice event (made as one on the console's set-up page); rehearse a real one into a "
                              "copy", name=event.name)
            return _playable(conn, event)
    except StoreError as e:
        raise UsageError(f"--event {event}: {e}") from None


def _playable(conn: sqlite3.Connection, event: Path) -> tuple[dict[str, Movement], str]:
    played = result_count(conn)
    if played:
        raise Refused("played", f"--event {event} holds {played} results already: a rehearsal plays an event before "
                      "its evening (make it from a copy made before play, or rehearse with tenace sim alone)",
                      name=event.name, count=played)
    info = event_info(conn)
    for s in info.sections:
        if len(s.name) != 1 or not "A" <= s.name <= "Z":
            raise UsageError(f"--event {event}: section {s.name} cannot be chosen on a terminal, which signs in to "
                             "sections A to Z")
        if s.kind not in PLAYABLE:
            raise UsageError(f"--event {event}: section {s.name} is {'an' if s.kind[0] in 'aeiou' else 'a'} {s.kind}; "
                             "the simulated players play Mitchells, Howells and team matches")
    movements = {s.name: stored_movement(conn, s.name) for s in info.sections}
    return movements, "butler" if info.scoring == "imps" else "mp"
