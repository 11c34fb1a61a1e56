"""A .bws file's tables made a typed import plan: sections, movements, players, deals, results, contradictions."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date as Date

from tenace.bws.mdb import Row, Tables
from tenace.movement.check import check, span
from tenace.movement.model import (
    MAX_BOARDS,
    MAX_BOARDS_PER_ROUND,
    MAX_ROUNDS,
    MAX_TABLES,
    Encounter,
    Field,
    Kind,
    Movement,
    Pair,
)
from tenace.store.errors import EntryError
from tenace.store.hand_records import check_deal
from tenace.store.names import Member

NEEDED = {"Section": ("ID", "Letter"),
          "RoundData": ("Section", "Table", "Round", "NSPair", "EWPair", "LowBoard", "HighBoard"),
          "ReceivedData": ("ID", "Section", "Table", "Round", "Board", "PairNS", "PairEW", "NS/EW", "Contract",
                           "Result")}
_SECTION_NAME = re.compile(r"^[A-Za-z0-9]{1,8}$")
_CONTRACT = re.compile(r"^([1-7])\s*(NT|N|S|H|D|C)\s*(X{0,2})$")
_RELATIVE = re.compile(r"^(=|[+-][0-9]{1,2})$")
# Section.ScoringType as Bridgemate Control Software writes it; only matchpoints (1) is read with certainty.
SCORING_TYPES = {1: "matchpoints"}


class BwsError(Exception):
    """The file cannot be imported at all (a needed table or column absent, nothing to import): one line."""


@dataclass(frozen=True)
class ResultRow:
    """One ReceivedData row as Tenace reads it; `table` is where the event keeps it (see SectionPlan.movement)."""

    id: int
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    kind: str  # "normal" or "passed_out"
    contract: str | None
    declarer: str | None
    tricks: str | None  # relative to the contract: "=", "+1", "-2"
    lead: str | None
    erased: bool


@dataclass(frozen=True)
class SectionPlan:
    """One Bridgemate section: RoundData's movement (`planned`), the one the event keeps (`movement`: the planned
    one, or the one the results were played on when they contradict it), its results in ReceivedData order, the
    pairs' players ((pair, field) -> two player numbers) and its deals (board -> PBN deal from North)."""

    name: str
    planned: Movement
    movement: Movement
    results: tuple[ResultRow, ...]
    players: dict[tuple[int, str], tuple[int, int]] = field(default_factory=dict)
    deals: dict[int, str] = field(default_factory=dict)

    @property
    def as_played(self) -> bool:
        return self.movement is not self.planned


@dataclass(frozen=True)
class Plan:
    name: str
    date: str
    scoring: str
    sections: tuple[SectionPlan, ...]
    members: tuple[Member, ...]
    contradictions: tuple[str, ...]


def read(tables: Tables, default_name: str, today: Date | None = None) -> Plan:
    """The import plan of a .bws file; BwsError when it cannot be imported at all. Each contradiction the file
    holds is named in Plan.contradictions (one line each) and resolved as that line says."""
    names = set(tables.names())
    for table, columns in NEEDED.items():
        if table not in names:
            raise BwsError(f"the file has no {table} table: not a Bridgemate .bws")
        rows = tables.rows(table)
        absent = [c for c in columns if rows and c not in rows[0]]
        if absent:
            raise BwsError(f"its {table} table has no {absent[0]} column")
    said: list[str] = []
    sections = _sections(tables.rows("Section"), said)
    plans = []
    for number, (name, missing) in sections.items():
        planned = _planned(tables.rows("RoundData"), number, name, missing, said)
        if planned is None:
            continue
        results = _results(tables.rows("ReceivedData"), number, name, said)
        plan = _fit(name, planned, results, said)
        players = _players(tables.rows("PlayerNumbers") if "PlayerNumbers" in names else [], number, plan.movement)
        deals = _deals(tables.rows("HandRecord") if "HandRecord" in names else [], number, name, plan.movement, said)
        plans.append(SectionPlan(name, plan.planned, plan.movement, plan.results, players, deals))
    if not plans:
        raise BwsError("no section of the file has a movement (RoundData rows)")
    unknown = sorted({r.get("Section", "") for r in tables.rows("ReceivedData")} - {str(n) for n in sections})
    for u in unknown:
        said.append(f"ReceivedData: results of section {u!r}, which the Section table does not list: left out")
    session = tables.rows("Session")[0] if "Session" in names and tables.rows("Session") else {}
    name = (session.get("Name") or "").strip() or default_name
    day = _date(session.get("Date", ""), today or Date.today(), said)
    members = _members(tables.rows("PlayerNames") if "PlayerNames" in names else [],
                       tables.rows("PlayerNumbers") if "PlayerNumbers" in names else [])
    return Plan(name[:200], day, _scoring(tables.rows("Section"), said), tuple(plans), members, tuple(said))


