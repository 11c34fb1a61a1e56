"""The real terminal app over WireLink and the wire protocol, to a small host on HostSession. Pytest and MicroPython.

Pairing (right and wrong code), sign-in, rounds played, a reboot mid-round, a channel losing 30% of
frames both ways, a refused result, the last round, hand records for the lead check: every result
is stored at the host exactly once, by (terminal, wire sequence number).
"""

from deals import deal
from session_runner import check_faults
from sim_devices import Bits, FixedBattery, ManualClock, ScriptedKeypad, new_directory, remove_directory
from tenace_terminal.app import App
from tenace_terminal.text_grid import TextGrid
from tenace_terminal.wire_link import APP_SEQ, STATE_FILE, WireLink

from tenace_wire.control import ACCEPTED, LEAD_CHECKED, REFUSED_INVALID, REFUSED_NOT_SIGNED_IN, SignInAnswer
from tenace_wire.director_messages import HandRecord, RoundPlan
from tenace_wire.errors import WireError
from tenace_wire.frame_types import ACK, HAND_RECORD, HELLO, REQUEST, RESULT, ROUND_PLAN, SIGN_IN
from tenace_wire.host_session import HostSession
from tenace_wire.pairing import event_key

CODE = "314159"
TERMINAL = 7
STEP_MS = 20


def owners(pbn):
    """A PBN deal from deals.deal as HandRecord owners (seat of each card in card_code order)."""
    out = bytearray(52)
    for seat, hand in enumerate(pbn[2:].split()):
        for i, holding in enumerate(hand.split(".")):
            suit = 3 - i  # PBN: spades first; card_code: clubs first
            for rank in holding:
                out[suit * 13 + "23456789TJQKA".find(rank)] = seat
    return bytes(out)


class Channel:
    """Frames both ways, each lost with probability `loss`."""

    def __init__(self, loss=0.0, seed=5):
        self.loss = loss
        self.bits = Bits(seed)
        self.to_host = []
        self.to_terminal = []
        self.cut = False  # True: nothing reaches the terminal (out of range)

    def lost(self):
        return self.loss > 0 and self.bits.getrandbits(16) < self.loss * 65536


class TerminalEnd:
    """The terminal's transport: send(frame), recv() -> frame or None."""

    def __init__(self, channel):
        self.channel = channel

    def send(self, frame):
        if not self.channel.lost():
            self.channel.to_host.append(bytes(frame))

    def recv(self):
        queue = self.channel.to_terminal
        return queue.pop(0) if queue else None


