"""The real collector for a simulated terminal: a fresh event file, its settings and deals, frames on a given clock.

The terminal simulator (host/tenace/simulation/boards/session_runner.py) hands it the frames its terminal put on
the air and takes back what the collector broadcasts, at the simulator's own time, so a scripted session is
the same on every run. Under CPython it is called in-process; under MicroPython through `serve` (a line
protocol on a loopback TCP port). What the tests ask afterwards (what was stored, how many duplicates) is
read from the event file through the store's queries.
"""

from __future__ import annotations

import json
import logging
import random
import runpy
import socketserver
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

from tenace.collector import round_plans
from tenace.collector.collector import Collector
from tenace.collector.link_key import link_key
from tenace.collector.settings import Settings
from tenace.firmware_build import SIM_DIR
from tenace.movement import MIN_HOWELL_TABLES, howell, mitchell
from tenace.movement.individual import MIN_INDIVIDUAL_TABLES, individual
from tenace.store import clock, conflicts, current_results, director_calls, states
from tenace.store.director import Action, enter_result
from tenace.store.event import create_event
from tenace.store.hand_records import DoubleDummy, keep_analysis, keep_hand_record
from tenace.store.link import all_player_numbers, stored_counts
from tenace.store.movement_changes import close_table, set_presence, swap_pairs
from tenace.store.queries import sign_in_count
from tenace.store.terminal_reports import inventory
from tenace.store.versions import Version
from tenace_wire.errors import DUPLICATE

log = logging.getLogger(__name__)

SECTION = "A"
APP_SEQ = 32768  # tenace_terminal.wire_link.APP_SEQ: the app's message s is s + APP_SEQ on the air
_KINDS = {"normal": "played", "passed_out": "passed_out", "artificial": "adjusted", "not_played": "not_played",
          "erased": "erase"}
# The app's names for what the host sets at sign-in, and the collector's (tenace_terminal.app.DEFAULT_SETTINGS).
_RESULT_ENTRY = {"any": "any", "relative": "relative", "tricks": "total"}
# What a terminal on MicroPython may ask over the line protocol: TableHost's methods of these names.
QUESTIONS = ("result", "results", "stored", "duplicates", "enter", "erase", "sign_ins", "close_event", "forget",
             "move", "plans", "status", "conflicts", "calls", "acknowledge", "clock")


@dataclass(frozen=True)
class HostOptions:
    """The event a simulated terminal plays: a Mitchell with a copy of each round's boards on every table, or the
    first `rounds` rounds of a Howell (movement "howell", at least 3 tables) or of a 2-table individual
    ("individual")."""

    rounds: int = 3
    boards_per_round: int = 3
    tables: int = 4
    players: str = "off"  # the table settings, by the app's names (tenace_terminal.app.DEFAULT_SETTINGS)
    lead: str = "on"
    result: str = "any"
    traveller: bool = False
    language: str = "en"
    deals: bool = False  # hand records in the event file, so the terminal checks the lead
    analysed: bool = True  # with deals: their double-dummy analysis too (micropython/deals.py's fixed one)
    movement: str = "mitchell"
    club: str = ""  # the laptop's club key (32 hex digits; tenace.club_key), or none

    @classmethod
    def from_json(cls, text: str) -> HostOptions:
        """From the simulator's {"rounds": .., "settings": {...}, "deals": ..}; ValueError when malformed."""
        data = json.loads(text)
        settings = data.get("settings") or {}
        return cls(rounds=int(data.get("rounds", 3)), boards_per_round=int(data.get("boards_per_round", 3)),
                   tables=int(data.get("tables", 4)), players=str(settings.get("players", "off")),
                   lead=str(settings.get("lead", "on")), result=str(settings.get("result", "any")),
                   traveller=bool(settings.get("traveller", False)), language=str(settings.get("language", "en")),
                   deals=bool(data.get("deals", False)), analysed=bool(data.get("analysed", True)),
                   movement=str(data.get("movement", "mitchell")), club=str(data.get("club", "")))

    def settings(self) -> Settings:
        if self.result not in _RESULT_ENTRY:
            raise ValueError(f"result entry must be one of {', '.join(_RESULT_ENTRY)}, not {self.result!r}")
        return Settings(player_numbers=self.players, lead=self.lead, result_entry=_RESULT_ENTRY[self.result],
                        show_traveller=self.traveller, language=self.language)


@cache
def _fixed_deals() -> dict[str, Any]:
    """micropython/deals.py, the simulator's fixed deals, which the terminal tests read too."""
    return runpy.run_path(str(SIM_DIR / "deals.py"))


def fixed_deal() -> Callable[[int], str]:
    """The simulator's fixed deal of each board."""
    return _fixed_deals()["deal"]  # type: ignore[no-any-return]


