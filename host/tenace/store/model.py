"""What the collector hands to the store (IncomingResult) and what it gets back (Ingested)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tenace_rules.contract import Contract


class Kind(StrEnum):
    """What a result version says happened on the board at that table."""

    NORMAL = "normal"  # a contract played: contract, declarer, tricks
    PASSED_OUT = "passed_out"  # 0 to both sides (Law 77)
    NOT_PLAYED = "not_played"  # no score for either side (e.g. lack of time, no adjustment given)
    ARTIFICIAL = "artificial"  # Law 12C2 A+/A/A- (or a percentage, at the laptop) for each side
    WEIGHTED = "weighted"  # Law 12C1(c): weighted NS scores; entered by the director at the laptop only
    ERASED = "erased"  # a correction that withdraws the result: the board is missing again


class Status(StrEnum):
    STORED = "stored"  # committed: acknowledge
    DUPLICATE = "duplicate"  # this exact frame was stored before: acknowledge again, nothing changed
    REFUSED = "refused"  # not stored, for `reason`: tell the terminal, the TD sees it in `tenace problems`


@dataclass(frozen=True)
class IncomingResult:
    """One result message as the collector decoded it from a frame. Nothing in it is trusted.

    `tricks` is declarer's total (0-13) or text relative to the contract ("=", "+1", "-2");
    `contract` is text ("4SX", "3NT", "Pass") or a decoded Contract. `ns_adjust`/`ew_adjust`
    are "A+", "A" or "A-" for an artificial score. `revision` is the terminal's own count of its
    entries for this board: 0 the first, 1-15 corrections made through its director menu. A
    correction (and an erasure) replaces the slot's current result(s) instead of standing beside
    them as a conflict, and a lower revision arriving late never undoes a higher one.
    `claimed_ns_score`, when the frame carries the score the terminal showed, is compared with the
    host's own Law 77 score. `raw` is the frame as received, kept with a refusal.
    """

    terminal: int
    sequence: int
    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    kind: str = Kind.NORMAL
    contract: str | Contract | None = None
    declarer: str | None = None
    tricks: int | str | None = None
    lead: str | None = None
    ns_adjust: str | None = None
    ew_adjust: str | None = None
    revision: int = 0
    who: str | None = None
    why: str | None = None
    claimed_ns_score: int | None = None
    raw: bytes | None = None


# The refusals' reason under which an import keeps what its file contradicted (tenace event import-bws): listed
# by `tenace problems` with the import, not as refused frames.
CONTRADICTION = "bws_contradiction"


@dataclass(frozen=True)
class Refusal:
    """Why a message was refused: a stable code (grouped on in reports) and a sentence for the TD."""

    reason: str
    detail: str


@dataclass(frozen=True)
class Ingested:
    """The store's answer to one message. Acknowledge the frame only when `acknowledge` is true."""

    status: Status
    reason: str | None = None
    detail: str = ""
    result_id: int | None = None
    version: int | None = None
    # The slot has no result that counts until the TD decides: stored beside a different result (a conflict), or
    # beside one damaged in the event file. The terminal is told so (tenace_wire.control.STORED_CONFLICT).
    conflict: bool = False
    repeat: bool = False  # a refusal given before to this same frame; nothing new was recorded

    @property
    def acknowledge(self) -> bool:
        return self.status in (Status.STORED, Status.DUPLICATE)
