"""`tenace terminals`: the inventory of an event's terminals, from the status reports they sent over the link."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tenace.commands.options import add_event_file, event_file, open_event
from tenace.reports.text import columns
from tenace.store.db import read_transaction
from tenace.store.link import pairings
from tenace.store.terminal_reports import InventoryRow, inventory
from tenace_wire.field_messages import CHECKS

HELP = "list the event's terminals: table, firmware, battery, last heard, signal and loss, factory test, pairing"
EPILOG = """\
examples:
  tenace terminals club.sqlite
  tenace terminals club.sqlite --json | jq '.terminals[] | select(.battery < 30)'

Each terminal reports its firmware version, battery, link counters and its last factory test when it
signs in and every 5 minutes after; the collector keeps the latest. `signal` is the strength of the base
station's frames where the radio tells it (ESP-NOW), `loss` the share of the terminal's frames it had to
send again. `last heard` is the last frame the collector took from it. A terminal seated by the director
(tenace event seat) that never reported shows dashes. `paired` says how it paired with the event: with the
club key tenace flash wrote, or with the code alone (a borrowed unit, the phone's spare terminal).
Exit code 0; 2 when the file cannot be read."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("terminals", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    p.set_defaults(run=run)


def loss_percent(sent: int, retried: int) -> float | None:
    """The share of transmissions that were repeats, in percent; None before anything was sent."""
    total = sent + retried
    return round(100 * retried / total, 1) if total else None


# How a terminal paired (tenace.store.link.pairings), as the inventory shows it.
_PAIRED = {"club": "club key", "code": "code alone"}


def to_json(row: InventoryRow, way: str | None = None) -> dict[str, Any]:
    s = row.status
    return {
        "terminal": row.terminal, "section": row.section, "table": row.table, "last_heard": row.last_heard,
        "paired": way,
        "status_received": row.received,
        "firmware": s.firmware if s else None,
        "battery": s.battery if s else None,
        "battery_mv": s.battery_mv if s else None,
        "rssi_dbm": s.rssi if s else None,
        "frames_sent": s.sent if s else None,
        "frames_retried": s.retried if s else None,
        "loss_percent": loss_percent(s.sent, s.retried) if s else None,
        "factory_test": s.factory if s else None,
        "factory_checks_passed": list(s.checks) if s else None,
    }


def _line(row: InventoryRow, way: str | None) -> list[str]:
    s = row.status
    where = f"{row.section}{row.table}" if row.section is not None else "-"
    heard = row.last_heard.replace("T", " ")[:19] if row.last_heard else "never"
    paired = _PAIRED.get(way or "", "-")
    if s is None:
        return [str(row.terminal), where, "-", "-", heard, "-", "-", "-", paired]
    battery = f"{s.battery}%" + (f" {s.battery_mv} mV" if s.battery_mv else "")
    signal = f"{s.rssi} dBm" if s.rssi is not None else "-"
    loss = loss_percent(s.sent, s.retried)
    link = f"{loss:g}% of {s.sent + s.retried}" if loss is not None else "-"
    factory = s.factory
    if s.factory == "failed":
        failed = [c for c in CHECKS if c not in s.checks]
        factory += " (" + ", ".join(failed) + ")"
    return [str(row.terminal), where, s.firmware, battery, heard, signal, link, factory, paired]


def render(rows: list[InventoryRow], name: str, ways: dict[int, str] | None = None) -> str:
    if not rows:
        return (f"{name}: no terminal has signed in or reported yet (they report when they sign in to "
                "`tenace collect`)")
    ways = ways or {}
    table = [["terminal", "table", "firmware", "battery", "last heard (UTC)", "signal", "loss", "factory test",
              "paired"]]
    table += [_line(row, ways.get(row.terminal)) for row in rows]
    lines = columns(table)
    reported = sum(1 for row in rows if row.status is not None)
    lines.append(f"{len(rows)} terminal(s), {reported} with a status report")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    path = event_file(args)
    with open_event(path) as conn, read_transaction(conn):
        rows = inventory(conn)
        ways = {p.terminal: p.way for p in pairings(conn)}
    if args.json:
        print(json.dumps({"terminals": [to_json(row, ways.get(row.terminal)) for row in rows]}, indent=2,
                         ensure_ascii=False))
    else:
        print(render(rows, str(path), ways))
    return 0
