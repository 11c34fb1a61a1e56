"""An event of several sessions: its file (the sessions' event files in order, how they combine, any carry-over) and
the combined ranking of its pairs, known across sessions by their two players."""

from __future__ import annotations

import json
import sqlite3
import tomllib
from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from tenace.reports.event_results import EventResults, ResultsError, event_results
from tenace.reports.model import Report
from tenace.reports.strata import (
    Strata,
    StrataError,
    StratumPlace,
    handicap_places,
    kept_figures,
    read_strata,
    stratum_places,
)
from tenace.scoring.ranking import rank_field
from tenace.store import StoreError, connect
from tenace.store.db import read_transaction
from tenace.store.names import Member, roster

COMBINATIONS = ("neuberg", "percentage")
HUNDREDTH = Decimal("0.01")


class ChampionshipError(ValueError):
    """A championship file or one of its sessions that cannot be used, said in one line."""


@dataclass(frozen=True)
class SessionSpec:
    event: Path
    weight: Fraction = Fraction(1)  # a carry-over counts a share of its session: 1/2 for half


@dataclass(frozen=True)
class Championship:
    name: str
    combine: str  # "neuberg": total matchpoints, boards factored to a common top; "percentage": average %
    sessions: tuple[SessionSpec, ...]
    strata: Strata | None = None  # strata limits and a handicap rule, when the set-up names them


def read_championship(path: Path) -> Championship:
    """The championship file (TOML): its sessions' files resolved beside it; ChampionshipError for any fault."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ChampionshipError(f"{path}: no such championship file") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ChampionshipError(f"{path}: cannot be read as a championship file (TOML): {e}") from None
    combine = doc.get("combine", "neuberg")
    if combine not in COMBINATIONS:
        raise ChampionshipError(f"{path}: combine is {' or '.join(COMBINATIONS)}, not {combine!r}")
    given = doc.get("session")
    if not isinstance(given, list) or not given:
        raise ChampionshipError(f"{path}: name the sessions, each as [[session]] with event = \"FILE\"")
    sessions = []
    for i, s in enumerate(given, start=1):
        if not isinstance(s, dict) or not isinstance(s.get("event"), str):
            raise ChampionshipError(f"{path}: session {i} has no event = \"FILE\"")
        weight = s.get("carry_over", 1)
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 < weight <= 1:
            raise ChampionshipError(f"{path}: session {i}'s carry_over is a share above 0 and at most 1, "
                                    f"not {weight!r}")
        sessions.append(SessionSpec(path.parent / s["event"], Fraction(str(weight))))
    try:
        strata = read_strata(doc)
    except StrataError as e:
        raise ChampionshipError(f"{path}: {e}") from None
    return Championship(str(doc.get("name") or path.stem), combine, tuple(sessions), strata)


@dataclass(frozen=True)
class SessionLine:
    """A pair's figures in one session: its place there, boards, total factored to the common top, percentage."""

    session: int  # 1, 2, ...
    pair: str  # as the session names it: "NS 3", "B-EW 7"
    rank: str
    boards: int
    factored: Fraction  # its matchpoints, boards brought to the common top (Neuberg), in 2-a-beat matchpoints
    possible: Fraction  # the common top times the boards it played
    percent: Decimal


@dataclass
class Entrant:
    """A pair of the championship: its players (as keyed or named) and its sessions."""

    key: str  # "101+102", or the session's pair when its players are unknown: "1:NS 3"
    players: tuple[int, ...]
    names: str
    lines: list[SessionLine] = field(default_factory=list)


@dataclass(frozen=True)
class CombinedLine:
    rank: str
    entrant: Entrant
    score: Decimal  # total matchpoints (carry-over share applied), or average percentage
    percent: Decimal  # the total as a percentage of what the pair could have scored
    stratum: str | None = None  # its own stratum, when the set-up names strata
    strata: tuple[StratumPlace, ...] = ()  # its place in its stratum and each one above
    handicap: Decimal | None = None  # the pair's handicap, when the set-up has a handicap ranking
    handicapped: Decimal | None = None  # percentage plus handicap
    handicap_rank: str | None = None


@dataclass(frozen=True)
class Combined:
    championship: Championship
    common_top: int  # the top every board is factored to
    lines: tuple[CombinedLine, ...]
    strata: Strata | None = None  # the championship's, with the players' figures as the sessions keep them


@dataclass(frozen=True)
class _Session:
    reports: tuple[tuple[str, Report], ...]  # section, report
    players: dict[tuple[str, str], tuple[int, ...]]  # (section, the pair's label) -> its players' numbers
    members: Mapping[int, Member]  # its roster, with the masterpoints and handicaps it keeps


# How a session's results and roster are read: by default each event file as every command opens it (schema brought
# up to date); `tenace serve` passes its own (the served session's results as its pages have them, the others
# read-only).
Reader = Callable[[Path], tuple[EventResults, Mapping[int, Member]]]


