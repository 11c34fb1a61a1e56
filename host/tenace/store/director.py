"""The TD's actions at the laptop (corrections, adjusted scores, erasures, decisions, Law 90 penalties, finishing),
each recorded with who, when and why in the director's log, and held to the Law 79C correction period."""

from __future__ import annotations

import getpass
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from fractions import Fraction
from functools import cache

from tenace.movement.check import span
from tenace.scoring.model import weight_parts
from tenace.store import clock, validate
from tenace.store.clock import timestamp
from tenace.store.db import transaction
from tenace.store.encounters import board_rounds, section_boards, table_exists
from tenace.store.errors import EntryError
from tenace.store.fields import one_field
from tenace.store.hand_records import check_deal, hand_record, put_hand_records
from tenace.store.ingest import add_version
from tenace.store.model import IncomingResult, Ingested, Kind
from tenace.store.queries import Missing, conflicts, damaged_results, missing_results
from tenace.store.row_check import checked_rows
from tenace.store.validate import Bad, Entry
from tenace.store.versions import Slot, SlotState, load_versions, slot_state
from tenace_rules.board import vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score

log = logging.getLogger(__name__)

CORRECTION_MINUTES = 30  # Law 79C: the period ends 30 minutes after publication unless the regulations say otherwise
MAX_CORRECTION_MINUTES = 7 * 24 * 60  # the schema's bound: a week


class Action(StrEnum):
    """What the director did; the words of the log (`tenace problems`, the schema's CHECK)."""

    ADJUST = "adjust"  # an adjusted score: artificial (Law 12C2), assigned or weighted (Law 12C1)
    CORRECT = "correct"  # the right result entered in place of the table's (Law 79C)
    ERASE = "erase"  # the result withdrawn: the board is missing again
    RESOLVE = "resolve"  # a conflict settled: one of the results kept, or the right one entered
    PENALTY = "penalty"  # a Law 90 procedural penalty against one pair
    FINISH = "finish"  # the session closed and its results published: the correction period starts
    MOVE = "move"  # the movement changed from a round on: a pair absent or back, a table closed, pairs swapped


def forced_note(action: str) -> str:
    """What a forced entry of the log was forced past: a finish, the refusals its detail names (results missing,
    conflicts, finished already); any other action, the Law 79C correction period."""
    return "FORCED (see the detail)" if action == Action.FINISH else "FORCED after the correction period"


class LateChange(EntryError):
    """A change after the Law 79C correction period that was not forced: refused, and nothing recorded."""


@dataclass(frozen=True)
class LogEntry:
    """One line of the director's log."""

    id: int
    at: str
    who: str
    why: str
    action: str
    detail: str
    result: int | None  # the result version the action entered, if it entered one
    forced: bool  # taken after the correction period, by force


@dataclass(frozen=True)
class Publication:
    """The session's finish: when its results were published and how long they may be corrected (Law 79C)."""

    at: str
    who: str
    minutes: int

    @property
    def ends(self) -> datetime:
        return datetime.fromisoformat(self.at) + timedelta(minutes=self.minutes)


@dataclass(frozen=True)
class PenaltyEntry:
    """A Law 90 penalty against one pair: MPs, or a percentage of a top (of `board`'s top when given)."""

    action: int
    section: str
    pair: int
    direction: str | None  # NS or EW in a Mitchell
    amount: Fraction
    unit: str  # "MP" or "%top", as the scoring engine's PenaltyUnit
    board: int | None
    who: str
    at: str
    why: str

    @property
    def text(self) -> str:
        """ "NS 3: 25% of a top (board 4)", "EW 2: 1.5 MP"."""
        pair = f"{self.direction} {self.pair}" if self.direction else str(self.pair)
        amount = _number(self.amount)
        what = f"{amount} MP" if self.unit == "MP" else f"{amount}% of a top"
        return f"{pair}: {what}" + (f" (board {self.board})" if self.board is not None else "")


def _number(value: Fraction) -> str:
    """A fraction as a TD writes it: 2, 1.5, 1/3."""
    if value.denominator == 1:
        return str(value.numerator)
    decimal = f"{float(value):.4f}".rstrip("0")
    return decimal if Fraction(decimal) == value else str(value)


