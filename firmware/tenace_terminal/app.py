"""The table terminal app: the event loop over injected devices, the session state and its journal.

Devices (hard rule 6), each a small object the board file or a simulator passes in:
  keypad.read() -> key name (tenace_terminal.keypad_layout) or None
  display.clear(), display.text(col, row, s, inverse=False), display.show(); .cols, .rows, .rtl
  clock.ticks_ms() -> int (and optionally clock.sleep_ms(ms), used by run() when idle)
  link.send(msg: dict), link.recv() -> dict or None (messages to and from the host, each with a 'type');
    the link owns delivery: each message is handed to it once (a pending result again after a reboot)
  storage: a directory path on a mounted filesystem (the journal lives there)
  battery.percent() -> int 0..100 (read every 10 s: at 15 % or less a warning line, see _BATTERY_LOW)

Every state change that must survive a reboot is a journal record, applied by the same code
(_apply) when it happens and when the journal is replayed at start-up, so a rebooted terminal is
in the same round, with the same pending results, as before the power went.
"""

import gc
import sys

from micropython import const

from tenace_rules.board import SEATS
from tenace_rules.contract import PASSED_OUT, Contract
from tenace_terminal import VERSION, catalogue
from tenace_terminal.journal import Journal

_MSG_RESULT = const("result")
_MSG_PLAYERS = const("players")
_MSG_SIGN_IN = const("sign_in")
_MSG_ROUND_REQUEST = const("round_request")
_MSG_ACK = const("ack")
_MSG_SIGN_IN_OK = const("sign_in_ok")
_MSG_ROUND_PLAN = const("round_plan")
_MSG_TRAVELLER = const("traveller")
_MSG_RANKING = const("ranking")
_MSG_MESSAGE = const("message")
_MSG_SESSION_OVER = const("session_over")
_MSG_LANG = const("lang")
_MSG_TALLY = const("tally")

_IDLE_MS = const(10)
_GC_EVERY = const(4096)  # bytes allocated between two garbage collections
_SCREENS = const("tenace_terminal.screens")
# The low-battery warning. At 15 % a Li-ion cell is near 3.6 V: an hour or so of play left, and still well above
# where the regulator drops out and a flash write (the journal) could be cut half-way. It goes away above 20 %,
# so a reading that wavers around 15 % under load does not make it blink. Read every 10 s: the level moves slowly.
_BATTERY_LOW = const(15)
_BATTERY_OK = const(20)
_BATTERY_EVERY_MS = const(10000)
_TICKS_MASK = const(0x3FFFFFFF)  # ticks_ms() wraps at 2**30 on MicroPython: differences are masked
# A screen the players must read (where they move) takes no key for this long after it is shown, and each key
# pressed meanwhile starts the wait again: an OK pressed twice, or held where the keyboard repeats, cannot skip it.
KEY_PAUSE_MS = const(1000)

# What the host may set at sign-in; these are used for whatever it leaves out.
DEFAULT_SETTINGS = {
    "players": "off",  # player numbers at the start of a round: off, optional, required
    "lead": "on",  # opening lead: off, on, warn (checked against the hand record), force (must be corrected)
    "result": "any",  # result entry: any (=, +n, -n or total tricks), relative, tricks
    "traveller": False,  # show the board's traveller after each accepted result
    "pin": "0000",  # the director's PIN for the menu that changes accepted results (the host sends the event's)
}


def forget(name: str) -> None:
    """Drop module `name` from sys.modules and from its package, so its code can be collected."""
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    package = sys.modules.get(name[:dot])
    if package is not None and hasattr(package, name[dot + 1:]):
        delattr(package, name[dot + 1:])