def read_results(path: Path) -> tuple[EventResults, Mapping[int, Member]]:
    """A session's results and roster, its event file opened as every command opens it, in one read transaction."""
    with closing(connect(path)) as conn, read_transaction(conn):
        return event_results(conn), roster(conn)


def _read_session(spec: SessionSpec, number: int, read: Reader) -> _Session:
    if not spec.event.is_file():
        raise ChampionshipError(f"session {number}: {spec.event}: no such event file")
    try:
        results, members = read(spec.event)
    except (StoreError, ResultsError, sqlite3.DatabaseError) as e:
        raise ChampionshipError(f"session {number}: {spec.event}: {e}") from None
    if any(s.matches for s in results.sections) or results.info.scoring != "matchpoints":
        raise ChampionshipError(f"session {number}: {spec.event} is not scored by matchpoints: a championship "
                                "combines pairs sessions scored by matchpoints")
    players = {(s.section, label): tuple(n for n, _ in named)
               for s in results.sections for label, named in s.players.items()}
    return _Session(tuple((s.section, s.report) for s in results.sections), players, members)


def so_far(championship: Championship, event: Path) -> Championship:
    """The championship up to and including the session whose event file is `event` (the sessions after it are
    still to be played); ChampionshipError when the file names no such session."""
    for i, s in enumerate(championship.sessions):
        if s.event.resolve() == event.resolve():
            return replace(championship, sessions=championship.sessions[:i + 1])
    raise ChampionshipError(f"{event} is none of the championship {championship.name!r}'s sessions "
                            f"({', '.join(str(s.event) for s in championship.sessions)})")


def combine(championship: Championship, read: Reader = read_results) -> Combined:
    """The combined ranking: each session's pairs found by their players, their sessions combined as the
    championship says."""
    sessions = [_read_session(s, i, read) for i, s in enumerate(championship.sessions, start=1)]
    # The common top: that of the board with the most results compared, over every session.
    most = max((b.expected or 1 for s in sessions for _, r in s.reports for b in r.boards), default=1)
    common_top = 2 * (most - 1)
    entrants: dict[str, Entrant] = {}
    for number, session in enumerate(sessions, start=1):
        for section, report in session.reports:
            for line in report.ranking:
                players = session.players.get((section, line.pair.label))
                key = "+".join(str(p) for p in sorted(players)) if players else f"{number}:{line.pair.label}"
                names = line.pair.names or line.pair.label
                entrant = entrants.setdefault(key, Entrant(key, tuple(players or ()), names))
                if any(x.session == number for x in entrant.lines):
                    raise ChampionshipError(f"session {number}: players {key} are in two pairs")
                factored = _factored(report, line.pair.label, most)
                if line.penalty:
                    factored -= Fraction(line.penalty) * _beat(report)
                entrant.lines.append(SessionLine(number, line.pair.label, line.rank, line.boards, factored,
                                                 Fraction(common_top * line.boards), line.percent or Decimal(0)))
    weights = {i: s.weight for i, s in enumerate(championship.sessions, start=1)}
    scores: dict[str, Fraction] = {}
    percents: dict[str, Fraction] = {}
    for key, entrant in entrants.items():
        total = sum((weights[x.session] * x.factored for x in entrant.lines), Fraction(0))
        possible = sum((weights[x.session] * x.possible for x in entrant.lines), Fraction(0))
        share = sum((weights[x.session] for x in entrant.lines), Fraction(0))
        average = sum((weights[x.session] * Fraction(x.percent) for x in entrant.lines), Fraction(0)) / share
        percents[key] = total * 100 / possible if possible else Fraction(50)
        if championship.combine == "neuberg":
            scores[key] = total
        else:
            scores[key], percents[key] = average, average
    placings = rank_field("", scores)
    lines = [CombinedLine(p.text, entrants[p.pair], _shown(scores[p.pair]), _shown(percents[p.pair]))
             for p in placings]
    strata = championship.strata
    if strata is not None:
        strata = replace(strata, members=kept_figures([s.members for s in sessions]))
        lines = _stratified(strata, lines, scores, percents)
    return Combined(championship, common_top, tuple(lines), strata)


def _stratified(strata: Strata, lines: list[CombinedLine], scores: dict[str, Fraction],
                percents: dict[str, Fraction]) -> list[CombinedLine]:
    """The lines with each pair's stratum places (by the overall score) and handicapped place (by percentage)."""
    keyed = [(line.entrant.key, line.entrant.players) for line in lines]
    places = stratum_places(strata, [(k, p, scores[k]) for k, p in keyed]) if strata.limits else {}
    handicapped = handicap_places(strata, [(k, p, percents[k]) for k, p in keyed]) if strata.handicap else {}
    out = []
    for line in lines:
        key, players = line.entrant.key, line.entrant.players
        h = handicapped.get(key)
        out.append(replace(line, stratum=strata.stratum(players) if strata.limits else None,
                           strata=tuple(places.get(key, ())), handicap=None if h is None else h[0],
                           handicapped=None if h is None else _shown(h[1]), handicap_rank=None if h is None else h[2]))
    return out


