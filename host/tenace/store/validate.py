"""Hard rule 3: every field of a result re-checked, by type, range, the rules and the event's movement."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, replace
from fractions import Fraction

from tenace.scoring.model import weights_text
from tenace.store.model import IncomingResult, Kind, Refusal
from tenace_rules.board import vulnerability
from tenace_rules.contract import Contract
from tenace_rules.notation import parse_card, parse_contract, parse_declarer
from tenace_rules.score import ns_score
from tenace_rules.tricks import parse_tricks
from tenace_wire import frame_types, table_messages

# Frames carry 16-bit terminal ids (1-65534) and sequence numbers (1-65535): anything bigger is noise or an
# attack. 0 is the director's entries at the laptop. The limits are the wire's own, declared once there.
MAX_TERMINAL = frame_types.MAX_TERMINAL
MAX_SEQUENCE = frame_types.MAX_SEQ
MAX_REVISION = table_messages.MAX_VERSION  # a terminal's first entry for a board and its corrections
# The event's own limits, for the director's entries too: wider than a terminal's frames carry
# (table 1-1023, round 1-127...); the collector checks those when it decodes a frame.
MAX_TABLE = 999
MAX_ROUND = 999
MAX_BOARD = 9999
MAX_PAIR = 9999
# The largest Law 77 score in either direction: 13 down redoubled vulnerable.
MAX_SCORE = 7600

# Refusal reasons (stable codes, grouped on by `tenace problems`), with what each means for the TD.
REASONS = {
    "bad_identity": "terminal id or sequence number missing, not a number or out of range",
    "sequence_reused": "a terminal sent a different result under a sequence number already stored",
    "bad_section": "section name is not text of 1 to 8 characters",
    "bad_table": "table number is not a number from 1 to 999",
    "bad_round": "round number is not a number from 1 to 999",
    "bad_board": "board number is not a number from 1 to 9999",
    "bad_pair": "a pair number is not a number from 1 to 9999",
    "bad_kind": "the kind of result is unknown, or not one a terminal may send",
    "bad_contract": "the contract is not a legal contract",
    "bad_declarer": "the declarer is not N, E, S or W",
    "bad_tricks": "the tricks are not 0 to 13 (or =, +n, -n possible for the contract)",
    "bad_lead": "the opening lead is not a card",
    "bad_adjustment": "an artificial score is not A+, A or A- for each side",
    "bad_text": "who or why is not printable text of reasonable length",
    "bad_revision": "the terminal's revision of its entry is not a number from 0 to 15",
    "inconsistent": "fields given that do not belong with the kind of result",
    "score_mismatch": "the score the terminal showed is not the Law 77 score",
    "unknown_section": "the event has no such section",
    "not_signed_in": "the terminal is not signed in",
    "wrong_table": "the terminal is signed in to another table",
    "no_such_round": "the movement has no such round at that table",
    "wrong_board": "the board is not played at that table in that round",
    "sits_out": "nobody plays at that table in that round: a pair is absent or the table closed (tenace move)",
    "wrong_pairs": "the pairs are not the ones the movement seats at that table in that round",
    "bws_contradiction": "an imported Bridgemate file contradicted itself (tenace event import-bws)",
}

_ADJUSTS_WIRE = {"A+": "A+", "A": "A", "A-": "A-", "A\u2212": "A-", "AVE+": "A+", "AVE": "A", "AVE-": "A-"}
_PERCENT = re.compile(r"^(\d{1,3})(?:\.(\d{1,2}))?%$")


@dataclass(frozen=True)
class Entry:
    """A result as it will be stored: every field checked, normalised, and the NS score computed here."""

    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    kind: Kind
    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None
    lead: str | None = None
    ns_score: int | None = None
    ns_adjust: str | None = None
    ew_adjust: str | None = None
    weights: str | None = None
    ew_weights: str | None = None  # a split score (Law 12C1(b)): `weights` are NS's, these EW's

    def content(self) -> tuple[object, ...]:
        """What two versions must share to be the same result (everything but where and who)."""
        return (self.ns_pair, self.ew_pair, self.kind.value, self.contract, self.declarer, self.tricks,
                self.lead, self.ns_adjust, self.ew_adjust, self.weights, self.ew_weights)


class Bad(Exception):
    """A field failed its check: carries the refusal."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.refusal = Refusal(reason, detail)


