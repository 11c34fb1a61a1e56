"""What the TD and the scoring engine read: current results, conflicts, refusals, missing results, terminals."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from tenace.store.encounters import slot_count
from tenace.store.row_check import checked_rows
from tenace.store.validate import MAX_BOARD, MAX_PAIR, MAX_ROUND, MAX_TABLE, REASONS
from tenace.store.versions import Slot, SlotState, Version, load_versions, slot_states


@dataclass(frozen=True)
class Conflict:
    """A slot whose current versions disagree: every head is shown, the TD chooses or enters the result."""

    slot: Slot
    heads: tuple[Version, ...]
    versions: tuple[Version, ...]


@dataclass(frozen=True)
class Tally:
    """How far the results are: those that count, of the movement's slots, with the conflicts apart (their slots
    count for nothing until the director decides)."""

    counted: int  # slots with a result that counts now (not erased, not in conflict, not damaged)
    expected: int  # the movement's slots (sit-outs left out)
    conflicts: int  # slots whose results disagree

    def text(self) -> str:
        """ "results 45/48, conflicts 3 (tenace problems)": what `tenace serve` and `tenace collect` print."""
        shown = f"results {self.counted}/{self.expected}"
        return shown + (f", conflicts {self.conflicts} (tenace problems)" if self.conflicts else "")


@dataclass(frozen=True)
class Missing:
    """A board the movement expects at a table in a round, with no result that counts (none yet, or erased)."""

    section: str
    round: int
    table: int
    board: int
    ns_pair: int
    ew_pair: int
    erased: bool


@dataclass(frozen=True)
class Correction:
    """A version that replaced others (Law 79C): who, when, why, and what it replaced."""

    version: Version
    replaced: tuple[Version, ...]


@dataclass(frozen=True)
class RefusalRow:
    id: int
    at: str
    terminal: int | None
    sequence: int | None
    reason: str
    detail: str
    message: str | None
    raw_hex: str | None


@dataclass(frozen=True)
class RefusalGroup:
    reason: str
    meaning: str
    count: int
    latest: tuple[RefusalRow, ...]


@dataclass(frozen=True)
class TerminalStatus:
    terminal: int
    section: str
    table: int
    signed_in: str
    last_sequence: int | None
    last_heard: str | None
    stored: int
    refused: int
    next_host_sequence: int  # where the host's numbering towards this terminal resumes after a restart


@dataclass(frozen=True)
class ScoringRow:
    """One table's result on a board for the scoring engine: a score or an adjusted kind, never both."""

    table: int
    round: int
    ns_pair: int
    ew_pair: int
    kind: str
    ns_score: int | None
    ns_adjust: str | None = None
    ew_adjust: str | None = None
    weights: str | None = None
    ew_weights: str | None = None


def states(conn: sqlite3.Connection, section: str | None = None) -> dict[Slot, SlotState]:
    """Every slot that has at least one version, with its versions, heads and verdict; one read transaction."""
    return slot_states(load_versions(conn, section=section))


def current_results(conn: sqlite3.Connection, section: str | None = None) -> list[Version]:
    """The result that counts in every settled slot (latest version unless conflicted), erasures left out."""
    return current_in(states(conn, section))


def damaged_results(conn: sqlite3.Connection, section: str | None = None) -> list[Version]:
    """Every stored version that fails its check as it is read back (row_check), in the order stored: none of them
    counts, and a slot whose latest result is damaged has no result until the director enters one."""
    return damaged_in(states(conn, section))


def conflicts(conn: sqlite3.Connection, section: str | None = None) -> list[Conflict]:
    return conflicts_in(states(conn, section))


# The same three read from slot states already loaded (`states`): a report that needs several loads them once.
def current_in(known: Mapping[Slot, SlotState]) -> list[Version]:
    return [s.current for s in known.values() if s.current is not None and s.current.kind != "erased"]


def damaged_in(known: Mapping[Slot, SlotState]) -> list[Version]:
    return sorted((v for s in known.values() for v in s.versions if v.damage), key=lambda v: v.id)


def conflicts_in(known: Mapping[Slot, SlotState]) -> list[Conflict]:
    return [Conflict(s.slot, s.heads, s.versions) for s in known.values() if s.conflict]


def tally(conn: sqlite3.Connection, section: str | None = None) -> Tally:
    """The results that count against the movement's slots, and the conflicts apart; one read."""
    known = states(conn, section)
    return Tally(len(current_in(known)), slot_count(conn, section), len(conflicts_in(known)))


def corrections(conn: sqlite3.Connection, versions: list[Version] | None = None) -> list[Correction]:
    """Every version (of `versions`, read here when not given) that replaced others, or was entered by the director,
    in the order made; not those imported from another program's file (`imported`)."""
    versions = load_versions(conn) if versions is None else versions
    by_id = {v.id: v for v in versions}
    return [Correction(v, tuple(by_id[i] for i in v.supersedes if i in by_id)) for v in versions
            if (v.supersedes or v.source == "director") and not v.imported]