def enter_result(conn: sqlite3.Connection, section: str, table: int, round: int, board: int, *, who: str,
                 why: str, kind: str = Kind.NORMAL, contract: str | None = None, declarer: str | None = None,
                 tricks: int | str | None = None, lead: str | None = None, ns_adjust: str | None = None,
                 ew_adjust: str | None = None, weights: Sequence[tuple[Fraction | int | str, int]] | None = None,
                 ew_weights: Sequence[tuple[Fraction | int | str, int]] | None = None,
                 ns_pair: int | None = None, ew_pair: int | None = None, at: datetime | None = None,
                 action: str = Action.CORRECT, force: bool = False, check_lead: bool = True) -> Ingested:
    """Enter the result of a slot as the director, replacing whatever stands there now (and settling a conflict).

    Every kind is possible: normal, passed_out, not_played, artificial (A+/A/A- or "65%" for each side),
    weighted (components (weight, NS score) adding up to 1; one of weight 1 is an assigned score; with `ew_weights`
    too, `weights` are North-South's and those East-West's: Law 12C1(b) scores that need not balance), erased.
    The pairs default to the movement's; give them when the TD rules that other pairs played the board.
    `who` and `why` are required (Law 79C); the entry is logged as `action` in the director's log. After the
    correction period it is refused (LateChange) unless `force`, and then logged as forced.
    The opening lead, when the event file has the board's hand record, must be a card the leader (declarer's
    left-hand opponent) holds, as the terminals check it (`check_lead` False: a stored version kept as it is).
    Raises EntryError, with the reason, when the entry is not valid; nothing is then recorded.
    """
    moment = at if at is not None else clock.now()
    with transaction(conn):
        names = checked_signature(who, why)
        try:
            seated = validate.check_slot(conn, _entry(section, table, round, board, 1, 1, Kind.NOT_PLAYED))
            message = IncomingResult(
                terminal=0, sequence=0, section=section, table=table, round=round, board=board,
                ns_pair=seated[0] if ns_pair is None else ns_pair, ew_pair=seated[1] if ew_pair is None else ew_pair,
                kind=kind, contract=contract, declarer=declarer, tricks=tricks, lead=lead, ns_adjust=ns_adjust,
                ew_adjust=ew_adjust)
            entry = validate.entry_of(message, from_terminal=False, weights=weights, ew_weights=ew_weights)
        except Bad as bad:
            raise EntryError(bad.refusal.detail, bad.refusal.reason) from None
        _check_scores(entry)
        if check_lead:
            _check_lead(conn, entry)
        slot = Slot(section, table, round, board)
        state = slot_state(conn, slot)
        if Action(action) is Action.RESOLVE and not state.conflict:
            raise EntryError(f"{_where(slot)} has no conflict to resolve: correct it instead")
        if entry.kind == Kind.ERASED:
            _check_erasable(state)
        forced = check_period(conn, moment, force)
        stamp = timestamp(moment)
        outcome = add_version(conn, entry, source="director", who=names[0], why=names[1], at=stamp)
        entered = next(v for v in slot_state(conn, slot).versions if v.id == outcome.result_id)
        log_action(conn, Action(action), names, f"{outcome.detail}: {entered.describe()}", stamp, forced,
             result=outcome.result_id)
    log.info("director %s: %s %s (%s)%s", names[0], action, outcome.detail, names[1], " FORCED" if forced else "")
    return outcome


def choose_version(conn: sqlite3.Connection, result_id: int, *, who: str, why: str, at: datetime | None = None,
                   action: str = Action.RESOLVE, force: bool = False) -> Ingested:
    """Settle a slot (typically a conflict) on one of its stored versions: a new version with that content."""
    chosen = next((v for v in load_versions(conn) if v.id == result_id), None)
    if chosen is None:
        raise EntryError(f"there is no result with id {result_id}")
    return enter_result(conn, chosen.section, chosen.table, chosen.round, chosen.board, who=who, why=why,
                        kind=chosen.kind, contract=chosen.contract if chosen.kind == Kind.NORMAL else None,
                        declarer=chosen.declarer, tricks=chosen.tricks, lead=chosen.lead, ns_adjust=chosen.ns_adjust,
                        ew_adjust=chosen.ew_adjust, weights=components(chosen.weights),
                        ew_weights=components(chosen.ew_weights), ns_pair=chosen.ns_pair,
                        ew_pair=chosen.ew_pair, at=at, action=action, force=force, check_lead=False)


