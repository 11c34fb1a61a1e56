"""The versions of each result slot (section, table, round, board), and what they add up to: current or conflict."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from tenace.scoring.codec import split_text, weighted_text
from tenace.store.encounters import movement_seats
from tenace.store.row_check import Seat, damage
from tenace_rules.notation import parse_contract
from tenace_rules.tricks import relative_text


class Slot(NamedTuple):
    section: str
    table: int
    round: int
    board: int


# How an imported version's why begins: "imported from night.bws (ReceivedData ID 991)".
IMPORTED = "imported from "


@dataclass(frozen=True)
class Version:
    """One stored version of a slot's result, with where it came from."""

    id: int
    section: str
    table: int
    round: int
    board: int
    version: int
    ns_pair: int
    ew_pair: int
    kind: str
    contract: str | None
    declarer: str | None
    tricks: int | None
    lead: str | None
    ns_score: int | None
    ns_adjust: str | None
    ew_adjust: str | None
    weights: str | None
    ew_weights: str | None
    source: str
    terminal: int | None
    sequence: int | None
    revision: int | None
    who: str
    at: str
    why: str | None
    supersedes: tuple[int, ...]
    # What is wrong with the row as read back (row_check), "" when nothing: a damaged version's kind is "damaged",
    # its other fields are shown as text, and it never counts.
    damage: str = ""

    @property
    def slot(self) -> Slot:
        return Slot(self.section, self.table, self.round, self.board)

    @property
    def imported(self) -> bool:
        """Brought in from another program's file (tenace event import-bws), not entered by a director at the event:
        not a correction, and not marked as the director's on the travellers."""
        return self.source == "director" and (self.why or "").startswith(IMPORTED)

    def content(self) -> tuple[object, ...]:
        """What two versions must share to be the same result; matches validate.Entry.content."""
        return (self.ns_pair, self.ew_pair, self.kind, self.contract, self.declarer, self.tricks,
                self.lead, self.ns_adjust, self.ew_adjust, self.weights, self.ew_weights)

    def describe(self) -> str:
        """The result as a TD reads it: "4SX+1 by N, lead HK: NS +990", "A+/A- (artificial)"."""
        if self.damage:
            return f"damaged in the event file: {self.damage}"
        if self.kind == "normal" and self.contract and self.declarer and self.tricks is not None:
            made = relative_text(parse_contract(self.contract), self.tricks)
            lead = f", lead {self.lead}" if self.lead else ""
            return f"{self.contract}{made} by {self.declarer}{lead}: NS {self.ns_score:+d}"
        if self.kind == "passed_out":
            return "passed out: NS 0"
        if self.kind == "artificial":
            return f"artificial NS {self.ns_adjust} / EW {self.ew_adjust}"
        if self.kind == "weighted" and self.weights:
            return split_text(self.weights, self.ew_weights) if self.ew_weights else weighted_text(self.weights)
        return self.kind.replace("_", " ")

    def origin(self) -> str:
        """Who entered it: "terminal 12 seq 40" or "director Smith"."""
        if self.source == "terminal":
            by = f"terminal {self.terminal} seq {self.sequence}" + (f" rev {self.revision}" if self.revision else "")
            return f"{by} ({self.who})" if self.who != f"terminal {self.terminal}" else by
        return f"director {self.who}"


@dataclass(frozen=True)
class SlotState:
    """A slot's versions in the order stored, the heads (versions nothing supersedes) and the verdict."""

    slot: Slot
    versions: tuple[Version, ...]
    heads: tuple[Version, ...]

    @property
    def conflict(self) -> bool:
        """Heads that disagree: two different results and nobody has decided between them."""
        return len({h.content() for h in self.heads if not h.damage}) > 1

    @property
    def damaged(self) -> bool:
        """A head is damaged: the slot's result cannot be trusted until the TD enters it again."""
        return any(h.damage for h in self.heads)

    @property
    def current(self) -> Version | None:
        """The result that counts: the latest head, unless the heads disagree or one is damaged (then none until the
        TD decides)."""
        if not self.heads or self.conflict or self.damaged:
            return None
        return self.heads[-1]

    @property
    def corrected(self) -> bool:
        return any(v.supersedes for v in self.versions)