def fixed_analysis(board: int) -> DoubleDummy | None:
    """The double-dummy analysis of the fixed deal of `board`, or None past those deals.py has."""
    found = _fixed_deals()["analysis"](board)
    return None if found is None else DoubleDummy.decoded(str(found[0]), int(found[1]), "")


def summary(v: Version) -> str:
    """A stored result as one short line: "played v0 4S N 11 HK +450", "adjusted v0 A+ A-", "erase v1"."""
    words = [_KINDS.get(v.kind, v.kind), f"v{v.revision if v.revision is not None else 0}"]
    for value in (v.contract, v.declarer, v.tricks, v.lead, v.ns_adjust, v.ew_adjust):
        if value is not None:
            words.append(str(value))
    if v.kind == "normal" and v.ns_score is not None:
        words.append(f"{v.ns_score:+d}" if v.ns_score else "0")
    return " ".join(words)


class TableHost:
    """The collector of a fresh event in `folder`, fed and read at the caller's clock (milliseconds)."""

    def __init__(self, folder: Path, options: HostOptions = HostOptions(), seed: int = 1) -> None:
        self.options = options
        if options.movement == "howell":
            movement = howell(max(options.tables, MIN_HOWELL_TABLES), options.boards_per_round, options.rounds)
        elif options.movement == "individual":  # 2 tables, 8 players
            movement = individual(MIN_INDIVIDUAL_TABLES, options.boards_per_round, options.rounds)
        elif options.movement == "mitchell":
            # A Mitchell has at most one round per table: enough tables for the rounds asked for.
            movement = mitchell(max(options.tables, options.rounds), options.boards_per_round, options.rounds)
        else:
            raise ValueError(f"the movement is mitchell, howell or individual, not {options.movement!r}")
        self.path = folder / "event.sqlite"
        self.conn = create_event(self.path, name="Simulated table", sections={SECTION: movement})
        self.key = link_key(self.conn)
        if options.deals:
            deal = fixed_deal()
            for board in range(1, movement.boards + 1):
                keep_hand_record(self.conn, SECTION, board, deal(board))
                analysis = fixed_analysis(board) if options.analysed else None
                if analysis is not None:
                    keep_analysis(self.conn, SECTION, board, deal(board), analysis)
        self.collector = Collector(self.conn, options.settings(), random.Random(seed).getrandbits,
                                   club_key=bytes.fromhex(options.club) if options.club else None)

    def exchange(self, frames: list[bytes], now: int) -> list[bytes]:
        """The frames heard from the terminal now, then what the host broadcasts now."""
        for frame in frames:
            self.collector.receive(frame, now)
        return self.collector.due(now)

    # -- what the tests ask --

    def result(self, round_: int, board: int) -> str | None:
        """The summary() of the result that counts for `board` of round `round_`, or None."""
        for slot in states(self.conn).values():
            v = slot.versions[-1]
            if v.round == round_ and v.board == board:
                return summary(v)
        return None

    def results(self) -> dict[int, str]:
        """round * 1000 + board -> summary() of every board with a result that counts (not erased)."""
        return {v.round * 1000 + v.board: summary(v) for v in current_results(self.conn)}

    def stored(self) -> dict[int, str]:
        """The app's seq of every message the event file holds from a terminal -> its summary()."""
        out = {}
        for slot in states(self.conn).values():
            for v in slot.versions:
                if v.sequence is not None:
                    out[v.sequence - APP_SEQ] = summary(v)
        for p in all_player_numbers(self.conn):
            out[p.seq - APP_SEQ] = f"players {p.north} {p.east} {p.south} {p.west}"
        return out

    def enter(self, table: int, round_: int, board: int, contract: str, declarer: str, tricks: int) -> str:
        """Another table's result, as the director enters it (the simulator plays one table); its outcome."""
        return enter_result(self.conn, SECTION, table, round_, board, who="simulator", why="another table",
                            contract=contract, declarer=declarer, tricks=tricks).status.value

    def erase(self, table: int, round_: int, board: int) -> str:
        """The director erases a table's result (tenace erase): the board is missing until one is entered; the
        outcome."""
        return enter_result(self.conn, SECTION, table, round_, board, who="simulator", why="keyed again",
                            kind="erased", action=Action.ERASE).status.value

    def conflicts(self) -> int:
        """Boards whose results disagree: none of them counts until the director decides."""
        return len(conflicts(self.conn))

    def sign_ins(self) -> int:
        """Sign-ins the event file has recorded."""
        return sign_in_count(self.conn)

    def close_event(self) -> None:
        """The director closes the session: sign-ins and new results are refused from now on."""
        self.collector.settings = replace(self.collector.settings, closed=True)

    def move(self, change: str, what: str | int, round_: int) -> str:
        """The director changes the movement from `round_` on (tenace move): "late"/"leave" a pair ("NS3"),
        "close" a table (3), "swap" two pairs ("NS1:NS2"); the log's detail."""
        who, why = "simulator", "a movement change"
        if change == "close":
            return close_table(self.conn, SECTION, int(what), round_, who=who, why=why).detail
        pairs = [(str(p)[:2], int(str(p)[2:])) for p in str(what).split(":")]
        if change == "swap":
            return swap_pairs(self.conn, SECTION, pairs[0], pairs[1], round_, who=who, why=why).detail
        late = change == "late"
        return set_presence(self.conn, SECTION, pairs[0], round_, present=late, before=late, who=who, why=why).detail

    def plans(self, table: int) -> dict[int, str]:
        """Round -> section A table `table`'s round plan as the host holds it now, in hex (as in link.plans)."""
        out = {}
        for number in round_plans.rounds_of(self.conn, 0, table):
            plan = round_plans.round_plan(self.conn, 0, table, number)
            if plan is not None:
                out[number] = plan.encode().hex()
        return out

    def forget(self, terminal: int) -> None:
        """The collector loses where `terminal` sits (a fault: it then refuses its results as not signed in)."""
        self.collector.session.bindings.pop(terminal, None)

    def duplicates(self) -> int:
        """Frames the collector took for a copy of one it had (acknowledged again, not stored again)."""
        self.collector.flush()
        return stored_counts(self.conn).get(DUPLICATE, 0)

    def status(self) -> str | None:
        """The latest status report of each terminal, "terminal firmware battery% mV factory checks" (`tenace
        terminals`' figures), one a line; None when none came."""
        rows = [r for r in inventory(self.conn) if r.status is not None]
        return "\n".join(f"{r.terminal} {s.firmware} {s.battery}% {s.battery_mv or 0} {s.factory.replace(' ', '_')} "
                         f"{'+'.join(s.checks) or '-'}" for r in rows if (s := r.status) is not None) or None

    def calls(self) -> list[str]:
        """The director's calls stored, newest first: "table round call left acknowledged" (left -1: no clock;
        acknowledged 0 or 1)."""
        return [f"{c.table} {c.round} {c.call} {-1 if c.left is None else c.left} {int(c.acknowledged is not None)}"
                for c in director_calls.calls(self.conn)]

    def acknowledge(self) -> int:
        """The director acknowledges every open call in the console; how many."""
        open_calls = director_calls.calls(self.conn, open_only=True)
        return sum(director_calls.acknowledge_call(self.conn, c.id, "simulator") for c in open_calls)

    def clock(self, round_: int, minutes: int, seconds_ago: int) -> int:
        """The director starts section A's clock for round `round_`, `minutes` long, as if `seconds_ago` seconds
        ago; the seconds left now."""
        started = clock.now() - timedelta(seconds=seconds_ago)
        return director_calls.set_clock(self.conn, SECTION, round_, minutes, started).seconds_left()

    def close(self) -> None:
        self.collector.close()
        self.conn.close()

    # -- the line protocol, for a terminal on MicroPython --

    def answer(self, line: str) -> str:
        """One request line -> one answer line: "X now hex hex.." (frames) or "Q name args.." (a question)."""
        words = line.split()
        if words[0] == "X":
            down = self.exchange([bytes.fromhex(w) for w in words[2:]], int(words[1]))
            return " ".join(f.hex() for f in down)
        name = words[1]
        if name not in QUESTIONS:
            raise ValueError(f"no question {name!r}")
        args = [int(w) if w.isdigit() else w for w in words[2:]]
        return json.dumps(getattr(self, name)(*args))


