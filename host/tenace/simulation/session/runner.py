"""One simulated session, start to end: event file, collector, radio, terminal processes, faults, comparison."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
import time
from contextlib import closing
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from tenace.collector import round_plans
from tenace.collector.link_key import link_key
from tenace.errors import Failure, UsageError
from tenace.firmware_build import build_firmware
from tenace.movement import Movement, howell, mitchell, teams
from tenace.simulation.faults import FaultRates
from tenace.simulation.radio import AirStats, VirtualRadio
from tenace.simulation.session.event_setup import create_simulated_event
from tenace.simulation.session.outcome import (
    HOWELL_SECTION,
    SECTION,
    TEAMS_SECTION,
    Comparison,
    Seats,
    compare,
    read_accepted,
)
from tenace.simulation.session.processes import CollectorProcess, RunningCollector, TerminalGroup
from tenace.store import EntryError, clock, connect, current_results
from tenace.store.director_calls import acknowledge_call, calls, set_clock
from tenace.store.encounters import slot_count
from tenace.store.movement_changes import set_presence
from tenace.store.queries import sign_in_count, terminal_result_count

log = logging.getLogger(__name__)

_POLL_S = 0.2
_PROGRESS_S = 5.0
CHANGE_WAIT_S = 60.0  # the longest section A's tables are held for a movement change to reach them


@dataclass(frozen=True)
class SimOptions:
    tables: int = 7
    boards: int = 21
    boards_per_round: int = 3
    howell_tables: int = 0  # a second section, B, playing a complete Howell on this many tables (0: none)
    change: bool = False  # one movement change in the middle of the session: a pair of section A leaves
    teams: bool = False  # a section T: a two-table team match over the session's rounds
    faults: FaultRates = field(default_factory=FaultRates)
    kill_host: int = 0  # times the collector is SIGKILLed, spread over the session
    down_s: float = 1.0  # how long the host stays dead each time
    unplug_s: float = 0.0  # the base station is unplugged this long, half-way through
    seed: int = 1
    per_process: int = 1  # terminals per MicroPython process
    heap_kb: int = 256  # MicroPython heap per terminal: the unix port keeps module code in RAM (a device freezes it)
    timeout_s: float = 900.0
    collector_args: tuple[str, ...] = ("--lead", "warn")  # leads keyed and checked against the hand records
    scoring: str = "mp"  # how both rankings are computed: "mp" or "butler"
    # The loopback port of a collector already running (tenace serve's): the tables play into the event itself
    # through it (a practice event); None: the simulator runs its own `tenace collect`.
    collector_port: int | None = None
    think_ms: int | None = None  # between two keys at a table (None: the terminals' own brisk pace)
    # The simulated director's call and round clock: the first terminal calls the director at its second round and
    # the director acknowledges it; each section's clock runs for round 1, a minute from the start, set again to end
    # CLOCK_LEFT_S later once a table has signed in (a round takes a second or two here, not minutes), and the
    # players wait at the end of round 1 until their terminal says "move" (scripted_player.py).
    director: bool = True

    def movements(self) -> dict[str, Movement]:
        """Section A's Mitchell, section B's Howell and section T's team match when asked for."""
        if self.boards % self.boards_per_round:
            raise UsageError(f"--boards {self.boards} is not a whole number of rounds of "
                             f"{self.boards_per_round} boards")
        rounds = self.boards // self.boards_per_round
        if self.change and rounds < 4:
            raise UsageError(f"--change needs 4 rounds or more (the pair leaves two rounds after a table has reached "
                             f"round 2), not {rounds}")
        if rounds > self.tables:
            raise UsageError(f"{rounds} rounds of {self.boards_per_round} boards need at least {rounds} tables "
                             f"(a Mitchell meets each pair once); there are {self.tables}")
        out = {SECTION: mitchell(self.tables, self.boards_per_round, rounds)}
        if self.howell_tables:
            out[HOWELL_SECTION] = howell(self.howell_tables, self.boards_per_round)
        if self.teams:
            out[TEAMS_SECTION] = teams(self.boards_per_round, rounds)
        return out


