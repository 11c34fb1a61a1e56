"""The terminal's link adapter: the app's link.send(dict) / link.recv() spoken as the wire protocol over any transport.

    link = WireLink(transport, terminal, storage, clock, random_bits=None, club=None)
transport.send(frame: bytes), transport.recv() -> bytes or None (never blocks), and where it has one
transport.listen(on) (the receiver on or off); terminal: the wire
terminal id (1..65534); storage: the app's journal directory (the link keeps link.state there);
clock.ticks_ms() (wrapping at 2**30 on MicroPython: the link adds up the differences).

Every send() and recv() pumps the TerminalSession: frames in, due frames out.

Delivery is the link's alone. The app numbers its results and player numbers ("seq"), journals
them and hands each to the link once (after a reboot, what its journal holds unacknowledged). The
link keeps each until the host's ACK: in a backlog while the session's outbox is full or the terminal
is not signed in, then in the outbox, which retransmits it. Its seq s always goes on the air as
APP_SEQ + s, so every copy, before and after a reboot, carries the same wire number and the host
stores it once. The link's own messages (SIGN_IN, REQUEST) number from 1 below APP_SEQ, reserved in
blocks in the state file (session.py) so that none is reused after a reboot. A sign-in or a round
plan whose answer does not come (the host took the request and then died) is asked for again.

Pairing. Without an event key `needs_code` is True and the app's sign_in carries the 6-digit code:
HELLO goes out about once a second until a PAIR_OFFER (with the club key's id when `club`, the key
`tenace flash` wrote, is given); the key derived from it is kept in the state
file once the host has answered a sign-in under it (proof that the code was right). No answer in
ANSWER_MS: the key is dropped, and the app is told the code was wrong.

The state file (key, reserved limit, last section and table; link_files.py keeps it, the plans and hand records
files, and builds the status report) is rewritten atomically, and only when one of them changes; with a key
and a table it lets a rebooted terminal sign in again by itself.

Round plans. At sign-in the host sends the table's plan for every round left. The link gives the app
the one it waits for (the sign-in's round, or the round it asks for) and keeps each in the plans file,
a line per plan (round, payload in hex; the last line of a round wins, a torn one is skipped). When the
app asks for a round the file holds, the link gives it from there at once: with the laptop out of reach
the table plays on, and its results go when the link is back. Where the lead is checked, the host also
sends the hand records of those rounds' boards; they are kept the same way (link.deals), so the lead is
still checked with the laptop shut. A plan sent again unasked for the app's round or the next, and not
as kept, is a movement change (tenace move): it goes to the app marked "changed".

Sleepy link (session.py, "Sleepy terminals"). The receiver is on (transport.listen) _LISTEN_MS after each frame in
or out, and _EXPECT_MS after the last frame out while an answer is awaited (an ACK, a sign-in's answer, a round plan
or hand records, a pairing offer), and _EXPECT_MS after the host's last MORE saying frames still wait for it (until
one says none does); else off, and off at once after a MORE saying nothing waits. With nothing to send, a signed-in
terminal polls every _POLL_MS, its table playing or idle however long (before the first round, a sit-out, a held
table: when directors change things), so that a change reaches it within 15 s (issue 32: its polls a minute apart
after 15 idle minutes, a first change took up to 60 s). The host then sends at once what it holds for it, after a
MORE that answers every poll (a poll unanswered goes again once, _POLL_AGAIN_MS later: a lost poll costs a second,
not a period). For _FAST_FOR_MS after a plan the director changed it polls every _POLL_FAST_MS: directors change
things in bursts. An idle table's polls cost little (tools/power_budget.py's idle rows: about 800 hours a charge).

The director. {"type": "call", "round", "call", "left"} goes out as a CALL (director_call.py), after the next
accepted sign-in when the link is not signed in (the latest call only); the host's COMING comes to the app as
{"type": "director", "call"}, its CLOCK as {"type": "director", "round", "minutes", "left"}.

Field tools. After every accepted sign-in and every STATUS_MS the link sends a STATUS for the director's inventory
(`tenace terminals`): the firmware, the battery (`battery`, the app's, given by the board file), the last factory
test (FACTORY_FILE), its own counters (frames sent and sent again) and the radio's signal strength where the
transport tells it (transport.rssi()). The app is not involved: its RAM is the screens'. The host's PINGs
(`tenace survey`) are acknowledged by the session and never reach the app. {"type": "probe"} (the factory test)
sends HELLO until the host's PAIR_OFFER answers, which needs no key: the app gets {"type": "probe", "ms": round
trip}, or ms -1 after PROBE_MS without an answer.
"""

