"""What the director must look at in an event file (conflicts, refused frames, missing results, corrections, how the
terminals paired, the director's log), gathered at one moment, as text or JSON: `tenace problems`."""

from __future__ import annotations

import sqlite3
from dataclasses import asdict
from datetime import datetime
from itertools import groupby
from pathlib import Path
from typing import Any

from tenace.store import (
    Conflict,
    Correction,
    LogEntry,
    Missing,
    Publication,
    RefusalGroup,
    conflicts,
    corrections,
    damaged_results,
    director_log,
    event_info,
    missing_results,
    publication,
    refusal_groups,
)
from tenace.store.director import forced_note
from tenace.store.event import EventInfo
from tenace.store.link import Pairing, pairings
from tenace.store.model import CONTRADICTION
from tenace.store.queries import latest_rounds
from tenace.store.versions import Slot, Version, load_versions


class Report:
    def __init__(self, info: EventInfo, conflicts: list[Conflict], refusals: list[RefusalGroup],
                 missing: list[Missing], corrections: list[Correction], latest_round: dict[str, int],
                 log: list[LogEntry] | None = None, published: Publication | None = None,
                 pairings: list[Pairing] | None = None, damaged: list[Version] | None = None,
                 imported: int = 0, contradictions: RefusalGroup | None = None) -> None:
        self.info = info
        self.conflicts = conflicts
        self.refusals = refusals
        self.missing = missing
        self.corrections = corrections
        self.latest_round = latest_round  # per section: the latest round any result came in for (0: none)
        self.log = log or []  # the director's actions, in order
        self.published = published  # the session's finish, when it is finished
        self.pairings = pairings or []  # how each terminal paired: with the club key or the code alone
        self.damaged = damaged or []  # stored versions that fail their check as read back: never scored
        self.imported = imported  # result versions brought in from another program's file
        self.contradictions = contradictions  # what that file contradicted, as the import named it


def gather(conn: sqlite3.Connection, examples: int) -> Report:
    info = event_info(conn)
    latest = {s.name: 0 for s in info.sections} | latest_rounds(conn)
    versions = load_versions(conn)  # read and checked once, for the corrections and the imported results
    groups = refusal_groups(conn, examples)
    said = next((g for g in groups if g.reason == CONTRADICTION), None)
    return Report(info, conflicts(conn), [g for g in groups if g is not said], missing_results(conn),
                  corrections(conn, versions), latest, director_log(conn), publication(conn), pairings(conn),
                  damaged_results(conn), sum(1 for v in versions if v.imported), said)


def to_json(report: Report) -> dict[str, Any]:
    under_way = [m for m in report.missing if m.round <= report.latest_round.get(m.section, 0)]
    return {
        "event": asdict(report.info),
        "damaged": [{"slot": v.slot._asdict(), "result_id": v.id, "version": v.version, "what": v.damage,
                     "counts_now": False} for v in report.damaged],
        "conflicts": [{"slot": c.slot._asdict(), "results": [asdict(v) for v in c.heads],
                       "versions": len(c.versions)} for c in report.conflicts],
        "refusals": {"total": sum(g.count for g in report.refusals), "by_reason": [asdict(g) for g in report.refusals]},
        "missing": {"latest_round": report.latest_round, "under_way": [asdict(m) for m in under_way],
                    "total": len(report.missing)},
        "imported": {"results": report.imported,
                     "contradictions": 0 if report.contradictions is None else report.contradictions.count,
                     "latest": [] if report.contradictions is None else
                     [r.detail for r in report.contradictions.latest]},
        "corrections": [{"result": asdict(c.version), "replaced": [asdict(v) for v in c.replaced]}
                        for c in report.corrections],
        "director_log": [asdict(e) for e in report.log],
        "pairings": [asdict(p) for p in report.pairings],
        "published": None if report.published is None else {
            "at": report.published.at, "who": report.published.who,
            "correction_minutes": report.published.minutes,
            "correction_period_ends": report.published.ends.isoformat()},
    }


