"""Collector: frames from the tables in, frames to the tables out, results into the store; no I/O of its own.

Exactly once (hard rule 2): a RESULT or ERASE goes through tenace.store.ingest, which commits before it
returns, and only then is the frame acknowledged (STORED, ALREADY_STORED, STORED_CONFLICT when its board has no
result that counts until the director decides, or a refusal status so that the terminal stops sending it). A host
killed at any instant has either not committed (no ACK went out: the terminal sends the frame again) or committed
(the store knows it: a duplicate, acknowledged again).
At start every terminal of the store's terminal table is resumed with its table and the host's next
sequence number to it, so a restarted host carries on where the killed one stopped.

Refusals (hard rule 3). Noise (short, long, bad CRC, another protocol version, wrong direction, unknown
type) is only counted; anything that got as far as the authentication check (bad tag: forged or from
another event; malformed; not signed in; wrong table) is recorded one by one in the store's refusals
with its raw bytes, for `tenace problems`. Every frame heard adds one to exactly one counter (accepted,
duplicate, or its refusal reason); the counters are flushed to the event file every few seconds.

The parts it composes: pairing.py (each terminal's way of pairing and its keys; the TABLE_TAKEN policy: a
sign-in to a table another terminal holds is refused while that one is alive), pushes.py (round plans sent unasked,
paced, and again after a movement change), director_link.py (the tables' calls of the director, the director's
answers and the round clock) and survey.py (the radio surveys `tenace survey` asks for). A terminal's
STATUS is kept as its latest (tenace.store.terminal_reports) for `tenace terminals`, and the terminals heard are
marked so in the event file at each flush.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import cast

from tenace.collector import board_messages, board_reports, round_plans
from tenace.collector.director_link import DirectorLink
from tenace.collector.link_key import LinkKey, link_key, urandom_bits
from tenace.collector.pairing import HOLD_MS, Pairing, table_holder
from tenace.collector.pushes import Pushes
from tenace.collector.settings import Settings
from tenace.collector.survey import Surveys
from tenace.collector.wire_results import incoming_erase, incoming_result, section_letter, section_number
from tenace.store import (
    Status,
    ingest,
    is_ingested,
    next_host_sequence,
    publication,
    refuse_frame,
    reserve_host_sequence,
    stored_undecided,
)
from tenace.store import sign_in as store_sign_in
from tenace.store.clock import timestamp
from tenace.store.errors import EntryError
from tenace.store.hand_records import board_hand_record
from tenace.store.link import PlayerNumbers, add_counts, record_players, seated_at, seated_terminals, stored_counts
from tenace.store.terminal_reports import StatusReport, heard_terminals, keep_status
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
    STORED_CONFLICT,
    TABLE_TAKEN,
    Hello,
    SignIn,
)
from tenace_wire.director_call import Call
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
from tenace_wire.field_messages import CHECKS, FAILED, PASSED
from tenace_wire.field_messages import Status as StatusMessage
from tenace_wire.fields import Message
from tenace_wire.frame import peek_header
from tenace_wire.frame_types import (
    ACK,
    CALL,
    ERASE,
    HAND_RECORD,
    HELLO,
    MAX_TERMINAL,
    RANKING,
    RESULT,
    ROUND_PLAN,
    STATUS,
    TRAVELLER,
    UNAUTHENTICATED,
)
from tenace_wire.host_session import HostSession
from tenace_wire.session import Inbound
from tenace_wire.table_messages import PLAYED, Erase, Players, Request, Result

log = logging.getLogger(__name__)

# Refused before the tag was checked: line noise, another protocol, another system. Counted, never a row each.
NOISE = frozenset((SHORT, LONG, BAD_CRC, BAD_VERSION, WRONG_DIRECTION, BAD_TYPE))
INTERNAL_ERROR = "internal_error"  # a frame that made the collector fail: a bug, logged with its traceback
FLUSH_MS = 3_000
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
        self.hold_ms = hold_ms
        self.flush_ms = flush_ms
        self.session = HostSession(self.key.key, random_bits,
                                   ingested=lambda terminal, seq: is_ingested(conn, terminal, seq),
                                   reserve=lambda terminal, limit: reserve_host_sequence(conn, terminal, limit),
                                   **session_options)
        self.pairing = Pairing(conn, self.session, self.key, club_key)
        self.pushes = Pushes(conn, self.session, self._send, lambda: self.settings.lead_checked)
        self.surveys = Surveys(conn, self.session)
        self.director = DirectorLink(conn, self.session, self._send)
        self.results_stored = 0  # results stored by this run (not duplicates, not refusals)
        self.internal_errors = 0
        self.heard: dict[int, int] = {}  # terminal -> when last heard (ms), authenticated frames only
        self._started: int | None = None
        self._flushed: dict[str, int] = {}  # the session's counters as last flushed
        self._flushed_at = 0
        self._offers: list[bytes] = []
        self._heard_since: set[int] = set()  # terminals heard since the last flush
        self._spoke: set[int] = set()  # terminals heard since the last due(): told whether more waits for them
        self._told_more: set[int] = set()  # terminals last told that frames wait for them
        self._resume()

    def _resume(self) -> None:
        self.pairing.resume()
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
            self.pairing.paired(inbound.terminal)
        self._heard_since.add(inbound.terminal)
        if inbound.type != HELLO:
            self._spoke.add(inbound.terminal)
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
        self.pushes.due(now_ms)
        self.director.due(now_ms)
        self._tell_more()
        out.extend(self.session.due(now_ms))
        self.surveys.due(now_ms, out)
        if now_ms - self._flushed_at >= self.flush_ms:
            self.flush(now_ms)
        return out

    def _tell_more(self) -> None:
        """Answer each terminal that spoke with a MORE while frames still wait for it, and once with 0 when none does
        any more: a sleepy terminal keeps its receiver on meanwhile, so that a push (a movement change's plans) goes
        through in one exchange, its lost frames sent again included, instead of a batch at each of its polls. A
        terminal that spoke after a silence (its poll) is always answered: unanswered, it polls again at once."""
        woken = self.session.woken
        for terminal in self._spoke:
            waiting = self.session.pending(terminal) + self.pushes.waiting(terminal)
            if waiting:
                self._told_more.add(terminal)
            elif terminal in self._told_more:
                self._told_more.discard(terminal)
            elif terminal not in woken:
                continue
            self.session.more(terminal, waiting)
        self._spoke.clear()
        woken.clear()

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
            self.surveys.acked(inbound.terminal, inbound.seq, now)
            return
        if inbound.type == HELLO:
            hello = inbound.message
            if isinstance(hello, Hello) and self.pairing.may_pair(inbound.terminal, hello.club.hex()):
                self._offers.append(self.session.offer_pairing(inbound.terminal, self.key.nonce))
            return
        if inbound.duplicate:
            # A result's copy is told again whether its board is still the director's to decide (the first answer
            # may have been lost).
            undecided = inbound.type in (RESULT, ERASE) and stored_undecided(self.conn, inbound.terminal, inbound.seq)
            self.session.acknowledge(inbound, STORED_CONFLICT if undecided else ALREADY_STORED)
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
        elif inbound.type == CALL and msg is not None:
            # By its type too: its module is loaded when a call comes (as a simulated terminal in this process may).
            call = cast(Call, msg)
            self.director.called(inbound.terminal, inbound.seq, call)
            self.session.acknowledge(inbound, STORED)
        elif inbound.type == STATUS and msg is not None:
            # By its type, not its class: a simulated terminal in this process lets the module go between reports
            # (RAM), and the next report's class is a new one.
            self._status(inbound, cast(StatusMessage, msg))
        else:
            log.warning("terminal %d seq %d: nothing to do with %r", inbound.terminal, inbound.seq, msg)
            self.session.acknowledge(inbound, REFUSED_INVALID)

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
        self.pushes.cancel(terminal)  # the answer cancels what was in flight to it; the plans go again
        if status != ACCEPTED:
            holder = self._holder(terminal, msg.section, msg.table, now)
            log.warning("terminal %d: sign-in to section %s table %d refused (%s)", terminal, name, msg.table,
                        {TABLE_TAKEN: f"terminal {holder} holds it", NO_SUCH_TABLE: "no such table",
                         EVENT_CLOSED: "the event is closed"}.get(status, status))
            return
        log.info("terminal %d signed in at section %s table %d, round %d (%s)", terminal, name, msg.table, round_,
                 self.pairing.way_text(terminal))
        self.pushes.send_plans(terminal, msg.section, msg.table, round_, now)
        self.director.signed_in(terminal, msg.section, now)

    @property
    def club_id(self) -> str | None:
        """The id of the laptop's club key, which the terminals flashed with it send in their HELLO; None without."""
        return self.pairing.club_id

    @property
    def director_pin(self) -> int:
        """The PIN of the terminals' director menu: the one set, or the event's own."""
        return self.settings.pin if self.settings.pin is not None else self.key.director_pin

    def _closed(self) -> bool:
        """Closed by the collector's settings, or finished by the director (tenace finish): the results stand
        as published, and a change is the director's, within the Law 79C correction period."""
        return self.settings.closed or publication(self.conn) is not None

    def _holder(self, terminal: int, section: int, table: int, now: int) -> int | None:
        """Another terminal alive at this table, if any (TABLE_TAKEN, pairing.py)."""
        start = self._started if self._started is not None else now
        seated = seated_at(self.conn, section_letter(section), table)  # `tenace event seat` may have put it there
        return table_holder(self.session.bindings, self.heard, terminal, section, table, now, start, self.hold_ms,
                            seated)

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
        if outcome.conflict and outcome.acknowledge:
            self.session.acknowledge(inbound, STORED_CONFLICT)  # "the director will decide", at the table
            if outcome.status is Status.DUPLICATE:
                return
        elif outcome.status is Status.STORED:
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
        self.pushes.next_round(inbound.terminal, msg, now)

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