import os

from micropython import const

# link_files (the link's files and status report) at start, with the rest of the link: loaded later, in the middle
# of a session's heap, it would split the free space the screens' code needs in one piece (never compacted).
from tenace_terminal import catalogue, link_files, wire_mapping
from tenace_terminal.link_files import STATE_FILE  # where session_runner (the simulators) finds it
from tenace_wire.control import ACCEPTED, LEAD_CHECKED, REFUSED_NOT_SIGNED_IN, STORED_CONFLICT
from tenace_wire.errors import SEQ_EXHAUSTED, WireError
from tenace_wire.frame_types import (
    ACK,
    CLOCK,
    COMING,
    HAND_RECORD,
    MORE,
    PAIR_OFFER,
    RANKING,
    ROUND_PLAN,
    SIGN_IN_ANSWER,
    TEXT,
    TRAVELLER,
)
from tenace_wire.session import REFUSED
from tenace_wire.table_messages import Request
from tenace_wire.terminal_session import TerminalSession

_MSG_RESULT = const("result")
_MSG_PLAYERS = const("players")
_MSG_SIGN_IN = const("sign_in")
_MSG_ROUND_REQUEST = const("round_request")
_MSG_RANKING_REQUEST = const("ranking_request")
_MSG_PROBE = const("probe")
_MSG_CALL = const("call")
_MSG_DIRECTOR = const("director")
_MSG_ACK = const("ack")
_MSG_MESSAGE = const("message")

APP_SEQ = const(32768)  # the app's message numbered s goes on the air as APP_SEQ + s
HELLO_MS = const(1000)
ANSWER_MS = const(10000)  # a sign-in under a fresh key unanswered this long: the code was wrong
REQUEST_MS = const(10000)  # a round plan expected this long, its request taken by the host: asked again
DEALS_MS = const(15000)  # a round plan waits this long at most for its hand records
PROBE_MS = const(5000)  # the factory test's radio round trip: no answer this long is a failure
STATUS_MS = const(300000)  # a status report this often while signed in
_LISTEN_MS = const(100)  # the receiver stays on this long after each frame in or out (the host answers in a few ms)
_EXPECT_MS = const(2000)  # and this long after the last frame out while an answer is awaited (an ACK, a plan)
_POLL_MS = const(6000)  # with nothing to send, the terminal speaks this often, playing or idle (session.poll): a
# movement change reaches it within 15 s, its poll lost (1 s) and the laptop busy included (issue 32)
_POLL_FAST_MS = const(3000)  # and this often for _FAST_FOR_MS after a plan the director changed
_POLL_AGAIN_MS = const(1000)  # a poll the host's MORE did not answer (lost either way) goes again once after this
_FAST_FOR_MS = const(300000)
_TICKS_MASK = const(0x3FFFFFFF)


def _urandom_bits(n: int) -> int:
    return int.from_bytes(os.urandom((n + 7) >> 3), "big") & ((1 << n) - 1)