def clock(stamp: str) -> str:
    """A stored UTC timestamp as the laptop's local time of day."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return stamp


def where(slot: Slot) -> str:
    return f"section {slot.section} table {slot.table} round {slot.round} board {slot.board}"


def boards_text(boards: list[int]) -> str:
    """7 8 9 as "7-9", 1 3 as "1, 3"."""
    runs: list[list[int]] = []
    for b in boards:
        if runs and b == runs[-1][-1] + 1:
            runs[-1].append(b)
        else:
            runs.append([b])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def render(report: Report, path: Path) -> str:
    info = report.info
    lines = [f"{info.title}, {info.date}, {info.scoring.replace('_', ' ')} ({path})"]

    if report.damaged:
        lines += ["", f"DAMAGED RESULTS: {len(report.damaged)}: the event file holds results Tenace did not write (a "
                  "disk fault, or an edit outside Tenace); none of them counts",
                  "  enter each board again (tenace correct, adjust or erase), and run tenace check EVENT"]
    for v in report.damaged:
        lines.append(f"  {where(v.slot)}: v{v.version} (result id {v.id}): {v.damage}")

    lines += ["", f"CONFLICTS: {len(report.conflicts) or 'none'}"]
    for c in report.conflicts:
        lines.append(f"  {where(c.slot)}: {len(c.heads)} different results, none counts until you decide")
        for v in c.heads:
            lines.append(f"    v{v.version} {v.describe()}  (NS {v.ns_pair} v EW {v.ew_pair}; {v.origin()}"
                         f" at {clock(v.at)}; result id {v.id})")

    total = sum(g.count for g in report.refusals)
    lines += ["", f"REFUSED FRAMES: {total or 'none'}" + (f" for {len(report.refusals)} reasons" if total else "")]
    for g in report.refusals:
        lines.append(f"  {g.reason} x{g.count}: {g.meaning}")
        for r in g.latest:
            sender = f"terminal {r.terminal} seq {r.sequence}" if r.terminal is not None else "unidentified frame"
            lines.append(f"    {clock(r.at)} {sender}: {r.detail}")

    lines += ["", f"MISSING RESULTS: {len(report.missing) or 'none'}"]
    for section, rows in groupby(report.missing, key=lambda m: m.section):
        section_rows = list(rows)
        latest = report.latest_round.get(section, 0)
        for round_, in_round in groupby((m for m in section_rows if m.round <= latest), key=lambda m: m.round):
            tables = [(table, list(ms)) for table, ms in groupby(in_round, key=lambda m: m.table)]
            text = "; ".join(f"table {t} boards {boards_text([m.board for m in ms])}"
                             + (" (erased)" if any(m.erased for m in ms) else "") for t, ms in tables)
            lines.append(f"  section {section} round {round_}: {text}")
        later = sorted({m.round for m in section_rows if m.round > latest})
        if later:
            count = sum(1 for m in section_rows if m.round > latest)
            span = f"round {later[0]}" if len(later) == 1 else f"rounds {later[0]}-{later[-1]}"
            lines.append(f"  section {section} {span}: not started ({count} results to come)")

    said = report.contradictions
    if report.imported or said is not None:
        lines += ["", f"IMPORTED: {report.imported} result versions from another program's file"
                  + (f"; it contradicted itself {said.count} times (the latest below; tenace event import-bws "
                     "printed them all)" if said is not None else "")]
        lines += [f"  {clock(r.at)} {r.detail}" for r in (said.latest if said is not None else ())]

    lines += ["", f"CORRECTIONS: {len(report.corrections) or 'none'}"]
    for fix in report.corrections:
        v = fix.version
        replaced = f" replacing v{', v'.join(str(r.version) for r in fix.replaced)}" if fix.replaced else ""
        lines.append(f"  {where(v.slot)}: v{v.version} {v.describe()}{replaced}")
        lines.append(f"    by {v.origin()} at {clock(v.at)}: {v.why or '(no reason given)'}")

    code_alone = [p for p in report.pairings if p.way == "code"]
    lines += ["", f"TERMINALS PAIRED WITH THE CODE ALONE: {len(code_alone) or 'none'}"
              + (f" of {len(report.pairings)}" if code_alone else "")]
    if code_alone:
        lines.append("  without the club key: whoever recorded their pairing on the radio can forge their frames"
                     " (tenace flash --club-key)")
    for p in report.pairings:
        way = f"club key {p.club_id}" if p.way == "club" else "code alone"
        lines.append(f"  terminal {p.terminal}: {way}, at {clock(p.at)}")

    published = report.published
    state = "session running" if published is None else (
        f"finished at {clock(published.at)}, correction period until {clock(published.ends.isoformat())}")
    lines += ["", f"DIRECTOR'S LOG: {len(report.log) or 'none'} ({state})"]
    for e in report.log:
        forced = f" {forced_note(e.action)}" if e.forced else ""
        lines.append(f"  {clock(e.at)} {e.action} by {e.who}{forced}: {e.detail}")
        lines.append(f"    why: {e.why}")
    return "\n".join(lines)