class Entry:
    """The result being keyed for one board, element by element, until the opponents accept it."""

    def __init__(self, board: int) -> None:
        self.board = board
        self.level = 0
        self.strain = -1
        self.doubling = 0
        self.declarer = ""
        self.passed = False
        self.lead_rank = ""
        self.lead_suit = ""
        self.lead_last = ""  # which of the two was keyed last ("rank" or "suit"), for BACK
        self.lead_kept = False  # kept with OK though the hand record does not give it to the leader
        self.tricks = -1

    def contract(self) -> Contract:
        if self.passed:
            return PASSED_OUT
        return Contract(self.level, self.strain if self.strain >= 0 else 0, self.doubling)

    def contract_text(self) -> str:
        """What has been keyed so far, with suit symbols: "4", "4\u2660", "4\u2660X"."""
        if self.passed:
            return catalogue.text("passed_out")
        if not self.level:
            return ""
        if self.strain < 0:
            return str(self.level)
        return self.contract().symbol_text()

    def lead_card(self) -> str:
        """The lead as keyed so far, suit symbol first: "\u2665K", "K", "\u2665"."""
        suit = "\u2663\u2666\u2665\u2660"["CDHS".find(self.lead_suit)] if self.lead_suit else ""
        return suit + self.lead_rank

    def leader(self) -> str:
        """The opening leader: declarer's left-hand opponent."""
        return SEATS[(SEATS.find(self.declarer) + 1) % 4]