def _int(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else None


def _sections(rows: list[Row], said: list[str]) -> dict[int, tuple[str, int]]:
    """Section ID -> (its name in the event, its MissingPair or 0)."""
    out: dict[int, tuple[str, int]] = {}
    for row in rows:
        number = _int(row.get("ID"))
        letter = (row.get("Letter") or "").strip()
        if number is None:
            said.append(f"Section: a row with ID {row.get('ID')!r}, not a number: left out")
            continue
        if not _SECTION_NAME.match(letter):
            said.append(f"Section {number}: letter {letter!r} is not a section name (1 to 8 letters or digits): "
                        f"named {number}")
            letter = str(number)
        if letter in [n for n, _ in out.values()]:
            said.append(f"Section {number}: letter {letter} is another section's too: named {number}")
            letter = str(number)
        out[number] = (letter, max(0, _int(row.get("MissingPair")) or 0))
    if not out:
        raise BwsError("its Section table lists no section")
    return out


def _boards(row: Row) -> tuple[int, ...] | None:
    custom = (row.get("CustomBoards") or "").strip()
    if custom:
        boards = [int(b) for b in re.findall(r"[0-9]+", custom)]
        return tuple(boards) if boards else None
    low, high = _int(row.get("LowBoard")), _int(row.get("HighBoard"))
    if low is None or high is None or not 1 <= low <= high:
        return None
    return tuple(range(low, high + 1))


def _planned(rows: list[Row], number: int, name: str, missing: int, said: list[str]) -> Movement | None:
    """Section `number`'s movement from RoundData, MissingPair as the pair whoever meets sits out; None (said) when
    the section has no usable row."""
    encounters: dict[tuple[int, int], Encounter] = {}
    for row in (r for r in rows if _int(r.get("Section")) == number):
        table, round_, ns, ew = (_int(row.get(c)) for c in ("Table", "Round", "NSPair", "EWPair"))
        boards = _boards(row)
        where = f"RoundData section {name} table {row.get('Table')} round {row.get('Round')}"
        if table is None or round_ is None or ns is None or ew is None or boards is None:
            said.append(f"{where}: a table, round, pair or board that is not a number: left out")
            continue
        if not (1 <= table <= MAX_TABLES and 1 <= round_ <= MAX_ROUNDS and ns >= 1 and ew >= 1
                and max(boards) <= MAX_BOARDS):
            said.append(f"{where}: pairs {ns} v {ew}, boards {span(boards)}: out of Tenace's range (pair 0: no "
                        f"MissingPair names it): left out")
            continue
        if (table, round_) in encounters:
            said.append(f"{where} is given twice: the first kept")
            continue
        encounters[(table, round_)] = Encounter(table, round_, ns, ew, boards)
    if not encounters:
        said.append(f"section {name} has no RoundData row it can play: left out")
        return None
    found = encounters.values()
    kind = _kind(found, missing)
    phantom: Pair | None = None
    if missing and any(missing in (e.ns_pair, e.ew_pair) for e in found):
        side: Field = "" if kind == "howell" else "NS" if any(e.ns_pair == missing for e in found) else "EW"
        phantom = (side, missing)
    return _movement(f"{kind} from the .bws RoundData", kind, tuple(found), phantom, f"RoundData section {name}",
                     said)


def _kind(found: Iterable[Encounter], missing: int) -> Kind:
    """A Howell when some pair sits NS in one round and EW in another, never both ways in one round (where a
    Mitchell's NS 3 and EW 3 are two pairs); else a Mitchell."""
    rounds: dict[int, tuple[set[int], set[int]]] = {}
    for e in found:
        ns, ew = rounds.setdefault(e.round, (set(), set()))
        ns.add(e.ns_pair)
        ew.add(e.ew_pair)
    both = set().union(*(ns for ns, _ in rounds.values())) & set().union(*(ew for _, ew in rounds.values()))
    clash = any((ns & ew) - {missing} for ns, ew in rounds.values())
    return "howell" if both - {missing} and not clash else "mitchell"


def _movement(label: str, kind: Kind, found: tuple[Encounter, ...], phantom: Pair | None, where: str,
              said: list[str]) -> Movement:
    sizes = Counter(len(e.boards) for e in found)
    per_round = sizes.most_common(1)[0][0]
    if len(sizes) > 1:
        said.append(f"{where}: rounds of {' and '.join(map(str, sorted(sizes)))} boards: boards per round taken as "
                    f"{per_round}, each table's own boards kept")
    if per_round > MAX_BOARDS_PER_ROUND:
        raise BwsError(f"{where}: {per_round} boards a round, more than Tenace plays ({MAX_BOARDS_PER_ROUND})")
    encounters = tuple(sorted(found, key=lambda e: (e.round, e.table)))
    movement = Movement(label, max(e.table for e in found), max(e.round for e in found), per_round, encounters,
                        kind=kind, phantom=phantom)
    said.extend(f"{where}: the movement checker: {p.message}" for p in check(movement).errors)
    return movement


def _lead(text: str) -> str | None:
    return text.strip().upper() or None


def _results(rows: list[Row], number: int, name: str, said: list[str]) -> list[ResultRow]:
    out = []
    for row in sorted((r for r in rows if _int(r.get("Section")) == number), key=lambda r: _int(r.get("ID")) or 0):
        where = f"ReceivedData ID {row.get('ID')}"
        numbers = [_int(row.get(c)) for c in ("ID", "Table", "Round", "Board", "PairNS", "PairEW")]
        if any(n is None or n < 1 for n in numbers):
            said.append(f"{where}: a table, round, board or pair that is not a number: left out")
            continue
        rid, table, round_, board, ns, ew = (int(n or 0) for n in numbers)
        contract = re.sub(r"\s+", " ", (row.get("Contract") or "").strip().upper())
        erased = (row.get("Erased") or "0").strip() not in ("0", "", "FALSE")
        if contract in ("PASS", "PASSED", "AP"):
            out.append(ResultRow(rid, table, round_, board, ns, ew, "passed_out", None, None, None, None, erased))
            continue
        shape = _CONTRACT.match(contract.replace(" ", ""))
        declarer = (row.get("NS/EW") or "").strip().upper()
        tricks = (row.get("Result") or "").strip()
        if shape is None or declarer not in ("N", "E", "S", "W") or not _RELATIVE.match(tricks):
            said.append(f"{where}: section {name} table {table} round {round_} board {board}: contract "
                        f"{row.get('Contract')!r} by {declarer or '?'} {tricks or '?'} cannot be read: left out")
            continue
        level, strain, doubled = shape.groups()
        text = f"{level}{'NT' if strain == 'N' else strain}{doubled}"
        out.append(ResultRow(rid, table, round_, board, ns, ew, "normal", text, declarer, tricks,
                             _lead(row.get("LeadCard") or ""), erased))
    return out


@dataclass(frozen=True)
class _Fitted:
    planned: Movement
    movement: Movement
    results: tuple[ResultRow, ...]


def _misfit(m: Movement, r: ResultRow) -> str:
    """Why a result does not fit movement `m` ("" when it does)."""
    try:
        e = m.at(r.table, r.round)
    except KeyError:
        return "RoundData has no such table round"
    if r.board not in e.boards:
        return f"RoundData plays boards {span(e.boards)} there"
    if (r.ns_pair, r.ew_pair) != (e.ns_pair, e.ew_pair):
        return f"RoundData seats NS {e.ns_pair} v EW {e.ew_pair} there"
    if m.sits_out(e):
        return f"RoundData has {m.phantom[1] if m.phantom else '?'}, the missing pair, there"
    return ""


def _fit(name: str, planned: Movement, results: list[ResultRow], said: list[str]) -> _Fitted:
    """The results on RoundData's movement when they fit it; else on the movement they were played on."""
    misfits = [(r, why) for r in results if (why := _misfit(planned, r))]
    if not misfits:
        _twice(name, results, said)
        return _Fitted(planned, planned, tuple(results))
    for r, why in misfits:
        said.append(f"ReceivedData ID {r.id}: section {name} table {r.table} round {r.round} board {r.board} "
                    f"NS {r.ns_pair} v EW {r.ew_pair}: {why}")
    said.append(f"section {name}: {len(misfits)} of {len(results)} results do not fit RoundData's movement: the "
                f"event keeps the movement as played (from ReceivedData); RoundData's is printed and checked at import")
    # Each table round as the results give it; a second pair of pairs at one table round gets a table of its own.
    spot: dict[tuple[int, int, int, int], int] = {}  # (table, round, NS, EW) -> the table it is kept at
    taken: dict[tuple[int, int], tuple[int, int]] = {}
    spare = max(max(r.table for r in results), planned.tables)
    for r in results:
        key = (r.table, r.round, r.ns_pair, r.ew_pair)
        if key in spot:
            continue
        first = taken.setdefault((r.table, r.round), (r.ns_pair, r.ew_pair))
        if first == (r.ns_pair, r.ew_pair):
            spot[key] = r.table
            continue
        spare += 1
        spot[key] = spare
        taken[(spare, r.round)] = (r.ns_pair, r.ew_pair)
        said.append(f"ReceivedData section {name} table {r.table} round {r.round}: NS {first[0]} v EW {first[1]} "
                    f"and NS {r.ns_pair} v EW {r.ew_pair} (ID {r.id}) both play there: the second kept as table "
                    f"{spare}")
    moved = [ResultRow(r.id, spot[(r.table, r.round, r.ns_pair, r.ew_pair)], *_tail(r)) for r in results]
    boards: dict[tuple[int, int], set[int]] = {}
    for r in moved:
        boards.setdefault((r.table, r.round), set()).add(r.board)
    found = tuple(Encounter(t, rd, ns, ew, tuple(sorted(boards[(t, rd)]))) for (t, rd), (ns, ew) in taken.items())
    seated = {p for e in planned.encounters for p in (e.ns_pair, e.ew_pair)}
    # Pairs RoundData knows: its kind of movement holds. Others (a renumbered file): a Howell when some pair sits both
    # ways and no table has the same number on both sides (a Mitchell's NS 3 v EW 3); one round may clash here.
    numbers = {p for e in found for p in (e.ns_pair, e.ew_pair)}
    both = {e.ns_pair for e in found} & {e.ew_pair for e in found}
    kind: Kind = (planned.kind if numbers <= seated
                  else "howell" if both and not any(e.ns_pair == e.ew_pair for e in found) else "mitchell")
    movement = _movement(f"{kind} as played (from the .bws ReceivedData)", kind, found, None,
                         f"section {name} as played", said)
    _twice(name, moved, said)
    return _Fitted(planned, movement, tuple(moved))


def _tail(r: ResultRow) -> tuple[int, int, int, int, str, str | None, str | None, str | None, str | None, bool]:
    return (r.round, r.board, r.ns_pair, r.ew_pair, r.kind, r.contract, r.declarer, r.tricks, r.lead, r.erased)


def _twice(name: str, results: list[ResultRow], said: list[str]) -> None:
    """Name each slot with two results not erased: the later replaces the earlier (both versions kept)."""
    live: dict[tuple[int, int, int], ResultRow] = {}
    for r in results:
        key = (r.table, r.round, r.board)
        if key in live and not r.erased:
            said.append(f"ReceivedData IDs {live[key].id} and {r.id}: section {name} table {r.table} round {r.round} "
                        f"board {r.board} has two results, neither erased: the later kept, both as versions")
        if not r.erased:
            live[key] = r


def _players(rows: list[Row], number: int, m: Movement) -> dict[tuple[int, str], tuple[int, int]]:
    """(pair, field) -> its two players' numbers, from the numbers keyed at each table (North and South for the pair
    sitting North-South, East and West for the other), the table's first round when Round is 0."""
    keyed: dict[tuple[int, int], dict[str, int]] = {}
    for row in (r for r in rows if _int(r.get("Section")) == number):
        table, player = _int(row.get("Table")), _int(row.get("Number"))
        if table is None or player is None or player < 1:
            continue
        rounds = sorted(e.round for e in m.encounters if e.table == table)
        round_ = _int(row.get("Round")) or (rounds[0] if rounds else 0)
        keyed.setdefault((table, round_), {})[(row.get("Direction") or "").strip().upper()] = player
    out: dict[tuple[int, str], tuple[int, int]] = {}
    for (table, round_), seats in sorted(keyed.items(), key=lambda kv: kv[0][1]):
        try:
            e = m.at(table, round_)
        except KeyError:
            continue
        for (pair_field, pair), (one, two) in zip(m.seated(e), (("N", "S"), ("E", "W")), strict=True):
            if (pair_field, pair) == m.phantom or one not in seats or two not in seats or seats[one] == seats[two]:
                continue
            out[(pair, pair_field)] = (seats[one], seats[two])
    return out


def _members(names: list[Row], numbers: list[Row]) -> tuple[Member, ...]:
    """The players named: PlayerNames (its strID, else its ID, as the number) and the names keyed beside numbers."""
    found: dict[int, str] = {}
    for row in numbers:
        number, name = _int(row.get("Number")), (row.get("Name") or "").strip()
        if number is not None and number >= 1 and name:
            found[number] = name
    for row in names:
        number = _int(row.get("strID")) or _int(row.get("ID"))
        name = (row.get("Name") or "").strip()
        if number is not None and number >= 1 and name:
            found[number] = name
    return tuple(Member(n, name[:80]) for n, name in sorted(found.items()) if name.isprintable())


def _hand(row: Row, seat: str) -> str:
    return ".".join(re.sub(r"\s+", "", (row.get(f"{seat}{suit}") or "").upper()).replace("10", "T")
                    for suit in ("Spades", "Hearts", "Diamonds", "Clubs"))


def _deals(rows: list[Row], number: int, name: str, m: Movement, said: list[str]) -> dict[int, str]:
    played = {b for e in m.encounters for b in e.boards}
    out = {}
    for row in (r for r in rows if _int(r.get("Section")) == number):
        board = _int(row.get("Board"))
        deal = "N:" + " ".join(_hand(row, seat) for seat in ("North", "East", "South", "West"))
        if board is None or board not in played:
            said.append(f"HandRecord section {name} board {row.get('Board')}: the section plays no such board: "
                        "left out")
            continue
        try:
            check_deal(deal)
        except EntryError as e:
            said.append(f"HandRecord section {name} board {board}: {e}: left out")
            continue
        out[board] = deal
    return out


def _date(text: str, today: Date, said: list[str]) -> str:
    day = text.strip()[:10]
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", day):
        try:
            return Date.fromisoformat(day).isoformat()
        except ValueError:
            pass
    if day:
        said.append(f"Session: date {text!r} is not a date: today's used")
    return today.isoformat()


def _scoring(rows: list[Row], said: list[str]) -> str:
    stated = sorted({n for r in rows if (n := _int(r.get("ScoringType"))) is not None})
    if len(stated) > 1:
        said.append(f"Section: ScoringType {' and '.join(map(str, stated))} in one session: "
                    f"{SCORING_TYPES.get(stated[0], 'matchpoints')} used for all")
    if stated and stated[0] not in SCORING_TYPES:
        said.append(f"Section: ScoringType {stated[0]} is not one Tenace reads (1 is matchpoints): matchpoints used "
                    "(tenace event import-bws --scoring chooses)")
    return SCORING_TYPES.get(stated[0], "matchpoints") if stated else "matchpoints"