@dataclass
class SimResult:
    comparison: Comparison
    movements: dict[str, Movement]
    air: AirStats
    host_starts: int
    keys: int
    seconds: float
    keyed_while_down: int  # results the tables accepted while the host was dead (they play on from kept plans)
    change: str | None  # the movement change made during the session, as the director's log says it
    change_missed: bool  # --change, but the tables had gone too far for it
    call: str | None = None  # the table's call of the director, as the simulated director answered it
    coming: bool = False  # the answer reached the table ("Director coming")
    moved: int = 0  # terminals whose screen showed the round clock's "move"


def run(options: SimOptions, workdir: Path, db: Path | None = None,
        movements: dict[str, Movement] | None = None) -> SimResult:
    """Run the session in `workdir` (the collector's log, the terminals' journals) with its event file at `db`
    (default: event.sqlite in `workdir`): a new simulated event, or, with `movements`, the event `db` holds already
    (a rehearsal of the director's own, rehearsal.copy_event)."""
    return asyncio.run(_run(options, workdir, db or workdir / "event.sqlite", movements))


async def _run(options: SimOptions, workdir: Path, db: Path, given: dict[str, Movement] | None) -> SimResult:
    started = time.monotonic()
    movements = given if given is not None else options.movements()
    if given is None:
        name = f"Simulated session, seed {options.seed}"
        scoring = "imps" if options.scoring == "butler" else "matchpoints"  # as tenace results ranks the event
        create_simulated_event(db, name, movements, scoring).close()
    with closing(connect(db)) as conn:
        code = link_key(conn).code
    storage = workdir / "terminals"
    storage.mkdir(exist_ok=True)
    firmware = build_firmware(workdir / "firmware")
    collector: CollectorProcess | RunningCollector = (
        CollectorProcess(db, workdir, list(options.collector_args)) if options.collector_port is None
        else RunningCollector(options.collector_port))
    radio = VirtualRadio(options.faults, options.seed)
    seats = terminal_seats(movements)
    groups = _groups(seats, options.per_process)
    supervisor = _Supervisor(options, collector, radio, groups, db, storage, seats)
    caller = min(seats) if options.director else 0
    if options.director:
        supervisor.start_clocks(60)  # before any sign-in: each table gets the clock with its sign-in's answer
    try:
        radio.collector_port = await collector.start()
        radio_port = await radio.start()
        for group in groups:
            await group.start(firmware, radio_port, options.seed, code, storage, options.heap_kb * len(group.tables),
                              options.think_ms, caller)
        waits = [asyncio.create_task(g.wait()) for g in groups]
        await supervisor.run(waits)
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
        comparison = compare(conn, read_accepted(storage, seats), movements, options.scoring,
                             terminal_faults=sum(g.faults for g in groups))
    return SimResult(comparison, movements, radio.stats, collector.starts, sum(g.keys for g in groups),
                     time.monotonic() - started, supervisor.keyed_while_down, supervisor.change,
                     supervisor.change_missed, supervisor.call, any(caller in g.coming for g in groups),
                     sum(len(g.moved) for g in groups))


CLOCK_LEFT_S = 5


def terminal_seats(movements: dict[str, Movement]) -> Seats:
    """Terminal id -> (section, table): one terminal a table, numbered by the table in section A and from 1001
    in section B (the comparison reads each table's results by its terminal's id)."""
    return {1000 * i + table: (section, table) for i, (section, m) in enumerate(movements.items())
            for table in range(1, m.tables + 1)}


def _groups(seats: Seats, per_process: int) -> list[TerminalGroup]:
    terminals = [(t, section, table) for t, (section, table) in sorted(seats.items())]
    return [TerminalGroup(terminals[i:i + per_process]) for i in range(0, len(terminals), per_process)]


