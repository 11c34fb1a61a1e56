"""Clubs playing a simultaneous event into a local hub, for `tenace sim --clubs`, the fault tests and the benchmark.

A hub process (the hub's application under uvicorn, on a throwaway PostgreSQL) that can be killed and started again
on the same port; scripted clubs, whose keyed results go straight through the store (as the collector would store
them) into their own event files, linked to the sim; and the count of what the hub holds against those files."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenace.errors import UsageError
from tenace.hub import wire
from tenace.hub.club_push import SimAddress
from tenace.movement import Movement, mitchell
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.hub_outbox import link_sim, outbox, pending, slot_push
from tenace.store.model import IncomingResult, Kind
from tenace.store.versions import load_versions, slot_states

_SERVE = ("import sys, uvicorn\nfrom tenace.hub.app import create_app\n"
          "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')\n")
START_S = 30.0


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HubProcess:
    """The hub's push endpoint in a process of its own, on `db_url`: started, killed (SIGKILL) and started again on
    the same port, as a hub that crashes and comes back."""

    def __init__(self, db_url: str, log: Path, port: int | None = None) -> None:
        self.db_url = db_url
        self.log = log
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-c", _SERVE, self.db_url, str(self.port)],
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise UsageError(f"the hub stopped at start: {self.log.read_text(errors='replace')[-500:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise UsageError(f"the hub did not listen within {START_S:.0f} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, whatever it was doing."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None


@dataclass
class ScriptedClub:
    """A club whose terminals' results are scripted: stored through the store, a board at a time."""

    club: str
    db: Path
    movement: Movement
    seed: int

    def results(self) -> list[IncomingResult]:
        """Every board of every table and round, each table's terminal numbering its frames 1, 2, 3..."""
        rng = random.Random(self.seed)
        out = []
        sequences: dict[int, int] = {}
        for e in sorted(self.movement.encounters, key=lambda e: (e.round, e.table)):
            for board in e.boards:
                sequences[e.table] = sequences.get(e.table, 0) + 1
                base = dict(terminal=e.table, sequence=sequences[e.table], section="A", table=e.table,
                            round=e.round, board=board, ns_pair=e.ns_pair, ew_pair=e.ew_pair)
                if rng.random() < 0.03:
                    out.append(IncomingResult(**base, kind=Kind.PASSED_OUT))  # type: ignore[arg-type]
                    continue
                level = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6))
                tricks = max(0, min(13, level + 6 + round(rng.gauss(0, 1.2))))
                out.append(IncomingResult(**base, contract=f"{level}{rng.choice(('C', 'D', 'H', 'S', 'NT'))}",  # type: ignore[arg-type]
                                          declarer=rng.choice("NESW"), tricks=tricks))
        return out


def scripted_club(folder: Path, club: str, hub: str, sim: str, token: str, tables: int, boards_per_round: int,
                  rounds: int, seed: int) -> ScriptedClub:
    """A club's event file, made, its terminals signed in and linked to the sim."""
    movement = mitchell(tables, boards_per_round, rounds)
    db = folder / f"{club}.sqlite"
    conn = create_event(db, name=f"Club {club}", sections={"A": movement})
    try:
        for table in range(1, tables + 1):
            sign_in(conn, table, "A", table)
        link_sim(conn, hub, sim, club, token)
    finally:
        conn.close()
    return ScriptedClub(club, db, movement, seed)


def play(club: ScriptedClub, results: list[IncomingResult]) -> None:
    """Store results at the club, each in its own transaction as the collector does."""
    with closing(connect(club.db)) as conn:
        for r in results:
            ingest(conn, r)


@dataclass(frozen=True)
class Count:
    """The clubs' results that count (from their own event files) against what the hub holds."""

    clubs: int
    results: int  # slots with a result that counts, summed over the clubs' files
    stored: int  # of those, the ones the hub holds with the same content
    lost: int  # the clubs' results the hub does not hold as they are
    doubled: int  # pushes the hub holds beyond the clubs' outboxes, or slots no club has

    def line(self) -> str:
        return (f"clubs={self.clubs} results={self.results} stored={self.stored} lost={self.lost} "
                f"doubled={self.doubled}")


def club_slots(db: Path) -> tuple[dict[tuple[str, int, int, int], dict[str, Any]], int]:
    """What counts in each slot of a club's event file now, as it would be pushed (without the version); and its
    outbox's total."""
    from dataclasses import asdict

    with closing(connect(db)) as conn:
        states = slot_states(load_versions(conn))
        slots = {tuple(slot): asdict(slot_push(conn, slot, list(state.versions))) for slot, state in states.items()}
        return slots, outbox(conn).total  # type: ignore[return-value]


def count(db_url: str, sim: str, clubs: dict[str, Path]) -> Count:
    """Each club's file against the hub's slots and pushes for that club."""
    import psycopg

    results = stored = lost = doubled = 0
    with psycopg.connect(db_url) as pg:
        for club, db in clubs.items():
            mine, total = club_slots(db)
            held = {(r[0], r[1], r[2], r[3]): r[4] for r in pg.execute(
                "SELECT section, table_no, round, board, body FROM slots WHERE sim = %s AND club = %s", (sim, club))}
            pushes = pg.execute("SELECT count(*) FROM pushes WHERE sim = %s AND club = %s", (sim, club)).fetchone()
            for key, body in mine.items():
                if body["state"] != "result":
                    continue
                results += 1
                if held.get(key) == body:
                    stored += 1
                else:
                    lost += 1
            doubled += max(int(pushes[0] if pushes else 0) - total, 0)
            doubled += sum(1 for key, body in held.items() if body.get("state") == "result"
                           and mine.get(key, {}).get("state") != "result")
    return Count(len(clubs), results, stored, lost, doubled)


def address(hub: str, sim: str, club: str) -> SimAddress:
    return SimAddress(hub, sim, club)


def batches(db: Path) -> Iterator[list[wire.Push]]:
    """A club's whole outbox in batches (the fault tests resend and reorder them)."""
    with closing(connect(db)) as conn:
        after = 0
        while chunk := pending(conn, after):
            yield chunk
            after = chunk[-1].seq