def chosen_section(conn: sqlite3.Connection, section: str | None) -> str:
    """The section a director's command names, or the event's only one when it names none; EntryError otherwise."""
    sections = [str(name) for (name,) in conn.execute("SELECT name FROM section ORDER BY name")]
    if section is None:
        if len(sections) != 1:
            raise EntryError(f"the event has sections {', '.join(sections)}: say which")
        return sections[0]
    if section not in sections:
        raise EntryError(f"there is no section {section!r} in this event (sections: {', '.join(sections)})")
    return section


def find_slot(conn: sqlite3.Connection, section: str | None, table: int, board: int,
              round_: int | None = None) -> Slot:
    """The slot a TD names by table and board, its round found in the movement; EntryError saying what is wrong."""
    section = chosen_section(conn, section)
    boards = section_boards(conn, section)
    if board not in boards:
        raise EntryError(f"there is no board {board} in section {section} (boards {span(boards)})")
    if not table_exists(conn, section, table):
        tables = conn.execute("SELECT tables FROM section WHERE name = ?", (section,)).fetchone()[0]
        raise EntryError(f"there is no table {table} in section {section} (tables 1-{tables})")
    rounds = board_rounds(conn, section, table, board)
    if not rounds:
        played = sorted(int(b) for (b,) in conn.execute(
            "SELECT board FROM encounter_board WHERE section = ? AND table_no = ?", (section, table)))
        raise EntryError(f"table {table} does not play board {board} (it plays boards {span(played)})")
    if round_ is not None:
        if round_ not in rounds:
            raise EntryError(f"table {table} plays board {board} in round {' and '.join(map(str, rounds))}, "
                             f"not in round {round_}")
        return Slot(section, table, round_, board)
    if len(rounds) > 1:
        raise EntryError(f"table {table} plays board {board} in rounds {' and '.join(map(str, rounds))}: say which")
    return Slot(section, table, rounds[0], board)


