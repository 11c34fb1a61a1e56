"""A radio survey as the collector runs it: a PING to every seated terminal at a steady pace, each ACK timed.

Each PING is one frame sent once (HostSession.probe): a PING or its ACK lost on the air is what the survey counts,
so nothing is retransmitted. A terminal's session acknowledges a PING like any host frame, so the round trip is the
whole path: collector, base station, radio, terminal and back. An ACK later than ANSWER_MS counts as lost. A
terminal is not pinged while frames the collector must deliver to it are far behind (HostSession.span): pings
take sequence numbers, and one that overtakes a lost frame by the terminal's whole replay window would make that
frame unwelcome for good.
"""

from __future__ import annotations

import logging
import sqlite3
import statistics
from dataclasses import dataclass, field

from tenace.collector.pushes import PUSH_SPAN
from tenace.collector.wire_results import section_letter
from tenace.store.terminal_reports import SurveyLine, finish_survey, last_survey_id, pending_survey, start_survey
from tenace_wire.errors import WireError
from tenace_wire.field_messages import Ping
from tenace_wire.host_session import HostSession

log = logging.getLogger(__name__)

ANSWER_MS = 2_000
ASK_MS = 1_000  # how often the event file is asked for a survey


@dataclass
class TerminalProbes:
    """The pings to one terminal: when each went (by sequence number) and the round trips of those answered."""

    section: str
    table: int
    sent: dict[int, int] = field(default_factory=dict)  # seq -> when sent (ms)
    rtts: list[int] = field(default_factory=list)
    answered: set[int] = field(default_factory=set)  # a PING's ACK heard twice (a duplicate) counts once
    next_at: int = 0

    def line(self, terminal: int) -> SurveyLine:
        rtts = sorted(self.rtts)
        return SurveyLine(terminal, self.section, self.table, len(self.sent), len(rtts),
                          rtts[0] if rtts else None, round(statistics.median(rtts)) if rtts else None,
                          rtts[-1] if rtts else None)


@dataclass
class SurveyRun:
    """One survey: `interval_ms` between two pings to a terminal, for `seconds`, then ANSWER_MS for the last ACKs."""

    survey_id: int
    start: int
    seconds: int
    interval_ms: int
    terminals: dict[int, TerminalProbes] = field(default_factory=dict)
    number: int = 0  # the PING's own field: a running count

    @property
    def end(self) -> int:
        return self.start + self.seconds * 1000

    def finished(self, now: int) -> bool:
        return now >= self.end + ANSWER_MS

    def due(self, now: int) -> list[int]:
        """The terminals to ping now (the caller sends each one PING and calls sent())."""
        if now >= self.end:
            return []
        return [t for t, probes in self.terminals.items() if now >= probes.next_at]

    def sent(self, terminal: int, seq: int, now: int) -> None:
        probes = self.terminals[terminal]
        probes.sent[seq] = now
        probes.next_at = now + self.interval_ms
        self.number = (self.number + 1) & 0xFFFF

    def skipped(self, terminal: int, now: int) -> None:
        """Not pinged this time (its delivery is behind): tried again after an interval."""
        self.terminals[terminal].next_at = now + self.interval_ms

    def acked(self, terminal: int, seq: int, now: int) -> None:
        probes = self.terminals.get(terminal)
        if probes is None:
            return
        at = probes.sent.get(seq)
        if at is not None and now - at <= ANSWER_MS and seq not in probes.answered:
            probes.answered.add(seq)
            probes.rtts.append(now - at)

    def lines(self) -> list[SurveyLine]:
        return [probes.line(terminal) for terminal, probes in self.terminals.items()]


class Surveys:
    """The surveys `tenace survey` asks for (a row in the event file, looked for every ASK_MS), run one at a time on
    whatever links the collector has."""

    def __init__(self, conn: sqlite3.Connection, session: HostSession) -> None:
        self.conn = conn
        self.session = session
        self.run: SurveyRun | None = None
        self._seen = last_survey_id(conn)  # surveys asked before this collector started are stale
        self._asked_at: int | None = None

    def acked(self, terminal: int, seq: int, now: int) -> None:
        if self.run is not None:
            self.run.acked(terminal, seq, now)

    def due(self, now: int, out: list[bytes]) -> None:
        """Take up a survey `tenace survey` asked for, send the PINGs due, and store the figures once it is over."""
        run = self.run
        if run is None:
            if self._asked_at is not None and now - self._asked_at < ASK_MS:
                return
            self._asked_at = now
            try:
                asked = pending_survey(self.conn, self._seen)
                if asked is None:
                    return
                self._seen = asked.id
                start_survey(self.conn, asked.id)
            except sqlite3.Error as e:
                log.error("survey requests not read (%s); will try again", e)
                return
            run = self.run = SurveyRun(asked.id, now, asked.seconds, asked.interval_ms)
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
            self.run = None
