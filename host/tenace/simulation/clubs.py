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
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenace.collector.hub_push import SimAddress
from tenace.errors import UsageError
from tenace.hub.serving import DB_ENV
from tenace.lifetime import die_with_parent
from tenace.movement import Movement, mitchell
from tenace.protocol import wire
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.hub_outbox import link_sim, outbox, pending, slot_push
from tenace.store.model import IncomingResult, Kind
from tenace.store.versions import load_versions, slot_states

if TYPE_CHECKING:
    from tenace.simulation.cluster import Cluster

START_S = 30.0


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HubProcess:
    """The hub's push endpoint in a process of its own, on `db_url`: started, killed (SIGKILL) and started again on
    the same port, as a hub that crashes and comes back."""

    def __init__(self, db_url: str, log: Path, port: int | None = None, verbose: bool = False,
                 outlive: bool = False) -> None:
        self.db_url = db_url
        self.log = log
        self.port = port or free_port()
        self.verbose = verbose  # its log says what it does (each scoring pass), not only what goes wrong
        self.outlive = outlive  # it runs on when this process ends (tenace sim --clubs --keep); else it ends too
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "tenace", *(["-v"] if self.verbose else []), "hub",
                                             "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                                            env={**os.environ, DB_ENV: self.db_url},  # not in `ps`
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                            preexec_fn=None if self.outlive else die_with_parent)
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
        """SIGKILL: no shutdown, whatever it was doing; its workers end with it (gone when this returns, so that
        the port is free again)."""
        if self.process is not None and self.process.poll() is None:
            children = _children(self.process.pid)
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            deadline = time.monotonic() + START_S
            while children and time.monotonic() < deadline:
                children = [c for c in children if _running(c)]
                time.sleep(0.02)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:  # not Linux: its workers end with it a moment later
        return []


def _running(pid: int) -> bool:
    """Still running (a zombie has ended: its port is free)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return False


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


def deal_text(rng: random.Random) -> str:
    """A random deal in PBN's notation, North first."""
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rng.shuffle(cards)
    hands = [cards[h * 13:(h + 1) * 13] for h in range(4)]
    return "N:" + " ".join(".".join("".join(r for r in "AKQJT98765432" if s + r in hand) for s in "SHDC")
                           for hand in hands)


def write_hands(path: Path, boards: int, seed: int) -> None:
    rng = random.Random(seed)
    path.write_text("".join(f'[Event "Sim"]\n[Board "{b}"]\n[Dealer "{"NESW"[(b - 1) % 4]}"]\n'
                            f'[Vulnerable "None"]\n[Deal "{deal_text(rng)}"]\n\n' for b in range(1, boards + 1)))


def new_sim(db_url: str, folder: Path, sim: str, clubs: list[str], boards: int, seed: int = 1) -> dict[str, str]:
    """A sim that started an hour ago, with its clubs; each club's token."""
    from datetime import UTC, datetime, timedelta

    import psycopg

    from tenace.hub import organiser
    from tenace.hub.schema import migrate

    hands = folder / f"{sim}.pbn"
    write_hands(hands, boards, seed)
    with psycopg.connect(db_url, autocommit=True) as conn:
        migrate(conn)
        organiser.new_sim(conn, sim, "Simulated sim", [datetime.now(UTC) - timedelta(hours=1)], boards,
                          organiser.hand_records(hands, boards), "mp")
        return {club: organiser.add_club(conn, sim, club, f"Club {club}") for club in clubs}


def national_ranking(db_url: str, sim: str) -> list[dict[str, Any]]:
    """The hub's national ranking of the sim, scored now if a push came since."""
    import psycopg

    from tenace.hub.scorer import rescore_until_current

    with psycopg.connect(db_url, autocommit=True) as conn:
        rescore_until_current(conn, sim)
        row = conn.execute("SELECT field FROM scores WHERE sim = %s", (sim,)).fetchone()
    return list(row[0]["national"]) if row and row[0] else []


