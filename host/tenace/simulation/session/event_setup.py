"""The simulated event as a director sets it up: its sections, the club's roster and each pair's players, the
hand records with their double-dummy analysis."""

from __future__ import annotations

import runpy
import sqlite3
from pathlib import Path

from tenace.deals.importing import analyse_section
from tenace.firmware_build import SIM_DIR
from tenace.movement import Movement
from tenace.store import create_event
from tenace.store.hand_records import keep_hand_records
from tenace.store.names import Member, keep_roster, set_pair_players

_FIRST = ("Ana", "Boris", "Clara", "Dario", "Eva", "Filip", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Luka",
          "Mila", "Nikola", "Olga", "Petar", "Rosa", "Stefan", "Tea", "Viktor")
_LAST = ("Horvat", "Novak", "Kovac", "Babic", "Marić", "Jurić", "Petrov", "Levi", "Cohen", "Ozola", "Kalniņš",
         "Urban", "Varga", "Tomić", "Blum", "Zariņa")
FIRST_MEMBER = 101


def create_simulated_event(path: Path, name: str, movements: dict[str, Movement],
                           scoring: str = "matchpoints") -> sqlite3.Connection:
    """The event file with its sections, names and hand records; open."""
    conn = create_event(path, name=name, sections=movements, scoring=scoring)
    deal = runpy.run_path(str(SIM_DIR / "deals.py"))["deal"]  # the fixed deals the terminal tests use too
    number = FIRST_MEMBER
    members = []
    for section, movement in movements.items():
        for field, pair in movement.pairs():
            if movement.phantom == (field, pair):
                continue
            members += [Member(n, f"{_FIRST[n % len(_FIRST)]} {_LAST[n * 7 % len(_LAST)]}")
                        for n in (number, number + 1)]
            set_pair_players(conn, section, pair, field, (number, number + 1), who="simulator")
            number += 2
        keep_hand_records(conn, section, {b: deal(b) for b in sorted({b for e in movement.encounters
                                                                       for b in e.boards})})
        analyse_section(conn, section)
    keep_roster(conn, members)
    return conn
