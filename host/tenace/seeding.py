"""A later session's event file seeded from a ranking: the sections of an earlier session, the pairs placed by a
serpentine over every section's fields (NS of each section, then EW), the strongest spread over sections; or
stratified, the sections filled in turn by stratum."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from tenace.store import connect, create_event, event_info
from tenace.store.encounters import stored_movement
from tenace.store.names import keep_roster, roster, section_pairs, set_pairs_players

log = logging.getLogger(__name__)


class SeedingError(ValueError):
    pass


@dataclass(frozen=True)
class Seat:
    """Where a ranked pair is placed: its section, field ('NS', 'EW', or '' in a Howell) and number."""

    rank: int  # its place in the ranking it was seeded from, 1 first
    players: tuple[int, int]
    section: str
    direction: str
    pair: int


def serpentine(fields: Sequence[Sequence[int]], pairs: int) -> list[tuple[int, int]]:
    """The places of `pairs` ranked pairs, best first, as (field index, pair number): the fields in order take one
    ranked pair each, then in reverse order, and so on (1 2 3 3 2 1 1 2 3 ...); each field's pairs in its order."""
    taken = [0] * len(fields)
    out: list[tuple[int, int]] = []
    lap = 0
    while len(out) < pairs:
        order = range(len(fields)) if lap % 2 == 0 else range(len(fields) - 1, -1, -1)
        placed = False
        for f in order:
            if len(out) < pairs and taken[f] < len(fields[f]):
                out.append((f, fields[f][taken[f]]))
                taken[f] += 1
                placed = True
        if not placed:
            raise SeedingError(f"{pairs} pairs to seat and only {sum(len(x) for x in fields)} places")
        lap += 1
    return out


def by_section(fields: Sequence[Sequence[int]], sections: Sequence[str], pairs: int) -> list[tuple[int, int]]:
    """The places of `pairs` ranked pairs filling one section after another (a stratified seeding: the first
    section takes the best), each section's fields in turn (NS 1, EW 1, NS 2, ...)."""
    out: list[tuple[int, int]] = []
    for section in dict.fromkeys(sections):
        mine = [f for f, s in enumerate(sections) if s == section]
        for depth in range(max(len(fields[f]) for f in mine)):
            out.extend((f, fields[f][depth]) for f in mine if depth < len(fields[f]))
    if pairs > len(out):
        raise SeedingError(f"{pairs} pairs to seat and only {len(out)} places")
    return out[:pairs]


def seed_session(ranked: Sequence[tuple[int, int]], like: Path, out: Path, *, name: str,
                 date: str | None = None, stratified: bool = False) -> list[Seat]:
    """Make the event file `out` with the sections and movements of `like` and its roster, each ranked pair (its
    two players, best first) named at its seat; the seats, in ranked order. `stratified`: the sections filled one
    after another (the caller orders the pairs by stratum), else the serpentine."""
    with closing(connect(like)) as source:
        info = event_info(source)
        movements = {s.name: stored_movement(source, s.name) for s in info.sections}
        if any(s.kind not in ("mitchell", "howell") for s in info.sections):
            raise SeedingError(f"{like}: a seeded session copies Mitchell and Howell sections only")
        members = list(roster(source).values())
        fields: list[tuple[str, str, list[int]]] = []
        for s in info.sections:
            pairs = section_pairs(source, s.name)
            for direction in dict.fromkeys(d for _, d in pairs):
                fields.append((s.name, direction, [p for p, d in pairs if d == direction]))
    # NS fields of every section, then EW: the best two pairs go to different sections, the same direction.
    if stratified:
        places = by_section([f[2] for f in fields], [f[0] for f in fields], len(ranked))
    else:
        fields.sort(key=lambda f: ("NS", "", "EW").index(f[1]))
        places = serpentine([f[2] for f in fields], len(ranked))
    seats = [Seat(rank, players, fields[f][0], fields[f][1], pair)
             for rank, (players, (f, pair)) in enumerate(zip(ranked, places, strict=True), start=1)]
    with closing(create_event(out, name=name, sections=movements, date=date, scoring=info.scoring)) as conn:
        keep_roster(conn, members)
        set_pairs_players(conn, [(s.section, s.pair, s.direction, s.players) for s in seats], who="seeding")
    log.info("seeded %d pairs into %s", len(seats), out)
    return seats


def unseated(seats: Sequence[Seat], out: Path) -> list[tuple[str, str, int]]:
    """The pairs of `out`'s movement that no seeded pair sits at, (section, field, pair): a pair short."""
    taken = {(s.section, s.direction, s.pair) for s in seats}
    with closing(connect(out)) as conn:
        return [(s.name, direction, pair) for s in event_info(conn).sections
                for pair, direction in section_pairs(conn, s.name) if (s.name, direction, pair) not in taken]