def add_penalty(conn: sqlite3.Connection, section: str, pair: int, direction: str | None, amount: Fraction,
                unit: str, *, who: str, why: str, board: int | None = None, at: datetime | None = None,
                force: bool = False) -> PenaltyEntry:
    """Record a Law 90 procedural penalty against one pair: `amount` MPs ("MP") or percent of a top ("%top")."""
    moment = at if at is not None else clock.now()
    with transaction(conn):
        names = checked_signature(who, why)
        if unit not in ("MP", "%top"):
            raise EntryError(f"a penalty is in MP or in % of a top, not {unit!r}")
        if amount <= 0 or (unit == "%top" and amount > 100):
            shown = f"{_number(amount)}%" if unit == "%top" else f"{_number(amount)} MP"
            limit = "more than 0% and at most 100% of a top" if unit == "%top" else "more than 0 MP"
            raise EntryError(f"a penalty is {limit}, not {shown}")
        scoring = conn.execute("SELECT scoring FROM event WHERE id = 1").fetchone()[0]
        if scoring != "matchpoints":
            raise EntryError(f"Law 90 penalties are taken in matchpoints here; this event is scored in {scoring}")
        if conn.execute("SELECT 1 FROM section WHERE name = ?", (section,)).fetchone() is None:
            raise EntryError(f"there is no section {section!r} in this event")
        # A Howell's pair is its number, wherever it sits; a Mitchell's needs its direction (NS 3 and EW 3).
        if one_field(conn, section):
            if direction:
                raise EntryError(f"section {section} is a Howell: its pairs have no direction, name it {pair}")
            direction, seat = None, "(e.ns_pair = ?2 OR e.ew_pair = ?2)"
        else:
            column = {"NS": "ns_pair", "EW": "ew_pair"}.get(direction or "")
            if column is None:
                raise EntryError(f"say the pair's direction, NS {pair} or EW {pair}")
            seat = f"e.{column} = ?2"
        label = f"{direction} {pair}" if direction else f"pair {pair}"
        played = [int(b) for (b,) in conn.execute(
            f"SELECT DISTINCT b.board FROM encounter e JOIN encounter_board b USING (section, table_no, round) "
            f"WHERE e.section = ?1 AND {seat} ORDER BY b.board", (section, pair))]
        if not played:
            raise EntryError(f"there is no pair {label} in section {section}")
        if board is not None and board not in played:
            raise EntryError(f"{label} does not play board {board} (it plays boards {span(played)})")
        forced = check_period(conn, moment, force)
        stamp = timestamp(moment)
        entry = PenaltyEntry(0, section, pair, direction, Fraction(amount), unit, board, names[0], stamp, names[1])
        action = log_action(conn, Action.PENALTY, names, f"section {section} {entry.text}", stamp, forced)
        conn.execute("INSERT INTO pair_penalty (action, section, pair, direction, amount, unit, board)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (action, section, pair, direction, str(entry.amount), unit, board))
    log.info("director %s: penalty %s (%s)", names[0], entry.text, names[1])
    return replace(entry, action=action)


@dataclass(frozen=True)
class FinishCheck:
    """What stands in the way of finishing: each reason as a refusal says it, with the counts the log keeps."""

    reasons: tuple[str, ...]
    missing: int
    damaged: int
    conflicts: int = 0
    earlier: Publication | None = None  # the session was finished already: finishing again publishes again


def finish_check(conn: sqlite3.Connection) -> FinishCheck:
    """Why finishing would be refused now (already finished, conflicts, missing or damaged results): what
    finish_session refuses without force, for the director to read before finishing (the console's warnings)."""
    reasons = []
    earlier = publication(conn)
    if earlier is not None:
        reasons.append(f"the session was finished at {_clock(earlier.at)} by {earlier.who}")
    standing = len(conflicts(conn))
    if standing:
        reasons.append(f"{_count(standing, 'conflict')} still {'stand' if standing > 1 else 'stands'} "
                       "(resolve them first)")
    missing = missing_results(conn)
    if missing:
        reasons.append(_missing_text(missing))
    damaged = len(damaged_results(conn))
    if damaged:
        reasons.append(f"{_count(damaged, 'damaged result')} in the event file (tenace check names them; enter "
                       "them again)")
    return FinishCheck(tuple(reasons), len(missing), damaged, standing, earlier)


def finish_session(conn: sqlite3.Connection, *, who: str, why: str = "session finished, results published",
                   minutes: int = CORRECTION_MINUTES, at: datetime | None = None, force: bool = False) -> Publication:
    """Close the session: its results are published now and may be corrected for `minutes` (Law 79C).

    Refused while conflicts stand (nothing would count on those boards), while results are missing (the first
    few named) or damaged (row_check) and when the session is already finished, unless `force` (logged as forced,
    with how many results were missing or left out; finishing again publishes again and restarts the period).
    """
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= MAX_CORRECTION_MINUTES:
        raise EntryError(f"the correction period is 0 to {MAX_CORRECTION_MINUTES} minutes, not {minutes!r}")
    moment = at if at is not None else clock.now()
    with transaction(conn):
        names = checked_signature(who, why)
        check = finish_check(conn)
        reasons, missing, damaged = check.reasons, check.missing, check.damaged
        if reasons and not force:
            raise EntryError("; ".join(reasons))
        stamp = timestamp(moment)
        again = check.earlier
        # A second finish is named for what it is; a forced one says what it was forced over.
        detail = (f"results published again (first at {_clock(again.at)} by {again.who}); correction period "
                  "restarted" if again is not None else "results published; correction period")
        detail += f" {_count(minutes, 'minute')}, until {_clock(_ends(stamp, minutes))}"
        if check.conflicts:
            detail += f"; forced with {_count(check.conflicts, 'conflict')} standing"
        if missing:
            detail += f"; forced with {_count(missing, 'result')} missing"
        if damaged:
            detail += f"; forced with {_count(damaged, 'damaged result')} left out"
        action = log_action(conn, Action.FINISH, names, detail, stamp, bool(reasons))
        conn.execute("INSERT INTO publication (action, correction_minutes) VALUES (?, ?)", (action, minutes))
    log.info("director %s: %s", names[0], detail)
    return Publication(stamp, names[0], minutes)


def keep_published_deals(conn: sqlite3.Connection, section: str, deals: Mapping[int, str], *, who: str, why: str,
                         force: bool, at: datetime | None = None) -> None:
    """Keep hand records after the results were published (they change what was published): refused unless
    `force`, then logged in the director's log with who and why, as a correction (the log's words are the
    schema's). Before publication they are kept as the event's setup, unlogged."""
    for deal in deals.values():
        check_deal(deal)
    moment = at if at is not None else clock.now()
    with transaction(conn):
        published = publication(conn)
        if published is None:
            put_hand_records(conn, section, deals)
            return
        names = checked_signature(who, why)
        if not force:
            raise EntryError(f"the results were published at {_clock(published.at)} by {published.who}: "
                             "hand records imported now change what was published")
        kept = {int(b): str(d) for b, d in conn.execute("SELECT board, deal FROM hand_record WHERE section = ?",
                                                         (section,))}
        replaced = sorted(b for b, d in deals.items() if b in kept and kept[b] != d)
        put_hand_records(conn, section, deals)
        stamp = timestamp(moment)
        detail = (f"section {section} hand records imported after publication: {_boards(sorted(deals))}"
                  + (f", replacing {_boards(replaced)}" if replaced else ""))
        log_action(conn, Action.CORRECT, names, detail, stamp, check_period(conn, moment, True))
    log.info("director %s: %s (%s)", names[0], detail, names[1])


def _boards(boards: Sequence[int]) -> str:
    return f"board{'' if len(boards) == 1 else 's'} {span(boards)}"


def publication(conn: sqlite3.Connection) -> Publication | None:
    """The latest publication of the session's results, or None while it runs."""
    rows = checked_rows("publication", _PUBLICATION, conn.execute(
        "SELECT p.action, a.at, a.who, p.correction_minutes FROM publication p JOIN director_action a"
        " ON a.id = p.action ORDER BY p.action DESC LIMIT 1"))
    return Publication(rows[0][1], rows[0][2], rows[0][3]) if rows else None


def director_log(conn: sqlite3.Connection) -> list[LogEntry]:
    """The director's log in the order the actions were taken."""
    rows = checked_rows("director_action", _LOG, conn.execute(
        "SELECT id, at, who, why, action, detail, result, forced FROM director_action ORDER BY id"))
    return [LogEntry(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7])) for r in rows]