_SELECT = """
SELECT r.id, r.section, r.table_no, r.round, r.board, r.version, r.ns_pair, r.ew_pair, r.kind, r.contract,
       r.declarer, r.tricks, r.lead, r.ns_score, r.ns_adjust, r.ew_adjust, r.weights, r.ew_weights, r.source,
       r.terminal, f.seq, r.revision, r.who, r.at, r.why,
       (SELECT group_concat(s.supersedes) FROM result_supersedes s WHERE s.result = r.id) AS supersedes
FROM result r LEFT JOIN frame f ON f.id = r.frame
"""


# Version's fields that come straight from a column of _SELECT, in the same order.
_COLUMNS = tuple(f.name for f in fields(Version) if f.name not in ("supersedes", "damage"))
_SLOT_NUMBERS = ("table", "round", "board")


def load_versions(conn: sqlite3.Connection, slot: Slot | None = None, section: str | None = None) -> list[Version]:
    """Every version (of one slot, of one section, or of the event), in the order they were stored, each checked
    as it is read (row_check): a damaged one is marked, never trusted."""
    if slot is not None:
        where, params = "WHERE r.section = ? AND r.table_no = ? AND r.round = ? AND r.board = ?", tuple(slot)
    elif section is not None:
        where, params = "WHERE r.section = ?", (section,)
    else:
        where, params = "", ()
    rows = conn.execute(f"{_SELECT} {where} ORDER BY r.id", params).fetchall()
    if not rows:
        return []
    seats = movement_seats(conn, section if slot is None else slot.section)
    return [_version(row, seats) for row in rows]


def _version(row: Any, seats: Mapping[tuple[str, int, int], Seat]) -> Version:
    """A Version from a row of _SELECT (its columns are Version's fields in order), checked by row_check."""
    values = {name: row[i] for i, name in enumerate(_COLUMNS)}
    ids, history = _superseded(row[-1])
    problem = history or damage(values, seats)
    if not problem:
        return Version(**values, supersedes=ids)
    # Shown, never scored: every field as plain text or a number, so that any report can print it.
    shown: dict[str, Any] = {name: value if value is None or type(value) in (str, int) else ascii(value)
                             for name, value in values.items()}
    shown.update({name: values[name] if type(values[name]) is int else 0 for name in ("id", *_SLOT_NUMBERS)})
    shown["section"] = values["section"] if type(values["section"]) is str else ascii(values["section"])
    shown["kind"] = "damaged"
    return Version(**shown, supersedes=ids, damage=problem)


def _superseded(text: object) -> tuple[tuple[int, ...], str]:
    """The ids a version replaces (result_supersedes, as group_concat joins them), and what is wrong with them."""
    if text is None:
        return (), ""
    parts = str(text).split(",")
    if not all(p.isdecimal() and len(p) < 19 for p in parts):
        return (), f"its history (the versions it replaces) is unreadable: {ascii(text)[:40]}"
    return tuple(sorted(int(p) for p in parts)), ""


def slot_states(versions: Sequence[Version]) -> dict[Slot, SlotState]:
    """Group versions by slot and find each slot's heads, slots in (section, table, round, board) order."""
    superseded = {old for v in versions for old in v.supersedes}
    by_slot: dict[Slot, list[Version]] = {}
    for v in versions:
        by_slot.setdefault(v.slot, []).append(v)
    return {
        slot: SlotState(slot, tuple(vs), tuple(v for v in vs if v.id not in superseded))
        for slot, vs in sorted(by_slot.items())
    }


def slot_state(conn: sqlite3.Connection, slot: Slot) -> SlotState:
    versions = load_versions(conn, slot=slot)
    return slot_states(versions).get(slot, SlotState(slot, (), ()))
