"""`tenace survey`: the radio's quality at each table before the session, measured by the running collector."""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tenace.collector.lock import collector_running
from tenace.commands.options import add_event_file, event_file, in_range, open_event
from tenace.errors import UsageError
from tenace.reports.text import columns
from tenace.store.db import read_transaction
from tenace.store.terminal_reports import SurveyLine, ask_survey, inventory, survey, survey_lines

HELP = "measure the radio at each table: round trips and loss to every signed-in terminal, for N seconds"
EPILOG = """\
examples:
  tenace survey club.sqlite                      10 s, a ping every 500 ms to each terminal
  tenace survey club.sqlite --seconds 30 --json

Run it while `tenace collect` (or `tenace serve` with a base station) runs on the event file and the
terminals are switched on and signed in: the collector sends each terminal a PING frame every
--interval ms and times its acknowledgement, over whatever links it has (the base station's serial
port, the simulator's radio). A ping or acknowledgement lost on the air is counted, never sent again;
one answered after 2 s counts as lost. `signal` is the terminal's own figure from its latest status
report (ESP-NOW boards). Loss over 10% or round trips over 200 ms at a table call for the base
station nearer, or another radio channel. Exit code 0 when the survey ran; 2 when no collector runs
on the file or it did not answer."""

START_S = 5.0  # the collector looks for requests every second
POLL_S = 0.2


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("survey", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--seconds", type=int, default=10, metavar="N", help="how long to measure, 1 to 600 (default 10)")
    p.add_argument("--interval", type=int, default=500, metavar="MS",
                   help="milliseconds between two pings to a terminal, 20 to 10000 (default 500)")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
    p.set_defaults(run=run)


def loss(line: SurveyLine) -> float | None:
    return round(100 * (line.pings - line.answered) / line.pings, 1) if line.pings else None


def line_json(line: SurveyLine, rssi: int | None) -> dict[str, Any]:
    return {"terminal": line.terminal, "section": line.section, "table": line.table, "pings": line.pings,
            "answered": line.answered, "loss_percent": loss(line), "rtt_ms_min": line.rtt_min,
            "rtt_ms_median": line.rtt_median, "rtt_ms_max": line.rtt_max, "rssi_dbm": rssi}


def render(lines: list[SurveyLine], rssi: dict[int, int | None], seconds: int, interval: int) -> str:
    head = f"Radio survey: {seconds} s, a ping every {interval} ms to each terminal"
    if not lines:
        return head + "\nno terminal is signed in: switch the terminals on and sign them in, then survey again"
    table = [["table", "terminal", "pings", "answered", "loss", "round trip ms min/median/max", "signal"]]
    for x in lines:
        lost = loss(x)
        trip = f"{x.rtt_min}/{x.rtt_median}/{x.rtt_max}" if x.rtt_min is not None else "-"
        level = rssi.get(x.terminal)
        table.append([f"{x.section}{x.table}", str(x.terminal), str(x.pings), str(x.answered),
                      f"{lost:g}%" if lost is not None else "-", trip, f"{level} dBm" if level is not None else "-"])
    out = [head, *columns(table)]
    silent = [x for x in lines if x.pings and not x.answered]
    if silent:
        out.append("no answer from " + ", ".join(f"{x.section}{x.table} (terminal {x.terminal})" for x in silent)
                   + ": switched off, out of range, or on another channel")
    return "\n".join(out)


def wait_for(conn: sqlite3.Connection, path: Path, survey_id: int, seconds: int,
             sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> None:
    """Until the collector has finished the survey (read on `conn`, in autocommit: each read sees its commits);
    UsageError when it does not take it up or finish it."""
    start = clock()
    while True:
        found = survey(conn, survey_id)
        if found is not None and found.finished is not None:
            return
        waited = clock() - start
        if found is not None and found.started is None and waited > START_S:
            raise UsageError(f"the collector on {path} did not take up the survey in {START_S:g} s "
                             "(is it an older tenace?)")
        if waited > START_S + seconds + 5:
            raise UsageError(f"the collector on {path} did not finish the survey: was it stopped?")
        sleep(POLL_S)


def run(args: argparse.Namespace) -> int:
    path = event_file(args)
    in_range("--seconds", args.seconds, 1, 600, unit="seconds")
    in_range("--interval", args.interval, 20, 10_000, unit="ms")
    with open_event(path) as conn:
        running = collector_running(path)
        if not running:
            raise UsageError(f"no collector is running on {path}: start `tenace collect` with the base station, "
                             "let the terminals sign in, then survey")
        survey_id = ask_survey(conn, args.seconds, args.interval)
        wait_for(conn, path, survey_id, args.seconds)
        with read_transaction(conn):
            lines = survey_lines(conn, survey_id)
            rssi = {row.terminal: row.status.rssi if row.status else None for row in inventory(conn)}
    if args.json:
        print(json.dumps({"survey": survey_id, "seconds": args.seconds, "interval_ms": args.interval,
                          "terminals": [line_json(x, rssi.get(x.terminal)) for x in lines]}, indent=2))
    else:
        print(render(lines, rssi, args.seconds, args.interval))
    return 0
