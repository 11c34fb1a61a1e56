"""One simulated session, start to end: event file, collector, radio, terminal processes, faults, comparison."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from tenace.collector.link_key import link_key
from tenace.errors import Failure, UsageError
from tenace.firmware_build import build_firmware
from tenace.movement import Movement, mitchell
from tenace.sim.faults import FaultRates
from tenace.sim.outcome import SECTION, Comparison, compare, read_accepted
from tenace.sim.processes import CollectorProcess, TerminalGroup
from tenace.sim.radio import AirStats, VirtualRadio
from tenace.store import connect, create_event
from tenace.store.queries import terminal_result_count

log = logging.getLogger(__name__)

_POLL_S = 0.2
_PROGRESS_S = 5.0


@dataclass(frozen=True)
class SimOptions:
    tables: int = 7
    boards: int = 21
    boards_per_round: int = 3
    faults: FaultRates = field(default_factory=FaultRates)
    kill_host: int = 0  # times the collector is SIGKILLed, spread over the session
    down_s: float = 1.0  # how long the host stays dead each time
    unplug_s: float = 0.0  # the base station is unplugged this long, half-way through
    seed: int = 1
    per_process: int = 1  # terminals per MicroPython process
    heap_kb: int = 256  # MicroPython heap per terminal: the unix port keeps module code in RAM (a device freezes it)
    timeout_s: float = 900.0
    collector_args: tuple[str, ...] = ("--lead", "on")
    scoring: str = "mp"  # how both rankings are computed: "mp" or "butler"

    def movement(self) -> Movement:
        if self.boards % self.boards_per_round:
            raise UsageError(f"--boards {self.boards} is not a whole number of rounds of "
                             f"{self.boards_per_round} boards")
        rounds = self.boards // self.boards_per_round
        if rounds > self.tables:
            raise UsageError(f"{rounds} rounds of {self.boards_per_round} boards need at least {rounds} tables "
                             f"(a Mitchell meets each pair once); there are {self.tables}")
        return mitchell(self.tables, self.boards_per_round, rounds)


@dataclass
class SimResult:
    comparison: Comparison
    movement: Movement
    air: AirStats
    host_starts: int
    keys: int
    seconds: float
    keyed_while_down: int  # results the tables accepted while the host was dead (they play on from kept plans)


def run(options: SimOptions, workdir: Path, db: Path | None = None) -> SimResult:
    """Run the session in `workdir` (the collector's log, the terminals' journals) with its event file at `db`
    (default: event.sqlite in `workdir`)."""
    return asyncio.run(_run(options, workdir, db or workdir / "event.sqlite"))


async def _run(options: SimOptions, workdir: Path, db: Path) -> SimResult:
    started = time.monotonic()
    movement = options.movement()
    name = f"Simulated session, seed {options.seed}"
    with closing(create_event(db, name=name, sections={SECTION: movement})) as conn:
        code = link_key(conn).code
    storage = workdir / "terminals"
    storage.mkdir(exist_ok=True)
    firmware = build_firmware(workdir / "firmware")
    collector = CollectorProcess(db, workdir, list(options.collector_args))
    radio = VirtualRadio(options.faults, options.seed)
    groups = _groups(options.tables, options.per_process)
    expected = sum(len(e.boards) for e in movement.encounters)
    try:
        radio.collector_port = await collector.start()
        radio_port = await radio.start()
        for group in groups:
            await group.start(firmware, radio_port, options.seed, code, storage, options.heap_kb * len(group.tables))
        waits = [asyncio.create_task(g.wait()) for g in groups]
        keyed_while_down = await _supervise(options, collector, radio, groups, waits, db, expected, storage)
        codes = await asyncio.gather(*waits)
        for group, rc in zip(groups, codes, strict=True):
            if rc != 0:
                detail = "\n".join(group.output[-20:])
                raise Failure(f"the terminal process of tables {group.tables} failed (exit {rc}):\n{detail}")
    finally:
        for group in groups:
            await group.stop()
        collector.stop()
        await radio.close()
    with closing(connect(db)) as conn:
        comparison = compare(conn, read_accepted(storage), movement, options.scoring,
                             terminal_faults=sum(g.faults for g in groups))
    return SimResult(comparison, movement, radio.stats, collector.starts, sum(g.keys for g in groups),
                     time.monotonic() - started, keyed_while_down)


def _groups(tables: int, per_process: int) -> list[TerminalGroup]:
    # Each table's terminal has the table's number as its terminal id: the comparison relies on it.
    numbers = list(range(1, tables + 1))
    return [TerminalGroup([(t, t) for t in numbers[i:i + per_process]]) for i in range(0, tables, per_process)]


async def _supervise(options: SimOptions, collector: CollectorProcess, radio: VirtualRadio,
                     groups: list[TerminalGroup], waits: list[asyncio.Task[int]], db: Path, expected: int,
                     storage: Path) -> int:
    """Until every terminal process has ended: progress, the host killed and restarted, the base station unplugged.

    Returns how many results the tables accepted while the host was dead."""
    keyed_while_down = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + options.timeout_s
    kills_due = [expected * (i + 1) // (options.kill_host + 1) for i in range(options.kill_host)]
    unplug_due = expected // 2 if options.unplug_s > 0 else None
    next_progress = loop.time() + _PROGRESS_S
    reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        while not all(w.done() for w in waits):
            if loop.time() > deadline:
                raise Failure(f"the session did not end within {options.timeout_s:.0f} s: "
                              f"{_stored(reader)} of {expected} results stored")
            await asyncio.sleep(_POLL_S)
            stored = _stored(reader)
            if kills_due and stored >= kills_due[0]:
                kills_due.pop(0)
                log.warning("killing the host (SIGKILL) at %d of %d results stored", stored, expected)
                collector.kill()
                before = _accepted_count(storage)
                await asyncio.sleep(options.down_s)
                keyed_while_down += _accepted_count(storage) - before
                radio.collector_port = await collector.start()
            if unplug_due is not None and stored >= unplug_due:
                unplug_due = None
                radio.unplug(options.unplug_s)
            if loop.time() >= next_progress:
                next_progress += _PROGRESS_S
                done = sum(len(g.done) for g in groups)
                print(f"  {stored}/{expected} results stored, {done}/{options.tables} tables finished, "
                      f"host started {collector.starts}x", file=sys.stderr, flush=True)
    finally:
        reader.close()
    return keyed_while_down


def _accepted_count(storage: Path) -> int:
    """Results the tables have accepted so far: whole lines of their accepted.txt (a terminal may be writing one)."""
    return sum(log.read_bytes().count(b"\n") for log in storage.glob("*/accepted.txt"))


def _stored(reader: sqlite3.Connection) -> int:
    try:
        return terminal_result_count(reader)
    except sqlite3.OperationalError:  # the collector is migrating or busy: try again at the next poll
        return 0
