"""What a movement is: its encounters (who plays which boards where, round by round), its limits and kinds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# How big a movement may be: what the terminals and the event file can number (a round is 7 bits and a
# board 10 bits on the wire, the store's tables go to 999) and what any club plays in a round.
MIN_TABLES = 2
MAX_TABLES = 999
MAX_ROUNDS = 127
MAX_BOARDS_PER_ROUND = 36
MAX_BOARDS = 1023

Kind = Literal["mitchell", "howell", "teams", "individual"]
KINDS: tuple[Kind, ...] = ("mitchell", "howell", "teams", "individual")

# A pair as the movement knows it: its field and its number. A Mitchell has two fields, "NS" and "EW", each
# numbered from 1 (NS 3 and EW 3 are two pairs); a Howell or a team match has one field, "" (pairs 1 to 2n).
Field = Literal["NS", "EW", ""]
Pair = tuple[Field, int]


class MovementError(ValueError):
    """A movement that cannot be made; `figure` names the figure at fault: tables, boards_per_round or rounds."""

    def __init__(self, figure: str, message: str) -> None:
        super().__init__(message)
        self.figure = figure


@dataclass(frozen=True)
class Encounter:
    """One table in one round: NS pair, EW pair and the boards they play.

    `switched` is an arrow switch: for these boards the pair named NS sits East-West and the pair named
    EW sits North-South (a Mitchell's way of mixing its two fields without renumbering them)."""

    table: int
    round: int
    ns_pair: int
    ew_pair: int
    boards: tuple[int, ...]
    switched: bool = False


@dataclass(frozen=True)
class Movement:
    """A whole movement. The fields after `encounters` default to a plain one-copy Mitchell's, so that the
    existing constructors keep meaning what they meant.

    copies: how many copies of each board there are (duplicated boards: one per table).
    relays: groups of tables that share one board set when they play the same set in a round (a relay: they
        play its boards in turn).
    phantom: the pair that is not there (a half table): whoever meets it sits out that round.
    partners: an individual's partnerships (its "pairs", one field): partnership n is the two players
        partners[n - 1], North or East first. Empty for a pairs or teams movement.
    """

    name: str
    tables: int
    rounds: int
    boards_per_round: int
    encounters: tuple[Encounter, ...]
    kind: Kind = "mitchell"
    copies: int = 1
    relays: tuple[tuple[int, ...], ...] = ()
    phantom: Pair | None = None
    partners: tuple[tuple[int, int], ...] = ()

    @property
    def boards(self) -> int:
        return len({b for e in self.encounters for b in e.boards})

    def at(self, table: int, round_: int) -> Encounter:
        for e in self.encounters:
            if e.table == table and e.round == round_:
                return e
        raise KeyError(f"no table {table} in round {round_} of this {self.tables}-table movement")

    def round_plan(self, round_: int) -> list[Encounter]:
        return [e for e in self.encounters if e.round == round_]

    @property
    def two_fields(self) -> bool:
        """True when NS 3 and EW 3 are two pairs (a Mitchell); False when pairs are numbered as one field."""
        return self.kind == "mitchell"

    def seated(self, e: Encounter) -> tuple[Pair, Pair]:
        """The pair sitting North-South and the pair sitting East-West at this encounter (arrow switch applied)."""
        ns: Pair = ("NS", e.ns_pair) if self.two_fields else ("", e.ns_pair)
        ew: Pair = ("EW", e.ew_pair) if self.two_fields else ("", e.ew_pair)
        return (ew, ns) if e.switched else (ns, ew)

    def label(self, pair: Pair) -> str:
        """A pair as the director reads it (pair_label); an individual's partnership by its players, "8+1"."""
        if self.partners and 1 <= pair[1] <= len(self.partners):
            return "+".join(map(str, self.partners[pair[1] - 1]))
        return pair_label(pair, self.kind)

    def pairs(self) -> list[Pair]:
        """Every pair named in the movement, the phantom included: NS before EW, then by number."""
        return sorted({p for e in self.encounters for p in self.seated(e)}, key=pair_order)

    def sits_out(self, e: Encounter) -> bool:
        return self.phantom is not None and self.phantom in self.seated(e)

    def at_no_table(self) -> dict[int, list[Pair]]:
        """Round by round, the pairs of the movement seated nowhere in it (on a bye: the pair at an appendix
        Mitchell's bye stand), the phantom apart; rounds where everyone is seated are left out. An individual's
        partnerships sit down in one round each: none is on a bye."""
        if self.kind == "individual":
            return {}
        everyone = [p for p in self.pairs() if p != self.phantom]
        seated: dict[int, set[Pair]] = {r: set() for r in range(1, self.rounds + 1)}
        for e in self.encounters:
            seated.setdefault(e.round, set()).update(self.seated(e))
        return {r: out for r, at in sorted(seated.items()) if (out := [p for p in everyone if p not in at])}


def pair_order(pair: Pair) -> tuple[int, int]:
    """The order pairs are listed in: a Mitchell's NS field before its EW field, each by number."""
    return ("NS", "EW", "").index(pair[0]), pair[1]


def pair_label(pair: Pair, kind: Kind = "mitchell") -> str:
    """How a pair is named to the director: "NS 3" / "EW 3" in a Mitchell, "3" in a Howell, "A1" in a team match."""
    field, number = pair
    if kind == "teams":  # pairs 1 and 2 are team A's (NS at table 1, EW at table 2), 3 and 4 team B's, 5 and 6 C's
        return f"{team_letters(team_of(number))}{(number - 1) % 2 + 1}" if number >= 1 else str(number)
    return f"{field} {number}" if field else str(number)


def team_of(pair: int) -> int:
    """The team a pair of a team movement or teams section plays for: pairs 1 and 2 are team 1's (A), 3 and 4
    team 2's (B)..."""
    return (pair + 1) // 2


def team_letters(team: int) -> str:
    """A team's letters as a spreadsheet names its columns: 1 A, 26 Z, 27 AA (a Swiss field has many teams)."""
    letters = ""
    while team > 0:
        team, rest = divmod(team - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters
