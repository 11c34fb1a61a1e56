"""Collector: frames from the tables in, frames to the tables out, results into the store; no I/O of its own.

Exactly once (hard rule 2): a RESULT or ERASE goes through tenace.store.ingest, which commits before it
returns, and only then is the frame acknowledged (STORED, ALREADY_STORED, or a refusal status so that the
terminal stops sending it). A host killed at any instant has either not committed (no ACK went out: the
terminal sends the frame again) or committed (the store knows it: a duplicate, acknowledged again).
At start every terminal of the store's terminal table is resumed with its table and the host's next
sequence number to it, so a restarted host carries on where the killed one stopped.

Refusals (hard rule 3). Noise (short, long, bad CRC, another protocol version, wrong direction, unknown
type) is only counted; anything that got as far as the authentication check (bad tag: forged or from
another event; malformed; not signed in; wrong table) is recorded one by one in the store's refusals
with its raw bytes, for `tenace problems`. Every frame heard adds one to exactly one counter (accepted,
duplicate, or its refusal reason); the counters are flushed to the event file every few seconds.

TABLE_TAKEN policy: a sign-in to a table that another terminal holds is refused only while that
terminal is alive (heard within `hold_ms`, 60 s by default; after a host restart every terminal counts as
heard at the start). A spare terminal replacing a broken one is therefore accepted a minute after the
broken one fell silent, or at once when the director seats it with `tenace event seat`. The replaced
terminal keeps its binding: if it comes back, the results in its journal are still taken (the store flags
any conflict with the spare's), though its own new sign-in to that table is refused while the spare lives.

Pairing, two ways (auth.py). A terminal flashed with the club key says so in its HELLO (the key's id) and derives
its event key from the club key; one without (a borrowed unit, the browser's spare terminal) from the code alone.
A terminal's frames are checked under the key of its way; which way it paired is kept in the event file at its
first frame under a new key (`tenace problems` lists it). A terminal that paired with the club key is never offered
a pairing with the code alone afterwards, also after a restart: a forged HELLO cannot downgrade it. A HELLO with
another club key's id gets no offer either, and the director is told to flash that terminal again.

Field tools. A terminal's STATUS is kept as its latest (tenace.store.terminal_reports) for `tenace terminals`, and the
terminals heard are marked so in the event file at each flush. A survey asked for by `tenace survey` (a row in the
event file, looked for every second) is run here, on whatever links this collector has (survey.py).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import cast

from tenace.collector import board_messages, board_reports, round_plans
from tenace.collector.link_key import LinkKey, link_key, urandom_bits
from tenace.collector.settings import Settings
from tenace.collector.survey import SurveyRun, TerminalProbes
from tenace.collector.wire_results import incoming_erase, incoming_result, section_letter, section_number
from tenace.store import (
    Status,
    ingest,
    is_ingested,
    next_host_sequence,
    publication,
    refuse_frame,
    reserve_host_sequence,
)
from tenace.store import sign_in as store_sign_in
from tenace.store.clock import timestamp
from tenace.store.errors import EntryError
from tenace.store.hand_records import board_hand_record
from tenace.store.link import (
    PlayerNumbers,
    add_counts,
    pairings,
    record_pairing,
    record_players,
    seated_terminals,
    stored_counts,
)
from tenace.store.movement_changes import changed_sections, movement_version
from tenace.store.terminal_reports import (
    StatusReport,
    finish_survey,
    heard_terminals,
    keep_status,
    last_survey_id,
    pending_survey,
    start_survey,
)
from tenace_wire.control import (
    ACCEPTED,
    ALREADY_STORED,
    EVENT_CLOSED,
    NO_SUCH_TABLE,
    REFUSED_CLOSED,
    REFUSED_INVALID,
    REFUSED_NOT_SIGNED_IN,
    REFUSED_WRONG_TABLE,
    STORED,
    TABLE_TAKEN,
    Hello,
    SignIn,
)
from tenace_wire.director_messages import Traveller
from tenace_wire.errors import (
    BAD_CRC,
    BAD_TYPE,
    BAD_VERSION,
    LONG,
    MALFORMED,
    NOT_SIGNED_IN,
    SHORT,
    WRONG_DIRECTION,
    WRONG_TABLE,
    WireError,
    tally,
)
from tenace_wire.field_messages import CHECKS, FAILED, PASSED, Ping
from tenace_wire.field_messages import Status as StatusMessage
from tenace_wire.fields import Message
from tenace_wire.frame import peek_header
from tenace_wire.frame_types import (
    ACK,
    HAND_RECORD,
    HELLO,
    MAX_TERMINAL,
    RANKING,
    ROUND_PLAN,
    STATUS,
    TRAVELLER,
    UNAUTHENTICATED,
)
from tenace_wire.host_session import HostSession
from tenace_wire.pairing import club_id, event_key
from tenace_wire.session import Inbound
from tenace_wire.table_messages import PLAYED, Erase, Players, Request, Result

log = logging.getLogger(__name__)

# Refused before the tag was checked: line noise, another protocol, another system. Counted, never a row each.
NOISE = frozenset((SHORT, LONG, BAD_CRC, BAD_VERSION, WRONG_DIRECTION, BAD_TYPE))
INTERNAL_ERROR = "internal_error"  # a frame that made the collector fail: a bug, logged with its traceback
HOLD_MS = 60_000
FLUSH_MS = 3_000
MOVES_MS = 1_000  # how often the event file is asked for movement changes
PUSH_FRAMES = 24  # host frames in flight to a terminal before the next pushed message goes (its window is 64)
PUSH_SPAN = 40  # of the terminal's 64-frame window: 24 left for a pushed message's fragments and frames not pushed
_WIRE_STATUS = {WRONG_TABLE: REFUSED_WRONG_TABLE, NOT_SIGNED_IN: REFUSED_NOT_SIGNED_IN,
                "wrong_table": REFUSED_WRONG_TABLE, "not_signed_in": REFUSED_NOT_SIGNED_IN}


class Collector:
    """The host's end of the link for one event file: give it every frame heard, broadcast what due() returns."""

    def __init__(self, conn: sqlite3.Connection, settings: Settings | None = None,
                 random_bits: Callable[[int], int] = urandom_bits, *, key: LinkKey | None = None,
                 club_key: bytes | None = None, hold_ms: int = HOLD_MS, flush_ms: int = FLUSH_MS,
                 **session_options: int) -> None:
        self.conn = conn
        self.settings = settings or Settings()
        self.key = key or link_key(conn)
        # With the laptop's club key: the event key of the terminals that hold it, and the key's id in their HELLO.
        self.club_id = club_id(club_key).hex() if club_key else None
        self._club_event_key = event_key(self.key.code, self.key.nonce, club_key) if club_key else None
        self.ways: dict[int, str] = {}  # terminal -> "club" or "code": how it paired, as the event file keeps it
        self._club_hello: set[int] = set()  # terminals whose HELLO carried this laptop's club key id (this run)
        self._warned: set[tuple[int, str]] = set()  # pairing refusals already logged, once each
        self.hold_ms = hold_ms
        self.flush_ms = flush_ms
        self.session = HostSession(self.key.key, random_bits,
                                   ingested=lambda terminal, seq: is_ingested(conn, terminal, seq),
                                   reserve=lambda terminal, limit: reserve_host_sequence(conn, terminal, limit),
                                   **session_options)
        self.results_stored = 0  # results stored by this run (not duplicates, not refusals)
        self.internal_errors = 0
        self.heard: dict[int, int] = {}  # terminal -> when last heard (ms), authenticated frames only
        self._started: int | None = None
        self._flushed: dict[str, int] = {}  # the session's counters as last flushed
        self._flushed_at = 0
        self._offers: list[bytes] = []
        self._pushed: set[tuple[str, int, int]] = set()  # (section, table, round) whose next plan went out
        # The movement changes whose plans went out; 0 at start, so that terminals resumed from the event file
        # get the plans of changes made while the collector was down.
        self._moves_seen = 0
        self._moves_at: int | None = None
        self._pushes: dict[int, list[Message]] = {}  # terminal -> messages to push, paced by _pump
        self._heard_since: set[int] = set()  # terminals heard since the last flush
        self.survey: SurveyRun | None = None
        self._surveys_seen = last_survey_id(conn)  # surveys asked before this collector started are stale
        self._surveys_at: int | None = None
        self._resume()

    def _resume(self) -> None:
        for pairing in pairings(self.conn):
            self.ways[pairing.terminal] = pairing.way
            self._use_keys(pairing.terminal)
            if pairing.way == "club" and pairing.club_id != self.club_id:
                log.warning("terminal %d paired with club key %s, which this laptop does not have%s: its frames "
                            "will be refused", pairing.terminal, pairing.club_id,
                            f" (it has {self.club_id})" if self.club_id else "")
        resumed = 0
        for terminal, section, table in seated_terminals(self.conn):
            number = section_number(section)
            if number is None or not 1 <= terminal <= MAX_TERMINAL or not 1 <= table <= 1023:
                continue  # seated by the director under a name or number the wire cannot carry
            self.session.resume(terminal, number, table, next_host_sequence(self.conn, terminal))
            resumed += 1
        if resumed:
            log.info("resumed %d terminal(s) from the event file", resumed)

    # -- the two calls of the transport --

    def receive(self, frame: bytes | bytearray | memoryview, now_ms: int) -> None:
        """One frame heard from the air (or the wire). Never raises: what is wrong is counted and logged."""
        self._clock(now_ms)
        data = bytes(frame)
        try:
            inbound = self.session.receive(data, now_ms)
        except WireError as e:
            self._refused(e, data, now_ms)
            return
        except Exception:
            log.exception("the wire session failed on frame %s", data.hex())
            tally(self.session.counters, INTERNAL_ERROR)
            self.internal_errors += 1
            return
        if inbound is None:
            return
        self.heard[inbound.terminal] = now_ms
        if inbound.type != HELLO:
            self._paired(inbound.terminal)
        self._heard_since.add(inbound.terminal)
        try:
            self._handle(inbound, data, now_ms)
        except sqlite3.Error as e:
            # Not acknowledged: the terminal sends it again, and the store will decide then.
            log.error("terminal %d seq %d: the event file failed (%s); not acknowledged", inbound.terminal,
                      inbound.seq, e)
        except Exception:
            log.exception("terminal %d seq %d: the collector failed", inbound.terminal, inbound.seq)
            self.internal_errors += 1

    def due(self, now_ms: int) -> list[bytes]:
        """Every frame to broadcast now: pairing offers, ACKs, messages and their retransmissions."""
        self._clock(now_ms)
        out = self._offers
        self._offers = []
        self._movement_changes(now_ms)
        if self._pushes:
            self._pump(now_ms)
        out.extend(self.session.due(now_ms))
        self._survey(now_ms, out)
        if now_ms - self._flushed_at >= self.flush_ms:
            self.flush(now_ms)
        return out

    def flush(self, now_ms: int | None = None) -> None:
        """Add the counts heard since the last flush to the event file's link counters."""
        if now_ms is not None:
            self._flushed_at = now_ms
        current = dict(self.session.counters)
        delta = {reason: n - self._flushed.get(reason, 0) for reason, n in current.items()}
        try:
            add_counts(self.conn, delta)
            heard_terminals(self.conn, dict.fromkeys(self._heard_since, timestamp()))
        except sqlite3.Error as e:
            log.error("link counters not saved (%s); will try again", e)
            return
        self._flushed = current
        self._heard_since.clear()

    def close(self) -> None:
        """Flush the counters (the connection is the caller's)."""
        self.flush()

    def counters(self) -> dict[str, int]:
        """Frames heard per reason (accepted, duplicate, each refusal): the event file's and those not yet flushed."""
        out = stored_counts(self.conn)
        for reason, n in self.session.counters.items():
            extra = n - self._flushed.get(reason, 0)
            if extra:
                out[reason] = out.get(reason, 0) + extra
        return out

    # -- what a frame brings --

    def _clock(self, now_ms: int) -> None:
        if self._started is None:
            self._started = now_ms
            self._flushed_at = now_ms

    def _handle(self, inbound: Inbound, raw: bytes, now: int) -> None:
        if inbound.type == ACK:
            if self.survey is not None:
                self.survey.acked(inbound.terminal, inbound.seq, now)
            return
        if inbound.type == HELLO:
            if isinstance(inbound.message, Hello) and self._may_pair(inbound.terminal, inbound.message.club.hex()):
                self._offers.append(self.session.offer_pairing(inbound.terminal, self.key.nonce))
            return
        if inbound.duplicate:
            self.session.acknowledge(inbound, ALREADY_STORED)
            return
        msg = inbound.message
        if isinstance(msg, SignIn):
            self._sign_in(inbound, msg, now)
        elif isinstance(msg, (Result, Erase)):
            self._result(inbound, msg, raw, now)
        elif isinstance(msg, Players):
            self._players(inbound, msg)
        elif isinstance(msg, Request):
            self._request(inbound, msg, now)
        elif inbound.type == STATUS and msg is not None:
            # By its type, not its class: a simulated terminal in this process lets the module go between reports
            # (RAM), and the next report's class is a new one.
            self._status(inbound, cast(StatusMessage, msg))
        else:
            log.warning("terminal %d seq %d: nothing to do with %r", inbound.terminal, inbound.seq, msg)
            self.session.acknowledge(inbound, REFUSED_INVALID)

    # -- pairing: with the club key or the code alone --

    def _may_pair(self, terminal: int, club: str) -> bool:
        """Whether to answer a HELLO with an offer: not for another club's key, nor with the code alone to a
        terminal that paired with the club key (a forged HELLO must not downgrade it). Its keys follow the HELLO."""
        if club and club != self.club_id:
            self._warn(terminal, f"club {club}", "terminal %d holds another club key (id %s) than this laptop's (%s):"
                       " flash it again with tenace flash, or it cannot pair", terminal, club,
                       self.club_id or "none: tenace flash --club-key makes one")
            return False
        if not club and self.ways.get(terminal) == "club":
            self._warn(terminal, "code", "terminal %d paired with the club key; a pairing with the code alone is "
                       "refused to it (a forged HELLO, or it lost its key: flash it again)", terminal)
            return False
        if club:
            self._club_hello.add(terminal)
        else:
            self._club_hello.discard(terminal)
        self._use_keys(terminal)
        return True

    def _use_keys(self, terminal: int) -> None:
        """The keys a terminal's frames are checked under: its way's, and while it may be pairing afresh the other
        one, unless that would be a downgrade (see _may_pair)."""
        club, code = self._club_event_key, self.key.key
        way = self.ways.get(terminal)
        if club is None:
            keys = []  # the event's key (a terminal with a club key gets no offer: _may_pair)
        elif way == "club":
            keys = [club]
        elif terminal in self._club_hello:
            keys = [club, code]
        else:
            keys = [code] if way == "code" else [code, club]
        self.session.use_keys(terminal, keys)

    def _paired(self, terminal: int) -> None:
        """After an authenticated frame: keep the terminal's way of pairing when it is new (its first frame under a
        new key), and from then on check its frames under that way's key."""
        way = "club" if self._club_event_key is not None and \
            self.session.key_of(terminal) == self._club_event_key else "code"
        if self.ways.get(terminal) == way:
            return
        try:
            record_pairing(self.conn, terminal, way, self.club_id if way == "club" else None)
        except sqlite3.Error as e:
            log.error("terminal %d: how it paired not kept (%s)", terminal, e)
            return
        self.ways[terminal] = way
        self._club_hello.discard(terminal)
        self._use_keys(terminal)
        if way == "club":
            log.info("terminal %d paired with the club key (id %s)", terminal, self.club_id)
        else:
            # A warning where the club has a key (that terminal lacks it), news where it has none (as all do then).
            log.log(logging.WARNING if self.club_id else logging.INFO, "terminal %d paired with the code alone (no "
                    "club key): whoever recorded its pairing on the radio can find the event key; tenace flash "
                    "--club-key puts the club key on it", terminal)

    def _warn(self, terminal: int, what: str, text: str, *args: object) -> None:
        if (terminal, what) not in self._warned:
            self._warned.add((terminal, what))
            log.warning(text, *args)

    def _sign_in(self, inbound: Inbound, msg: SignIn, now: int) -> None:
        terminal = inbound.terminal
        name = section_letter(msg.section)
        status = ACCEPTED
        if self._closed():
            status = EVENT_CLOSED
        elif not round_plans.table_exists(self.conn, msg.section, msg.table):
            status = NO_SUCH_TABLE
        elif self._holder(terminal, msg.section, msg.table, now) is not None:
            status = TABLE_TAKEN
        if status == ACCEPTED:
            try:
                store_sign_in(self.conn, terminal, name, msg.table, who=f"terminal {terminal}")
            except EntryError:
                status = NO_SUCH_TABLE
        round_ = round_plans.current_round(self.conn, msg.section, msg.table) if status == ACCEPTED else 0
        answer = self.settings.answer(status, msg.section, msg.table, round_, self.director_pin)
        self.session.answer_sign_in(inbound, answer, now)
        self._pushes.pop(terminal, None)  # the answer cancels what was in flight to it; the plans go again
        if status != ACCEPTED:
            holder = self._holder(terminal, msg.section, msg.table, now)
            log.warning("terminal %d: sign-in to section %s table %d refused (%s)", terminal, name, msg.table,
                        {TABLE_TAKEN: f"terminal {holder} holds it", NO_SUCH_TABLE: "no such table",
                         EVENT_CLOSED: "the event is closed"}.get(status, status))
            return
        log.info("terminal %d signed in at section %s table %d, round %d (%s)", terminal, name, msg.table, round_,
                 "club key" if self.ways.get(terminal) == "club" else "code alone")
        self._send_plans(terminal, msg.section, msg.table, round_, now)

    def _send_plans(self, terminal: int, section: int, table: int, round_: int, now: int) -> None:
        """The round's plan now, then (paced, see _pump) every later one, each followed by its boards' hand
        records where the lead is checked: the terminal keeps them, so that it runs the rest of the session even
        while the laptop is out of reach. (The round's own hand records the terminal asks for at once.)"""
        sent: set[int] = set()
        queue = self._pushes[terminal] = []
        name = section_letter(section)
        for number in [round_] + [r for r in round_plans.rounds_of(self.conn, section, table) if r > round_]:
            plan = round_plans.round_plan(self.conn, section, table, number)
            if plan is None:
                continue
            if number == round_:
                self._send(terminal, plan, now)
                sent.update(plan.boards)
                continue
            queue.append(plan)
            for board in plan.boards if self.settings.lead_checked else ():
                record = board_hand_record(self.conn, name, board) if board not in sent else None
                sent.add(board)
                if record is not None:
                    queue.append(board_messages.hand_record(board, record.deal, record.analysis))

    def _pump(self, now: int) -> None:
        """Send what waits to be pushed to each terminal, PUSH_FRAMES in flight at most (a burst would take a small
        terminal's RAM at once), and never PUSH_SPAN numbers past the oldest frame it has not acknowledged: its
        replay window is 64 host frames, and a lost frame overtaken by more is refused for good."""
        for terminal, queue in list(self._pushes.items()):
            while queue and self.session.pending(terminal) < PUSH_FRAMES and self.session.span(terminal) < PUSH_SPAN:
                self._send(terminal, queue.pop(0), now)
            if not queue:
                del self._pushes[terminal]

    def _movement_changes(self, now: int) -> None:
        """After the director changed the movement (tenace move, from any process), every terminal of the section
        gets its plans again from its current round: it shows the change without a restart."""
        if self._moves_at is not None and now - self._moves_at < MOVES_MS:
            return
        self._moves_at = now
        try:
            latest = movement_version(self.conn)
            if latest <= self._moves_seen:
                return
            sections = changed_sections(self.conn, self._moves_seen)
            for terminal, (section, table) in list(self.session.bindings.items()):
                first = sections.get(section_letter(section))
                if first is not None:
                    # From the table's round, or from the round before the change (whose moves it may change)
                    # when that is earlier: a table whose rounds all became sit-outs counts as at its last.
                    start = max(1, min(round_plans.current_round(self.conn, section, table), first - 1))
                    log.info("terminal %d: the movement changed, sending its round plans again", terminal)
                    self.session.withdraw(terminal, ROUND_PLAN)  # an old plan sent late would undo the change
                    self._send_plans(terminal, section, table, start, now)
            self._moves_seen = latest  # only now: a terminal left out by an error gets its plans at the next try
        except sqlite3.Error as e:
            log.error("movement changes not read (%s); will try again", e)

    @property
    def director_pin(self) -> int:
        """The PIN of the terminals' director menu: the one set, or the event's own."""
        return self.settings.pin if self.settings.pin is not None else self.key.director_pin

    def _closed(self) -> bool:
        """Closed by the collector's settings, or finished by the director (tenace finish): the results stand
        as published, and a change is the director's, within the Law 79C correction period."""
        return self.settings.closed or publication(self.conn) is not None

    def _holder(self, terminal: int, section: int, table: int, now: int) -> int | None:
        """Another terminal alive at this table, if any (see TABLE_TAKEN in the module's docstring)."""
        start = self._started if self._started is not None else now
        for other, where in self.session.bindings.items():
            if other != terminal and where == (section, table) and now - self.heard.get(other, start) < self.hold_ms:
                return other
        return None

    def _result(self, inbound: Inbound, msg: Result | Erase, raw: bytes, now: int) -> None:
        if self._closed():
            self.session.acknowledge(inbound, REFUSED_CLOSED)
            return
        name = section_letter(msg.section)
        if isinstance(msg, Result):
            incoming = incoming_result(msg, inbound.terminal, inbound.seq, raw)
        else:
            pairs = round_plans.encounter_pairs(self.conn, name, msg.table, msg.round) or (1, 1)
            incoming = incoming_erase(msg, inbound.terminal, inbound.seq, pairs, raw)
        outcome = ingest(self.conn, incoming)  # committed when it returns: only now may the ACK go out
        if outcome.status is Status.STORED:
            self.session.acknowledge(inbound, STORED)
        elif outcome.status is Status.DUPLICATE:
            self.session.acknowledge(inbound, ALREADY_STORED)
            return
        else:
            self.session.acknowledge(inbound, _WIRE_STATUS.get(outcome.reason or "", REFUSED_INVALID))
            return
        self.results_stored += 1
        if isinstance(msg, Result) and msg.kind == PLAYED and self.settings.show_traveller:
            sheet = board_reports.traveller(self.conn, msg.section, msg.board)
            if sheet is not None:
                self._send(inbound.terminal, sheet, now)
        self._next_round(inbound.terminal, msg, now)

    def _next_round(self, terminal: int, msg: Result | Erase, now: int) -> None:
        """Push the next round's plan once the table's round is complete."""
        name = section_letter(msg.section)
        where = (name, msg.table, msg.round)
        if where in self._pushed or not round_plans.round_complete(self.conn, name, msg.table, msg.round):
            return
        self._pushed.add(where)
        if msg.round + 1 in round_plans.rounds_of(self.conn, msg.section, msg.table):
            plan = round_plans.round_plan(self.conn, msg.section, msg.table, msg.round + 1)
            if plan is not None:
                log.info("section %s table %d: round %d complete, sending round %d", name, msg.table, msg.round,
                         msg.round + 1)
                self._send(terminal, plan, now)

    def _players(self, inbound: Inbound, msg: Players) -> None:
        if self._closed():
            self.session.acknowledge(inbound, REFUSED_CLOSED)
            return
        new = record_players(self.conn, PlayerNumbers(section_letter(msg.section), msg.table, msg.round, msg.north,
                                                      msg.east, msg.south, msg.west, inbound.terminal, inbound.seq))
        self.session.acknowledge(inbound, STORED if new else ALREADY_STORED)

    def _request(self, inbound: Inbound, msg: Request, now: int) -> None:
        answer: Message | None = None
        if msg.what == ROUND_PLAN:
            answer = round_plans.round_plan(self.conn, msg.section, msg.table, msg.round)
        elif msg.what == TRAVELLER:
            answer = board_reports.traveller(self.conn, msg.section, msg.board)
            if answer is None:
                answer = Traveller(section=msg.section, board=msg.board, lines=())
        elif msg.what == RANKING:
            answer = board_reports.ranking(self.conn, msg.section, msg.round)
        elif msg.what == HAND_RECORD:
            record = board_hand_record(self.conn, section_letter(msg.section), msg.board)
            if record is None:
                log.info("terminal %d asks for board %d's hand record: the event file has none", inbound.terminal,
                         msg.board)
                self.session.acknowledge(inbound, STORED)
                return
            answer = board_messages.hand_record(msg.board, record.deal, record.analysis)
        if answer is None:
            log.warning("terminal %d: nothing to answer to a request for type %d round %d", inbound.terminal,
                        msg.what, msg.round)
            self.session.acknowledge(inbound, REFUSED_INVALID)
            return
        self.session.acknowledge(inbound, STORED)
        self._send(inbound.terminal, answer, now)

    def _status(self, inbound: Inbound, msg: StatusMessage) -> None:
        """Keep a terminal's status report as its latest (committed before the ACK, as everything stored)."""
        passed = tuple(name for i, name in enumerate(CHECKS) if msg.checks & (8 >> i))
        factory = {PASSED: "passed", FAILED: "failed"}.get(msg.factory, "not run")
        keep_status(self.conn, StatusReport(
            inbound.terminal, f"{msg.major}.{msg.minor}.{msg.patch}", msg.battery_mv or None, msg.battery,
            msg.rssi or None, msg.sent, msg.retried, factory, passed if factory != "not run" else ()))
        self.session.acknowledge(inbound, STORED)

    def _survey(self, now: int, out: list[bytes]) -> None:
        """Take up a survey `tenace survey` asked for, send the PINGs due, and store the figures once it is over."""
        run = self.survey
        if run is None:
            if self._surveys_at is not None and now - self._surveys_at < MOVES_MS:
                return
            self._surveys_at = now
            try:
                asked = pending_survey(self.conn, self._surveys_seen)
                if asked is None:
                    return
                self._surveys_seen = asked.id
                start_survey(self.conn, asked.id)
            except sqlite3.Error as e:
                log.error("survey requests not read (%s); will try again", e)
                return
            run = self.survey = SurveyRun(asked.id, now, asked.seconds, asked.interval_ms)
            for terminal, (section, table) in self.session.bindings.items():
                run.terminals[terminal] = TerminalProbes(section_letter(section), table, next_at=now)
            log.info("radio survey %d: %d terminal(s), %d s", asked.id, len(run.terminals), asked.seconds)
        for terminal in run.due(now):
            if self.session.span(terminal) >= PUSH_SPAN:
                run.skipped(terminal, now)
                continue
            try:
                seq, frame = self.session.probe(terminal, Ping(number=run.number))
            except WireError as e:  # sequence numbers used up
                log.warning("terminal %d: no survey ping: %s", terminal, e)
                run.skipped(terminal, now)
                continue
            run.sent(terminal, seq, now)
            out.append(frame)
        if run.finished(now):
            try:
                finish_survey(self.conn, run.survey_id, run.lines())
            except sqlite3.Error as e:
                log.error("survey %d not saved (%s); will try again", run.survey_id, e)
                return
            log.info("radio survey %d done", run.survey_id)
            self.survey = None

    def _send(self, terminal: int, msg: Message, now: int) -> None:
        try:
            self.session.send(terminal, msg, now)
        except WireError as e:  # busy, or sequence numbers used up: the terminal will ask again
            log.warning("terminal %d: %s not sent: %s", terminal, type(msg).__name__, e)

    def _refused(self, e: WireError, data: bytes, now: int) -> None:
        if e.reason in NOISE:
            return
        header = peek_header(data)
        ftype, terminal, seq = header if header is not None else (0, None, None)
        try:
            refuse_frame(self.conn, e.reason, str(e), terminal=terminal, sequence=seq, raw=data)
        except sqlite3.Error as db_error:
            log.error("refusal not recorded (%s): %s", db_error, e)
        inbound = e.inbound
        if isinstance(inbound, Inbound):
            self.session.acknowledge(inbound, _WIRE_STATUS.get(e.reason, REFUSED_INVALID))
            return
        # An authentic frame whose content is wrong: refuse it for good, or the terminal retransmits it forever.
        # MALFORMED is only raised after the tag was checked. Never answer a HELLO (anyone can forge one) nor
        # an ACK (its sequence number is the host's: an ACK back would drop the terminal's own frame).
        if (e.reason == MALFORMED and terminal is not None and seq is not None and 1 <= terminal <= MAX_TERMINAL
                and seq >= 1 and ftype != ACK and not (UNAUTHENTICATED >> ftype) & 1):
            self.heard[terminal] = now
            self.session.acknowledge(Inbound(terminal, seq, 1, ftype, None), REFUSED_INVALID)