class Host:
    """The director's end: answers HELLO, signs the table in, plans rounds, stores and acknowledges results."""

    def __init__(self, channel, rounds=2, boards=2, refuse_board=0, lead=1):
        self.channel = channel
        self.nonce = b"nonce-42"
        self.session = HostSession(event_key(CODE, self.nonce), Bits(11).getrandbits, ingested=self.ingested)
        self.rounds = rounds
        self.boards = boards
        self.refuse_board = refuse_board
        self.lead = lead
        self.stored = {}  # (terminal, seq) -> the message, as a store keyed like the real one
        self.sign_ins = 0
        self.requests = []  # (what, round, board)
        self.out = []  # unauthenticated frames to send (PAIR_OFFER)

    def ingested(self, terminal, seq):
        return (terminal, seq) in self.stored

    def plan(self, number):
        first = (number - 1) * self.boards + 1
        last = number == self.rounds
        return RoundPlan(section=0, table=3, round=number, ns_pair=3, ew_pair=10 + number,
                         boards=tuple(range(first, first + self.boards)),
                         ns_next=0 if last else 3, ew_next=0 if last else 4, boards_next=0 if last else 2)

    def results(self):
        """(round, board, version) of every stored result, in storing order."""
        return [(m.round, m.board, m.version) for m in self.stored.values() if m.TYPE == RESULT]

    def current_round(self):
        number = 1
        while number < self.rounds and self.round_done(number):
            number += 1
        return number

    def round_done(self, number):
        first = (number - 1) * self.boards + 1
        done = [b for (r, b, _v) in self.results() if r == number]
        return all(b in done for b in range(first, first + self.boards))

    def pump(self, now):
        session = self.session
        while self.channel.to_host:
            try:
                inbound = session.receive(self.channel.to_host.pop(0), now)
            except WireError as e:
                if e.inbound is not None:
                    session.acknowledge(e.inbound, REFUSED_NOT_SIGNED_IN)
                continue
            if inbound is not None:
                self.handle(inbound, now)
        out = self.out + session.due(now)
        self.out = []
        for frame in out:
            if not self.channel.cut and not self.channel.lost():
                self.channel.to_terminal.append(frame)

    def handle(self, inbound, now):
        session = self.session
        kind = inbound.type
        msg = inbound.message
        if kind == ACK:
            return  # of a host message: the session has dropped it from its outbox
        if kind == HELLO:
            self.out.append(session.offer_pairing(inbound.terminal, self.nonce))
        elif inbound.duplicate:
            session.acknowledge(inbound)
        elif kind == SIGN_IN:
            self.sign_ins += 1
            answer = SignInAnswer(status=ACCEPTED, section=msg.section, table=msg.table, round=1,
                                  lead_entry=self.lead, show_traveller=0, language="en")
            session.answer_sign_in(inbound, answer, now)
            session.send(inbound.terminal, self.plan(self.current_round()), now)
        elif kind == REQUEST:
            self.requests.append((msg.what, msg.round, msg.board))
            session.acknowledge(inbound)
            if msg.what == ROUND_PLAN and 1 <= msg.round <= self.rounds:
                session.send(inbound.terminal, self.plan(msg.round), now)
            elif msg.what == HAND_RECORD:
                session.send(inbound.terminal, HandRecord(board=msg.board, owners=owners(deal(msg.board))), now)
        elif kind == RESULT and msg.board == self.refuse_board:
            session.acknowledge(inbound, REFUSED_INVALID)  # e.g. the director closed that board
        else:
            self.stored[(inbound.terminal, inbound.seq)] = msg
            session.acknowledge(inbound)  # after the "commit"
            if kind == RESULT and msg.round < self.rounds and self.round_done(msg.round):
                session.send(inbound.terminal, self.plan(msg.round + 1), now)


class Table:
    """A terminal (App + WireLink on a journal directory) and the host, on one manual clock."""

    def __init__(self, loss=0.0, seed=5, **host_options):
        self.clock = ManualClock(1000)
        self.bits = Bits(seed + 1)
        self.channel = Channel(loss, seed)
        self.host = Host(self.channel, **host_options)
        self.storage = new_directory()
        self.app = None
        self.boot()

    def boot(self):
        """Start (or restart after a power cut) the terminal: new App, new WireLink, same storage."""
        self.channel.to_terminal = []  # what was on the way to it is lost
        self.keypad = ScriptedKeypad()
        self.display = TextGrid()
        self.link = WireLink(TerminalEnd(self.channel), TERMINAL, self.storage, self.clock, self.bits.getrandbits)
        self.app = App(self.keypad, self.display, self.clock, self.link, self.storage, FixedBattery(), "T07")

    def run(self, ms):
        end = self.clock.now + ms
        while self.clock.now < end:
            self.app.step()
            check_faults(self.app)
            self.host.pump(self.clock.now)
            self.clock.advance(STEP_MS)

    def until(self, done, limit_ms=60000):
        end = self.clock.now + limit_ms
        while not done():
            assert self.clock.now < end, "not within %d ms: %s" % (limit_ms, self.screen())
            self.run(100)

    def keys(self, script, ms=200):
        for key in script.split():
            self.keypad.push(key)
            self.run(ms)
        return self.screen()

    def screen(self):
        return " ".join(self.display.screen().split())

    def pair(self, code=CODE):
        self.keys("3 OK")
        assert "Code _" in self.screen(), self.screen()
        return self.keys(" ".join(code) + " OK")

    def signed_in(self):
        self.pair()
        self.until(lambda: "Round 1" in self.screen())

    def close(self):
        remove_directory(self.storage)