class _Supervisor:
    """Until every terminal process has ended: progress, the host killed and restarted, the base station
    unplugged, and the director's movement change."""

    def __init__(self, options: SimOptions, collector: CollectorProcess | RunningCollector, radio: VirtualRadio,
                 groups: list[TerminalGroup], db: Path, storage: Path, seats: Seats) -> None:
        self.options = options
        self.seats = seats
        self.collector = collector
        self.radio = radio
        self.groups = groups
        self.db = db
        self.storage = storage
        self.keyed_while_down = 0  # results the tables accepted while the host was dead
        self.change: str | None = None
        self.change_missed = False  # the tables had gone too far for it
        self.change_round = 0  # the first round the change alters
        self.changed_at = 0.0  # when it was made (the event loop's clock)
        # While this file is there, the players of section A key nothing (radio_terminal.py): the director
        # has asked the tables to wait until the change has reached them, as a director at the club would.
        self.hold = storage / "hold"
        self.lagging: set[int] = set()  # section A's tables the change has not reached yet (progress lines)
        self.call: str | None = None  # the call of the director, once answered
        self.clocks_started = False

    async def run(self, waits: list[asyncio.Task[int]]) -> None:
        options = self.options
        loop = asyncio.get_running_loop()
        deadline = loop.time() + options.timeout_s
        expected = self._expected()
        kills_due = [expected * (i + 1) // (options.kill_host + 1) for i in range(options.kill_host)]
        unplug_due = expected // 2 if options.unplug_s > 0 else None
        next_progress = loop.time() + _PROGRESS_S
        reader = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            while not all(w.done() for w in waits):
                if loop.time() > deadline:
                    raise Failure(f"the session did not end within {options.timeout_s:.0f} s: "
                                  f"{_stored(reader)} of {self._expected()} results stored")
                await asyncio.sleep(_POLL_S)
                stored = _stored(reader)
                if options.change and self.change is None and not self.change_missed:
                    self._change_movement()
                if options.director and self.call is None and options.collector_port is None:
                    self._answer_call()  # (a practice event's call waits for the director at the console)
                if options.director and not self.clocks_started and _signed_in(reader):
                    self.clocks_started = self.start_clocks(CLOCK_LEFT_S)
                # The host is not killed, nor the radio unplugged, while the tables wait for a change; the first
                # kill comes as soon as they play on, so that they play the changed rounds with the laptop dead
                # (and, the change made early, for several rounds whatever the machine's pace).
                released = self.hold.exists() and self._release_when_arrived(loop.time())
                held = self.hold.exists()
                if kills_due and (stored >= kills_due[0] or released) and not held:
                    kills_due.pop(0)
                    await self._kill_host(stored)
                if unplug_due is not None and stored >= unplug_due and not held:
                    unplug_due = None
                    self.radio.unplug(options.unplug_s)
                if loop.time() >= next_progress:
                    next_progress += _PROGRESS_S
                    done = sum(len(g.done) for g in self.groups)
                    tables = sum(len(g.tables) for g in self.groups)
                    waiting = (f", the change not yet at table(s) {', '.join(map(str, sorted(self.lagging)))} of "
                               f"section {SECTION}") if held and self.lagging else ""
                    print(f"  {stored}/{self._expected()} results stored, {done}/{tables} tables finished, "
                          f"host started {self.collector.starts}x{waiting}", file=sys.stderr, flush=True)
        finally:
            reader.close()

    def start_clocks(self, left_s: int) -> bool:
        """Each section's clock for round 1, one minute long, `left_s` seconds from its end; False when the event
        file was busy (the caller tries again)."""
        start = clock.now() - timedelta(seconds=60 - left_s)
        try:
            with closing(connect(self.db)) as conn:
                for section in sorted({section for section, _table in self.seats.values()}):
                    set_clock(conn, section, 1, 1, start)
        except sqlite3.Error:  # the collector busy or migrating: at the next poll
            return False
        return True

    def _answer_call(self) -> None:
        """The simulated director acknowledges a table's call, as the console's button does."""
        try:
            with closing(connect(self.db)) as conn:
                waiting = calls(conn, open_only=True)
                if not waiting or not acknowledge_call(conn, waiting[-1].id, "simulated director"):
                    return
        except sqlite3.Error:  # the collector busy or migrating: at the next poll
            return
        c = waiting[-1]
        self.call = f"section {c.section} table {c.table} called the director in round {c.round}"
        print(f"  {self.call}: acknowledged", file=sys.stderr, flush=True)

    async def _kill_host(self, stored: int) -> None:
        log.warning("killing the host (SIGKILL) at %d of %d results stored", stored, self._expected())
        self.collector.kill()
        before = _accepted_count(self.storage)
        await asyncio.sleep(self.options.down_s)
        self.keyed_while_down += _accepted_count(self.storage) - before
        self.radio.collector_port = await self.collector.start()

    def _expected(self) -> int:
        """The results the movement expects now (sit-outs left out)."""
        with closing(connect(self.db)) as conn:
            return slot_count(conn)

    def _change_movement(self) -> None:
        """The director's change, as `tenace move` makes it, once a table of section A has reached round 2:
        EW 1 leaves two rounds after the latest round any table has reached."""
        # What the tables accepted tells how far they are (the store may lag behind them).
        accepted = read_accepted(self.storage, self.seats)
        with closing(connect(self.db)) as conn:
            latest = max([v.round for v in current_results(conn, SECTION)]
                         + [slot[2] for slot in accepted if slot[0] == SECTION], default=0)
            if latest < 2:
                return
            rounds = self.options.boards // self.options.boards_per_round
            if latest + 2 > rounds:
                self.change_missed = True
                log.warning("no movement change: the tables are at round %d of %d", latest, rounds)
                return
            try:
                made = set_presence(conn, SECTION, ("EW", 1), latest + 2, present=False, who="simulator",
                                    why="the simulated director: EW 1 had to leave")
            except EntryError as e:  # a table got there first: try again at the next poll
                log.info("movement change not made yet: %s", e)
                return
        self.change = made.detail
        self.change_round = latest + 2
        self.changed_at = asyncio.get_running_loop().time()
        self.hold.write_text(SECTION, encoding="ascii")
        print(f"  the director: {made.detail}", file=sys.stderr, flush=True)

    def _release_when_arrived(self, now: float) -> bool:
        """Let section A's players go on once every unfinished table keeps the changed plans (link.plans) of the
        rounds from the change on, or after CHANGE_WAIT_S (a table that lacks them then shows as lost results).
        Whether they go on now."""
        waited = now - self.changed_at
        missing = self._change_missing()
        if missing and waited <= CHANGE_WAIT_S:
            return False
        self.hold.unlink(missing_ok=True)
        if missing:
            log.warning("the movement change has not reached every table in %.0f s: play goes on; %s",
                        CHANGE_WAIT_S, "; ".join(missing))
        else:
            print(f"  the change reached every table of section {SECTION} in {waited:.1f} s: play goes on",
                  file=sys.stderr, flush=True)
        return True

    def _change_missing(self) -> list[str]:
        """Each table round of section A whose changed plan its unfinished terminal does not keep yet."""
        finished = set().union(*(g.done for g in self.groups))
        missing = []
        self.lagging = set()
        with closing(connect(self.db)) as conn:
            for terminal, (section, table) in self.seats.items():
                if section != SECTION or terminal in finished:
                    continue
                kept = _kept_plans(self.storage / str(terminal) / "link.plans")
                later = [r for r in round_plans.rounds_of(conn, 0, table) if r >= self.change_round]  # A is 0
                for number in later:
                    plan = round_plans.round_plan(conn, 0, table, number)
                    if plan is not None and kept.get(number) != plan.encode().hex():
                        self.lagging.add(table)
                        missing.append(f"table {table} round {number} keeps {kept.get(number)}, "
                                       f"not {plan.encode().hex()}")
        return missing


def _kept_plans(path: Path) -> dict[int, str]:
    """Round -> the plan a terminal keeps for it, in hex (the last line of a round wins, as in its link)."""
    try:
        lines = path.read_text(encoding="ascii").split("\n")[:-1]  # whole lines: the link may be writing one
    except (OSError, UnicodeDecodeError):
        return {}
    return {int(n): text for n, _, text in (line.partition(" ") for line in lines) if n.isdigit()}


def _accepted_count(storage: Path) -> int:
    """Results the tables have accepted so far: whole lines of their accepted.txt (a terminal may be writing one)."""
    return sum(log.read_bytes().count(b"\n") for log in storage.glob("*/accepted.txt"))


def _signed_in(reader: sqlite3.Connection) -> bool:
    try:
        return sign_in_count(reader) > 0
    except sqlite3.OperationalError:  # the collector is migrating or busy: at the next poll
        return False


def _stored(reader: sqlite3.Connection) -> int:
    try:
        return terminal_result_count(reader)
    except sqlite3.OperationalError:  # the collector is migrating or busy: try again at the next poll
        return 0