def show(value: object, limit: int = 40) -> str:
    """A value for a refusal detail: repr (so hostile text stays printable ASCII-safe), cut short."""
    try:
        text = ascii(value)
    except Exception:  # a hostile object's __repr__ must not crash the host: it is refused anyway
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cut(message: str, limit: int = 160) -> str:
    """A rules error message (it already quotes the input with repr) cut to a length the TD can read."""
    return message if len(message) <= limit else message[: limit - 3] + "..."


def whole(value: object, name: str, low: int, high: int, reason: str) -> int:
    """An int (not a bool, not text) from `low` to `high`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise Bad(reason, f"{name} must be a whole number, not {show(value)}")
    if not low <= value <= high:
        raise Bad(reason, f"{name} {show(value)} is out of range {low}-{high}")
    return int(value)


def text(value: object, name: str, longest: int, reason: str) -> str:
    if not isinstance(value, str):
        raise Bad(reason, f"{name} must be text, not {show(value)}")
    t = value.strip()
    if not t or len(t) > longest or not t.isprintable():
        raise Bad(reason, f"{name} {show(value)} must be printable text of 1 to {longest} characters")
    return t


def identity(message: IncomingResult) -> tuple[int, int]:
    """(terminal, sequence), the key of exactly-once; Bad when either is unusable."""
    terminal = whole(getattr(message, "terminal", None), "terminal id", 0, MAX_TERMINAL, "bad_identity")
    sequence = whole(getattr(message, "sequence", None), "sequence number", 0, MAX_SEQUENCE, "bad_identity")
    return terminal, sequence


def contract_of(value: object) -> Contract:
    if isinstance(value, Contract):
        level, strain, doubling = value.level, value.strain, value.doubling
        for part in (level, strain, doubling):
            if not isinstance(part, int) or isinstance(part, bool):
                raise Bad("bad_contract", f"contract {show(value)} has a part that is not a number")
        try:
            return Contract(level, strain, doubling)
        except ValueError as e:
            raise Bad("bad_contract", str(e)) from None
    if not isinstance(value, str) or len(value) > 12:
        raise Bad("bad_contract", f"contract must be text such as 4SX or Pass, not {show(value)}")
    try:
        return parse_contract(value)
    except ValueError as e:
        raise Bad("bad_contract", cut(str(e))) from None


def lead_of(value: object) -> str | None:
    """An opening lead as suit then rank ("SA", "HT"), from "SA", "AS", "♠A", "H10"."""
    if value is None:
        return None
    try:
        return parse_card(value if isinstance(value, str) else "")
    except ValueError:
        raise Bad("bad_lead", f"opening lead must be a card such as SA or H10, not {show(value)}") from None


def adjustment_of(value: object, side: str, *, percentages: bool) -> str:
    """A+, A or A- (Law 12C2); at the laptop also an explicit percentage of the top, e.g. "65%"."""
    if isinstance(value, str) and len(value) <= 8:
        t = value.strip().upper().replace(" ", "")
        if t in _ADJUSTS_WIRE:
            return _ADJUSTS_WIRE[t]
        match = _PERCENT.match(t)
        if percentages and match and Fraction(t[:-1]) <= 100:
            return t
    allowed = "A+, A, A- or a percentage such as 65%" if percentages else "A+, A or A-"
    raise Bad("bad_adjustment", f"{side} artificial score must be {allowed}, not {show(value)}")


def weights_of(components: object) -> str:
    """Law 12C1(c) components (weight, NS score) as stored: "3/5:420 2/5:-50"; weights > 0, summing to 1."""
    if not isinstance(components, (list, tuple)) or not components:
        raise Bad("inconsistent", f"a weighted score is a list of (weight, NS score), not {show(components)}")
    out: list[tuple[Fraction, int]] = []
    total = Fraction(0)
    for part in components:
        if not isinstance(part, (list, tuple)) or len(part) != 2:
            raise Bad("inconsistent", f"a weighted component is (weight, NS score), not {show(part)}")
        weight_value, score_value = part
        try:
            # Short text only: Fraction("1e999999") would build a million-digit number.
            usable = isinstance(weight_value, (int, Fraction)) or (
                isinstance(weight_value, str) and len(weight_value) <= 12)
            weight = Fraction(weight_value) if usable else Fraction(-1)
        except (ValueError, ZeroDivisionError):
            weight = Fraction(-1)
        if weight <= 0 or isinstance(weight_value, bool):
            raise Bad("inconsistent", f"a weight must be a positive fraction such as 3/5, not {show(weight_value)}")
        score = whole(score_value, "a weighted component's NS score", -MAX_SCORE, MAX_SCORE, "inconsistent")
        total += weight
        out.append((weight, score))
    if total != 1:
        raise Bad("inconsistent", f"the weights of a weighted score must add up to 1, not {total}")
    return weights_text(out)


def entry_of(message: IncomingResult, *, from_terminal: bool = True, weights: object = None,
             ew_weights: object = None) -> Entry:
    """Check every field that can be checked without the event; Bad on the first that fails.

    A weighted result's `weights` are both sides', or North-South's alone when East-West's own are in `ew_weights`
    (Law 12C1(b): scores that need not balance)."""
    section = text(message.section, "section", 8, "bad_section")
    table = whole(message.table, "table", 1, MAX_TABLE, "bad_table")
    round_ = whole(message.round, "round", 1, MAX_ROUND, "bad_round")
    board = whole(message.board, "board", 1, MAX_BOARD, "bad_board")
    ns_pair = whole(message.ns_pair, "NS pair", 1, MAX_PAIR, "bad_pair")
    ew_pair = whole(message.ew_pair, "EW pair", 1, MAX_PAIR, "bad_pair")
    kind_value = message.kind
    if not isinstance(kind_value, str) or kind_value not in {k.value for k in Kind}:
        raise Bad("bad_kind", f"kind of result must be one of {', '.join(Kind)}, not {show(kind_value)}")
    kind = Kind(kind_value)
    if from_terminal and kind is Kind.WEIGHTED:
        raise Bad("bad_kind", "a weighted score is assigned by the director at the laptop, not from a table")
    whole(message.revision, "revision", 0, MAX_REVISION, "bad_revision")

    contract = None if message.contract is None else contract_of(message.contract)
    if kind is Kind.NORMAL and contract is not None and contract.passed_out:
        kind = Kind.PASSED_OUT  # "Pass" keyed as the contract: the same thing as a passed-out board
    base = Entry(section, table, round_, board, ns_pair, ew_pair, kind)
    extra = _extra_fields(message, kind, contract)
    if extra:
        raise Bad("inconsistent", f"a {kind.value} result takes no {', '.join(extra)}")

    if kind is Kind.NORMAL:
        if contract is None:
            raise Bad("bad_contract", "a played board needs its contract")
        declarer = _declarer_of(message.declarer)
        tricks = _tricks_of(contract, message.tricks)
        lead = lead_of(message.lead)
        score = ns_score(contract, declarer, vulnerability(board), tricks)
        _check_claim(message.claimed_ns_score, score)
        return replace(base, contract=contract.text(), declarer=declarer, tricks=tricks, lead=lead, ns_score=score)
    if kind is Kind.PASSED_OUT:
        if contract is not None and not contract.passed_out:
            raise Bad("inconsistent", f"a passed-out board has no contract, not {contract.text()}")
        _check_claim(message.claimed_ns_score, 0)
        return replace(base, kind=kind, contract="Pass", ns_score=0)
    if kind is Kind.ARTIFICIAL:
        ns_adjust = adjustment_of(message.ns_adjust, "NS", percentages=not from_terminal)
        ew_adjust = adjustment_of(message.ew_adjust, "EW", percentages=not from_terminal)
        return replace(base, ns_adjust=ns_adjust, ew_adjust=ew_adjust)
    if kind is Kind.WEIGHTED:
        ns, ew = weights_of(weights), None if ew_weights is None else weights_of(ew_weights)
        return replace(base, weights=ns, ew_weights=None if ew == ns else ew)
    if ew_weights is not None:
        raise Bad("inconsistent", f"a {kind.value} result takes no East-West weighted score")
    return base  # not played, erased


def _extra_fields(message: IncomingResult, kind: Kind, contract: Contract | None) -> list[str]:
    """The fields given that this kind of result must not have."""
    wanted = {
        Kind.NORMAL: {"contract", "declarer", "tricks", "lead", "claimed_ns_score"},
        Kind.PASSED_OUT: {"contract", "claimed_ns_score"},
    }.get(kind, {"ns_adjust", "ew_adjust"} if kind is Kind.ARTIFICIAL else set())
    given = {name for name in ("contract", "declarer", "tricks", "lead", "ns_adjust", "ew_adjust", "claimed_ns_score")
             if getattr(message, name) is not None}
    return sorted(given - wanted)


def _declarer_of(value: object) -> str:
    if not isinstance(value, str) or len(value) > 8:
        raise Bad("bad_declarer", f"declarer must be N, E, S or W, not {show(value)}")
    try:
        return parse_declarer(value)
    except ValueError as e:
        raise Bad("bad_declarer", cut(str(e))) from None


def _tricks_of(contract: Contract, value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return whole(value, "tricks", 0, 13, "bad_tricks")
    if not isinstance(value, str) or len(value) > 4:
        raise Bad("bad_tricks", f"tricks must be 0 to 13 or =, +n, -n, not {show(value)}")
    try:
        return parse_tricks(contract, value)
    except ValueError as e:
        raise Bad("bad_tricks", cut(str(e))) from None


def _check_claim(claimed: object, score: int) -> None:
    if claimed is None:
        return
    if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed != score:
        raise Bad("score_mismatch", f"the terminal showed NS {show(claimed)}, Law 77 gives NS {score:+d}")


def check_text(value: object, name: str, longest: int) -> str | None:
    """Optional who/why text: None stays None; anything else printable and not too long."""
    return None if value is None else text(value, name, longest, "bad_text")


def check_slot(conn: sqlite3.Connection, entry: Entry) -> tuple[int, int]:
    """The movement's (NS pair, EW pair) for the entry's section, table, round; Bad unless the board is theirs."""
    if conn.execute("SELECT 1 FROM section WHERE name = ?", (entry.section,)).fetchone() is None:
        raise Bad("unknown_section", f"there is no section {show(entry.section)} in this event")
    row = conn.execute("SELECT ns_pair, ew_pair FROM encounter WHERE section = ? AND table_no = ? AND round = ?",
                       (entry.section, entry.table, entry.round)).fetchone()
    if row is None:
        rounds = conn.execute("SELECT rounds, tables FROM section WHERE name = ?", (entry.section,)).fetchone()
        raise Bad("no_such_round", f"section {entry.section} has no table {entry.table} in round {entry.round} "
                                   f"({rounds[1]} tables, {rounds[0]} rounds)")
    boards = [b for (b,) in conn.execute(
        "SELECT board FROM encounter_board WHERE section = ? AND table_no = ? AND round = ? ORDER BY board",
        (entry.section, entry.table, entry.round))]
    if entry.board not in boards:
        raise Bad("wrong_board", f"board {entry.board} is not played at table {entry.table} in round {entry.round}"
                                 f" (boards {', '.join(map(str, boards))})")
    out = conn.execute("SELECT ns_out, ew_out FROM sit_out WHERE section = ? AND table_no = ? AND round = ?",
                       (entry.section, entry.table, entry.round)).fetchone()
    if out is not None:
        who = ("both pairs are out" if out[0] and out[1]
               else f"NS {row[0]} is absent" if out[0] else f"EW {row[1]} is absent")
        raise Bad("sits_out", f"table {entry.table} sits out round {entry.round} ({who}; tenace move changes that)")
    return int(row[0]), int(row[1])


def check_terminal_entry(conn: sqlite3.Connection, terminal: int, entry: Entry) -> None:
    """Everything the event says about a terminal's result: section, sign-in, movement, pairs."""
    if conn.execute("SELECT 1 FROM section WHERE name = ?", (entry.section,)).fetchone() is None:
        raise Bad("unknown_section", f"there is no section {show(entry.section)} in this event")
    seat = conn.execute("SELECT section, table_no FROM terminal WHERE id = ?", (terminal,)).fetchone()
    if seat is None:
        raise Bad("not_signed_in", f"terminal {terminal} has not signed in to a table")
    if (seat[0], seat[1]) != (entry.section, entry.table):
        raise Bad("wrong_table", f"terminal {terminal} is signed in to section {seat[0]} table {seat[1]}, "
                                 f"not section {entry.section} table {entry.table}")
    ns_pair, ew_pair = check_slot(conn, entry)
    if (entry.ns_pair, entry.ew_pair) != (ns_pair, ew_pair):
        raise Bad("wrong_pairs", f"table {entry.table} round {entry.round} is NS {ns_pair} v EW {ew_pair}, "
                                 f"not NS {entry.ns_pair} v EW {entry.ew_pair}")