BOARD_KEYS = ("4 S N K H + 1 OK", "PASS OK", "3 NT E 4 S = OK")


def play_round(table, number, boards=2):
    """From the round screen (or the previous round's end): OK, then every board, to the round's end."""
    if "finished" in table.screen():
        table.keys("OK")
    assert "Round %d A3" % number in table.screen(), table.screen()
    table.keys("OK")
    for i in range(boards):
        screen = table.keys(BOARD_KEYS[i % 3])
        assert "saved" in screen or "finished" in screen, screen
    assert "Round %d finished" % number in table.screen(), table.screen()


def test_pairing_with_the_right_code_signs_in_and_keeps_the_key():
    table = Table()
    try:
        assert table.link.needs_code
        screen = table.keys("3 OK")
        assert "Section A table 3" in screen and "Code _" in screen, screen
        screen = table.keys("1 2 BACK")
        assert "Code 1_" in screen, screen
        screen = table.keys("BACK BACK")
        assert "Table 3_" in screen, screen  # BACK with no digit: back to the table number
        screen = table.keys("OK 1 2 3 OK")
        assert "Pairing code: 6 digits" in screen, screen
        table.keys("BACK BACK BACK " + " ".join(CODE) + " OK", 100)
        table.until(lambda: "Round 1" in table.screen(), 5000)
        screen = table.screen()
        assert "Round 1 A3" in screen and "NS 3" in screen and "EW 11" in screen, screen
        assert not table.link.needs_code and table.host.sign_ins == 1
        with open(table.storage + "/" + STATE_FILE) as f:
            words = f.read().split()
        assert bytes.fromhex(words[0]) == event_key(CODE, table.host.nonce) and words[2:] == ["0", "3"], words
        # A reboot keeps the key: no code to key again, and the link signs in by itself.
        table.boot()
        assert not table.link.needs_code
        table.run(1000)
        assert table.host.sign_ins == 2 and table.link.session.signed_in
    finally:
        table.close()


def test_a_wrong_code_is_forgotten_and_the_players_are_told():
    table = Table()
    try:
        screen = table.pair("271828")
        assert "Signing in" in screen, screen
        table.run(11000)
        screen = table.screen()
        assert "Wrong pairing code? Key it again" in screen and "Code _" in screen, screen
        assert table.link.needs_code and table.host.sign_ins == 0 and table.app.signin is None
        table.keys(" ".join(CODE) + " OK")
        table.until(lambda: "Round 1" in table.screen(), 5000)
        assert table.host.sign_ins == 1
    finally:
        table.close()


def test_rounds_played_every_result_acknowledged_and_the_last_round_shown_as_last():
    table = Table()
    try:
        table.signed_in()
        play_round(table, 1)
        screen = table.screen()
        assert "NS 3 > table 3 NS" in screen and "EW 11 > table 4 EW" in screen, screen
        assert "Boards > table 2" in screen and "OK: next round" in screen, screen
        play_round(table, 2)
        screen = table.screen()
        # Round 2's plan has no table to go to (all zero): the last round, with no moves shown.
        assert "OK: end of session" in screen and "sits out" not in screen and ">" not in screen, screen
        assert table.app.pending == {}
        assert table.host.results() == [(1, 1, 0), (1, 2, 0), (2, 3, 0), (2, 4, 0)]
        assert sorted(seq for (_t, seq) in table.host.stored) == [APP_SEQ + s for s in range(1, 5)]
        assert "Session finished" in table.keys("OK")
    finally:
        table.close()