def penalties(conn: sqlite3.Connection, section: str | None = None) -> list[PenaltyEntry]:
    """Law 90 penalties (of one section or all), in the order given."""
    rows = checked_rows("pair_penalty", _PENALTY, conn.execute(
        "SELECT p.action, p.section, p.pair, p.direction, p.amount, p.unit, p.board, a.who, a.at, a.why"
        " FROM pair_penalty p JOIN director_action a ON a.id = p.action WHERE ?1 IS NULL OR p.section = ?1"
        " ORDER BY p.action", (section,)))
    return [PenaltyEntry(r[0], r[1], r[2], r[3], Fraction(r[4]), r[5], r[6], r[7], r[8], r[9]) for r in rows]


# What each column read back must be (row_check.sound): the director's log, penalties, publications.
_ID = ("int", 1, 2**62)
_LOG = {"id": _ID, "at": ("time",), "who": ("text", 80), "why": ("text", 500),
        "action": ("choice", *(a.value for a in Action), "finish", "move", "penalty"), "detail": ("text", 2000),
        "result": ("int?", 1, 2**62), "forced": ("choice", 0, 1)}
_PENALTY = {"action": _ID, "section": ("text", 8), "pair": ("int", 1, validate.MAX_PAIR),
            "direction": ("choice?", "NS", "EW"), "amount": ("fraction",), "unit": ("choice", "MP", "%top"),
            "board": ("int?", 1, validate.MAX_BOARD), "who": ("text", 80), "at": ("time",), "why": ("text", 500)}
_PUBLICATION = {"action": _ID, "at": ("time",), "who": ("text", 80), "correction_minutes": ("int", 0, 10080)}


@cache
def possible_scores(vulnerable: str) -> frozenset[int]:
    """Every NS score Law 77 can give with this vulnerability ("none", "ns", "ew", "both"), 0 included."""
    scores = {0}
    for level in range(1, 8):
        for strain in range(5):
            for doubling in range(3):
                contract = Contract(level, strain, doubling)
                for declarer in "NESW":
                    scores.update(ns_score(contract, declarer, vulnerable, tricks) for tricks in range(14))
    return frozenset(scores)


def components(weights: str | None) -> list[tuple[Fraction, int]] | None:
    """Stored weights ("3/5:420 2/5:-50") as (weight, NS score) pairs; None for none."""
    return None if weights is None else list(weight_parts(weights))


def _check_scores(entry: Entry) -> None:
    """An assigned or weighted score's NS scores must be scores the board can have (Law 77, its vulnerability)."""
    vulnerable = vulnerability(entry.board)
    for _, score in (components(entry.weights) or []) + (components(entry.ew_weights) or []):
        if score not in possible_scores(vulnerable):
            raise EntryError(f"NS {score:+d} is not a score board {entry.board} can have "
                             f"(vulnerable {vulnerable}): a contract's score, such as +420 or -50")


_SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
_SUITS = "SHDC"  # a PBN hand's order