def _beat(report: Report) -> Fraction:
    """What a session's matchpoints are multiplied by to count 2 a beat (North America's count 1 a beat)."""
    for b in report.boards:
        if b.top and b.expected and b.expected > 1:
            return Fraction(2 * (b.expected - 1), b.top)
    return Fraction(1)


def _factored(report: Report, label: str, most: int) -> Fraction:
    """A pair's matchpoints in a session, each board's brought to the common top of `most` results by Neuberg's
    formula: (MP + 1) x most / n - 1, in 2-a-beat matchpoints, n the results the board was scored over."""
    beat = _beat(report)
    total = Fraction(0)
    for board in report.boards:
        n = board.expected or 1
        for line in board.lines:
            for side, mp in ((line.ns, line.mp_ns), (line.ew, line.mp_ew)):
                if side is not None and side.label == label and mp is not None:
                    total += (Fraction(mp) * beat + 1) * most / n - 1
    return total


def _shown(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(HUNDREDTH)


def combined_document(combined: Combined) -> dict[str, Any]:
    """The combined ranking as JSON-ready data (figures as numbers)."""
    c = combined.championship
    strata = c.strata
    return {
        "championship": c.name, "combine": c.combine, "common_top": combined.common_top,
        "sessions": [{"session": i, "event": str(s.event), "carry_over": float(s.weight)}
                     for i, s in enumerate(c.sessions, start=1)],
        **({"strata": [{"stratum": n, "lowest": float(m)} for n, m in strata.limits], "stratum_by": strata.by,
            "handicap": strata.handicap} if strata is not None else {}),
        "ranking": [{
            "rank": line.rank, "pair": line.entrant.key, "players": list(line.entrant.players),
            "names": line.entrant.names, "score": float(line.score), "percent": float(line.percent),
            "sessions": [{"session": x.session, "pair": x.pair, "rank": x.rank, "boards": x.boards,
                          "factored_mp": float(_shown(x.factored)), "percent": float(x.percent)}
                         for x in line.entrant.lines],
            **({"stratum": line.stratum, "strata": {p.stratum: p.rank for p in line.strata}}
               if strata is not None and strata.limits else {}),
            **({"handicap": float(line.handicap), "handicapped": float(line.handicapped),
                "handicap_rank": line.handicap_rank}
               if line.handicap is not None and line.handicapped is not None else {}),
        } for line in combined.lines],
    }


def combined_json(document: dict[str, Any]) -> str:
    """The combined ranking's document (combined_document) as `tenace championship rank --json` prints it."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def combined_text(combined: Combined) -> str:
    """The combined ranking as text: place, pair, score, percentage, each session's; then strata and handicaps."""
    c = combined.championship
    what = (f"total matchpoints, boards factored to a top of {combined.common_top}" if c.combine == "neuberg"
            else "average percentage")
    out = [f"{c.name}: {len(c.sessions)} sessions, ranked by {what}"]
    for i, s in enumerate(c.sessions, start=1):
        share = f" (carry-over {float(s.weight) * 100:g}%)" if s.weight != 1 else ""
        out.append(f"  session {i}: {s.event}{share}")
    head = "MP" if c.combine == "neuberg" else "avg %"
    out.append("")
    out.append(f"{'Rank':<5} {'Pair':<40} {head:>9} {'%':>7}  " + "  ".join(f"S{i}" for i in
                                                                             range(1, len(c.sessions) + 1)))
    for line in combined.lines:
        by_session = {x.session: x for x in line.entrant.lines}
        sessions = "  ".join(f"{by_session[i].percent}%" if i in by_session else "-"
                             for i in range(1, len(c.sessions) + 1))
        out.append(f"{line.rank:<5} {line.entrant.names[:40]:<40} {line.score:>9} {line.percent:>7}  {sessions}")
    strata = c.strata
    if strata is not None and strata.limits:
        limits = ", ".join(f"{n}: {m}+" for n, m in strata.limits)
        whose = "its better player's" if strata.by == "higher" else "its players' average"
        out += ["", f"Strata ({limits}; a pair's masterpoints: {whose}; a pair ranks in its stratum and each above)"]
        for name, _ in strata.limits:
            out.append(f"Stratum {name}:")
            for line in combined.lines:
                place = next((p.rank for p in line.strata if p.stratum == name), None)
                if place is not None:
                    out.append(f"  {place:<5} {line.entrant.names[:40]:<40} {line.score:>9}  ({line.stratum})")
    if strata is not None and strata.handicap:
        out += ["", f"Handicap ranking (percentage plus the {'sum' if strata.handicap == 'sum' else 'average'} of "
                    "the players' handicaps):"]
        for line in sorted(combined.lines, key=lambda x: (int((x.handicap_rank or "0").rstrip("=")), x.entrant.key)):
            out.append(f"  {line.handicap_rank:<5} {line.entrant.names[:40]:<40} {line.percent:>7} "
                       f"{line.handicap:>+7} {line.handicapped:>7}")
    return "\n".join(out) + "\n"
