"""Round plans pushed to the terminals unasked: the later rounds after a sign-in (paced), the next round when a
table's round is complete, and every plan again after the director changed the movement (looked for every second)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

from tenace.collector import board_messages, round_plans
from tenace.collector.wire_results import section_letter
from tenace.store.hand_records import board_hand_record
from tenace.store.movement_changes import changed_sections, movement_version
from tenace.store.terminal_reports import hold_plans
from tenace_wire.fields import Message
from tenace_wire.frame_types import ROUND_PLAN
from tenace_wire.host_session import HostSession
from tenace_wire.table_messages import Erase, Result

log = logging.getLogger(__name__)

MOVES_MS = 500  # how often the event file is asked for movement changes (a change reaches the tables within 15 s)
PUSH_FRAMES = 24  # host frames in flight to a terminal before the next pushed message goes (its window is 64)
PUSH_SPAN = 40  # of the terminal's 64-frame window: 24 left for a pushed message's fragments and frames not pushed

Send = Callable[[int, Message, int], None]  # (terminal, message, now): the collector's send, which logs a refusal


class Pushes:
    """What goes to the terminals without their asking, through `send`; `lead_checked` is read at each push (the
    collector's settings may change while it runs)."""

    def __init__(self, conn: sqlite3.Connection, session: HostSession, send: Send,
                 lead_checked: Callable[[], bool]) -> None:
        self.conn = conn
        self.session = session
        self._send = send
        self._lead_checked = lead_checked
        self._pushed: set[tuple[str, int, int]] = set()  # (section, table, round) whose next plan went out
        # The movement changes whose plans went out; 0 at start, so that terminals resumed from the event file
        # get the plans of changes made while the collector was down.
        self._moves_seen = 0
        self._moves_at: int | None = None
        self._queues: dict[int, list[Message]] = {}  # terminal -> messages to push, paced by pump
        self._delivering: dict[int, int] = {}  # terminal -> the movement change whose plans are on their way to it

    def due(self, now: int) -> None:
        """Look for movement changes and plans delivered (every MOVES_MS), then send what is waiting as the pace
        allows."""
        self._movement_changes(now)
        if self._queues:
            self._pump(now)

    def waiting(self, terminal: int) -> int:
        """Messages still to push to a terminal."""
        return len(self._queues.get(terminal, ()))

    def cancel(self, terminal: int) -> None:
        """Drop what waits for a terminal (a sign-in's answer cancels what was in flight to it)."""
        self._queues.pop(terminal, None)
        self._delivering.pop(terminal, None)

    def send_plans(self, terminal: int, section: int, table: int, round_: int, now: int) -> None:
        """The round's plan now, then (paced, see _pump) every later one, then their boards' hand records where the
        lead is checked: the terminal keeps them, so that it runs the rest of the session even while the laptop is
        out of reach. Plans first: after a movement change they are what the table waits for (a round's hand
        records it asks for itself when they are missing, the round's own at once)."""
        sent: set[int] = set()
        queue = self._queues[terminal] = []
        records: list[Message] = []
        self._delivering[terminal] = movement_version(self.conn)
        name = section_letter(section)
        lead_checked = self._lead_checked()
        for number in [round_] + [r for r in round_plans.rounds_of(self.conn, section, table) if r > round_]:
            plan = round_plans.round_plan(self.conn, section, table, number)
            if plan is None:
                continue
            if number == round_:
                self._send(terminal, plan, now)
                sent.update(plan.boards)
                continue
            queue.append(plan)
            for board in plan.boards if lead_checked else ():
                record = board_hand_record(self.conn, name, board) if board not in sent else None
                sent.add(board)
                if record is not None:
                    records.append(board_messages.hand_record(board, record.deal, record.analysis))
        queue.extend(records)

    def next_round(self, terminal: int, msg: Result | Erase, now: int) -> None:
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

    def _pump(self, now: int) -> None:
        """Send what waits to be pushed to each terminal, PUSH_FRAMES in flight at most (a burst would take a small
        terminal's RAM at once), and never PUSH_SPAN numbers past the oldest frame it has not acknowledged: its
        replay window is 64 host frames, and a lost frame overtaken by more is refused for good."""
        for terminal, queue in list(self._queues.items()):
            while queue and self.session.pending(terminal) < PUSH_FRAMES and self.session.span(terminal) < PUSH_SPAN:
                self._send(terminal, queue.pop(0), now)
            if not queue:
                del self._queues[terminal]

    def _delivered(self) -> None:
        """Record in the event file each terminal that now holds every round plan sent to it (the console's
        Terminals page shows it): none waits in its queue nor for its ACK."""
        for terminal, movement in list(self._delivering.items()):
            queue = self._queues.get(terminal, ())
            if any(m.TYPE == ROUND_PLAN for m in queue) or self.session.pending(terminal, ROUND_PLAN):
                continue
            hold_plans(self.conn, terminal, movement)
            del self._delivering[terminal]

    def _movement_changes(self, now: int) -> None:
        """After the director changed the movement (tenace move, from any process), every terminal of the section
        gets its plans again from its current round: it shows the change without a restart."""
        if self._moves_at is not None and now - self._moves_at < MOVES_MS:
            return
        self._moves_at = now
        try:
            self._delivered()
        except sqlite3.Error as e:
            log.error("round plans delivered not recorded (%s); will try again", e)
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
                    self.send_plans(terminal, section, table, start, now)
            self._moves_seen = latest  # only now: a terminal left out by an error gets its plans at the next try
        except sqlite3.Error as e:
            log.error("movement changes not read (%s); will try again", e)