def run_clubs(clubs: int, firmware: int, workdir: Path, seed: int = 1, tables: int = 7,
              boards_per_round: int = 3, keep: bool = False) -> Count:
    """`tenace sim --clubs N`: a throwaway PostgreSQL and a hub on it; `firmware` clubs played by the real firmware
    (tenace sim's session, its collector pushing), the others scripted through the store with their own pushers;
    each direction's leaders in the national ranking printed, then the count against the clubs' files. `keep`: the
    hub and its database are left running for inspection, with how to reach and stop them printed; else both are
    stopped, and end with this process however it ends."""
    from tenace.collector.hub_push import Pusher, PushError, push_all
    from tenace.simulation.cluster import Cluster
    from tenace.simulation.session.event_setup import create_simulated_event
    from tenace.simulation.session.runner import SimOptions, run

    movement = mitchell(tables, boards_per_round, tables)
    names = [f"club{i:03d}" for i in range(1, clubs + 1)]
    files: dict[str, Path] = {}
    cluster = Cluster.start(outlive=keep)
    kept = False
    try:
        hub = HubProcess(cluster.url, workdir / "hub.log", outlive=keep)
        tokens = new_sim(cluster.url, workdir, "sim", names, movement.boards, seed)
        try:
            hub.start()
            for i, club in enumerate(names[:firmware], start=1):
                folder = workdir / club
                folder.mkdir()
                db = folder / "event.sqlite"
                options = SimOptions(tables=tables, boards=movement.boards, boards_per_round=boards_per_round,
                                     seed=seed + i)
                create_simulated_event(db, f"Club {club}", {"A": movement}).close()
                with closing(connect(db)) as conn:
                    link_sim(conn, hub.url, "sim", club, tokens[club])
                print(f"{club}: the firmware's session ({tables} tables, {movement.boards} boards)", flush=True)
                run(options, folder, db, {"A": movement})
                with closing(connect(db)) as conn:
                    try:
                        push_all(conn)  # what the collector had not sent when it stopped
                    except PushError as e:  # counted below: what the hub lacks is lost
                        print(f"{club}: {e}", flush=True)
                files[club] = db
            scripted = [scripted_club(workdir, club, hub.url, "sim", tokens[club], tables, boards_per_round, tables,
                                      seed + i) for i, club in enumerate(names[firmware:], start=firmware + 1)]
            pushers = [Pusher(c.db, idle_s=0.1, backoff_s=(0.2, 2.0)) for c in scripted]
            for p in pushers:
                p.start()
            try:
                plays = [c.results() for c in scripted]
                for r in range(tables):  # a round at a time at every club
                    for c, results in zip(scripted, plays, strict=True):
                        step = len(results) // tables
                        play(c, results[r * step:(r + 1) * step if r < tables - 1 else None])
                for c in scripted:
                    files[c.club] = c.db
                    _drain(c.db)
            finally:
                for p in pushers:
                    p.stop()
            ranking = national_ranking(cluster.url, "sim")
            print(f"national ranking ({len(ranking)} pairs):")
            for line in leaders(ranking):
                print(line)
            counted = count(cluster.url, "sim", files)
            if keep and hub.process is not None:
                _print_kept(hub, cluster, workdir)
                kept = True
            return counted
        finally:
            if not kept:
                hub.stop()
    finally:
        if not kept:
            cluster.stop()


LEADERS = 5  # rows of each direction's leaders printed by tenace sim --clubs


def leaders(ranking: list[dict[str, Any]], rows: int = LEADERS) -> list[str]:
    """The head of each field of the national ranking (NS and EW, or the one field of a Howell), as printed."""
    fields: dict[str | None, list[dict[str, Any]]] = {}
    for row in ranking:
        fields.setdefault(row.get("field"), []).append(row)
    lines = []
    for name in sorted(fields, key=lambda f: ("NS", "EW").index(f) if f in ("NS", "EW") else 2):
        lines.append(f"  {name or 'the field'} ({len(fields[name])} pairs), top {min(rows, len(fields[name]))}:")
        for row in fields[name][:rows]:
            pct = float(Fraction(row["percent"]))
            lines.append(f"    {row['rank']:>5} {row['pair']:<16} {pct:6.2f}%  {row['boards']} boards")
    return lines


def _print_kept(hub: HubProcess, cluster: Cluster, workdir: Path) -> None:
    assert hub.process is not None and cluster.process is not None
    print(f"the hub is left running: {hub.url}/sim/sim (its JSON: {hub.url}/api/sim/sim/national)")
    print(f"its database: {cluster.url}")
    print(f"the clubs' event files and the hub's log: {workdir}")
    print(f"to stop both: kill {hub.process.pid} {cluster.process.pid} && rm -rf {cluster.folder}")


def _drain(db: Path, within_s: float = 120.0) -> None:
    deadline = time.monotonic() + within_s
    with closing(connect(db)) as conn:
        while outbox(conn).queued and time.monotonic() < deadline:
            time.sleep(0.1)