class WireLink:
    def __init__(self, transport, terminal: int, storage: str, clock, random_bits=None, battery=None,
                 club=None) -> None:
        self.transport = transport
        self.club = club  # the club key from the settings file, or None (auth.py: the two ways of pairing)
        self.clock = clock
        self.terminal = terminal
        self._random_bits = random_bits or _urandom_bits
        base = storage.rstrip("/") + "/"
        self._path = base + STATE_FILE
        self._plans = base + link_files.PLANS_FILE
        self._deals_path = base + link_files.DEALS_FILE
        self._ticks = clock.ticks_ms()
        self.now = 0  # monotonic milliseconds since the link was made
        # The event key, the sequence numbers reserved, the section and table of the last accepted sign-in (-1, 0:
        # none): the state file's.
        self.key, self.limit, self.section, self.table = link_files.read_state(self._path)
        self.session = self._new_session(self.key, self.limit)
        self.needs_code = self.key is None
        self.inbox = []  # dicts for the app
        self._code = ""  # the pairing code keyed, until a PAIR_OFFER comes
        self._code_at = 0  # when the app last asked to sign in with it
        self._code_for = (0, 0)  # the section and table it was keyed for
        self._hello_at = 0
        self._fresh = None  # a key derived from the code, not yet proved by a sign-in answer
        self._signing = None  # [section, table, queued at, sequence number] of the sign-in waiting for its answer
        self._resign = self.key is not None and self.table > 0  # sign in again by itself (after a reboot)
        self._asked = [0, 0, 0]  # the round plan expected (0: none), since when, and the REQUEST's seq (0: none)
        self._sent = {}  # app seq -> its dict, until acknowledged (a refusal names the board)
        self._backlog = []  # app seqs not in the session's outbox yet, oldest first
        self._ns = 0  # the NS pair of the round: its traveller percentage
        self._deals = False  # the lead is checked: round plans go to the app with their hand records
        self._held = None  # [plan dict, deals, deadline, analyses] while hand records are on their way
        self._round = 0  # the last round plan given to the app
        self._probe = [-1, 0]  # the factory test's round trip: since when (-1: none asked), the last HELLO's time
        self.battery = battery  # the app's (percent(), and millivolts() where the board has it): the status report
        self.factory_path = base + link_files.FACTORY_FILE  # the factory test keeps its result there
        self.status_at = -1  # when the next status report is due (-1: at the next accepted sign-in)
        self._talk = 0  # the last frame in or out (the receiver's window)
        self._ear = None  # the receiver as last set: on, off, or None (as the transport started)
        self._more = -1  # the host's last MORE with frames waiting (-1: none, or it said none waits any more)
        self._fast = -1  # when the director last changed a plan (-1: never): the link polls fast for a while
        self._polled = -1  # when the link polled and no MORE has answered yet (-1: answered, or polled again)
        self._hush = False  # the last frame in or out was the host's MORE saying nothing waits: no window after it
        self._calling = None  # the app's call of the director, until the link is signed in to send it
        # Errors caught to keep the terminal alive that are bugs, not the field's: a test fails when not 0.
        self.faults = 0
        self.last_fault = ""

    # ---- the state file

    def _save(self) -> None:
        link_files.write_state(self._path, self.key, self.limit, self.section, self.table)

    def _reserve(self, limit: int) -> None:
        self.limit = limit
        self._save()

    def _new_session(self, key, next_seq: int) -> TerminalSession:
        return TerminalSession(self.terminal, self._random_bits, key, next_seq, self._reserve, club=self.club)

    # ---- the app's side

    def send(self, message: dict) -> None:
        self._clock()
        try:
            kind = message.get("type")
            if kind == _MSG_RESULT or kind == _MSG_PLAYERS:
                self._send_app(message)
            elif kind == _MSG_SIGN_IN:
                self._sign_in(message)
            elif kind == _MSG_ROUND_REQUEST:
                self._ask_round(message)
            elif kind == _MSG_RANKING_REQUEST and self.session.signed_in:
                self._request(RANKING, self.section, self.table, 0, 0)
            elif kind == _MSG_PROBE:
                self._probe[0] = self.now
                self._hello_at = self.now
            elif kind == _MSG_CALL:
                self._calling = message
                if self.session.signed_in:
                    self._call()
            self._pump()
        except Exception as e:  # never into the app: a result is journaled there and comes again at the next boot
            self._trouble(e)

    def recv(self):
        self._clock()
        try:
            self._pump()
        except Exception as e:
            self._trouble(e)
        inbox = self.inbox
        return inbox.pop(0) if inbox else None

    def _trouble(self, error: Exception) -> None:
        """Say what went wrong; count it in `faults` unless it is the flash's (OSError: the next write tries
        again) or the wire's (WireError: busy, numbers used up), which a terminal in the field meets."""
        print("wire_link: %s: %s" % (type(error).__name__, error))
        if not isinstance(error, (OSError, WireError)):
            self.faults += 1
            self.last_fault = "%s: %s" % (type(error).__name__, error)

    def _send_app(self, message: dict) -> None:
        s = message["seq"]
        if s >= APP_SEQ or s in self._sent:
            raise ValueError("message %d handed to the link twice or out of range" % s)
        if not self._ns:
            self._ns = message["ns"]
        self._sent[s] = message
        self._backlog.append(s)
        if not self.session.signed_in and self._signing is None and not self.needs_code:
            # Rebooted, or the host asked for a new sign-in: the table is in the result.
            self.section = wire_mapping.SECTIONS.find(message["section"])
            self.table = message["table"]
            self._resign = True

    def _drain(self) -> None:
        """Move the backlog into the session's outbox while it has room (only signed in: else refused)."""
        session = self.session
        backlog = self._backlog
        while backlog and session.signed_in:
            s = backlog[0]
            message = self._sent.get(s)
            if message is not None:
                try:
                    session.queue_at(APP_SEQ + s, wire_mapping.table_message(message), self.now)
                except WireError:
                    return  # busy: the outbox frees up as ACKs come
                except (ValueError, KeyError, TypeError) as e:  # a bug: the app keeps it pending, the rest go
                    print("wire_link: message %d not sent: %s: %s" % (s, type(e).__name__, e))
            backlog.pop(0)

    def _sign_in(self, message: dict) -> None:
        section = wire_mapping.SECTIONS.find(message["section"])
        table = message["table"]
        if self.needs_code:
            code = message.get("code")
            if code:
                self._code = code
                self._code_at = self.now
                self._code_for = (section, table)
            return
        self._queue_sign_in(section, table)

    def _own_seq_left(self) -> None:
        if self.session.next_seq >= APP_SEQ - 1:
            raise WireError(SEQ_EXHAUSTED, "the link's own numbers are used up: pair again")

    def _queue_sign_in(self, section: int, table: int) -> None:
        self._own_seq_left()
        seq = self.session.sign_in(section, table, self.now)
        self._signing = [section, table, self.now, seq]
        self._resign = False

    def _ask_round(self, message: dict) -> None:
        self._expect(message["round"])
        kept = link_files.kept_all(self._plans, ROUND_PLAN, (message["round"],))[0]
        if kept is not None:
            self._on_plan(kept, False)
        elif self.session.signed_in:
            self._ask_plan()
        elif self._signing is None and not self.needs_code:
            # A plan can only be taken in after a sign-in: sign in first, then ask (_on_answer).
            self._queue_sign_in(wire_mapping.SECTIONS.find(message["section"]), message["table"])

    def _expect(self, number: int) -> None:
        asked = self._asked
        asked[0] = number
        asked[1] = self.now
        asked[2] = 0

    def _ask_plan(self) -> None:
        asked = self._asked
        asked[1] = self.now
        asked[2] = self._request(ROUND_PLAN, self.section, self.table, asked[0], 0)

    def _status(self) -> None:
        """Queue a STATUS: firmware, battery, the last factory test (FACTORY_FILE), this link's counters and the
        transport's signal."""
        self.status_at = self.now + STATUS_MS
        self._own_seq_left()
        self.session.queue(link_files.status_report(self.battery, self.factory_path, self.session, self.transport),
                           self.now)

    def _call(self) -> None:
        """Queue the CALL the app asked for: the link's own message, retransmitted until the host has it (a call lost
        with the power is pressed again)."""
        from tenace_wire.director_call import Call  # (loaded on the first call or clock: not every table meets one)

        message = self._calling
        self._calling = None
        if message is None:
            return
        self._own_seq_left()
        self.session.queue(Call(section=self.section, table=self.table, round=message["round"],
                                call=message["call"], left=message["left"]), self.now)

    def _request(self, what: int, section: int, table: int, number: int, board: int) -> int:
        self._own_seq_left()
        return self.session.queue(Request(what=what, section=section, table=table, round=number, board=board),
                                  self.now)

    # ---- the wire's side

    def _clock(self) -> None:
        ticks = self.clock.ticks_ms()
        self.now += (ticks - self._ticks) & _TICKS_MASK
        self._ticks = ticks

    def _pump(self) -> None:
        now = self.now
        transport = self.transport
        frame = transport.recv()
        while frame is not None:
            self._talk = now
            self._hush = False
            try:
                inbound = self.session.receive(frame, now)
            except WireError:
                inbound = None  # counted in session.counters: noise, another table's frame, a replay
            if inbound is not None:
                self._on_inbound(inbound)
            frame = transport.recv()
        self._timers(now)
        self._drain()
        session = self.session
        if session.signed_in:
            if now - self._talk >= self._poll_ms(now):
                session.poll()
                self._polled = now
            elif 0 <= self._polled <= now - _POLL_AGAIN_MS:
                session.poll()  # once: unanswered again (the laptop out of reach), it waits for its next poll
                self._polled = -1
        for frame in session.due(now):
            transport.send(frame)
            self._talk = now
            self._hush = False
        quiet = now - self._talk
        ear = (quiet < _LISTEN_MS and not self._hush) or (0 <= self._more and now - self._more < _EXPECT_MS) or (
            quiet < _EXPECT_MS and bool(
                session.pending() or self._asked[0] or self._held or self._code or self._probe[0] >= 0))
        if ear != self._ear and hasattr(transport, "listen"):
            self._ear = ear
            transport.listen(ear)

    def _poll_ms(self, now: int) -> int:
        """How long the terminal stays silent, with nothing to send, before it polls the host."""
        if 0 <= self._fast and now - self._fast < _FAST_FOR_MS:
            return _POLL_FAST_MS
        return _POLL_MS

    def _timers(self, now: int) -> None:
        if self._code and now - self._code_at < ANSWER_MS and now >= self._hello_at:
            self.transport.send(self.session.hello())
            self._hello_at = now + HELLO_MS
            self._talk = now
        signing = self._signing
        if signing is not None and self._fresh is not None and now - signing[2] >= ANSWER_MS:
            # The host cannot authenticate a sign-in under a key from a wrong code: it never answers.
            self._fresh = None
            self._signing = None
            self.session = self._new_session(None, self.session.next_seq)
            self.needs_code = True
            self.inbox.append({"type": _MSG_MESSAGE, "text": catalogue.text("wrong_code")})
        elif signing is not None and now - signing[2] >= ANSWER_MS and not self.session.waiting(signing[3]):
            self._resign = True  # the host took the sign-in but its answer never came (it died meanwhile)
            self._signing = None
        if self._resign and self._signing is None and not self.needs_code:
            try:
                self._queue_sign_in(self.section, self.table)
            except WireError:
                self._resign = False
        asked = self._asked
        if asked[0] and self.session.signed_in and now - asked[1] >= REQUEST_MS \
                and not (asked[2] and self.session.waiting(asked[2])):
            try:
                self._ask_plan()
            except WireError:
                asked[0] = 0
        held = self._held
        if held is not None and now >= held[2]:
            self._give_plan()  # without the hand records still missing: the lead is not checked there
        if 0 <= self.status_at <= now and self.session.signed_in:
            self._status()
        probe = self._probe
        if probe[0] >= 0:
            if now - probe[0] >= PROBE_MS:
                probe[0] = -1
                self.inbox.append({"type": _MSG_PROBE, "ms": -1})
            elif now >= self._hello_at:
                self.transport.send(self.session.hello())
                probe[1] = now
                self._talk = now
                self._hello_at = now + HELLO_MS

    def _on_inbound(self, inbound) -> None:
        ftype = inbound.type
        msg = inbound.message
        if ftype == ACK:
            self._on_ack(inbound.seq, msg.status)
        elif ftype == MORE:
            self._more = self.now if msg.waiting else -1
            self._hush = not msg.waiting
            self._polled = -1
        elif ftype == PAIR_OFFER:
            probe = self._probe
            if probe[0] >= 0:
                probe[0] = -1
                self.inbox.append({"type": _MSG_PROBE, "ms": self.now - probe[1]})
            if self._code:
                self._fresh = self.session.pair(self._code, msg.nonce)
                self._code = ""
                self.needs_code = False
                self._queue_sign_in(self._code_for[0], self._code_for[1])
        elif ftype == SIGN_IN_ANSWER:
            self._on_answer(msg)
        elif ftype == ROUND_PLAN:
            self._on_plan(msg)
        elif ftype == HAND_RECORD:
            try:
                link_files.keep(self._deals_path, msg.board, msg)
            except OSError as e:  # the flash: the deal still goes to the app if a plan waits for it
                print("wire_link: hand record %d not kept: %s" % (msg.board, e))
            held = self._held
            if held is not None and msg.board in held[0]["boards"]:
                i = held[0]["boards"].index(msg.board)
                held[1][i] = wire_mapping.deal_text(msg.owners)
                held[3][i] = wire_mapping.analysis_text(msg)
                if None not in held[1]:
                    self._give_plan()
        elif ftype == TRAVELLER:
            self.inbox.append(wire_mapping.traveller(msg, self._ns))
        elif ftype == RANKING:
            self.inbox.append(wire_mapping.ranking(msg))
        elif ftype == TEXT:
            self.inbox.append({"type": _MSG_MESSAGE, "text": msg.text})
        elif ftype == COMING:
            self.inbox.append({"type": _MSG_DIRECTOR, "call": msg.call})
        elif ftype == CLOCK:
            self.inbox.append({"type": _MSG_DIRECTOR, "round": msg.round, "minutes": msg.minutes, "left": msg.left})

    def _on_ack(self, seq: int, status: int) -> None:
        if seq < APP_SEQ:
            return  # a SIGN_IN or REQUEST: what matters is the answer to it
        s = seq - APP_SEQ
        message = self._sent.pop(s, None)
        if status == REFUSED_NOT_SIGNED_IN:
            if message is not None:
                self._sent[s] = message
                self._backlog.append(s)  # again after the new sign-in, which _timers queues first
                self._backlog.sort()
            self._resign = self.table > 0
            return
        self.inbox.append({"type": _MSG_ACK, "seq": s})
        if message is not None and (status >= REFUSED or status == STORED_CONFLICT):
            self.inbox.append(wire_mapping.answer(message, status))

    def _on_answer(self, answer) -> None:
        signing = self._signing
        self._signing = None
        if signing is None:
            return
        section = signing[0]
        table = signing[1]
        changed = False
        if self._fresh is not None:
            self.key = self._fresh  # the host answered under it: the code was right
            self._fresh = None
            changed = True
        if answer.status == ACCEPTED and (answer.section != self.section or answer.table != self.table):
            self.section = answer.section
            self.table = answer.table
            self._round = 0
            changed = True
        if changed:
            self._save()
        self._deals = answer.lead_entry >= LEAD_CHECKED
        if answer.status == ACCEPTED:
            self.status_at = self.now  # a status report after every sign-in, then every STATUS_MS
            link_files.begin_anew(self._plans, self._deals_path, changed)
            if self._calling is not None:
                self._call()  # the players called the director before the sign-in
            if self._asked[0]:
                self._ask_plan()  # the app asked before the sign-in
            elif answer.round:
                self._expect(answer.round)  # the host sends that round's plan with its answer
        self.inbox.append(wire_mapping.sign_in_reply(answer, section, table))

    # ---- the round plans

    def _on_plan(self, plan, fresh: bool = True) -> None:
        changed = False
        if fresh:
            # Sent unasked and not as kept: the director changed the movement. The link polls fast for a while; the
            # app is told when it is its round or the next.
            if plan.round != self._asked[0]:
                kept = link_files.kept_all(self._plans, ROUND_PLAN, (plan.round,))[0]
                if kept is not None and kept.encode() != plan.encode():
                    self._fast = self.now
                    number = self._round
                    changed = bool(number) and number <= plan.round <= number + 1
            try:
                link_files.keep(self._plans, plan.round, plan)
            except OSError as e:  # the flash: the plan still goes to the app if it waits for it
                print("wire_link: plan %d not kept: %s" % (plan.round, e))
        if plan.round != self._asked[0]:
            if changed:
                out = wire_mapping.round_plan(plan)
                out["changed"] = True
                if plan.round == self._round:
                    self._ns = plan.ns_pair
                self.inbox.append(out)
            return  # else another round's: kept for when the app asks for it
        self._asked[0] = 0
        self._ns = plan.ns_pair
        out = wire_mapping.round_plan(plan)
        if not self._deals or plan.round <= self._round:
            if plan.round > self._round:
                self._round = plan.round
            self.inbox.append(out)
            return
        held = self._held
        if held is not None:
            if held[0]["round"] == plan.round:
                return  # asked again meanwhile: the held one goes once its hand records are in
            self._give_plan()
        boards = out["boards"]
        # The hand records kept from the host (it sends them with the plans at sign-in): with the laptop out of
        # reach the lead is still checked. Only those missing are asked for.
        deals = []
        dds = []
        for kept in link_files.kept_all(self._deals_path, HAND_RECORD, boards):
            owners = getattr(kept, "owners", None)  # a HandRecord's
            deals.append(wire_mapping.deal_text(owners) if owners is not None else None)
            dds.append(wire_mapping.analysis_text(kept) if owners is not None else None)
        self._held = [out, deals, self.now + DEALS_MS, dds]
        if None not in deals:
            self._give_plan()
            return
        for i in range(len(boards)):
            if deals[i] is None:
                self._request(HAND_RECORD, plan.section, plan.table, plan.round, boards[i])

    def _give_plan(self) -> None:
        held = self._held
        self._held = None
        if held is not None:
            held[0]["deals"] = held[1]
            if held[3].count(None) < len(held[3]):
                held[0]["dd"] = held[3]  # the deals' double-dummy analyses, where the host has them
            self._round = held[0]["round"]
            self.inbox.append(held[0])