def test_a_reboot_mid_round_stores_each_result_once():
    table = Table(rounds=1, boards=3)
    try:
        table.signed_in()
        table.keys("OK")
        table.channel.cut = True  # the host gets board 1 but its ACK never comes back
        table.keys(BOARD_KEYS[0])
        table.run(4000)  # the link sends it again; still no ACK
        assert len(table.app.pending) == 1 and len(table.host.stored) == 1
        table.boot()  # power cut: a new App and WireLink on the same journal and state file
        table.channel.cut = False
        table.until(lambda: table.app.pending == {}, 20000)
        assert table.host.session.counters.get("duplicate", 0) >= 1
        assert "1 of 3 entered" in table.screen(), table.screen()  # back in the round, board 1 in
        screen = table.keys("OK " + BOARD_KEYS[1])
        assert "Board 2 saved" in screen, screen
        table.keys(BOARD_KEYS[2])
        table.until(lambda: table.app.pending == {})
        assert table.host.results() == [(1, 1, 0), (1, 2, 0), (1, 3, 0)]
        assert table.host.sign_ins == 2  # the link signed in again by itself after the reboot
    finally:
        table.close()


def test_a_channel_losing_30_percent_both_ways_delivers_everything_once():
    lossy(5)


def lossy(seed):
    table = Table(rounds=2, boards=3, seed=seed)
    try:
        table.signed_in()
        table.channel.loss = 0.3
        for number in (1, 2):
            table.until(lambda n=number: "Round %d " % n in table.screen())
            table.keys("OK")
            for i in range(3):
                table.keys(BOARD_KEYS[i], 500)
            table.until(lambda n=number: "Round %d finished" % n in table.screen())
            table.until(lambda: table.app.pending == {})
            if number == 1:
                table.until(lambda: table.app.next_plan is not None)
                table.keys("OK")
        # Frames lost and sent again arrive out of order; each result is there once, under its own number.
        assert sorted(table.host.results()) == [(1, 1, 0), (1, 2, 0), (1, 3, 0), (2, 4, 0), (2, 5, 0), (2, 6, 0)]
        assert sorted(seq for (_t, seq) in table.host.stored) == [APP_SEQ + s for s in range(1, 7)]
        assert "OK: end of session" in table.screen(), table.screen()
    finally:
        table.close()


def test_a_refused_result_is_shown_and_not_sent_again():
    table = Table(rounds=1, boards=2, refuse_board=2)
    try:
        table.signed_in()
        table.keys("OK " + BOARD_KEYS[0] + " " + BOARD_KEYS[1])
        table.run(500)
        screen = table.screen()
        assert "Board 2 refused by the host" in screen, screen
        assert table.app.pending == {} and table.host.results() == [(1, 1, 0)]
        before = table.host.session.counters.get("accepted", 0)
        table.run(20000)
        assert table.host.session.counters.get("accepted", 0) == before  # nothing more on the air
    finally:
        table.close()


def test_results_refused_as_not_signed_in_go_again_after_the_link_signs_in_again():
    table = Table(rounds=1, boards=3)
    try:
        table.signed_in()
        table.keys("OK")
        del table.host.session.bindings[TERMINAL]  # the host has forgotten where the terminal sits
        table.keys(BOARD_KEYS[0])
        table.until(lambda: table.app.pending == {}, 30000)
        assert table.host.sign_ins == 2 and table.host.results() == [(1, 1, 0)]
    finally:
        table.close()


def test_hand_records_come_with_the_plan_when_the_lead_is_checked():
    table = Table(rounds=1, boards=2, lead=LEAD_CHECKED)
    try:
        table.signed_in()
        assert table.app.settings["lead"] == "warn"
        assert table.app.plan["deals"] == [deal(1), deal(2)]
        assert [r for r in table.host.requests if r[0] == HAND_RECORD] == [(HAND_RECORD, 1, 1), (HAND_RECORD, 1, 2)]
    finally:
        table.close()