class App:
    """The terminal: owns the devices, the session state and the current screen."""

    # The table's call of the director and the round clock (round_clock.py, loaded when the first comes, by the call
    # screen or by Screen.message: a session without either keeps its RAM), or None. A class attribute: the
    # instance's own only once set.
    director = None

    def __init__(self, keypad, display, clock, link, storage: str, battery, terminal_id: str = "T1",
                 compact_bytes: int = 4096) -> None:
        self.keypad = keypad
        self.display = display
        self.clock = clock
        self.link = link
        self.battery = battery
        self.terminal_id = terminal_id
        self.compact_bytes = compact_bytes
        # Collect often, not only when the heap is full: garbage left between long-lived objects splits the heap
        # into pieces too small for the next screen's code (MicroPython has no compaction). CPython: no such call.
        threshold = getattr(gc, "threshold", None)
        if threshold is not None:
            threshold(_GC_EVERY)
        self.journal = Journal(storage)
        # Session state: all of it is rebuilt from the journal by _apply.
        self.signin = None  # the host's sign_in_ok record: section, table, settings
        self.section = ""
        self.table = 0
        self.settings = DEFAULT_SETTINGS
        self.plan = None  # the current round_plan record
        self.results = {}  # board -> latest result record of the current round
        self.pending = {}  # seq -> record not yet acknowledged by the host
        self.next_seq = 1
        self.boards_entered = 0  # boards with a result in the rounds before the current one
        self.session_over = False
        # Volatile state: what is on screen and in flight.
        self.entry = None  # the Entry being keyed
        self.next_plan = None  # the next round's plan, kept until the players leave the round's end screen
        self.waiting_round = False  # players asked for the next round before the host sent it
        self.traveller = None  # the last traveller the host sent
        self.ranking = None  # the last ranking the host sent (menu 3)
        self.paused_at = -1  # ticks_ms of the start of a pause of the keys (pause_keys), -1 for none
        self.status = ""  # one line at the bottom: why a key was refused, "saved", a host message
        self.battery_low = -1  # the percent the warning line shows (above the status, if any); -1: no warning
        self._battery_at = 0
        self.asking = None  # the sign_in or round_request the host has not answered yet
        self.screen = None
        self.screen_name = ""
        self.next_screen = None  # (name, args) of the screen to show when the step in hand is done
        self.menu_return = None  # (name, args) of the screen the menu returns to
        self.dirty = True
        # Errors step() caught to keep the terminal alive: a simulator or a test fails when this is not 0.
        self.faults = 0
        self.last_fault = ""
        for record in self.journal.records():
            self._apply(record)
        # What the host has not acknowledged goes to the link again (its queue was in RAM), oldest first.
        for seq in sorted(self.pending):
            link.send(self.pending[seq])
        display.rtl = catalogue.is_rtl()  # (also without a journal: the language the firmware started in)
        self._check_battery(clock.ticks_ms())
        self._first_screen()
        self._switch()

    # ---- journal: every lasting change is a record, applied the same way live and on replay

    def record(self, record: dict) -> bool:
        """Journal `record` then apply it; False (and nothing applied) when the flash write failed."""
        try:
            self.journal.append(record)
        except OSError:
            self.status = catalogue.text("not_saved")
            return False
        self._apply(record)
        return True

    def _apply(self, record: dict) -> None:
        kind = record.get("type")
        if kind == _MSG_RESULT or kind == _MSG_PLAYERS:
            seq = record["seq"]
            self.pending[seq] = record
            if seq >= self.next_seq:
                self.next_seq = seq + 1
            plan = self.plan
            if kind == _MSG_RESULT and plan is not None and record["round"] == plan["round"]:
                self.results[record["board"]] = record
        elif kind == _MSG_ACK:
            self.pending.pop(record["seq"], None)
        elif kind == _MSG_ROUND_PLAN:
            plan = self.plan
            if plan is None or plan["round"] != record["round"]:
                self.boards_entered += self.boards_done()
                self.results = {}
            # (the same round again: the director changed the movement; what was entered stays)
            self.plan = record
            self.session_over = False
        elif kind == _MSG_SIGN_IN_OK:
            self.signin = record
            self.section = record.get("section", "")
            self.table = record.get("table", 0)
            settings = dict(DEFAULT_SETTINGS)
            settings.update(record.get("settings") or {})
            self.settings = settings
            if "language" in settings:
                self._language(settings["language"])  # the host's; a player's choice is a later record
            self.plan = None
            self.results = {}
            self.boards_entered = 0
            self.session_over = False
        elif kind == _MSG_SESSION_OVER:
            self.boards_entered += self.boards_done()
            self.results = {}
            self.session_over = True
        elif kind == _MSG_LANG:
            self._language(record["code"])
        elif kind == _MSG_TALLY:
            self.boards_entered = record["boards"]
            if record["seq"] > self.next_seq:
                self.next_seq = record["seq"]

    def _language(self, code: str) -> None:
        try:
            catalogue.set_language(code)
        except (OSError, ValueError):
            pass  # a language this firmware lacks (or has since lost): keep the current one
        self.display.rtl = catalogue.is_rtl()

    def compact(self) -> None:
        """Rewrite the journal as the records the state needs (tenace_terminal.compaction, loaded for it)."""
        from tenace_terminal import compaction

        compaction.compact(self)
        del compaction
        forget("tenace_terminal.compaction")

    # ---- the session

    def boards_done(self) -> int:
        """Boards of the current round with a result (played, not played or adjusted; not erased)."""
        n = 0
        for record in self.results.values():
            if record.get("kind") != "erase":
                n += 1
        return n

    def board_done(self, board: int) -> bool:
        """A result entered here (not erased), or one the host had at sign-in from another terminal at this table
        (the plan's "done"): a spare taking over starts at the first board without one."""
        record = self.results.get(board)
        if record is not None:
            return record.get("kind") != "erase"
        return board in self.plan.get("done", ()) if self.plan is not None else False

    def sits_out(self) -> bool:
        """Nobody plays at this table this round: a pair is absent, or the director closed the table."""
        plan = self.plan
        return plan is not None and not (plan["ns"] and plan["ew"])

    def next_unplayed(self):
        """The first board of the round in the plan's order without a result, or None (also in a sit-out)."""
        if self.plan is None or self.sits_out():
            return None
        for board in self.plan["boards"]:
            if not self.board_done(board):
                return board
        return None

    def sign_in(self, section: str, table: int, code: str = "") -> None:
        """Ask the host for this table (with the pairing code when the link has no event key yet)."""
        self.asking = {"type": _MSG_SIGN_IN, "terminal": self.terminal_id, "version": VERSION,
                       "section": section, "table": table}
        if code:
            self.asking["code"] = code
        self.link.send(self.asking)

    def signing_in(self) -> bool:
        return self.asking is not None and self.asking["type"] == _MSG_SIGN_IN

    def ask_round(self, number: int, now: bool) -> None:
        """Ask the host for round `number`'s plan (after a reboot the one it sent may be lost)."""
        self.asking = {"type": _MSG_ROUND_REQUEST, "section": self.section, "table": self.table, "round": number}
        if now:
            self.link.send(self.asking)

    def new_result(self, board: int, kind: str) -> dict:
        """A result record of the current round for `board`, numbered; the caller adds what was keyed."""
        plan = self.plan
        assert plan is not None
        # A board keyed again (director's change) is a new version: the host keeps them all (Law 79C).
        previous = self.results.get(board)
        version = previous["version"] + 1 if previous is not None else 0
        return {"type": _MSG_RESULT, "seq": self.next_seq, "section": self.section, "table": self.table,
                "round": plan["round"], "board": board, "ns": plan["ns"], "ew": plan["ew"], "kind": kind,
                "version": version}

    def save_result(self, record: dict) -> bool:
        """Journal a result, then hand it to the link; only then may the screen say it is saved."""
        if record.get("type") == _MSG_RESULT and self.sits_out():
            # The director made this round a sit-out while the board was keyed: nothing to save, the round
            # screen says so.
            self.entry = None
            self.go("round")
            return False
        if not self.record(record):
            return False
        self.link.send(record)
        return True

    def next_board(self) -> None:
        """The next unplayed board preselected for entry, or the end of the round."""
        board = self.next_unplayed()
        if board is None:
            self.entry = None
            self.go("round_end")
        else:
            self.entry = Entry(board)
            self.go("contract")

    def finish_round(self) -> None:
        """The players leave the round's end screen: the next round, the session's end, or wait for the host."""
        plan = self.plan
        if plan is not None and plan.get("last"):
            if not self.session_over:
                self.record({"type": _MSG_SESSION_OVER})
            self.go("session_end")
        elif self.next_plan is not None:
            self.adopt_plan(self.next_plan)
        else:
            self.waiting_round = True
            self.ask_round(plan["round"] + 1 if plan is not None else 1, True)

    def adopt_plan(self, plan: dict) -> None:
        self.next_plan = None
        self.waiting_round = False
        if self.record(plan):
            self.asking = None
            self.traveller = None
            self.go("round")
            if self.journal.size > self.compact_bytes:
                self.compact()
        else:
            self.next_plan = plan  # storage failed: keep it and try again when the players press OK

    # ---- messages from the host

    def _on_message(self, message: dict) -> None:
        kind = message.get("type")
        if kind == _MSG_ACK:
            seq = message.get("seq")
            if seq in self.pending and self.record({"type": _MSG_ACK, "seq": seq}):
                if self.journal.size > self.compact_bytes:
                    self.compact()
        elif kind == _MSG_SIGN_IN_OK:
            if self.signing_in():
                record = {"type": _MSG_SIGN_IN_OK, "section": message.get("section", ""),
                          "table": message.get("table", 0), "settings": message.get("settings") or {}}
                if self.record(record):
                    self.ask_round(1, False)
                self.dirty = True
        elif kind == _MSG_ROUND_PLAN:
            self._on_plan(message)
        elif kind == _MSG_TRAVELLER:
            self.traveller = message
            self.dirty = True
        elif kind == _MSG_RANKING:
            self.ranking = message
            self.dirty = True
        elif kind == _MSG_MESSAGE:
            self.status = str(message.get("text", ""))
            if self.signing_in():
                self.asking = None  # the host refused the sign-in and said why
            self.dirty = True
        if self.screen is not None:
            self.screen.message(message)

    def _on_plan(self, message: dict) -> None:
        if self.signin is None:
            return
        plan = {"type": _MSG_ROUND_PLAN}
        for name in ("round", "ns", "ew", "boards", "done", "next", "last", "deals", "dd", "players", "player_next"):
            if name in message:
                plan[name] = message[name]
        current = self.plan
        if current is not None and plan["round"] == current["round"] and message.get("changed"):
            # The movement changed under this round. Once the table has finished, nothing changes here; once a
            # board is in, the round stays as it was played (the director sees the host's refusals) and only
            # where everyone goes next changes.
            if self.session_over:
                return
            if self.boards_done():
                moves = plan
                plan = dict(current)
                for name in ("next", "last", "player_next"):
                    plan.pop(name, None)
                    if name in moves:
                        plan[name] = moves[name]
            elif plan["boards"] == current["boards"] and "deals" in current:
                plan["deals"] = current["deals"]
                plan["dd"] = current.get("dd") or ""  # ("": no analyses)
            self.record(plan)
            self.dirty = True  # (the screen draws from the plan; an entry being keyed is not interrupted)
            return
        if current is not None and plan["round"] <= current["round"]:
            return  # a repeat of a round already under way or done
        if current is None or self.session_over or self.waiting_round:
            self.adopt_plan(plan)
        elif plan["round"] == current["round"] + 1:
            self.next_plan = plan  # shown once the players leave the current round's end screen

    # ---- screens

    def go(self, name: str, *args) -> None:
        """Show screen `name` (a module of tenace_terminal.screens) once the key or message in hand is dealt with.

        Not at once: the screen that calls this is still running, and its code must leave RAM before the
        next screen's is loaded, so that two screens never share the heap.
        """
        self.next_screen = (name, args)
        self.dirty = True

    def _switch(self) -> None:
        """Show the screen go() asked for, if any: the old one's code, and what it imported, is let go before
        the new one's is loaded."""
        if self.next_screen is None:
            return
        name, args = self.next_screen
        screen = self.screen
        modules = []  # what the new screen's code brought in (its module, the rules it scores by)
        if screen is not None:
            if screen.name == name:
                modules = screen.modules
            else:
                self.screen = None
                for module in screen.modules:
                    forget(module)
        screen = None
        if hasattr(gc, "threshold"):
            # MicroPython: collect now, so that the new screen's code is laid into the space the old one's left,
            # not into pieces between the data (this makes the smallest heap a session runs in 1 KB smaller).
            gc.collect()
        before = list(sys.modules)
        try:
            screen = __import__(_SCREENS + "." + name, None, None, ("Screen",)).Screen(self, *args)
            screen.modules = modules + [m for m in sys.modules if m not in before and m != _SCREENS]
        except Exception as e:
            # Its code could not be loaded (no memory): the next step tries it again. Not the old screen:
            # the state has moved on (the entry it showed may be gone), and keys wait until a screen is up.
            self._report(e)
            return
        screen.name = name
        screen.args = args
        self.screen = screen
        self.screen_name = name
        self.next_screen = None

    def open_menu(self) -> None:
        screen = self.screen
        self.menu_return = (screen.name, screen.args) if screen is not None else None
        self.go("menu")

    def close_menu(self) -> None:
        """Back from the menu to the screen it was opened on (made anew: what was keyed is in self.entry)."""
        back = self.menu_return
        self.menu_return = None
        if back is None:
            self._first_screen()
        else:
            self.go(back[0], *back[1])

    def leave_menu(self) -> None:
        """Leave the menu for a new screen: the one it was opened on is not coming back."""
        self.menu_return = None

    def pause_keys(self) -> None:
        """Drop the keys of the next KEY_PAUSE_MS (a screen the players must read calls this when made)."""
        self.paused_at = self.clock.ticks_ms()

    def keys_paused(self) -> bool:
        """True while keys are dropped (pause_keys)."""
        if self.paused_at < 0:
            return False
        if (self.clock.ticks_ms() - self.paused_at) & _TICKS_MASK >= KEY_PAUSE_MS:
            self.paused_at = -1
            return False
        return True

    def refuse(self, key: str, *args) -> None:
        """A key that cannot be taken here: the bottom line says why."""
        self.status = catalogue.text(key, *args)

    def _first_screen(self) -> None:
        if self.signin is None or self.plan is None:
            if self.signin is not None:
                self.ask_round(1, True)
            self.go("startup")
        elif self.session_over:
            self.go("session_end")
        elif self.next_unplayed() is None:  # the round is complete
            self.go("round_end")
        else:
            self.go("round")

    # ---- the event loop

    def step(self) -> bool:
        """Handle at most one host message and one key, redraw if needed.

        Returns True when a message or a key was handled (a simulator runs until this is False).
        """
        busy = False
        now = self.clock.ticks_ms()
        if (now - self._battery_at) & _TICKS_MASK >= _BATTERY_EVERY_MS:
            self._check_battery(now)
            if self.director is not None:
                self.dirty = True  # the round clock's minutes: drawn afresh every 10 s while it runs
        self._switch()
        message = self.link.recv()
        if message is not None:
            busy = True
            try:
                self._on_message(message)
            except Exception as e:  # a malformed message must not stop the terminal
                self._report(e)
            self._switch()
        key = self.keypad.read()
        if key is not None and self.keys_paused():
            self.paused_at = now  # dropped, and the pause starts again: it ends only once the keys have stopped
            key = None
            busy = True
        if key is not None:
            busy = True
            self.status = ""
            try:
                if key == "MENU" and self.screen is not None and self.screen.menu_allowed:
                    self.open_menu()
                elif self.screen is not None:
                    self.screen.key(key)
            except Exception as e:  # no key sequence may crash the app
                self._report(e)
            self._switch()
            self.dirty = True
        try:
            if self.dirty:
                self.draw()
        except Exception as e:  # a display error, or no memory: report it, keep running
            self.dirty = False
            self._report(e)
        return busy

    def run(self) -> None:
        """The terminal's main loop on a device: forever, with a short sleep when idle."""
        sleep_ms = getattr(self.clock, "sleep_ms", None)
        while True:
            if not self.step() and sleep_ms is not None:
                sleep_ms(_IDLE_MS)

    def _check_battery(self, now: int) -> None:
        """Turn the low-battery warning on or off (a redraw when it changes); play goes on either way."""
        self._battery_at = now
        try:
            percent = self.battery.percent()
        except Exception as e:  # a failed reading (ADC) must not stop the terminal
            self._report(e)
            return
        shown = percent if percent <= _BATTERY_LOW or (self.battery_low >= 0 and percent < _BATTERY_OK) else -1
        if shown != self.battery_low:
            self.battery_low = shown
            self.dirty = True

    def _report(self, error: Exception) -> None:
        self.faults += 1
        name = type(error).__name__
        try:
            self.last_fault = "%s: %s" % (name, error)
            self.status = catalogue.text("error", name)
            print_exception = getattr(sys, "print_exception", None)
            if print_exception is not None:
                print_exception(error)
            else:
                print("tenace_terminal: " + self.last_fault)
        except Exception:  # no memory even for the report: the count stands, and the loop must go on
            self.last_fault = name

    def draw(self) -> None:
        display = self.display
        display.clear()
        if self.screen is not None:
            self.screen.draw(display)
        bottom = display.rows
        if self.status:
            # The status in lines of at most a row's width, cut at spaces where possible.
            lines = []
            s = self.status
            width = display.cols
            while len(s) > width:
                cut = s.rfind(" ", 0, width + 1)
                if cut <= 0:
                    cut = width
                lines.append(s[:cut])
                s = s[cut:].lstrip()
            lines.append(s)
            bottom -= len(lines)
            row = bottom
            for line in lines:
                display.text(0, row, " " * display.cols)
                display.text(0, row, line)
                row += 1
        if self.battery_low >= 0:  # just above the status: both stay in sight
            display.text(0, bottom - 1, " " * display.cols)
            display.text(0, bottom - 1, catalogue.text("battery_low", self.battery_low))
        if self.director is not None:
            self.director[4](self, display, bottom)  # round_clock.draw: the clock's line
        display.show()
        self.dirty = False