def missing_results(conn: sqlite3.Connection, section: str | None = None,
                    known: Mapping[Slot, SlotState] | None = None) -> list[Missing]:
    """What the movement expects and is not in: no version yet, or erased. Conflicts, damaged results and sit-outs are
    not missing. `known`: the slot states already loaded (`states` of the same section), not read again."""
    known = states(conn, section) if known is None else known
    rows = checked_rows("encounter_board", _MOVEMENT_SLOT, conn.execute(
        "SELECT b.section, b.round, b.table_no, b.board, e.ns_pair, e.ew_pair FROM encounter_board b "
        "JOIN encounter e USING (section, table_no, round) WHERE (?1 IS NULL OR b.section = ?1) "
        "AND NOT EXISTS (SELECT 1 FROM sit_out o WHERE (o.section, o.table_no, o.round) = (b.section, b.table_no, "
        "b.round)) ORDER BY b.section, b.round, b.table_no, b.board", (section,)))
    out = []
    for sec, round_, table, board, ns_pair, ew_pair in rows:
        state = known.get(Slot(sec, table, round_, board))
        if state is None:
            out.append(Missing(sec, round_, table, board, ns_pair, ew_pair, erased=False))
        elif state.current is not None and state.current.kind == "erased":
            out.append(Missing(sec, round_, table, board, ns_pair, ew_pair, erased=True))
    return out


# A slot of the stored movement, as missing_results reads it (row_check.sound).
_MOVEMENT_SLOT = {"section": ("text", 8), "round": ("int", 1, MAX_ROUND), "table": ("int", 1, MAX_TABLE),
                  "board": ("int", 1, MAX_BOARD), "ns_pair": ("int", 1, MAX_PAIR), "ew_pair": ("int", 1, MAX_PAIR)}


def refusals(conn: sqlite3.Connection, reason: str | None = None) -> list[RefusalRow]:
    """Refused frames, latest first."""
    rows = conn.execute("SELECT id, at, terminal, seq, reason, detail, message, raw_hex FROM refusal "
                        "WHERE ?1 IS NULL OR reason = ?1 ORDER BY id DESC", (reason,)).fetchall()
    return [RefusalRow(*row) for row in rows]


def refusal_count(conn: sqlite3.Connection, reason: str | None = None) -> int:
    """How many refused frames the event file records, of one reason or all."""
    return int(conn.execute("SELECT count(*) FROM refusal WHERE ?1 IS NULL OR reason = ?1", (reason,)).fetchone()[0])


def refusal_groups(conn: sqlite3.Connection, examples: int = 3) -> list[RefusalGroup]:
    """Refusals grouped by reason, most frequent first, each with its latest few examples."""
    counts = conn.execute(
        "SELECT reason, count(*) AS n FROM refusal GROUP BY reason ORDER BY n DESC, reason").fetchall()
    groups = []
    for reason, count in counts:
        latest = conn.execute("SELECT id, at, terminal, seq, reason, detail, message, raw_hex FROM refusal "
                              "WHERE reason = ? ORDER BY id DESC LIMIT ?", (reason, examples)).fetchall()
        groups.append(RefusalGroup(reason, REASONS.get(reason, "refused by the collector"), count,
                                   tuple(RefusalRow(*row) for row in latest)))
    return groups


def terminal_status(conn: sqlite3.Connection) -> list[TerminalStatus]:
    rows = conn.execute(
        "SELECT t.id, t.section, t.table_no, t.signed_in, t.last_seq, t.last_heard,"
        " (SELECT count(*) FROM frame f WHERE f.terminal = t.id AND f.outcome = 'stored'),"
        " (SELECT count(*) FROM frame f WHERE f.terminal = t.id AND f.outcome = 'refused'),"
        " coalesce((SELECT h.reserved FROM host_sequence h WHERE h.terminal = t.id), 1)"
        " FROM terminal t ORDER BY t.section, t.table_no, t.id").fetchall()
    return [TerminalStatus(*row) for row in rows]


def result_count(conn: sqlite3.Connection) -> int:
    """Every stored result version, whoever entered it: none before the evening is played."""
    return int(conn.execute("SELECT count(*) FROM result").fetchone()[0])


def terminal_result_count(conn: sqlite3.Connection) -> int:
    """How many result versions came from terminals (every version, superseded ones too)."""
    return int(conn.execute("SELECT count(*) FROM result WHERE source = 'terminal'").fetchone()[0])


def sign_in_count(conn: sqlite3.Connection) -> int:
    """How many sign-ins the event file has recorded (every terminal, every table)."""
    return int(conn.execute("SELECT count(*) FROM sign_in").fetchone()[0])


def doubled_terminal_results(conn: sqlite3.Connection) -> int:
    """How many terminal result versions are a second (or later) one in a slot: 0 when each was stored once."""
    row = conn.execute("SELECT count(*) - count(DISTINCT section || ' ' || table_no || ' ' || round || ' ' || board)"
                       " FROM result WHERE source = 'terminal'").fetchone()
    return int(row[0])


def latest_rounds(conn: sqlite3.Connection) -> dict[str, int]:
    """Per section with results: the latest round any result (of any source or kind) came in for."""
    return {str(section): int(round_) for section, round_ in
            conn.execute("SELECT section, max(round) FROM result GROUP BY section")}


def scoring_rows(conn: sqlite3.Connection, section: str) -> dict[int, list[ScoringRow]]:
    """The scoring engine's input: per board, one row per table whose result counts (conflicts left out:
    see `conflicts`; not-played rows are kept, the engine decides how they count)."""
    boards: dict[int, list[ScoringRow]] = {}
    for v in current_results(conn, section):
        boards.setdefault(v.board, []).append(ScoringRow(
            v.table, v.round, v.ns_pair, v.ew_pair, v.kind, v.ns_score, v.ns_adjust, v.ew_adjust, v.weights,
            v.ew_weights))
    return dict(sorted(boards.items()))