def _check_lead(conn: sqlite3.Connection, entry: Entry) -> None:
    """EntryError when the hand record gives the opening lead to another hand than the leader's."""
    if entry.lead is None or entry.declarer is None:
        return
    deal = hand_record(conn, entry.section, entry.board)
    if deal is None:
        return
    leader = "NESW"[("NESW".index(entry.declarer) + 1) % 4]
    hand = deal[2:].split(" ")["NESW".index(leader)]
    suit, rank = entry.lead[0], entry.lead[1:]
    if rank not in hand.split(".")[_SUITS.index(suit)]:
        raise EntryError(f"the opening lead {entry.lead} is not in {_SEATS[leader]}'s hand (the leader, declarer "
                         f"{_SEATS[entry.declarer]}'s left-hand opponent) in board {entry.board}'s hand record")


def _check_erasable(state: SlotState) -> None:
    """An erasure withdraws a result: refused (EntryError) where it is erased already, which would only add a
    version that changes nothing."""
    now = state.current
    if now is not None and now.kind == Kind.ERASED:
        raise EntryError(f"{_where(state.slot)} is erased already (v{now.version}, by {now.who} at {_clock(now.at)}):"
                         " nothing to erase")


def check_period(conn: sqlite3.Connection, moment: datetime, force: bool) -> bool:
    """Whether the action is forced past the Law 79C correction period; LateChange when it is late and not forced."""
    published = publication(conn)
    if published is None:
        return False
    when = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # naive is UTC, as in timestamp()
    if when <= published.ends:
        return False
    if not force:
        raise LateChange(f"the Law 79C correction period ended at {_clock(published.ends.isoformat())} "
                         f"({_count(published.minutes, 'minute')} after the results were published at "
                         f"{_clock(published.at)}): "
                         f"changes are refused unless forced")
    return True


def log_action(conn: sqlite3.Connection, action: Action, names: tuple[str, str], detail: str, at: str,
               forced: bool, result: int | None = None) -> int:
    """Add a line to the director's log, inside the caller's transaction; its id."""
    row_id = conn.execute("INSERT INTO director_action (at, who, why, action, detail, result, forced)"
                          " VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (at, names[0], names[1], action.value, detail, result, int(forced))).lastrowid
    assert row_id is not None
    return row_id


def login_name() -> str:
    """Who runs the command, for the director's log when --who is not given."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no user name in the environment or the password database
        return "director"


def checked_signature(who: str, why: str) -> tuple[str, str]:
    """Who and why, checked: both are required on every action (Law 79C: the TD's record)."""
    try:
        return validate.text(who, "who", 80, "bad_text"), validate.text(why, "why", 500, "bad_text")
    except Bad as bad:
        raise EntryError(bad.refusal.detail) from None


def _count(n: int, thing: str) -> str:
    """ "1 result", "3 results"."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


_SHOWN_MISSING = 3  # the first few missing results a refusal names; tenace problems lists them all


def _missing_text(missing: Sequence[Missing]) -> str:
    """ "2 results missing (...): section A table 3 board 5, table 4 board 8 (erased)", the first few named."""
    shown = []
    section = None
    for m in missing[:_SHOWN_MISSING]:
        where = f"table {m.table} board {m.board}" + (" (erased)" if m.erased else "")
        shown.append(where if m.section == section else f"section {m.section} {where}")
        section = m.section
    more = f" and {len(missing) - _SHOWN_MISSING} more" if len(missing) > _SHOWN_MISSING else ""
    return f"{_count(len(missing), 'result')} missing (tenace problems lists them): {', '.join(shown)}{more}"


def _ends(stamp: str, minutes: int) -> str:
    return (datetime.fromisoformat(stamp) + timedelta(minutes=minutes)).isoformat()


def _clock(stamp: str) -> str:
    """A stored UTC timestamp as the laptop's local time of day, as the TD reads the clock on the wall."""
    return datetime.fromisoformat(stamp).astimezone().strftime("%H:%M")


def _where(slot: Slot) -> str:
    return f"section {slot.section} table {slot.table} round {slot.round} board {slot.board}"


def _entry(section: str, table: int, round_: int, board: int, ns_pair: int, ew_pair: int, kind: Kind) -> Entry:
    """The bare where-part of an entry, checked for types, to look the slot up in the movement."""
    message = IncomingResult(terminal=0, sequence=0, section=section, table=table, round=round_, board=board,
                             ns_pair=ns_pair, ew_pair=ew_pair, kind=kind)
    return validate.entry_of(message, from_terminal=False)