class _Handler(socketserver.StreamRequestHandler):
    """One simulated terminal's connection: "N {options}" makes a fresh event, then X and Q lines on it."""

    def handle(self) -> None:
        host: TableHost | None = None
        with tempfile.TemporaryDirectory(prefix="tenace-table-") as tmp:
            try:
                for raw in self.rfile:
                    line = raw.decode().strip()
                    try:
                        if line.startswith("N "):
                            if host is not None:
                                host.close()
                            host = TableHost(Path(tempfile.mkdtemp(dir=tmp)), HostOptions.from_json(line[2:]))
                            reply = json.dumps({"key": host.key.key.hex(), "code": host.key.code,
                                                "pin": "%04d" % host.collector.director_pin})
                        elif host is None:
                            raise ValueError("no event yet: send N first")
                        else:
                            reply = host.answer(line)
                    except Exception as e:  # the terminal's side raises it (RemoteHost) and says so
                        log.debug("table host: %r", line[:80], exc_info=True)
                        reply = f"! {type(e).__name__}: {e}"
                    self.wfile.write(reply.encode() + b"\n")
            except ConnectionError:
                log.debug("the simulated terminal went away")  # it ended, or died (its own output says why)
            finally:
                if host is not None:
                    host.close()


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve() -> tuple[int, Callable[[], None]]:
    """Listen on a loopback port in a background thread; returns the port and a function that stops it."""
    server = _Server(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, name="table-host", daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()

    return server.server_address[1], stop

